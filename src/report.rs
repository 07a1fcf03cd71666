//! The one-line compress report (spec/cli.md §3.1), written field by field in
//! the seed's order with Go's JSON conventions.

use crate::content_type::{ContentType, Method};
use crate::go::json::write_json_str;
use crate::go::strconv::format_float;
use crate::profile::Profile;
use crate::store::Handle;

/// Store failure codes a report can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreFailure {
    Unavailable,
    BudgetExceeded,
    /// Not a store failure: the input was over the stdin limit and passed
    /// through untouched (lean only; compat exits 1 as the reference does).
    InputTooLarge,
}

impl StoreFailure {
    pub fn code(self) -> &'static str {
        match self {
            StoreFailure::Unavailable => "cave_ccr_unavailable",
            StoreFailure::BudgetExceeded => "cave_ccr_budget_exceeded",
            StoreFailure::InputTooLarge => "cave_input_too_large",
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
    /// The profile; only `lean` is written (compat's bytes never change).
    pub profile: Profile,
    /// `--budget N`, echoed when given.
    pub budget: Option<usize>,
    /// The budget was below the smallest possible view.
    pub over_budget: bool,
}

impl Report {
    /// Compact JSON, without the trailing newline.
    pub fn to_json(&self) -> Vec<u8> {
        self.to_json_with(false)
    }

    /// [`to_json`](Report::to_json), ending with `"tokens_estimated":true`
    /// when the counts are estimates (an input streamed past the 64 MiB
    /// limit that could not be counted exactly).
    pub fn to_json_with(&self, estimated: bool) -> Vec<u8> {
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
        if self.profile != Profile::Compat {
            v.extend_from_slice(b",\"profile\":");
            write_json_str(&mut v, self.profile.as_str().as_bytes());
        }
        if let Some(b) = self.budget {
            v.extend_from_slice(format!(",\"budget\":{b}").as_bytes());
        }
        if self.over_budget {
            v.extend_from_slice(b",\"over_budget\":true");
        }
        if estimated {
            v.extend_from_slice(b",\"tokens_estimated\":true");
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
            profile: Profile::Compat,
            budget: None,
            over_budget: false,
        };
        assert_eq!(
            String::from_utf8(r.to_json()).unwrap(),
            r#"{"content_type":"text","tokens_before":0,"tokens_after":0,"ratio":0,"basis":"inferred"}"#
        );
    }

    #[test]
    fn lean_and_budget_fields_come_last() {
        let r = Report {
            content_type: ContentType::Log,
            tokens_before: 10,
            tokens_after: 10,
            ratio: 0.0,
            transformed: None,
            error: Some(StoreFailure::InputTooLarge),
            profile: Profile::Lean,
            budget: Some(500),
            over_budget: true,
        };
        assert_eq!(
            String::from_utf8(r.to_json()).unwrap(),
            r#"{"content_type":"log","tokens_before":10,"tokens_after":10,"ratio":0,"basis":"inferred","error":"cave_input_too_large","profile":"lean","budget":500,"over_budget":true}"#
        );
    }
}
