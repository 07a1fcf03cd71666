//! The Anthropic Messages path (pixel-simulate.md §8, §9.2), which also
//! takes OpenAI Chat Completions bodies without `input`: the static slab
//! (system text and tool reference), the first user message's system
//! reminders, every long tool result, then the history collapse.

mod history;
pub(crate) mod system;

use std::borrow::Cow;

use crate::go::json::lazy::{Kind, Lazy};
use crate::pixel::simulate::facts::fact_sheet;
use crate::pixel::simulate::history as shared_history;
use crate::pixel::simulate::info::{Passthrough, TransformInfo};
use crate::pixel::simulate::pages::{self, Layout, PageSet, Variant};
use crate::pixel::simulate::price::{quote, Pricing, Quote};
use crate::pixel::simulate::profile::{Level, Profile};
use crate::pixel::simulate::strings::{
    FRAME_END, FRAME_START, REFLOW_NOTE_A, TWO_LAYER_NOTE, ZEBRA_NOTE,
};
use crate::pixel::simulate::text::{measure, prepare, u16_len, wrap};
use crate::pixel::simulate::truncate::{truncate, Limits};
use crate::pixel::simulate::{Context, Outcome};

/// A slab shorter than this (UTF-16 units, prepared) stays text.
const MIN_SLAB: usize = 2000;
/// Reminders and tool results shorter than this stay text.
const MIN_CANDIDATE: usize = 6000;
/// Characters per token of the slab text estimate.
const SLAB_CPT: usize = 2;
/// Characters per token of reminders and tool results.
const CANDIDATE_CPT: usize = 4;
/// Images per tool result.
const RESULT_IMAGE_CAP: usize = 10;
/// Images per request: a candidate that would pass it stays text.
const REQUEST_IMAGE_CAP: usize = 100;

/// A message as the transform sees it: its role and content, and the
/// content's blocks once a tool result in it was imaged.
#[derive(Debug, Clone)]
pub(crate) struct Message<'a> {
    pub role: Cow<'a, str>,
    pub content: Lazy<'a>,
    pub rewritten: Option<Vec<Block<'a>>>,
}

/// A content block, as written or rewritten.
#[derive(Debug, Clone)]
pub(crate) enum Block<'a> {
    Raw(Lazy<'a>),
    /// A tool result whose content now holds images.
    ToolResult {
        raw: Lazy<'a>,
        content: Vec<Inner<'a>>,
    },
}

/// A part of a rewritten tool result's content.
#[derive(Debug, Clone)]
pub(crate) enum Inner<'a> {
    Raw(Lazy<'a>),
    Text(String),
    Image,
}

impl<'a> Message<'a> {
    /// The content's blocks: an array of objects (or nulls), else none.
    pub fn blocks(&self) -> Vec<Block<'a>> {
        match &self.rewritten {
            Some(b) => b.clone(),
            None => object_array(self.content)
                .map(|v| v.into_iter().map(Block::Raw).collect())
                .unwrap_or_default(),
        }
    }

    /// Whether the content is an array of objects.
    pub fn has_blocks(&self) -> bool {
        self.rewritten.is_some() || object_array(self.content).is_some()
    }
}

impl<'a> Block<'a> {
    pub fn raw(&self) -> Lazy<'a> {
        match self {
            Block::Raw(r) | Block::ToolResult { raw: r, .. } => *r,
        }
    }
}

/// The elements of an array whose elements are all objects (or `null`,
/// which Go decodes as an empty map).
pub(crate) fn object_array(v: Lazy<'_>) -> Option<Vec<Lazy<'_>>> {
    if v.kind() != Kind::Array {
        return None;
    }
    let items: Vec<Lazy<'_>> = v.items().collect();
    items
        .iter()
        .all(|i| matches!(i.kind(), Kind::Object | Kind::Null))
        .then_some(items)
}

/// A member that is the string `s`.
pub(crate) fn is_str(v: Option<Lazy<'_>>, s: &str) -> bool {
    v.and_then(Lazy::str).as_deref() == Some(s)
}

/// Runs the Anthropic transform on the body `top`.
pub fn transform(top: Lazy<'_>, cx: &Context<'_>) -> Outcome {
    let mut info = TransformInfo::default();
    let decoded = decode_messages(top.get("messages"))
        .and_then(|m| decode_tools(top.get("tools")).map(|t| (m, t)));
    let (mut messages, tools) = match decoded {
        Ok(d) => d,
        Err(e) => {
            info.reason = format!("parse_error: {e}");
            return Outcome {
                info,
                error: Some(e),
            };
        }
    };
    if messages.is_empty() {
        info.reason = "no_messages".to_string();
        return Outcome { info, error: None };
    }
    let profile = Profile::for_model(cx.density, cx.model);
    let sys = system::split(&system::system_text(top.get("system")));
    info.static_chars = u16_len(&sys.static_text);
    info.dynamic_chars = sys.dynamic_chars;
    info.dynamic_block_count = sys.dynamic_blocks;
    info.unknown_static_tags = sys.unknown_tags;
    let reference = system::tool_reference(&tools);
    let combined_raw = [sys.static_text.as_str(), reference.as_str()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    info.orig_chars = u16_len(&combined_raw);
    if !slab(&mut info, &combined_raw, profile) {
        finish_history(&mut info, &messages, 0);
        info.compressed = info.image_count > 0;
        return Outcome { info, error: None };
    }
    let first_user = messages.iter().position(|m| m.role == "user");
    if let Some(i) = first_user {
        reminders(&mut info, &messages[i], profile);
    }
    tool_results(&mut info, &mut messages, profile);
    finish_history(&mut info, &messages, first_user.map_or(0, |i| i + 1));
    info.compressed = info.image_count > 0;
    info.reason = String::new();
    info.passthrough.null_if_empty();
    Outcome { info, error: None }
}

fn finish_history(info: &mut TransformInfo, messages: &[Message<'_>], protected: usize) {
    let outcome = history::collapse(messages, protected);
    shared_history::record(info, outcome);
}

/// Go `json.Unmarshal` of `messages` into `[]pixel.Message` (§8.1).
fn decode_messages(v: Option<Lazy<'_>>) -> Result<Vec<Message<'_>>, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    if v.kind() != Kind::Array {
        return Err(type_error(v.kind(), "[]pixel.Message"));
    }
    let mut out = Vec::new();
    for m in v.items() {
        match m.kind() {
            Kind::Object => {
                let role = match m.field("role", true) {
                    Some(r) if r.kind() != Kind::String => {
                        return Err(format!(
                            "json: cannot unmarshal {} into Go struct field Message.role of type string",
                            r.kind().go_name()
                        ))
                    }
                    Some(r) => r.str().unwrap_or_default(),
                    None => Cow::Borrowed(""),
                };
                let content = m.field("content", false).unwrap_or(Lazy::new(b"null"));
                out.push(Message {
                    role,
                    content,
                    rewritten: None,
                });
            }
            Kind::Null => out.push(Message {
                role: Cow::Borrowed(""),
                content: Lazy::new(b"null"),
                rewritten: None,
            }),
            k => return Err(type_error(k, "pixel.Message")),
        }
    }
    Ok(out)
}

/// Go `json.Unmarshal` of `tools` into `[]map[string]interface {}`.
fn decode_tools(v: Option<Lazy<'_>>) -> Result<Vec<Lazy<'_>>, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    if v.kind() != Kind::Array {
        return Err(type_error(v.kind(), "[]map[string]interface {}"));
    }
    v.items()
        .map(|t| match t.kind() {
            Kind::Object | Kind::Null => Ok(t),
            k => Err(type_error(k, "map[string]interface {}")),
        })
        .collect()
}

fn type_error(k: Kind, ty: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go value of type {ty}",
        k.go_name()
    )
}

/// How reminders and tool results are drawn (§8.6).
fn candidate_variant(level: Level) -> Variant {
    match level {
        Level::Max => Variant::Overlay,
        Level::Conservative => Variant::Gray,
        Level::Balanced => Variant::Zebra,
    }
}

/// The static slab (§8.3): true when it was imaged.
fn slab(info: &mut TransformInfo, combined_raw: &str, profile: Profile) -> bool {
    let combined = prepare(combined_raw);
    let size = u16_len(&combined);
    if size < MIN_SLAB {
        info.reason = format!("below_min_chars ({size} < {MIN_SLAB})");
        return false;
    }
    let cols = profile.page_cols();
    let ink = match profile.level {
        Level::Conservative => "",
        Level::Balanced => ZEBRA_NOTE,
        Level::Max => {
            // Two layers only when the slab overflows one layer.
            let probe =
                format!("{FRAME_START}{REFLOW_NOTE_A}{TWO_LAYER_NOTE}{FRAME_END}{combined}");
            if wrap(&probe, measure(&probe, cols)).len() > profile.canvas_rows() {
                TWO_LAYER_NOTE
            } else {
                ""
            }
        }
    };
    let s = format!("{FRAME_START}{REFLOW_NOTE_A}{ink}{FRAME_END}{combined}");
    let k = measure(&s, cols);
    let q = quote(&s, k, SLAB_CPT, rows_pricing(profile, None));
    if !q.profitable() {
        info.reason = format!("not_profitable (slab={size} chars)");
        info.passthrough.add(Passthrough::NotProfitable);
        return false;
    }
    let variant = match profile.level {
        Level::Max => Variant::Overlay,
        Level::Conservative => Variant::Mono,
        Level::Balanced => Variant::Zebra,
    };
    let set = pages::render(&layout(&s, variant, k, profile));
    info.add_pages(&set.totals);
    info.compressed_chars += u16_len(combined_raw);
    add_estimates(info, &q);
    true
}

fn rows_pricing(profile: Profile, cap: Option<usize>) -> Pricing {
    Pricing::Rows {
        profile,
        budget: profile.page_budget(),
        cap,
    }
}

fn layout(text: &str, variant: Variant, k: usize, profile: Profile) -> Layout<'_> {
    Layout {
        text,
        roles: None,
        variant,
        cols: k,
        budget: profile.page_budget(),
        height: profile.canvas().1,
    }
}

/// TextTokensEstimate += ⌊text⌋, ImageTokensEstimate += image.
fn add_estimates(info: &mut TransformInfo, q: &Quote) {
    info.text_tokens_estimate += q.text.floor() as usize;
    info.image_tokens_estimate += q.image;
}

/// A candidate's pages (§8.6); `None` when they would take the request
/// past its image cap (they are then not used).
fn candidate_pages(info: &TransformInfo, text: &str, profile: Profile) -> Option<PageSet> {
    let k = measure(text, profile.page_cols());
    let set = pages::render(&layout(text, candidate_variant(profile.level), k, profile));
    (info.image_count + set.totals.pages <= REQUEST_IMAGE_CAP).then_some(set)
}

/// The first user message's `<system-reminder>` blocks (§8.4).
fn reminders(info: &mut TransformInfo, first_user: &Message<'_>, profile: Profile) {
    let blocks: Vec<Lazy<'_>> = match first_user.content.kind() {
        Kind::String => vec![first_user.content],
        _ => object_array(first_user.content).unwrap_or_default(),
    };
    for b in blocks {
        let text = if b.kind() == Kind::String {
            b.str()
        } else if is_str(b.get("type"), "text") {
            b.get("text").and_then(Lazy::str)
        } else {
            None
        };
        let Some(r) = text else { continue };
        if !r
            .trim_start_matches([' ', '\t', '\r', '\n'])
            .starts_with("<system-reminder>")
        {
            continue;
        }
        if u16_len(&r) < MIN_CANDIDATE {
            info.passthrough.add(Passthrough::BelowThreshold);
            continue;
        }
        let p = prepare(&r);
        let q = quote(
            &p,
            measure(&p, profile.page_cols()),
            CANDIDATE_CPT,
            rows_pricing(profile, None),
        );
        if !q.profitable() {
            info.passthrough.add(Passthrough::NotProfitable);
            continue;
        }
        let Some(set) = candidate_pages(info, &p, profile) else {
            info.passthrough.add(Passthrough::NotProfitable);
            continue;
        };
        info.reminder_imgs += set.totals.pages;
        info.add_pages(&set.totals);
        info.compressed_chars += u16_len(&r);
        add_estimates(info, &q);
    }
}

/// Every user message's long tool results (§8.5), rewritten in place when
/// imaged.
fn tool_results(info: &mut TransformInfo, messages: &mut [Message<'_>], profile: Profile) {
    for m in messages.iter_mut().filter(|m| m.role == "user") {
        if !m.has_blocks() {
            continue;
        }
        let mut blocks = m.blocks();
        let mut changed = false;
        for b in blocks.iter_mut() {
            let raw = b.raw();
            if !is_str(raw.get("type"), "tool_result")
                || raw.get("is_error").is_some_and(Lazy::is_true)
            {
                continue;
            }
            let Some(content) = raw.get("content") else {
                continue;
            };
            let parts: Vec<Inner<'_>> = match content.kind() {
                Kind::String => {
                    match image_result(info, &content.str().unwrap_or_default(), profile) {
                        Some(parts) => parts,
                        None => continue,
                    }
                }
                _ => {
                    let Some(items) = object_array(content) else {
                        continue;
                    };
                    let mut parts = Vec::new();
                    let mut any = false;
                    for item in items {
                        let text = is_str(item.get("type"), "text")
                            .then(|| item.get("text").and_then(Lazy::str))
                            .flatten();
                        match text.and_then(|t| image_result(info, &t, profile)) {
                            Some(new) => {
                                parts.extend(new);
                                any = true;
                            }
                            None => parts.push(Inner::Raw(item)),
                        }
                    }
                    if !any {
                        continue;
                    }
                    parts
                }
            };
            *b = Block::ToolResult {
                raw,
                content: parts,
            };
            changed = true;
        }
        if changed {
            m.rewritten = Some(blocks);
        }
    }
}

/// One tool-result text (§8.5 steps 1–5): the parts that replace it when
/// it is imaged.
fn image_result<'a>(info: &mut TransformInfo, x: &str, profile: Profile) -> Option<Vec<Inner<'a>>> {
    let p = prepare(x);
    if u16_len(&p) < MIN_CANDIDATE {
        info.passthrough.add(Passthrough::BelowThreshold);
        return None;
    }
    let cols = profile.page_cols();
    let q = quote(
        &p,
        measure(&p, cols),
        CANDIDATE_CPT,
        rows_pricing(profile, Some(RESULT_IMAGE_CAP)),
    );
    if !q.profitable() {
        info.passthrough.add(Passthrough::NotProfitable);
        return None;
    }
    let limits = Limits {
        cap: RESULT_IMAGE_CAP,
        cols,
        budget: profile.page_budget(),
        rows_per_image: profile
            .canvas_rows()
            .min((profile.page_budget() / cols).max(1))
            * profile.cell().layers,
    };
    let drawn = match truncate(&p, limits) {
        Some(t) => {
            info.truncated_tool_results += 1;
            info.omitted_chars += t.omitted;
            t.text
        }
        None => p,
    };
    let Some(set) = candidate_pages(info, &drawn, profile) else {
        info.passthrough.add(Passthrough::NotProfitable);
        return None;
    };
    info.tool_result_imgs += set.totals.pages;
    info.add_pages(&set.totals);
    info.compressed_chars += u16_len(x);
    add_estimates(info, &q);
    let mut parts = Vec::new();
    if set.two_layer {
        parts.push(Inner::Text(TWO_LAYER_NOTE[1..].to_string()));
    }
    parts.extend(std::iter::repeat_n(Inner::Image, set.totals.pages));
    if let Some(sheet) = fact_sheet(x) {
        parts.push(Inner::Text(sheet));
    }
    Some(parts)
}
