//! The Anthropic static context (pixel-simulate.md §8.1, §8.2): the system
//! text split into its static part and the volatile parts that change from
//! request to request (billing line, environment section, `<env>`-style
//! blocks), the unknown tags of the static part, and the tool reference.

use std::sync::LazyLock;

use regex::Regex;

use crate::go::json::lazy::{compact, Kind, Lazy};
use crate::pixel::simulate::strings::INTRO;
use crate::pixel::simulate::text::{squeeze_blank_lines, trim_space, u16_len};

/// The first line of a system text that is a billing header.
const BILLING: &str = "x-anthropic-billing-header:";
/// The heading that opens the environment section.
const ENV_HEADING: &str = "# Environment";
/// Tags whose blocks change between requests.
const DYNAMIC_TAGS: [&str; 5] = [
    "env",
    "context",
    "git_status",
    "directoryStructure",
    "system-reminder",
];
/// Static tags the proxy knows (not reported as unknown).
const KNOWN_TAGS: [&str; 13] = [
    "types",
    "example",
    "available_skills",
    "examples",
    "rules",
    "task",
    "codeSearchInstructions",
    "codeSearchToolUseInstructions",
    "communicationGuidelines",
    "gptAgentInstructions",
    "outputFormatting",
    "structuredWorkflow",
    "toolUseInstructions",
];
/// Longer tag names are not reported.
const TAG_NAME_MAX: usize = 64;

static DYNAMIC_OPEN: LazyLock<Regex> = LazyLock::new(|| {
    crate::go::regexp::compile(
        r"<(env|context|git_status|directoryStructure|system-reminder)(\s[^>]*)?>",
    )
});
/// Any opening tag.
pub static TAG_OPEN: LazyLock<Regex> =
    LazyLock::new(|| crate::go::regexp::compile(r"<([a-zA-Z][a-zA-Z0-9_-]*)(\s[^>]*)?>"));

/// The system text split (§8.1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct System {
    pub static_text: String,
    /// UTF-16 units of the dynamic blocks (joined by `\n\n`) and the
    /// environment section.
    pub dynamic_chars: usize,
    pub dynamic_blocks: usize,
    /// Sorted and distinct.
    pub unknown_tags: Vec<String>,
}

/// The system text of `system`: a string, or the `text` of every `text`
/// block of an array of objects, joined by a blank line.
pub fn system_text(system: Option<Lazy<'_>>) -> String {
    let Some(v) = system else {
        return String::new();
    };
    match v.kind() {
        Kind::String => v.str().unwrap_or_default().into_owned(),
        Kind::Array if v.items().all(|b| b.kind() == Kind::Object) => {
            let texts: Vec<String> = v
                .items()
                .filter(|b| b.get("type").and_then(Lazy::str).as_deref() == Some("text"))
                .map(|b| {
                    b.get("text")
                        .and_then(Lazy::str)
                        .unwrap_or_default()
                        .into_owned()
                })
                .collect();
            texts.join("\n\n")
        }
        _ => String::new(),
    }
}

/// Splits a system text (§8.1 steps 1–4).
pub fn split(text: &str) -> System {
    let text = without_billing_line(text);
    let (text, env) = without_env_section(text);
    let (static_raw, blocks) = cut_dynamic_blocks(&text);
    let static_text = squeeze_blank_lines(&static_raw);
    let unknown_tags = unknown_tags(&static_text);
    System {
        dynamic_chars: u16_len(&blocks.join("\n\n")) + u16_len(&env),
        dynamic_blocks: blocks.len(),
        static_text,
        unknown_tags,
    }
}

fn without_billing_line(text: &str) -> &str {
    let first = text.split('\n').next().unwrap_or("");
    if first.starts_with(BILLING) {
        text.get(first.len() + 1..).unwrap_or("")
    } else {
        text
    }
}

/// A trimmed line that is a markdown heading: 1–6 `#` and a space.
fn is_heading(trimmed: &str) -> bool {
    let hashes = trimmed.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes) && trimmed.as_bytes().get(hashes) == Some(&b' ')
}

/// The text without its `# Environment` section, and the section
/// (trailing whitespace trimmed).
fn without_env_section(text: &str) -> (String, String) {
    let lines: Vec<&str> = text.split('\n').collect();
    let Some(start) = lines
        .iter()
        .position(|l| trim_space(l).starts_with(ENV_HEADING))
    else {
        return (text.to_string(), String::new());
    };
    let end = (start + 1..lines.len())
        .find(|&i| is_heading(trim_space(lines[i])))
        .unwrap_or(lines.len());
    let section = lines[start..end].join("\n");
    let env = section
        .trim_end_matches([' ', '\t', '\r', '\n'])
        .to_string();
    let kept: Vec<&str> = lines[..start]
        .iter()
        .chain(&lines[end..])
        .copied()
        .collect();
    (kept.join("\n"), env)
}

/// The text without its closed dynamic blocks, and the blocks. Scanning
/// stops at the first opening tag without its closing tag.
fn cut_dynamic_blocks(text: &str) -> (String, Vec<&str>) {
    let mut out = String::with_capacity(text.len());
    let mut blocks = Vec::new();
    let mut pos = 0;
    while let Some(caps) = DYNAMIC_OPEN.captures_at(text, pos) {
        let (m, tag) = (caps.get(0).expect("match"), &caps[1]);
        let close = format!("</{tag}>");
        let Some(at) = text[m.end()..].find(&close) else {
            break;
        };
        let end = m.end() + at + close.len();
        out.push_str(&text[pos..m.start()]);
        blocks.push(&text[m.start()..end]);
        pos = end;
    }
    out.push_str(&text[pos..]);
    (out, blocks)
}

/// The names of closed tags in the static text that the proxy does not
/// know, sorted and distinct (§8.1 step 4).
fn unknown_tags(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut pos = 0;
    while let Some(caps) = TAG_OPEN.captures_at(text, pos) {
        let (m, name) = (caps.get(0).expect("match"), &caps[1]);
        let close = format!("</{name}>");
        match text[m.end()..].find(&close) {
            Some(at) => {
                if name.len() <= TAG_NAME_MAX
                    && !DYNAMIC_TAGS.contains(&name)
                    && !KNOWN_TAGS.contains(&name)
                    && !names.iter().any(|n| n == name)
                {
                    names.push(name.to_string());
                }
                pos = m.end() + at + close.len();
            }
            None => pos = m.end(),
        }
    }
    names.sort();
    names
}

/// The tool reference (§8.2), or "" when there are no tools.
pub fn tool_reference(tools: &[Lazy<'_>]) -> String {
    if tools.is_empty() {
        return String::new();
    }
    let docs: Vec<String> = tools.iter().map(|t| tool_doc(*t)).collect();
    format!(
        "=== TOOL REFERENCE ===\n{INTRO}\n\n{}\n=== END TOOL REFERENCE ===",
        docs.join("\n\n")
    )
}

/// One tool's documentation: heading, description, compacted schema.
fn tool_doc(tool: Lazy<'_>) -> String {
    let name = tool.get("name").map(value_text).filter(|n| !n.is_empty());
    let mut lines = vec![format!("## Tool: {}", name.as_deref().unwrap_or("?"))];
    if let Some(d) = tool
        .get("description")
        .map(value_text)
        .filter(|d| !d.is_empty())
    {
        lines.push(d);
    }
    if let Some(schema) = tool.get("input_schema") {
        let mut c = Vec::with_capacity(schema.text().len());
        compact(&mut c, schema.text(), false);
        lines.push("```json".to_string());
        lines.push(String::from_utf8_lossy(&c).into_owned());
        lines.push("```".to_string());
    }
    lines.join("\n")
}

/// A name or description as text: a string as it is, `null` as nothing,
/// any other value as its JSON text (the reference's `%v` differs for
/// such values; no request is expected to carry them).
fn value_text(v: Lazy<'_>) -> String {
    match v.kind() {
        Kind::String => v.str().unwrap_or_default().into_owned(),
        Kind::Null => String::new(),
        _ => String::from_utf8_lossy(v.text()).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_static_and_dynamic() {
        let text = "x-anthropic-billing-header: v=1\nYou are Flint.\n\n# Environment\nos: linux\ncwd: /x\n\n# Rules\n<env>a</env>\n\n\n\n<tone_guide>calm</tone_guide>\n<rules>r</rules>\n<context>\nc\n</context> end <git_status>never closed";
        let s = split(text);
        assert_eq!(
            s.static_text,
            "You are Flint.\n\n# Rules\n\n<tone_guide>calm</tone_guide>\n<rules>r</rules>\n end <git_status>never closed"
        );
        assert_eq!(s.dynamic_blocks, 2);
        assert_eq!(
            s.dynamic_chars,
            u16_len("<env>a</env>\n\n<context>\nc\n</context>")
                + u16_len("# Environment\nos: linux\ncwd: /x")
        );
        assert_eq!(s.unknown_tags, ["tone_guide"]);
    }

    #[test]
    fn nested_and_unclosed_tags() {
        assert_eq!(unknown_tags("<a x=1><b></b></a> <c> <d/>"), ["a"]);
        assert_eq!(unknown_tags("<z>open <y></y>"), ["y"]);
        let long = "t".repeat(65);
        assert!(unknown_tags(&format!("<{long}></{long}>")).is_empty());
    }

    #[test]
    fn system_blocks_and_tools() {
        let sys = Lazy::new(
            br#"[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]"#,
        );
        assert_eq!(system_text(Some(sys)), "a\n\nb");
        assert_eq!(
            system_text(Some(Lazy::new(br#"[{"type":"text","text":"a"},"b"]"#))),
            ""
        );
        let tools = Lazy::new(
            br#"[{"name":"Read","description":"Reads.","input_schema":{ "type" : "object", "x": "<\u003c>" }},{"input_schema":null},null]"#,
        );
        let list: Vec<Lazy<'_>> = tools.items().collect();
        assert_eq!(
            tool_reference(&list),
            format!(
                "=== TOOL REFERENCE ===\n{INTRO}\n\n## Tool: Read\nReads.\n```json\n{{\"type\":\"object\",\"x\":\"<\\u003c>\"}}\n```\n\n## Tool: ?\n```json\nnull\n```\n\n## Tool: ?\n=== END TOOL REFERENCE ==="
            )
        );
    }
}
