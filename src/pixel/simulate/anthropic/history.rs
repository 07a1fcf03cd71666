//! The Anthropic history collapse (pixel-simulate.md §9.2, §6.4): old turns
//! up to a point where every tool call has its result become transcript
//! pages, drawn with the role variant (tags in the speaker's colour), one
//! image set per chunk between cache breakpoints.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{is_str, object_array, Block, Inner, Message};
use crate::go::json::lazy::{marshal_any, Kind, Lazy};
use crate::pixel::simulate::history::{Collapse, Reason};
use crate::pixel::simulate::pages::{self, segment_roles, Layout, PageSet, Variant};
use crate::pixel::simulate::price::{quote, Pricing};
use crate::pixel::simulate::profile::Profile;
use crate::pixel::simulate::text::{is_blank, measure, prepare_history, u16_len};

/// Turns kept after the collapse, at the least.
const KEEP_RECENT: i64 = 4;
/// Turns a collapse takes at the least, and the chunk length.
const MIN_TURNS: usize = 10;
/// The cutoff moves in steps of this many turns.
const CUTOFF_STEP: i64 = 50;
/// Characters per token of the history text estimate.
const HISTORY_CPT: usize = 2;
/// History pages: conservative standard, full width, 728 px.
const HISTORY_COLS: usize = 312;
const HISTORY_BUDGET: usize = 28080;
const HISTORY_HEIGHT: usize = 728;

/// Slot marks of the role variant (§6.4).
const USER_MARK: char = '\u{1}';
const ASSISTANT_MARK: char = '\u{2}';
const BODY_MARK: char = '\u{3}';

static FILE_STATE: LazyLock<Regex> = LazyLock::new(|| {
    crate::go::regexp::compile(
        r"\(file state is current in your\s+context — no need to Read it back\)",
    )
});
const PRIOR_STATE: &str =
    "(state as of this PRIOR turn — the file may have changed since; Read it again before editing)";

/// Collapses the turns after the protected prefix (§9.2).
pub fn collapse(messages: &[Message<'_>], protected: usize) -> Result<Collapse, Reason> {
    let n = messages.len();
    let pp = protected.min(n);
    let raw_cut = n as i64 - KEEP_RECENT;
    let cutoff =
        raw_cut.min((MIN_TURNS as i64 + pp as i64).max(raw_cut / CUTOFF_STEP * CUTOFF_STEP));
    let boundary = closed_boundary(messages, cutoff).ok_or(Reason::NoClosedPrefix)?;
    let len = boundary + 1;
    if len < pp + MIN_TURNS {
        return Err(Reason::PrefixTooShort);
    }
    let (full, _) = transcript(messages, pp, len, false);
    if full.is_empty() {
        return Err(Reason::RenderEmpty);
    }
    let p = prepare_history(&full);
    let k = measure(&p, HISTORY_COLS);
    let pricing = Pricing::Rows {
        profile: Profile::CONSERVATIVE_STANDARD,
        budget: HISTORY_BUDGET,
        cap: None,
    };
    let q = quote(&p, k, HISTORY_CPT, pricing);
    if !q.profitable() {
        return Err(Reason::NotProfitable);
    }
    let mut set = PageSet::default();
    let mut start = pp;
    for end in chunk_ends(messages, pp, len) {
        let (text, slots) = transcript(messages, start, end, true);
        start = end;
        if text.is_empty() {
            continue;
        }
        let roles = segment_roles(&prepare_history(&slots));
        drop(slots);
        let text = prepare_history(&text);
        let chunk = pages::render(&Layout {
            text: &text,
            roles: Some(&roles),
            variant: Variant::Role,
            cols: HISTORY_COLS,
            budget: HISTORY_BUDGET,
            height: HISTORY_HEIGHT,
        });
        set.extend(chunk);
    }
    if set.totals.pages == 0 {
        return Err(Reason::RenderEmpty);
    }
    Ok(Collapse {
        turns: len - pp,
        chars: u16_len(&full),
        pages: set,
        text_tokens: q.text.floor() as usize,
        image_tokens: q.image,
    })
}

/// The last index before `cutoff` after which every tool call of the
/// assistant has its result (tracked from the first message).
fn closed_boundary(messages: &[Message<'_>], cutoff: i64) -> Option<usize> {
    if cutoff <= 0 {
        return None;
    }
    let mut open: BTreeSet<String> = BTreeSet::new();
    let mut boundary = None;
    for (i, m) in messages.iter().enumerate().take(cutoff as usize) {
        let assistant = m.role == "assistant";
        if assistant || m.role == "user" {
            for b in m.blocks() {
                let raw = b.raw();
                if assistant && is_str(raw.get("type"), "tool_use") {
                    if let Some(id) = raw.get("id").and_then(Lazy::str).filter(|s| !s.is_empty()) {
                        open.insert(id.into_owned());
                    }
                } else if !assistant && is_str(raw.get("type"), "tool_result") {
                    if let Some(id) = raw.get("tool_use_id").and_then(Lazy::str) {
                        open.remove(id.as_ref());
                    }
                }
            }
        }
        if open.is_empty() {
            boundary = Some(i);
        }
    }
    boundary
}

/// Where chunks end: every 10 turns from the prefix, after each message
/// with a cache breakpoint, and at the end (§9.2 step 6).
fn chunk_ends(messages: &[Message<'_>], pp: usize, len: usize) -> Vec<usize> {
    let mut ends: BTreeSet<usize> = (pp + MIN_TURNS..len).step_by(MIN_TURNS).collect();
    for (i, m) in messages.iter().enumerate().take(len).skip(pp) {
        if m.blocks().iter().any(|b| {
            b.raw()
                .get("cache_control")
                .is_some_and(|c| c.kind() == Kind::Object)
        }) {
            ends.insert(i + 1);
        }
    }
    ends.insert(len);
    ends.into_iter().filter(|&e| e > pp && e <= len).collect()
}

/// The transcript of messages `[from, to)`: each turn with a non-blank
/// body in `<user t="i">`/`<assistant t="i">` tags, joined by a blank
/// line; with `slots`, also the role variant's slot text.
fn transcript(messages: &[Message<'_>], from: usize, to: usize, slots: bool) -> (String, String) {
    let mut text = String::new();
    let mut slot = String::new();
    for (i, m) in messages.iter().enumerate().take(to).skip(from) {
        let body = body(m);
        if is_blank(&body) {
            continue;
        }
        let (tag, mark) = if m.role == "assistant" {
            ("assistant", ASSISTANT_MARK)
        } else {
            ("user", USER_MARK)
        };
        if !text.is_empty() {
            text.push_str("\n\n");
            slot.push_str("\n\n");
        }
        let open = format!("<{tag} t=\"{i}\">");
        let close = format!("</{tag}>");
        text.push_str(&open);
        text.push('\n');
        text.push_str(&body);
        text.push('\n');
        text.push_str(&close);
        if slots {
            slot.extend(std::iter::repeat_n(mark, open.chars().count()));
            slot.push('\n');
            slot.extend(body.chars().map(|c| match c {
                USER_MARK | ASSISTANT_MARK => BODY_MARK,
                c => c,
            }));
            slot.push('\n');
            slot.extend(std::iter::repeat_n(mark, close.chars().count()));
        }
    }
    (text, slot)
}

/// One message's transcript body (§9.2 step 4).
fn body(m: &Message<'_>) -> String {
    if m.rewritten.is_none() {
        if let Some(s) = m.content.str() {
            return s.into_owned();
        }
        if object_array(m.content).is_none() {
            return String::new();
        }
    }
    let parts: Vec<String> = m.blocks().iter().filter_map(block_text).collect();
    parts.join("\n\n")
}

/// One block's part of a body; `None` for types that give nothing.
fn block_text(b: &Block<'_>) -> Option<String> {
    let raw = b.raw();
    let ty = raw.get("type").and_then(Lazy::str)?;
    match ty.as_ref() {
        "text" => Some(
            raw.get("text")
                .and_then(Lazy::str)
                .unwrap_or_default()
                .into_owned(),
        ),
        "tool_use" => {
            let name = raw.get("name").and_then(Lazy::str).unwrap_or_default();
            let mut input = Vec::new();
            match raw.get("input") {
                Some(v) => marshal_any(&mut input, v),
                None => input.extend_from_slice(b"null"),
            }
            Some(format!(
                "[tool_use {name}]\n{}",
                String::from_utf8_lossy(&input)
            ))
        }
        "tool_result" => {
            let head = if raw.get("is_error").is_some_and(Lazy::is_true) {
                "[tool_result (error)]\n"
            } else {
                "[tool_result]\n"
            };
            let inner = match b {
                Block::ToolResult { content, .. } => inner_text(content),
                Block::Raw(_) => match raw.get("content") {
                    Some(c) if c.kind() == Kind::String => c.str().unwrap_or_default().into_owned(),
                    Some(c) => {
                        let parts: Vec<Inner<'_>> = object_array(c)
                            .unwrap_or_default()
                            .into_iter()
                            .map(Inner::Raw)
                            .collect();
                        inner_text(&parts)
                    }
                    None => String::new(),
                },
            };
            Some(format!(
                "{head}{}",
                FILE_STATE.replace_all(&inner, PRIOR_STATE)
            ))
        }
        "image" => Some("[image]".to_string()),
        _ => None,
    }
}

/// A tool result's content as text: its text parts and `[image]` for its
/// images, one per line.
fn inner_text(parts: &[Inner<'_>]) -> String {
    let lines: Vec<String> = parts
        .iter()
        .filter_map(|p| match p {
            Inner::Text(t) => Some(t.clone()),
            Inner::Image => Some("[image]".to_string()),
            Inner::Raw(r) => match r.get("type").and_then(Lazy::str).as_deref() {
                Some("text") => Some(
                    r.get("text")
                        .and_then(Lazy::str)
                        .unwrap_or_default()
                        .into_owned(),
                ),
                Some("image") => Some("[image]".to_string()),
                _ => None,
            },
        })
        .collect();
    lines.join("\n")
}
