//! The Gemini history collapse (pixel-simulate.md §11.4): every content up
//! to a point where each function call has its response becomes one gray
//! transcript image set, and the contents it replaces become one user
//! content (a banner and the pages). There is no protected prefix.

use std::collections::BTreeMap;

use super::{function_response_text, Content, Part, RawPart, PAGE_BUDGET, PAGE_COLS, PAGE_HEIGHT};
use crate::go::json::lazy::marshal_raw_map;
use crate::pixel::simulate::cost::gemini_page_tokens;
use crate::pixel::simulate::history::{Collapse, Reason};
use crate::pixel::simulate::pages::{self, Layout, Variant};
use crate::pixel::simulate::price::{quote, PagePrice, Pricing};
use crate::pixel::simulate::profile::CONSERVATIVE;
use crate::pixel::simulate::text::{measure, prepare_history};

/// Contents at most that are never collapsed.
const MIN_CONTENTS: usize = 15;
/// The last contents are never collapsed.
const KEEP_RECENT: usize = 4;
/// Contents a collapse takes at the least.
const MIN_TURNS: usize = 10;
/// Characters per token of the history text estimate.
const HISTORY_CPT: usize = 2;
/// The text part in front of the history pages. Its wording is not part
/// of any counter: only that it is one short text part.
const BANNER: &str = "[Earlier conversation turns, rendered as images below.]";

/// Collapses the old contents in place (§11.4).
pub(super) fn collapse(contents: &mut Vec<Content<'_>>) -> Result<Collapse, Reason> {
    let n = contents.len();
    if n < MIN_CONTENTS {
        return Err(Reason::PrefixTooShort);
    }
    let mut open: BTreeMap<String, usize> = BTreeMap::new();
    let mut boundary = None;
    for (i, c) in contents.iter().enumerate().take(n - KEEP_RECENT) {
        for p in &c.parts {
            let Part::Raw(raw) = p else { continue };
            if raw.function_call.is_some() {
                *open.entry(RawPart::name_of(raw.function_call)).or_default() += 1;
            }
            if raw.function_response.is_some() {
                let name = RawPart::name_of(raw.function_response);
                match open.get_mut(&name) {
                    Some(count) if *count > 1 => *count -= 1,
                    _ => {
                        open.remove(&name);
                    }
                }
            }
        }
        if open.is_empty() {
            boundary = Some(i);
        }
    }
    let len = boundary.ok_or(Reason::NoClosedPrefix)? + 1;
    if len < MIN_TURNS {
        return Err(Reason::PrefixTooShort);
    }
    let transcript = transcript(&contents[..len]);
    let p = prepare_history(&transcript);
    let k = measure(&p, PAGE_COLS);
    let pricing = Pricing::Pages {
        cell: CONSERVATIVE,
        height: PAGE_HEIGHT,
        budget: PAGE_BUDGET,
        cap: None,
        per_page: PagePrice::gemini(),
    };
    let q = quote(&p, k, HISTORY_CPT, pricing);
    if !q.profitable() {
        return Err(Reason::NotProfitable);
    }
    let set = pages::render(&Layout {
        text: &p,
        roles: None,
        variant: Variant::Gray,
        cols: k,
        budget: PAGE_BUDGET,
        height: PAGE_HEIGHT,
    });
    let mut parts = vec![Part::Text(BANNER.to_string())];
    parts.extend(std::iter::repeat_n(Part::Image, set.totals.pages));
    contents.splice(
        ..len,
        [Content {
            role: "user".into(),
            parts,
        }],
    );
    Ok(Collapse {
        turns: len,
        chars: transcript.len(),
        text_tokens: q.text.ceil() as usize,
        image_tokens: gemini_page_tokens() * set.totals.pages,
        pages: set,
    })
}

/// The transcript of `contents`: every content in its speaker's tags,
/// joined by a blank line.
fn transcript(contents: &[Content<'_>]) -> String {
    let mut out = String::new();
    for (i, c) in contents.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        let tag =
            if c.role.eq_ignore_ascii_case("model") || c.role.eq_ignore_ascii_case("assistant") {
                "assistant"
            } else {
                "user"
            };
        let body: Vec<String> = c.parts.iter().filter_map(part_text).collect();
        let body = body.join("\n\n");
        out.push_str(&format!("<{tag} t=\"{i}\">"));
        if !body.is_empty() {
            out.push('\n');
            out.push_str(&body);
            out.push('\n');
        }
        out.push_str(&format!("</{tag}>"));
    }
    out
}

/// One part's transcript text (`None` adds nothing).
fn part_text(p: &Part<'_>) -> Option<String> {
    let raw = match p {
        Part::Text(t) => return Some(t.clone()),
        Part::Image => return Some("[image]".to_string()),
        Part::Raw(raw) => raw,
    };
    if let Some(t) = &raw.text {
        return Some(t.to_string());
    }
    if let Some(call) = raw.function_call {
        let args = call.get("args").map_or_else(
            || "{}".to_string(),
            |a| String::from_utf8_lossy(a.text()).into_owned(),
        );
        return Some(format!(
            "[functionCall {}]\n{args}",
            RawPart::name_of(Some(call))
        ));
    }
    if raw.function_response.is_some() {
        return Some(function_response_text(raw));
    }
    if raw.inline_data {
        return Some("[image]".to_string());
    }
    raw.map.members().next()?;
    let mut out = Vec::new();
    marshal_raw_map(&mut out, raw.map.members());
    Some(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::json::lazy::Lazy;

    #[test]
    fn transcript_forms() {
        let body = br#"[{"role":"user","parts":[{"text":"hi"}]},{"role":"MODEL","parts":[{"functionCall":{"name":"ls","args":{ "a" : 1 }}},{"x":"<"}]},{"role":"user","parts":[]}]"#;
        let contents = super::super::decode_contents(Lazy::new(body)).unwrap();
        assert_eq!(
            transcript(&contents),
            "<user t=\"0\">\nhi\n</user>\n\n<assistant t=\"1\">\n[functionCall ls]\n{ \"a\" : 1 }\n\n{\"x\":\"\\u003c\"}\n</assistant>\n\n<user t=\"2\"></user>"
        );
    }
}
