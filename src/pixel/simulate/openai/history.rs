//! The GPT history collapse (pixel-simulate.md §10.4): on the item list as
//! the slab rewrote it, old turns up to a closed point become transcript
//! pages, cut into sections of about 2000 tokens; the last user turn may
//! be pinned (kept as text) when it lies inside the collapsed range.

use std::collections::BTreeSet;

use super::{content_text, Api, Setup, PAGE_BUDGET};
use crate::go::json::lazy::{marshal_any, Kind, Lazy};
use crate::pixel::simulate::history::{Collapse, Reason};
use crate::pixel::simulate::pages::{self, Layout, PageSet, Variant};
use crate::pixel::simulate::price::quote;
use crate::pixel::simulate::profile::CONSERVATIVE;
use crate::pixel::simulate::strings::{CHAT_POINTER, RESPONSES_POINTER};
use crate::pixel::simulate::text::{is_blank, prepare_history};

/// Turns kept after the collapse, at the least.
const KEEP_RECENT: i64 = 6;
/// Turns a collapse takes at the least, and the cutoff's step.
const MIN_TURNS: i64 = 10;
/// Tokens a collapse and a section hold at the least.
const MIN_TOKENS: usize = 2000;
/// History images at most.
const IMAGE_CAP: usize = 16;
/// Characters per token of the history gate's text estimate.
const HISTORY_CPT: usize = 4;

/// One turn of the conversation, as the collapse sees it.
#[derive(Debug, Clone, Default)]
struct Turn {
    /// Its transcript text ("" for an empty turn).
    text: String,
    /// Not understood: the collapse cannot pass it.
    opaque: bool,
    user: bool,
    opens: Vec<String>,
    closes: Vec<String>,
}

/// A failed plan's reason and the bytes of its text (reported when > 0).
type Failed = (Reason, usize);

/// Collapses the old turns of `items`, whose first user item is at
/// `first_user` (§10.4).
pub(super) fn collapse(
    items: &[Lazy<'_>],
    first_user: usize,
    setup: &Setup,
) -> Result<Collapse, Failed> {
    let turns = rewritten_turns(items, first_user, setup.api);
    let pp = first_user + 1;
    let n = turns.len() as i64;
    let raw_cut = n - KEEP_RECENT;
    let ppi = pp as i64;
    if raw_cut - ppi < MIN_TURNS {
        return Err((Reason::PrefixTooShort, 0));
    }
    let cutoff =
        raw_cut.min((ppi + MIN_TURNS).max(ppi + (raw_cut - ppi) / MIN_TURNS * MIN_TURNS)) as usize;
    let mut open: BTreeSet<&str> = BTreeSet::new();
    let mut boundary: Option<usize> = None;
    for (i, t) in turns.iter().enumerate().take(cutoff).skip(pp) {
        if t.opaque {
            break;
        }
        track(&mut open, t);
        if open.is_empty() {
            boundary = Some(i);
        }
    }
    let Some(boundary) = boundary else {
        return Err((Reason::NoClosedPrefix, 0));
    };
    let end = boundary + 1;
    if end - pp < MIN_TURNS as usize {
        return Err((Reason::PrefixTooShort, 0));
    }
    let pin = pin(&turns, pp, end);
    let text = joined(&turns, pp, end, pin);
    let failed = |r: Reason| Err((r, text.len()));
    if text.is_empty() || crate::tokens::count_str(&text) < MIN_TOKENS {
        return failed(Reason::BelowMinTokens);
    }
    let cols = setup.gpt.strip_cols;
    let prepared = prepare_history(&text);
    if !quote(&prepared, cols, HISTORY_CPT, setup.pricing(CONSERVATIVE)).profitable() {
        return failed(Reason::NotProfitable);
    }
    let sections = sections(&turns, pp, end, pin);
    if sections.is_empty() {
        return failed(Reason::BelowMinTokens);
    }
    let mut set = PageSet::default();
    let mut collapse_end = None;
    for (a, b) in sections {
        let section = joined(&turns, a, b, pin);
        if section.is_empty() {
            continue;
        }
        let prepared = prepare_history(&section);
        let layout = Layout {
            text: &prepared,
            roles: None,
            variant: Variant::Mono,
            cols,
            budget: PAGE_BUDGET,
            height: setup.gpt.max_height_px,
        };
        let drawn = pages::render(&layout);
        if set.totals.pages + drawn.totals.pages > IMAGE_CAP {
            break;
        }
        set.extend(drawn);
        collapse_end = Some(b);
    }
    let Some(collapse_end) = collapse_end else {
        return failed(Reason::TooManyImages);
    };
    let consumed = pin.filter(|&p| p < collapse_end);
    let collapsed = joined(&turns, pp, collapse_end, consumed);
    Ok(Collapse {
        turns: collapse_end - pp - usize::from(consumed.is_some()),
        chars: collapsed.len(),
        image_tokens: setup.page_tokens(&set.sizes),
        pages: set,
        text_tokens: crate::tokens::count_str(&collapsed),
    })
}

/// Opens and closes a turn's tool-call ids.
fn track<'t>(open: &mut BTreeSet<&'t str>, t: &'t Turn) {
    for id in &t.opens {
        open.insert(id);
    }
    for id in &t.closes {
        open.remove(id.as_str());
    }
}

/// The pin: the last user turn from `pp` on, when it lies before `end` and
/// every turn before it is understood and closed.
fn pin(turns: &[Turn], pp: usize, end: usize) -> Option<usize> {
    let pin = (pp..turns.len()).rev().find(|&i| turns[i].user)?;
    if pin >= end {
        return None;
    }
    let mut open = BTreeSet::new();
    for t in &turns[pp..pin] {
        if t.opaque {
            return None;
        }
        track(&mut open, t);
    }
    open.is_empty().then_some(pin)
}

/// The non-empty texts of turns `[from, to)` without `skip`, joined by a
/// blank line.
fn joined(turns: &[Turn], from: usize, to: usize, skip: Option<usize>) -> String {
    let texts: Vec<&str> = (from..to)
        .filter(|&i| Some(i) != skip && !turns[i].text.is_empty())
        .map(|i| turns[i].text.as_str())
        .collect();
    texts.join("\n\n")
}

/// Sections of at least 2000 tokens that close every tool call, split at
/// the pin (§10.4 step 6).
fn sections(turns: &[Turn], pp: usize, end: usize, pin: Option<usize>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut start = pp;
    let mut acc = 0;
    let mut open = BTreeSet::new();
    for (i, turn) in turns.iter().enumerate().take(end).skip(pp) {
        if Some(i) == pin {
            if start < i {
                match out.last_mut() {
                    Some(last) if acc < MIN_TOKENS && last.1 == start => last.1 = i,
                    _ => out.push((start, i)),
                }
            }
            start = i + 1;
            acc = 0;
            continue;
        }
        acc += crate::tokens::count_str(&turn.text);
        track(&mut open, turn);
        if acc >= MIN_TOKENS && open.is_empty() {
            out.push((start, i + 1));
            start = i + 1;
            acc = 0;
        }
    }
    out
}

/// The turns of the item list as the slab rewrote it: the slab item at
/// the first user's place, system and developer texts as the pointer.
fn rewritten_turns(items: &[Lazy<'_>], first_user: usize, api: Api) -> Vec<Turn> {
    let mut turns = Vec::with_capacity(items.len() + 1);
    for (i, item) in items.iter().enumerate() {
        if i == first_user {
            // The slab item: the images and their note, before the
            // protected prefix ends; its text is never collapsed.
            turns.push(Turn {
                user: true,
                ..Turn::default()
            });
        }
        let index = turns.len();
        turns.push(match api {
            Api::Responses => responses_turn(*item, index),
            Api::Chat => chat_turn(*item, index),
        });
    }
    turns
}

/// A string as it is, anything else as Go JSON (`null` when absent).
fn text_or_json(v: Option<Lazy<'_>>) -> String {
    match v {
        Some(v) if v.kind() == Kind::String => v.str().unwrap_or_default().into_owned(),
        Some(v) => {
            let mut out = Vec::new();
            marshal_any(&mut out, v);
            String::from_utf8_lossy(&out).into_owned()
        }
        None => "null".to_string(),
    }
}

fn nonempty_str(v: Option<Lazy<'_>>) -> Option<String> {
    v.and_then(Lazy::str)
        .filter(|s| !s.is_empty())
        .map(|s| s.into_owned())
}

/// The body of a message item, with a system or developer text replaced
/// by the pointer.
fn body(item: Lazy<'_>, role: &str, api: Api) -> String {
    let text = content_text(item.get("content"), api, false);
    if matches!(role, "system" | "developer")
        && !content_text(item.get("content"), api, true).is_empty()
    {
        let pointer = match api {
            Api::Responses => RESPONSES_POINTER,
            Api::Chat => CHAT_POINTER,
        };
        return match item.get("content") {
            Some(c) if c.kind() == Kind::Array => {
                // The pointer part first; text-like parts are dropped.
                let images = text.lines().filter(|l| *l == "[image]").count();
                let mut parts = vec![pointer.to_string()];
                parts.extend(std::iter::repeat_n("[image]".to_string(), images));
                parts.join("\n")
            }
            _ => pointer.to_string(),
        };
    }
    text
}

fn tagged(role: &str, index: usize, body: &str) -> String {
    format!("<{role} t=\"{index}\">\n{body}\n</{role}>")
}

fn responses_turn(item: Lazy<'_>, index: usize) -> Turn {
    if item.kind() != Kind::Object {
        return Turn {
            opaque: true,
            ..Turn::default()
        };
    }
    let ty = item.get("type").and_then(Lazy::str);
    match ty.as_deref() {
        Some("reasoning") => Turn::default(),
        Some("function_call") => {
            let name = nonempty_str(item.get("name")).unwrap_or_else(|| "tool".to_string());
            let id = nonempty_str(item.get("call_id")).or_else(|| nonempty_str(item.get("id")));
            Turn {
                text: format!("[tool_use {name}]\n{}", text_or_json(item.get("arguments"))),
                opens: id.into_iter().collect(),
                ..Turn::default()
            }
        }
        Some("function_call_output") => Turn {
            text: format!("[tool_result]\n{}", text_or_json(item.get("output"))),
            closes: nonempty_str(item.get("call_id")).into_iter().collect(),
            ..Turn::default()
        },
        _ => {
            let Some(role) = nonempty_str(item.get("role")) else {
                return Turn {
                    opaque: true,
                    ..Turn::default()
                };
            };
            let body = body(item, &role, Api::Responses);
            if is_blank(&body) {
                return Turn::default();
            }
            Turn {
                text: tagged(&role, index, &body),
                user: role == "user",
                ..Turn::default()
            }
        }
    }
}

fn chat_turn(item: Lazy<'_>, index: usize) -> Turn {
    if item.kind() != Kind::Object {
        return Turn::default();
    }
    let role = item
        .get("role")
        .and_then(Lazy::str)
        .unwrap_or_default()
        .into_owned();
    match role.as_str() {
        "tool" => Turn {
            text: format!("[tool_result]\n{}", body(item, &role, Api::Chat)),
            closes: nonempty_str(item.get("tool_call_id")).into_iter().collect(),
            ..Turn::default()
        },
        "assistant" => {
            let mut lines = Vec::new();
            let content = body(item, &role, Api::Chat);
            if !is_blank(&content) {
                lines.push(content);
            }
            let mut opens = Vec::new();
            for call in item
                .get("tool_calls")
                .map(|c| c.items().collect::<Vec<_>>())
                .unwrap_or_default()
            {
                let f = call.get("function");
                let name = nonempty_str(f.and_then(|f| f.get("name")))
                    .unwrap_or_else(|| "tool".to_string());
                lines.push(format!(
                    "[tool_use {name}]\n{}",
                    text_or_json(f.and_then(|f| f.get("arguments")))
                ));
                opens.extend(nonempty_str(call.get("id")));
            }
            let joined = lines.join("\n");
            Turn {
                text: if is_blank(&joined) {
                    String::new()
                } else {
                    tagged("assistant", index, &joined)
                },
                opens,
                ..Turn::default()
            }
        }
        _ => {
            let body = body(item, &role, Api::Chat);
            if is_blank(&body) {
                return Turn::default();
            }
            let tag = if role.is_empty() {
                "user"
            } else {
                role.as_str()
            };
            Turn {
                text: tagged(tag, index, &body),
                user: role == "user",
                ..Turn::default()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_turns() {
        let items = Lazy::new(
            br#"[{"role":"developer","content":[{"type":"input_text","text":"rules"}]},{"role":"user","content":"hi"},{"type":"reasoning"},{"type":"function_call","call_id":"c1","name":"run","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":{"ok":true}},"odd"]"#,
        );
        let list: Vec<Lazy<'_>> = items.items().collect();
        let turns = rewritten_turns(&list, 1, Api::Responses);
        assert_eq!(turns.len(), 7);
        assert_eq!(
            turns[0].text,
            format!("<developer t=\"0\">\n{RESPONSES_POINTER}\n</developer>")
        );
        assert!(turns[1].user && turns[1].text.is_empty());
        assert_eq!(turns[2].text, "<user t=\"2\">\nhi\n</user>");
        assert!(turns[3].text.is_empty() && !turns[3].opaque);
        assert_eq!(
            (turns[4].text.as_str(), turns[4].opens.clone()),
            ("[tool_use run]\n{}", vec!["c1".to_string()])
        );
        assert_eq!(turns[5].text, "[tool_result]\n{\"ok\":true}");
        assert!(turns[6].opaque);
    }

    #[test]
    fn chat_turns() {
        let items = Lazy::new(
            br#"[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url"}]},{"role":"assistant","content":null,"tool_calls":[{"id":"x","function":{"name":"f","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"x","content":"out"}]"#,
        );
        let list: Vec<Lazy<'_>> = items.items().collect();
        let turns = rewritten_turns(&list, 1, Api::Chat);
        assert_eq!(
            turns[0].text,
            format!("<system t=\"0\">\n{CHAT_POINTER}\n</system>")
        );
        assert_eq!(turns[2].text, "<user t=\"2\">\na\n[image]\n</user>");
        assert_eq!(
            turns[3].text,
            "<assistant t=\"3\">\n[tool_use f]\n{\"a\":1}\n</assistant>"
        );
        assert_eq!(turns[4].text, "[tool_result]\nout");
        assert_eq!(turns[4].closes, ["x"]);
    }

    #[test]
    fn sections_close_at_the_pin() {
        let t = |tokens: usize, user: bool| Turn {
            text: "word ".repeat(tokens),
            user,
            ..Turn::default()
        };
        let turns = vec![
            t(1500, false),
            t(600, false),
            t(100, false),
            t(10, true),
            t(2100, false),
        ];
        // The 100-token run before the pin joins the section before it.
        assert_eq!(sections(&turns, 0, 5, Some(3)), [(0, 3), (4, 5)]);
        assert_eq!(sections(&turns, 0, 5, None), [(0, 2), (2, 5)]);
    }
}
