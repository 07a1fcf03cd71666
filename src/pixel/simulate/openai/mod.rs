//! The OpenAI path (pixel-simulate.md §10): Responses bodies (`input`), and
//! Chat Completions bodies that also carry `input`. The static slab holds
//! the instructions, system and developer texts and the tool docs; after
//! it, the old turns collapse into transcript pages (§10.4).

mod history;
pub mod vision;

use std::borrow::Cow;

use crate::go::json::lazy::{marshal_any, Kind, Lazy};
use crate::pixel::simulate::history as shared_history;
use crate::pixel::simulate::info::{Passthrough, TransformInfo};
use crate::pixel::simulate::pages::{self, Layout, Variant};
use crate::pixel::simulate::price::{quote, PagePrice, Pricing};
use crate::pixel::simulate::profile::{Level, Profile};
use crate::pixel::simulate::schema::write_stripped;
use crate::pixel::simulate::strings::{CHAT_HEADER, REFLOW_NOTE_O, RESPONSES_HEADER, ZEBRA_NOTE};
use crate::pixel::simulate::text::{compact, measure, prepare, RETURN_MARK};
use crate::pixel::simulate::{Context, Outcome};
use vision::GptProfile;

/// A slab shorter than this (bytes, prepared) stays text.
const MIN_SLAB: usize = 2000;
/// Characters per token of the slab text estimate.
const SLAB_CPT: usize = 4;
/// Characters per image.
pub(crate) const PAGE_BUDGET: usize = 28080;
/// The widest page in columns, whatever the profile says.
const MAX_COLS: usize = 312;

/// Which OpenAI API the body is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Api {
    Responses,
    Chat,
}

/// What both the slab and the history need.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup {
    pub api: Api,
    pub gpt: GptProfile,
    pub density: Profile,
}

impl Setup {
    /// Columns of the slab at most.
    fn col_limit(&self) -> usize {
        MAX_COLS.min(self.gpt.strip_cols)
    }

    /// Pricing of pages drawn with `cell` geometry.
    pub fn pricing(&self, cell: crate::pixel::simulate::profile::Cell) -> Pricing {
        Pricing::Pages {
            cell,
            height: self.gpt.max_height_px,
            budget: PAGE_BUDGET,
            cap: None,
            per_page: PagePrice::Vision(self.gpt.vision),
        }
    }

    /// ImageTokensEstimate of pages actually drawn.
    pub fn page_tokens(&self, sizes: &[(usize, usize)]) -> usize {
        sizes
            .iter()
            .map(|&(w, h)| self.gpt.vision.tokens(w, h))
            .sum()
    }
}

/// The conversation: a Responses item list or string, or Chat messages.
enum Input<'a> {
    Text,
    Items(Vec<Lazy<'a>>),
}

/// Runs the OpenAI transform on the body `top`.
pub fn transform(top: Lazy<'_>, cx: &Context<'_>) -> Outcome {
    let mut info = TransformInfo::default();
    let api = if top.get("messages").is_some() {
        Api::Chat
    } else {
        Api::Responses
    };
    let parsed = parse(top, api);
    let (input, tools) = match parsed {
        Ok(p) => p,
        Err((reason, detail)) => {
            info.reason = format!("parse_error: {reason}");
            return Outcome {
                info,
                error: Some(detail),
            };
        }
    };
    let items: &[Lazy<'_>] = match &input {
        Input::Items(items) => items,
        Input::Text => &[],
    };
    let first_user = items
        .iter()
        .position(|i| super::anthropic::is_str(i.get("role"), "user"));
    if matches!(input, Input::Items(_)) && first_user.is_none() {
        info.reason = "no_user_message".to_string();
        return Outcome { info, error: None };
    }
    let setup = Setup {
        api,
        gpt: vision::resolve(cx.model, cx.gpt_profiles),
        density: Profile::for_model(cx.density, cx.model),
    };
    let instructions = match api {
        Api::Responses => top
            .get("instructions")
            .and_then(Lazy::str)
            .filter(|s| !s.is_empty()),
        Api::Chat => None,
    };
    let mut docs: Vec<String> = Vec::new();
    let mut texts: Vec<Cow<'_, str>> = Vec::new();
    if let Some(t) = &instructions {
        docs.push(format!("## INSTRUCTIONS\n{t}"));
        texts.push(t.clone());
    }
    for item in items {
        if let Some((heading, text)) = system_text(*item, api) {
            docs.push(format!("## {heading} MESSAGE\n{text}"));
            texts.push(Cow::Owned(text));
        }
    }
    info.static_chars = texts.iter().map(|t| t.len()).sum();
    if let Some(t) = tools.filter(|t| t.items().next().is_some()) {
        let tool_docs: Vec<String> = t.items().filter_map(|tool| tool_doc(tool, api)).collect();
        if !tool_docs.is_empty() {
            docs.push(tool_docs.join("\n\n"));
        }
    }
    let combined_raw = docs.join("\n\n");
    info.orig_chars = combined_raw.len();
    if combined_raw.is_empty() {
        info.reason = "no_static_context".to_string();
        return Outcome { info, error: None };
    }
    // No Neutralise here: a slab holding `↵` is not reflowed (§9.1).
    let combined = if combined_raw.contains(RETURN_MARK) {
        compact(&combined_raw)
    } else {
        prepare(&combined_raw)
    };
    if combined.len() < MIN_SLAB {
        info.reason = format!("below_min_chars ({} < {MIN_SLAB})", combined.len());
        return Outcome { info, error: None };
    }
    let zebra = setup.density.level != Level::Conservative;
    let header = with_notes(
        match api {
            Api::Responses => RESPONSES_HEADER,
            Api::Chat => CHAT_HEADER,
        },
        zebra,
    );
    let s = format!("{header}{combined}");
    let k = measure(&s, setup.col_limit()).min(setup.gpt.strip_cols);
    let cell = setup.density.cell();
    let q = quote(&s, k, SLAB_CPT, setup.pricing(cell));
    if !q.profitable() {
        info.reason = format!("not_profitable (slab={} chars)", combined.len());
        info.passthrough.add(Passthrough::NotProfitable);
        return Outcome { info, error: None };
    }
    let set = pages::render(&Layout {
        text: &s,
        roles: None,
        variant: if zebra { Variant::Zebra } else { Variant::Mono },
        cols: k,
        budget: PAGE_BUDGET,
        height: setup.gpt.max_height_px,
    });
    info.add_pages(&set.totals);
    info.image_tokens_estimate += setup.page_tokens(&set.sizes);
    let mut text_tokens: usize = texts.iter().map(|t| crate::tokens::count_str(t)).sum();
    if let Some(t) = tools.filter(|t| t.items().next().is_some()) {
        text_tokens += schema_savings(t, api);
    }
    if text_tokens == 0 {
        text_tokens = crate::tokens::count_str(&combined_raw);
    }
    info.text_tokens_estimate += text_tokens;
    info.compressed_chars = combined_raw.len();
    if let Input::Items(items) = input {
        let outcome = history::collapse(&items, first_user.unwrap_or(0), &setup);
        if let Err((_, chars)) = &outcome {
            info.collapsed_chars += chars;
        }
        shared_history::record(&mut info, outcome.map_err(|(r, _)| r));
    }
    info.compressed = true;
    info.reason = String::new();
    Outcome { info, error: None }
}

/// The conversation and the tools, or the parse error's reason and Go
/// detail (§13).
type Parsed<'a> = (Input<'a>, Option<Lazy<'a>>);

fn parse(top: Lazy<'_>, api: Api) -> Result<Parsed<'_>, (&'static str, String)> {
    let input = match api {
        Api::Responses => match top.get("input") {
            None => Input::Text,
            Some(v) => match v.kind() {
                Kind::String | Kind::Null => Input::Text,
                Kind::Array => Input::Items(v.items().collect()),
                k => return Err(("input must be a string or array", slice_error(k))),
            },
        },
        Api::Chat => match top.get("messages") {
            Some(v) if v.kind() == Kind::Array => Input::Items(v.items().collect()),
            Some(v) if v.kind() == Kind::Null => Input::Items(Vec::new()),
            Some(v) => return Err(("messages must be an array", slice_error(v.kind()))),
            None => Input::Items(Vec::new()),
        },
    };
    let tools = match top.get("tools") {
        Some(v) if v.kind() == Kind::Array => Some(v),
        Some(v) if v.kind() == Kind::Null => None,
        Some(v) => return Err(("tools must be an array", slice_error(v.kind()))),
        None => None,
    };
    Ok((input, tools))
}

/// Go's error for a value that does not decode into `[]interface {}`.
fn slice_error(k: Kind) -> String {
    format!(
        "json: cannot unmarshal {} into Go value of type []interface {{}}",
        k.go_name()
    )
}

/// The header with the reflow note (and the zebra note) at the end of its
/// paragraph, before the first `\n====`.
fn with_notes(header: &str, zebra: bool) -> String {
    let notes = if zebra {
        format!("{REFLOW_NOTE_O}{ZEBRA_NOTE}")
    } else {
        REFLOW_NOTE_O.to_string()
    };
    match header.find("\n====") {
        Some(at) => format!("{}{notes}{}", &header[..at], &header[at..]),
        None => format!("{header}{notes}"),
    }
}

/// A system or developer item's heading word and its non-empty text.
fn system_text(item: Lazy<'_>, api: Api) -> Option<(&'static str, String)> {
    let heading = match item.get("role").and_then(Lazy::str).as_deref() {
        Some("system") => "SYSTEM",
        Some("developer") => "DEVELOPER",
        _ => return None,
    };
    let text = content_text(item.get("content"), api, true);
    (!text.is_empty()).then_some((heading, text))
}

/// The text of a `content`: a string, or its parts (§10.2 for Responses,
/// §10.3 for Chat). `system` chooses Chat's system rule (text parts
/// joined by a blank line) over its turn rule (one part a line, images
/// as `[image]`).
pub(crate) fn content_text(content: Option<Lazy<'_>>, api: Api, system: bool) -> String {
    let Some(c) = content else {
        return String::new();
    };
    if let Some(s) = c.str() {
        return s.into_owned();
    }
    let parts: Vec<String> = c
        .items()
        .filter_map(|p| {
            let ty = p.get("type").and_then(Lazy::str)?;
            let field = |name: &str| {
                p.get(name)
                    .and_then(Lazy::str)
                    .unwrap_or_default()
                    .into_owned()
            };
            match (api, ty.as_ref()) {
                (Api::Responses, "input_text" | "output_text" | "text" | "summary_text") => {
                    Some(field("text"))
                }
                (Api::Responses, "input_image" | "image" | "output_image") => {
                    Some("[image]".to_string())
                }
                (Api::Responses, "refusal") => Some(field("refusal")),
                (Api::Chat, "text") => Some(field("text")),
                (Api::Chat, "image_url" | "input_image" | "image") if !system => {
                    Some("[image]".to_string())
                }
                _ => None,
            }
        })
        .collect();
    parts.join(if api == Api::Chat && system {
        "\n\n"
    } else {
        "\n"
    })
}

/// A function tool's documentation (§10.2).
fn tool_doc(tool: Lazy<'_>, api: Api) -> Option<String> {
    if !super::anthropic::is_str(tool.get("type"), "function") {
        return None;
    }
    let f = match api {
        Api::Responses => tool,
        Api::Chat => tool.get("function")?,
    };
    let name = f.get("name")?.str()?;
    let mut lines = vec![format!(
        "## Tool: {}",
        if name.is_empty() { "?" } else { &name }
    )];
    if let Some(d) = f
        .get("description")
        .and_then(Lazy::str)
        .filter(|d| !d.is_empty())
    {
        lines.push(d.into_owned());
    }
    if let Some(p) = f.get("parameters") {
        let mut json = Vec::new();
        marshal_any(&mut json, p);
        lines.push("```json".to_string());
        lines.push(String::from_utf8_lossy(&json).into_owned());
        lines.push("```".to_string());
    }
    Some(lines.join("\n"))
}

/// Tokens the stripped schemas save: tokens(GoJSON(tools)) −
/// tokens(GoJSON(tools with every function's parameters stripped)), at
/// least 0.
fn schema_savings(tools: Lazy<'_>, api: Api) -> usize {
    let mut full = Vec::new();
    marshal_any(&mut full, tools);
    let mut stripped = Vec::new();
    stripped.push(b'[');
    for (n, tool) in tools.items().enumerate() {
        if n > 0 {
            stripped.push(b',');
        }
        write_tool_stripped(&mut stripped, tool, api);
    }
    stripped.push(b']');
    let count = |b: &[u8]| crate::tokens::count(b);
    count(&full).saturating_sub(count(&stripped))
}

/// One tool as Go JSON with its parameters stripped (§12), when it is a
/// function tool that has them.
fn write_tool_stripped(out: &mut Vec<u8>, tool: Lazy<'_>, api: Api) {
    let is_function =
        tool.kind() == Kind::Object && super::anthropic::is_str(tool.get("type"), "function");
    let holder = match api {
        Api::Responses => Some(tool),
        Api::Chat => tool.get("function").filter(|f| f.kind() == Kind::Object),
    };
    let Some(holder) = holder.filter(|h| is_function && h.get("parameters").is_some()) else {
        marshal_any(out, tool);
        return;
    };
    let write_holder = |out: &mut Vec<u8>| {
        out.push(b'{');
        for (n, (k, v)) in holder.map().into_iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            crate::go::json::write_json_str(out, k.as_bytes());
            out.push(b':');
            if k == "parameters" {
                write_stripped(out, v, 0);
            } else {
                marshal_any(out, v);
            }
        }
        out.push(b'}');
    };
    match api {
        Api::Responses => write_holder(out),
        Api::Chat => {
            out.push(b'{');
            for (n, (k, v)) in tool.map().into_iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                crate::go::json::write_json_str(out, k.as_bytes());
                out.push(b':');
                if k == "function" {
                    write_holder(out);
                } else {
                    marshal_any(out, v);
                }
            }
            out.push(b'}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_go_before_the_frame_end() {
        let h = with_notes(RESPONSES_HEADER, false);
        assert!(h.contains("supplemental documentation. The glyph \u{21b5}"));
        assert!(h.ends_with(&format!(
            "real newline.\n{}",
            &RESPONSES_HEADER[RESPONSES_HEADER.find("\n====").unwrap() + 1..]
        )));
        let z = with_notes(CHAT_HEADER, true);
        assert!(z.contains("real newline. Consecutive text rows"));
    }

    #[test]
    fn docs_and_stripping() {
        let tools = Lazy::new(
            br#"[{"type":"function","name":"read","description":"Reads a file.","parameters":{"type":"object","description":"long words","properties":{"path":{"type":"string","description":"the path"}}}},{"type":"web_search"}]"#,
        );
        let docs: Vec<String> = tools
            .items()
            .filter_map(|t| tool_doc(t, Api::Responses))
            .collect();
        assert_eq!(
            docs,
            ["## Tool: read\nReads a file.\n```json\n{\"description\":\"long words\",\"properties\":{\"path\":{\"description\":\"the path\",\"type\":\"string\"}},\"type\":\"object\"}\n```"]
        );
        assert!(schema_savings(tools, Api::Responses) > 0);
    }
}
