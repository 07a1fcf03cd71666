//! The tool-schema compressor (content type `toolschema`, method
//! `toolschema`; `--type` only; spec/toolschema.md §A): a tool catalog or
//! JSON Schema decoded, annotation keys inside schemas dropped, long
//! descriptions cut to their lead sentence and every constraint sentence,
//! and the result written as compact Go `json.Marshal` output.

use std::sync::LazyLock;

use regex::Regex;

use super::{Compressed, Decline, Input};
use crate::go::json::{self as gojson, write_json_str, Json, Value};

/// Descriptions up to this long (trimmed) are kept whole.
const KEEP_WHOLE: usize = 160;
/// The lead sentence is cut to this many bytes.
const LEAD_CAP: usize = 80;
/// A cut lead sentence ends at its last space if that is past this byte.
const LEAD_SPACE: usize = 40;

/// Keys dropped inside schemas.
const DROPPED: [&str; 5] = ["examples", "example", "$comment", "title", "$schema"];
/// Schema keys copied as decoded, not walked.
const VERBATIM: [&str; 4] = ["enum", "required", "default", "const"];
/// Schema keys whose children are user-chosen names, not schema keys.
const NAME_MAPS: [&str; 7] = [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
    "dependentRequired",
    "dependencies",
];
/// Envelope keys that hold a schema.
const SCHEMA_KEYS: [&str; 3] = ["input_schema", "inputSchema", "parameters"];
/// The envelope key that nests another envelope (OpenAI's `function`).
const NEST_KEY: &str = "function";

/// Words that keep a sentence (toolschema.md §A.6).
static CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    crate::go::regexp::compile(
        r"(?i)\b(?:must|must not|cannot|can't|shall|require\w*|reject\w*|disallow\w*|forbidden|invalid|not allowed|not permitted|exactly one|only one of|one of|at least|at most|mutually exclusive|only|unique|case[- ]?sensitive|max|min|maximum|minimum|range|between|greater than|less than|more than|fewer than|no more than|no less than|over|above|below|under|beyond|exceed\w*|format\w*|iso[- ]?\d*|rfc[- ]?\d*|absolute)\b",
    )
});

/// Abbreviations a period does not end a sentence after (§A.5 step 3).
const ABBREVIATIONS: [&str; 28] = [
    "e.g", "i.e", "eg", "ie", "etc", "vs", "cf", "al", "viz", "resp", "approx", "no", "fig",
    "figs", "dr", "mr", "mrs", "ms", "prof", "sr", "jr", "st", "inc", "ltd", "corp", "co", "dept",
    "est",
];

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let tape = gojson::decode_go(input.body).map_err(|_| Decline("not one JSON value"))?;
    let mut out = Vec::with_capacity(input.body.len());
    document(&mut out, tape.root());
    Ok(Compressed::new(out))
}

/// How a value is walked.
#[derive(Clone, Copy)]
enum Mode {
    Envelope,
    Schema,
    /// A schema object whose keys are names (every key kept).
    Names,
}

fn document(out: &mut Vec<u8>, v: Json<'_>) {
    match v.get() {
        Value::Array(_) => walk(out, v, Mode::Envelope),
        Value::Object(members) => {
            let keys: Vec<&str> = members.iter().map(|(k, _)| k).collect();
            if keys.contains(&"tools") {
                write_object(out, members.iter(), |out, k, v| {
                    if k == "tools" {
                        walk(out, v, Mode::Envelope);
                    } else {
                        gojson::write(out, v);
                    }
                    true
                });
            } else if keys
                .iter()
                .any(|k| *k == "name" || *k == NEST_KEY || SCHEMA_KEYS.contains(k))
            {
                walk(out, v, Mode::Envelope);
            } else {
                walk(out, v, Mode::Schema);
            }
        }
        _ => gojson::write(out, v),
    }
}

/// Writes an object's members in order (they are sorted, as Go writes a
/// map); `member` writes one value and says whether it was written.
fn write_object<'t>(
    out: &mut Vec<u8>,
    members: impl Iterator<Item = (&'t str, Json<'t>)>,
    mut member: impl FnMut(&mut Vec<u8>, &str, Json<'t>) -> bool,
) {
    out.push(b'{');
    let mut first = true;
    for (k, v) in members {
        let mark = out.len();
        if !first {
            out.push(b',');
        }
        write_json_str(out, k.as_bytes());
        out.push(b':');
        if member(out, k, v) {
            first = false;
        } else {
            out.truncate(mark);
        }
    }
    out.push(b'}');
}

fn walk(out: &mut Vec<u8>, v: Json<'_>, mode: Mode) {
    match v.get() {
        Value::Array(items) => {
            let item_mode = match mode {
                Mode::Envelope => Mode::Envelope,
                Mode::Schema | Mode::Names => Mode::Schema,
            };
            out.push(b'[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                walk(out, it, item_mode);
            }
            out.push(b']');
        }
        Value::Object(members) => write_object(out, members.iter(), |out, k, v| {
            match mode {
                Mode::Envelope => match (k, v.get()) {
                    (k, _) if SCHEMA_KEYS.contains(&k) => walk(out, v, Mode::Schema),
                    (NEST_KEY, _) => walk(out, v, Mode::Envelope),
                    ("description", Value::String(s)) => {
                        write_json_str(out, description(s).as_bytes())
                    }
                    _ => gojson::write(out, v),
                },
                Mode::Names => walk(out, v, Mode::Schema),
                Mode::Schema => match (k, v.get()) {
                    (k, _) if DROPPED.contains(&k) => return false,
                    ("description", Value::String(s)) => {
                        write_json_str(out, description(s).as_bytes())
                    }
                    (k, _) if VERBATIM.contains(&k) => gojson::write(out, v),
                    (k, _) if NAME_MAPS.contains(&k) => walk(out, v, Mode::Names),
                    _ => walk(out, v, Mode::Schema),
                },
            }
            true
        }),
        _ => gojson::write(out, v),
    }
}

/// A description shortened (toolschema.md §A.4): whole up to 160 bytes,
/// else every constraint sentence and the first other sentence, capped.
pub(crate) fn description(s: &str) -> String {
    let t = s.trim();
    if t.len() <= KEEP_WHOLE {
        return t.to_string();
    }
    let mut kept: Vec<&str> = Vec::new();
    let mut lead_taken = false;
    for sentence in sentences(t) {
        if CONSTRAINT.is_match(sentence) {
            kept.push(sentence);
        } else if !lead_taken {
            lead_taken = true;
            kept.push(lead(sentence));
        }
    }
    kept.join(" ")
}

/// The sentence splitter of toolschema.md §A.5.
fn sentences(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'.' {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            j += 1;
        }
        if j == i + 1 || j >= b.len() {
            i += 1;
            continue;
        }
        let upper = s[j..]
            .chars()
            .next()
            .is_some_and(crate::go::unicode::is_upper);
        if !upper || is_abbreviation(&b[..i]) {
            i += 1;
            continue;
        }
        out.push(s[start..=i].trim());
        start = j;
        i = j;
    }
    out.push(s[start..].trim());
    out
}

/// Whether the word before a period (`before` ends just before it) is an
/// abbreviation: the run of ASCII letters and periods before it, periods
/// stripped from both ends and lowercased, is one letter, holds a period,
/// or is in the list.
fn is_abbreviation(before: &[u8]) -> bool {
    let start = before
        .iter()
        .rposition(|c| !(c.is_ascii_alphabetic() || *c == b'.'))
        .map_or(0, |p| p + 1);
    let word = String::from_utf8_lossy(&before[start..]);
    let word = word.trim_matches('.').to_ascii_lowercase();
    if word.is_empty() {
        return false;
    }
    word.len() == 1 || word.contains('.') || ABBREVIATIONS.contains(&word.as_str())
}

/// The lead sentence capped at 80 bytes (§A.7).
fn lead(s: &str) -> &str {
    if s.len() <= LEAD_CAP {
        return s;
    }
    let mut cut = LEAD_CAP;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut t = &s[..cut];
    if let Some(sp) = t.rfind(' ') {
        if sp > LEAD_SPACE {
            t = &t[..sp];
        }
    }
    t.trim_end_matches(' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_schema_description() {
        let d = "Create a calendar event for the signed-in user. e.g. Standup with the team. The title is shown to every attendee and appears in reminders sent by email to all of them and more. Dr. Smith approves v1.2 events. Times must be RFC3339 with an offset. Attendees are listed in the order given. At most 50 attendees are accepted. The organizer is added automatically.";
        assert_eq!(sentences(d).len(), 7);
        assert_eq!(
            description(d),
            "Create a calendar event for the signed-in user. e.g. Standup with the team. Times must be RFC3339 with an offset. At most 50 attendees are accepted."
        );
    }

    #[test]
    fn splitter_edges() {
        assert_eq!(
            sentences("A. Smith went. 3. Foo"),
            ["A. Smith went. 3.", "Foo"]
        );
        assert_eq!(sentences("Ends (x). Next"), ["Ends (x).", "Next"]);
        assert_eq!(sentences("ends here. "), ["ends here."]);
        assert_eq!(sentences("x.\u{c9}tat"), ["x.\u{c9}tat"]);
        assert_eq!(sentences("xy. \u{c9}tat"), ["xy.", "\u{c9}tat"]);
        assert_eq!(sentences("x. \u{c9}tat"), ["x. \u{c9}tat"]);
        assert_eq!(sentences("why? Not! Split."), ["why? Not! Split."]);
    }

    #[test]
    fn lead_cap() {
        let s = "word ".repeat(30);
        assert_eq!(lead(s.trim()), "word ".repeat(16).trim());
        let long = "x".repeat(100);
        assert_eq!(lead(&long), "x".repeat(80));
    }
}
