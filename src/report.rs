//! The one-line compress report (spec/cli.md §3.1), written field by field in
//! the seed's order with Go's JSON conventions.

use crate::content_type::{ContentType, Method};
use crate::go::json::write_json_str;
use crate::go::strconv::format_float;
use crate::store::Handle;

/// Store failure codes a report can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreFailure {
    Unavailable,
    BudgetExceeded,
}

impl StoreFailure {
    pub fn code(self) -> &'static str {
        match self {
            StoreFailure::Unavailable => "cave_ccr_unavailable",
            StoreFailure::BudgetExceeded => "cave_ccr_budget_exceeded",
        }
    }
}

/// A lossy transform that was published.
#[derive(Debug, Clone, PartialEq)]
pub struct Transformed {
    pub recovery_handle: Handle,
    pub method: Method,
    pub lossless_to_model: bool,
}

/// The compress report.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub content_type: ContentType,
    pub tokens_before: usize,
    pub tokens_after: usize,
    pub ratio: f64,
    pub transformed: Option<Transformed>,
    pub error: Option<StoreFailure>,
}

impl Report {
    /// Compact JSON, without the trailing newline.
    pub fn to_json(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(256);
        v.extend_from_slice(b"{\"content_type\":");
        write_json_str(&mut v, self.content_type.as_str().as_bytes());
        v.extend_from_slice(format!(",\"tokens_before\":{}", self.tokens_before).as_bytes());
        v.extend_from_slice(format!(",\"tokens_after\":{}", self.tokens_after).as_bytes());
        v.extend_from_slice(b",\"ratio\":");
        v.extend_from_slice(format_float(self.ratio).as_bytes());
        v.extend_from_slice(b",\"basis\":\"inferred\"");
        if let Some(t) = &self.transformed {
            v.extend_from_slice(b",\"recovery_handle\":");
            write_json_str(&mut v, t.recovery_handle.as_str().as_bytes());
            v.extend_from_slice(b",\"method\":");
            write_json_str(&mut v, t.method.as_str().as_bytes());
            v.extend_from_slice(if t.lossless_to_model {
                b",\"lossless_to_model\":true"
            } else {
                b",\"lossless_to_model\":false"
            });
        }
        if let Some(e) = self.error {
            v.extend_from_slice(b",\"error\":\"");
            v.extend_from_slice(e.code().as_bytes());
            v.push(b'"');
        }
        v.push(b'}');
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_through_report() {
        let r = Report {
            content_type: ContentType::Text,
            tokens_before: 0,
            tokens_after: 0,
            ratio: 0.0,
            transformed: None,
            error: None,
        };
        assert_eq!(
            String::from_utf8(r.to_json()).unwrap(),
            r#"{"content_type":"text","tokens_before":0,"tokens_after":0,"ratio":0,"basis":"inferred"}"#
        );
    }
}
