//! The Gemini generateContent path (pixel-simulate.md §11): the history
//! collapse first, then the system instruction as a slab in front of the
//! first user content, then every long text or function-response part.
//! Images cost a flat price per page (§7.3).

mod history;

use std::borrow::Cow;

use crate::go::json::lazy::{indent, Kind, Lazy};
use crate::pixel::simulate::anthropic::system::TAG_OPEN;
use crate::pixel::simulate::cost::gemini_page_tokens;
use crate::pixel::simulate::facts::fact_sheet;
use crate::pixel::simulate::history as shared_history;
use crate::pixel::simulate::info::{Passthrough, TransformInfo};
use crate::pixel::simulate::pages::{self, Layout, Variant};
use crate::pixel::simulate::price::{quote, PagePrice, Pricing};
use crate::pixel::simulate::profile::CONSERVATIVE;
use crate::pixel::simulate::strings::{G_END_MARKER, G_HEADER};
use crate::pixel::simulate::text::{measure, prepare, squeeze_blank_lines};
use crate::pixel::simulate::truncate::{truncate, Limits};
use crate::pixel::simulate::{Context, Outcome};

/// Every Gemini page is conservative standard: 312 columns, 728 px.
pub(crate) const PAGE_COLS: usize = 312;
pub(crate) const PAGE_HEIGHT: usize = 728;
pub(crate) const PAGE_BUDGET: usize = 28080;
/// A system text shorter than this (bytes) stays text.
const MIN_SYSTEM: usize = 2000;
/// A part shorter than this (bytes) stays text.
const MIN_PART: usize = 6000;
/// Characters per token of the system and part estimates.
const SYSTEM_CPT: usize = 2;
const PART_CPT: usize = 4;
/// Images per part.
const PART_IMAGE_CAP: usize = 10;
/// Tags whose closed blocks are dynamic.
const DYNAMIC_TAGS: [&str; 5] = [
    "env",
    "context",
    "git_status",
    "directoryStructure",
    "system-reminder",
];

/// A content: its role and parts, as decoded or rewritten.
#[derive(Debug, Clone)]
pub(crate) struct Content<'a> {
    pub role: Cow<'a, str>,
    pub parts: Vec<Part<'a>>,
}

/// A part: from the request, or inserted by the transform.
#[derive(Debug, Clone)]
pub(crate) enum Part<'a> {
    Raw(RawPart<'a>),
    Text(String),
    Image,
}

/// A part from the request, with its recognised members (a `null` one
/// counts as absent).
#[derive(Debug, Clone)]
pub(crate) struct RawPart<'a> {
    pub map: Lazy<'a>,
    pub text: Option<Cow<'a, str>>,
    pub inline_data: bool,
    pub function_call: Option<Lazy<'a>>,
    pub function_response: Option<Lazy<'a>>,
}

impl RawPart<'_> {
    /// The function name of a call or response (`?` when empty).
    fn name_of(v: Option<Lazy<'_>>) -> String {
        v.and_then(|f| f.get("name"))
            .and_then(Lazy::str)
            .filter(|n| !n.is_empty())
            .map_or_else(|| "?".to_string(), Cow::into_owned)
    }
}

/// Runs the Gemini transform on the body `top`.
pub fn transform(top: Lazy<'_>, cx: &Context<'_>) -> Outcome {
    let mut info = TransformInfo::default();
    let decoded = decode(top);
    let (mut contents, system) = match decoded {
        Ok(d) => d,
        Err(e) => {
            info.reason = format!("parse_error: {e}");
            return Outcome {
                info,
                error: Some(e),
            };
        }
    };
    if !media_resolution_supported(top) {
        info.reason = "unsupported_media_resolution".to_string();
        return Outcome { info, error: None };
    }
    if !priced(cx.model) {
        info.reason = "unsupported_image_token_profile".to_string();
        return Outcome { info, error: None };
    }
    if !contents.is_empty() {
        let outcome = history::collapse(&mut contents);
        shared_history::record(&mut info, outcome);
    }
    if let Some(system) = system {
        system_slab(&mut info, &mut contents, system);
    }
    for c in &contents {
        for p in &c.parts {
            part(&mut info, p);
        }
    }
    if info.image_count == 0 {
        info.reason = "no_profitable_blocks".to_string();
    } else {
        info.compressed = true;
        info.reason = "applied".to_string();
    }
    info.passthrough.null_if_empty();
    Outcome { info, error: None }
}

/// The decoded contents and system instruction, or Go's error (§11.1).
type Decoded<'a> = (Vec<Content<'a>>, Option<Content<'a>>);

fn decode(top: Lazy<'_>) -> Result<Decoded<'_>, String> {
    let contents = match top.get("contents") {
        Some(v) => decode_contents(v).map_err(|e| format!("contents: {e}"))?,
        None => Vec::new(),
    };
    let system = match top.get("systemInstruction").filter(|v| !v.is_null()) {
        Some(v) => Some(decode_content(v).map_err(|e| format!("systemInstruction: {e}"))?),
        None => None,
    };
    if let Some(t) = top.get("tools") {
        if !matches!(t.kind(), Kind::Array | Kind::Null) {
            return Err(format!(
                "tools: json: cannot unmarshal {} into Go value of type []json.RawMessage",
                t.kind().go_name()
            ));
        }
    }
    Ok((contents, system))
}

/// `contents` as `[]geminiContent`.
pub(crate) fn decode_contents(v: Lazy<'_>) -> Result<Vec<Content<'_>>, String> {
    match v.kind() {
        Kind::Null => Ok(Vec::new()),
        Kind::Array => v.items().map(decode_content).collect(),
        k => Err(format!(
            "json: cannot unmarshal {} into Go value of type []pixel.geminiContent",
            k.go_name()
        )),
    }
}

fn decode_content(v: Lazy<'_>) -> Result<Content<'_>, String> {
    match v.kind() {
        Kind::Object => {}
        Kind::Null => {
            return Ok(Content {
                role: Cow::Borrowed(""),
                parts: Vec::new(),
            })
        }
        k => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type pixel.geminiContent",
                k.go_name()
            ))
        }
    }
    let field_error = |k: Kind, field: &str, ty: &str| {
        format!(
            "json: cannot unmarshal {} into Go struct field geminiContent.{field} of type {ty}",
            k.go_name()
        )
    };
    let role = match v.field("role", true) {
        Some(r) if r.kind() != Kind::String => return Err(field_error(r.kind(), "role", "string")),
        Some(r) => r.str().unwrap_or_default(),
        None => Cow::Borrowed(""),
    };
    let parts = match v.field("parts", true) {
        None => Vec::new(),
        Some(p) if p.kind() == Kind::Array => {
            let mut parts = Vec::new();
            for item in p.items() {
                match item.kind() {
                    Kind::Object | Kind::Null => parts.push(Part::Raw(decode_part(item)?)),
                    k => return Err(field_error(k, "parts", "map[string]json.RawMessage")),
                }
            }
            parts
        }
        Some(p) => {
            return Err(field_error(
                p.kind(),
                "parts",
                "[]map[string]json.RawMessage",
            ))
        }
    };
    Ok(Content { role, parts })
}

/// A part's recognised members, each checked for its Go type.
fn decode_part(map: Lazy<'_>) -> Result<RawPart<'_>, String> {
    let object = |key: &str| -> Result<Option<Lazy<'_>>, String> {
        match map.get(key) {
            Some(v) if v.kind() == Kind::Object => Ok(Some(v)),
            Some(v) if v.kind() == Kind::Null => Ok(None),
            Some(v) => Err(format!(
                "{key}: json: cannot unmarshal {} into Go value of type map[string]json.RawMessage",
                v.kind().go_name()
            )),
            None => Ok(None),
        }
    };
    let text = match map.get("text") {
        Some(v) if v.kind() == Kind::String => v.str(),
        Some(v) if v.kind() == Kind::Null => None,
        Some(v) => {
            return Err(format!(
                "text: json: cannot unmarshal {} into Go value of type string",
                v.kind().go_name()
            ))
        }
        None => None,
    };
    Ok(RawPart {
        map,
        text,
        inline_data: object("inline_data")?.is_some(),
        function_response: object("functionResponse")?,
        function_call: object("functionCall")?,
    })
}

/// §11.1 step 3: only default and high media resolution are priced.
fn media_resolution_supported(top: Lazy<'_>) -> bool {
    let Some(config) = one_of(top, "generationConfig", "generation_config") else {
        return false;
    };
    let Some(config) = config else { return true };
    if !matches!(config.kind(), Kind::Object | Kind::Null) {
        return false;
    }
    let Some(value) = one_of(config, "mediaResolution", "media_resolution") else {
        return false;
    };
    let Some(value) = value else { return true };
    let name = match value.kind() {
        Kind::String => value.str().unwrap_or_default().into_owned(),
        Kind::Null => String::new(),
        _ => return false,
    };
    matches!(
        crate::pixel::simulate::text::trim_space(&name)
            .to_uppercase()
            .as_str(),
        "MEDIA_RESOLUTION_UNSPECIFIED" | "MEDIA_RESOLUTION_HIGH"
    )
}

/// The member under one of two spellings: `None` when both are there,
/// `Some(None)` when neither is.
fn one_of<'a>(v: Lazy<'a>, a: &str, b: &str) -> Option<Option<Lazy<'a>>> {
    match (v.get(a), v.get(b)) {
        (Some(_), Some(_)) => None,
        (x, y) => Some(x.or(y)),
    }
}

/// The Gemini-3 models, which cost 1120 per image at default or high
/// resolution (§7.3).
const GEMINI_3: [&str; 10] = [
    "gemini-3-pro",
    "gemini-3-pro-preview",
    "gemini-3-flash",
    "gemini-3-flash-preview",
    "gemini-3.1-pro-preview",
    "gemini-3.1-flash-lite",
    "gemini-3.1-flash-lite-preview",
    "gemini-3.5-flash",
    "gemini-3.5-flash-lite",
    "gemini-3.6-flash",
];

/// Whether images have a price for `model` (§7.3 normalisation).
fn priced(model: &str) -> bool {
    let m = crate::go::unicode::lower(crate::pixel::simulate::text::trim_space(model));
    let mut m = m.rsplit('/').next().unwrap_or("");
    m = m.split('@').next().unwrap_or("");
    m = m.split(':').next().unwrap_or("");
    if let Some(at) = m.find("claude-").filter(|&at| at > 0) {
        m = &m[at..];
    }
    GEMINI_3.contains(&m)
}

/// The part that holds a function response, as text (§11.3).
pub(crate) fn function_response_text(p: &RawPart<'_>) -> String {
    let f = p.function_response;
    let name = f
        .and_then(|f| f.get("name"))
        .and_then(Lazy::str)
        .filter(|n| !n.is_empty());
    let mut out = match name {
        Some(n) => format!("[functionResponse {n}]\n"),
        None => "[functionResponse]\n".to_string(),
    };
    match f.and_then(|f| f.get("response")) {
        Some(r) if r.kind() == Kind::String => out.push_str(&r.str().unwrap_or_default()),
        Some(r) if r.kind() != Kind::Null => {
            let mut v = Vec::new();
            indent(&mut v, r.text(), "  ");
            out.push_str(&String::from_utf8_lossy(&v));
        }
        _ => {}
    }
    out
}

/// Is the role that of user content (`""` or `user`, any case)?
fn is_user(role: &str) -> bool {
    role.is_empty() || role.eq_ignore_ascii_case("user")
}

/// The system instruction as a slab in front of the first user content
/// (§11.2).
fn system_slab<'a>(info: &mut TransformInfo, contents: &mut [Content<'a>], system: Content<'a>) {
    let mut texts = Vec::new();
    let mut kept = Vec::new();
    for p in system.parts {
        match p {
            Part::Raw(RawPart { text: Some(t), .. }) => texts.push(t),
            other => kept.push(other),
        }
    }
    let text = texts.join("\n\n");
    if text.is_empty() {
        return;
    }
    let Some(first_user) = contents.iter_mut().find(|c| is_user(&c.role)) else {
        info.passthrough.add(Passthrough::NoUserContent);
        return;
    };
    let (static_text, blocks) = split_system(&text);
    info.static_chars = static_text.len();
    info.dynamic_chars += blocks.join("\n\n").len();
    info.dynamic_block_count += blocks.len();
    if static_text.is_empty() {
        return;
    }
    if static_text.len() < MIN_SYSTEM {
        info.passthrough.add(Passthrough::BelowThreshold);
        return;
    }
    let s = format!("{G_HEADER}{}", prepare(&static_text));
    let k = measure(&s, PAGE_COLS);
    let q = quote(&s, k, SYSTEM_CPT, pricing(None));
    info.text_tokens_estimate += q.text.ceil() as usize;
    if !q.profitable() {
        info.passthrough.add(Passthrough::NotProfitable);
        return;
    }
    let set = pages::render(&layout(&s, Variant::Mono, k));
    info.add_pages(&set.totals);
    info.orig_chars += static_text.len();
    info.compressed_chars += static_text.len();
    info.image_tokens_estimate += gemini_page_tokens() * set.totals.pages;
    let mut parts: Vec<Part<'a>> = std::iter::repeat_n(Part::Image, set.totals.pages).collect();
    parts.extend(fact_sheet(&static_text).map(Part::Text));
    parts.push(Part::Text(G_END_MARKER.to_string()));
    parts.extend(kept);
    parts.append(&mut first_user.parts);
    first_user.parts = parts;
}

/// The static system text and its dynamic blocks: every closed dynamic
/// tag block is cut out, everything else stays (§11.2).
fn split_system(text: &str) -> (String, Vec<&str>) {
    let mut out = String::with_capacity(text.len());
    let mut blocks = Vec::new();
    let (mut pos, mut kept_from) = (0, 0);
    while let Some(caps) = TAG_OPEN.captures_at(text, pos) {
        let (m, name) = (caps.get(0).expect("match"), &caps[1]);
        pos = m.end();
        if !DYNAMIC_TAGS.contains(&name) {
            continue;
        }
        let close = format!("</{name}>");
        if let Some(at) = text[m.end()..].find(&close) {
            let end = m.end() + at + close.len();
            out.push_str(&text[kept_from..m.start()]);
            blocks.push(&text[m.start()..end]);
            kept_from = end;
            pos = end;
        }
    }
    out.push_str(&text[kept_from..]);
    (squeeze_blank_lines(&out), blocks)
}

fn pricing(cap: Option<usize>) -> Pricing {
    Pricing::Pages {
        cell: CONSERVATIVE,
        height: PAGE_HEIGHT,
        budget: PAGE_BUDGET,
        cap,
        per_page: PagePrice::gemini(),
    }
}

fn layout(text: &str, variant: Variant, k: usize) -> Layout<'_> {
    Layout {
        text,
        roles: None,
        variant,
        cols: k,
        budget: PAGE_BUDGET,
        height: PAGE_HEIGHT,
    }
}

/// One part (§11.3): a long text or function response is imaged.
fn part(info: &mut TransformInfo, p: &Part<'_>) {
    let x = match p {
        Part::Text(t) if !t.is_empty() => Cow::Borrowed(t.as_str()),
        Part::Raw(raw) if raw.function_response.is_some() => {
            Cow::Owned(function_response_text(raw))
        }
        Part::Raw(RawPart { text: Some(t), .. }) if !t.is_empty() => Cow::Borrowed(t.as_ref()),
        _ => return,
    };
    if x.len() < MIN_PART {
        info.passthrough.add(Passthrough::BelowThreshold);
        return;
    }
    let prepared = prepare(&x);
    let q = quote(
        &prepared,
        measure(&prepared, PAGE_COLS),
        PART_CPT,
        pricing(Some(PART_IMAGE_CAP)),
    );
    if !q.profitable() {
        info.passthrough.add(Passthrough::NotProfitable);
        return;
    }
    let limits = Limits {
        cap: PART_IMAGE_CAP,
        cols: PAGE_COLS,
        budget: PAGE_BUDGET,
        rows_per_image: CONSERVATIVE
            .rows_for(PAGE_HEIGHT)
            .min(PAGE_BUDGET / PAGE_COLS),
    };
    let drawn = match truncate(&prepared, limits) {
        Some(t) => {
            info.truncated_tool_results += 1;
            info.omitted_chars += t.omitted;
            t.text
        }
        None => prepared,
    };
    let set = pages::render(&layout(&drawn, Variant::Gray, measure(&drawn, PAGE_COLS)));
    info.orig_chars += x.len();
    info.compressed_chars += x.len();
    info.tool_result_imgs += set.totals.pages;
    info.add_pages(&set.totals);
    info.text_tokens_estimate += q.text.ceil() as usize;
    info.image_tokens_estimate += gemini_page_tokens() * set.totals.pages;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_prices() {
        assert!(priced("gemini-3-flash"));
        assert!(priced(" models/Gemini-3.6-Flash "));
        assert!(priced("publishers/google/models/gemini-3-pro-preview@001"));
        assert!(!priced("gemini-2.5-pro"));
        assert!(!priced(""));
        assert!(!priced("gemini-3-flash-latest"));
    }

    #[test]
    fn media_resolutions() {
        let ok = |s: &str| media_resolution_supported(Lazy::new(s.as_bytes()));
        assert!(ok("{}"));
        assert!(ok(
            r#"{"generationConfig":{"mediaResolution":" media_resolution_high "}}"#
        ));
        assert!(ok(
            r#"{"generation_config":{"media_resolution":"MEDIA_RESOLUTION_UNSPECIFIED"}}"#
        ));
        assert!(!ok(
            r#"{"generationConfig":{"mediaResolution":"MEDIA_RESOLUTION_LOW"}}"#
        ));
        assert!(!ok(r#"{"generationConfig":{},"generation_config":{}}"#));
        assert!(!ok(r#"{"generationConfig":{"mediaResolution":1}}"#));
        assert!(!ok(r#"{"generationConfig":[]}"#));
    }

    #[test]
    fn decode_errors_name_go_types() {
        let err = |s: &str| decode(Lazy::new(s.as_bytes())).err().unwrap_or_default();
        assert_eq!(
            err(r#"{"contents":"x"}"#),
            "contents: json: cannot unmarshal string into Go value of type []pixel.geminiContent"
        );
        assert_eq!(
            err(r#"{"contents":[{"parts":["x"]}]}"#),
            "contents: json: cannot unmarshal string into Go struct field geminiContent.parts of type map[string]json.RawMessage"
        );
        assert_eq!(
            err(r#"{"contents":[{"parts":[{"text":1}]}]}"#),
            "contents: text: json: cannot unmarshal number into Go value of type string"
        );
    }

    #[test]
    fn system_split_never_stops() {
        let (s, blocks) = split_system(
            "a <env>x</env> <note>n</note> <context>open\n\n\n\nb <git_status>g</git_status>",
        );
        assert_eq!(s, "a  <note>n</note> <context>open\n\nb");
        assert_eq!(blocks, ["<env>x</env>", "<git_status>g</git_status>"]);
    }

    #[test]
    fn function_responses_indent() {
        let p = decode_part(Lazy::new(
            br#"{"functionResponse":{"name":"ls","response":{"a":[1,{}]}}}"#,
        ))
        .unwrap();
        assert_eq!(
            function_response_text(&p),
            "[functionResponse ls]\n{\n  \"a\": [\n    1,\n    {}\n  ]\n}"
        );
    }
}
