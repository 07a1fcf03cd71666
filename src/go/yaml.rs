//! Whether a payload decodes as a YAML stream the way gopkg.in/yaml.v3
//! v3.0.1 decodes it into `any` (spec/detect.md §10 step 5).
//!
//! yaml-rust2's event parser does the syntax; around it this module adds
//! what yaml.v3 checks and yaml-rust2 does not (duplicate keys compared by
//! node kind and unquoted text, explicit core tags whose value does not fit,
//! raw control characters, content after `...` without a new `---`, a
//! `%YAML` version other than 1.1) and smooths over what yaml-rust2 rejects
//! and yaml.v3 accepts (a TAB after `:`, a directive that follows content).

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

const CORE: &str = "tag:yaml.org,2002:";

/// True when `s` decodes as a stream of YAML documents without error.
pub fn decodes(s: &str) -> bool {
    if has_forbidden_chars(s) || content_after_end(s) {
        return false;
    }
    // Most documents need no rewriting: parse them in place.
    let plain = !s.contains(":\t") && !s.starts_with('%') && !s.contains("\n%");
    let prepared = if plain {
        std::borrow::Cow::Borrowed(s)
    } else {
        match prepare(s) {
            Some(p) => std::borrow::Cow::Owned(p),
            None => return false,
        }
    };
    let mut checker = Checker::default();
    let ok = Parser::new_from_str(&prepared)
        .load(&mut checker, true)
        .is_ok();
    ok && !checker.failed
}

/// Raw control characters yaml.v3's reader refuses.
fn has_forbidden_chars(s: &str) -> bool {
    s.chars().any(|c| {
        let u = c as u32;
        (u < 0x20 && !matches!(c, '\t' | '\n' | '\r')) || (0x7f..=0x9f).contains(&u)
    })
}

fn is_meaningful(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// `...` followed by more content without a new `---` (or a directive).
fn content_after_end(s: &str) -> bool {
    let mut ended = false;
    for line in s.lines() {
        let t = line.trim_end();
        if t == "..." || t.starts_with("... ") {
            ended = true;
            continue;
        }
        if ended && is_meaningful(line) {
            if t == "---" || t.starts_with("--- ") || t.starts_with('%') {
                ended = false;
            } else {
                return true;
            }
        }
    }
    false
}

/// Rewrites what yaml-rust2 refuses but yaml.v3 accepts; `None` when a
/// directive alone decides the stream is invalid.
fn prepare(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len() + 16);
    let mut seen_content = false;
    let mut ended = false;
    for line in s.split_inclusive('\n') {
        if line.starts_with('%') {
            if let Some(rest) = line.strip_prefix("%YAML") {
                if rest.split_whitespace().next() != Some("1.1") {
                    return None;
                }
            }
            if seen_content && !ended {
                out.push_str("...\n");
            }
            seen_content = false;
            ended = false;
            out.push_str(line);
            continue;
        }
        let t = line.trim_end();
        if t == "..." {
            ended = true;
        } else if is_meaningful(line) && !t.starts_with("---") {
            seen_content = true;
            ended = false;
        }
        if line.contains(":\t") {
            out.push_str(&line.replace(":\t", ": "));
        } else {
            out.push_str(line);
        }
    }
    Some(out)
}

#[derive(Debug)]
enum Frame {
    Seq,
    /// Keys seen so far (scalar text) and whether the next node is a key.
    Map {
        keys: rustc_hash::FxHashSet<String>,
        expect_key: bool,
    },
}

#[derive(Default)]
struct Checker {
    stack: Vec<Frame>,
    failed: bool,
}

impl Checker {
    /// A node starts or is a leaf; `key` is its scalar text if scalar.
    fn node(&mut self, scalar_key: Option<&str>) {
        if let Some(Frame::Map { keys, expect_key }) = self.stack.last_mut() {
            if *expect_key {
                if let Some(k) = scalar_key {
                    if !keys.insert(k.to_string()) {
                        self.failed = true;
                    }
                }
            }
            *expect_key = !*expect_key;
        }
    }
}

fn fits_core_tag(suffix: &str, v: &str) -> bool {
    let digits_ok =
        |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c == '_' || c.is_digit(radix));
    let int = |v: &str| {
        let b = v.strip_prefix(['+', '-']).unwrap_or(v);
        if let Some(h) = b.strip_prefix("0x") {
            digits_ok(h, 16)
        } else if let Some(o) = b.strip_prefix("0o") {
            digits_ok(o, 8)
        } else if let Some(bin) = b.strip_prefix("0b") {
            digits_ok(bin, 2)
        } else {
            digits_ok(b, 10)
        }
    };
    match suffix {
        "int" => int(v),
        "float" => {
            let b = v.strip_prefix(['+', '-']).unwrap_or(v);
            matches!(b, ".inf" | ".Inf" | ".INF")
                || matches!(v, ".nan" | ".NaN" | ".NAN")
                || int(v)
                || b.replace('_', "").parse::<f64>().is_ok_and(|_| {
                    b.bytes().all(|c| {
                        c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-' | b'_')
                    })
                })
        }
        "bool" => matches!(v, "true" | "True" | "TRUE" | "false" | "False" | "FALSE"),
        "null" => matches!(v, "" | "~" | "null" | "Null" | "NULL"),
        "binary" => {
            let clean: Vec<u8> = v.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            let body = clean.iter().rposition(|&b| b != b'=').map_or(0, |p| p + 1);
            clean.len().is_multiple_of(4)
                && clean.len() - body <= 2
                && clean[..body]
                    .iter()
                    .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
        }
        "timestamp" => is_timestamp(v),
        _ => true,
    }
}

/// yaml.v3's accepted timestamp layouts (date, or date and time).
fn is_timestamp(v: &str) -> bool {
    let (date, time) = match v.find(['T', 't', ' ']) {
        Some(i) => (&v[..i], Some(&v[i + 1..])),
        None => (v, None),
    };
    let parts: Vec<&str> = date.split('-').collect();
    let num = |s: &str, min: usize, max: usize| {
        s.len() >= min && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit())
    };
    if parts.len() != 3 || !num(parts[0], 4, 4) || !num(parts[1], 1, 2) || !num(parts[2], 1, 2) {
        return false;
    }
    let Some(t) = time else {
        return true;
    };
    let t = t.trim_start();
    let end = t.find(['Z', '+', '-']).unwrap_or(t.len());
    let (clock, zone) = t.split_at(end);
    let clock = clock.trim_end();
    let (hms, frac) = match clock.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (clock, None),
    };
    let hp: Vec<&str> = hms.split(':').collect();
    if hp.len() != 3 || !hp.iter().all(|p| num(p, 1, 2)) {
        return false;
    }
    if frac.is_some_and(|f| !num(f, 1, 9)) {
        return false;
    }
    zone.is_empty()
        || zone == "Z"
        || (zone.len() >= 3 && zone[1..].split(':').all(|p| num(p, 1, 2)))
}

impl MarkedEventReceiver for Checker {
    fn on_event(&mut self, ev: Event, _mark: Marker) {
        match ev {
            Event::Scalar(value, _style, _anchor, tag) => {
                if let Some(t) = &tag {
                    if t.handle == CORE && !fits_core_tag(&t.suffix, &value) {
                        self.failed = true;
                    }
                }
                self.node(Some(&value));
            }
            Event::Alias(_) => self.node(None),
            Event::SequenceStart(..) => {
                self.node(None);
                self.stack.push(Frame::Seq);
            }
            Event::MappingStart(..) => {
                self.node(None);
                self.stack.push(Frame::Map {
                    keys: Default::default(),
                    expect_key: true,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                self.stack.pop();
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decodes;

    fn with(extra: &str) -> bool {
        let base: String = (0..12).map(|i| format!("key{i}: x\n")).collect();
        decodes(&format!("{base}{extra}"))
    }

    #[test]
    fn yaml_v3_errors() {
        for bad in [
            "a: 1\na: 2\n",
            "x: 1\n\"x\": 2\n",
            "b: &a {c: 1}\nd:\n  <<: *a\n  <<: *a\n",
            "f: {p: 1, p: 2}\n",
            "k: !!int x\n",
            "k: !!float abc\n",
            "k: !!bool yes\n",
            "k: !!binary abc\n",
            "k: !!timestamp x\n",
            "k:\n\tv: 1\n",
            "k: a\u{1}b\n",
            "k: a\u{85}b\n",
            "k: v\n...\nz: 1\n",
            "k: @x\n",
            "k: `x\n",
            "k: %x\n",
            "k: |x\n",
            "a: b: c\n",
            "k: *nope\n",
            "k: [1, 2\n",
            "a:\n  b: 1\n c: 2\n",
        ] {
            assert!(!with(bad), "should fail: {bad:?}");
        }
        assert!(!decodes("%YAML 1.2\n---\nk: v\n"));
    }

    #[test]
    fn yaml_v3_accepts() {
        for good in [
            "dup: 1\nDup: 2\n",
            "true: 1\nTrue: 2\n",
            "n1: 1\nn01: 2\n1: a\n01: b\n",
            "~: 1\nnull: 2\n",
            "k: !!int 3\n",
            "k: !!str 3\n",
            "k: !custom v\n",
            "k:\tv\n",
            "k: v\t\n",
            "k: v\n---\n%YAML 1.1\n---\nz: 1\n",
            "\u{feff}k: v\n",
            "k: v\n\u{feff}z: 1\n",
            "? k\n: v\n",
            "d: 2024-13-45\nh: 0x1F\nu: 1_000\ne: =\nm: <<\n",
            "t: !!timestamp 2001-12-14t21:59:43.10-05:00\n",
            "b: !!binary aGVsbG8=\n",
            "f: !!float 1.5e3\n",
        ] {
            assert!(with(good), "should pass: {good:?}");
        }
        assert!(decodes("%YAML 1.1\n---\nk: v\n"));
        assert!(decodes("%TAG !e! tag:example.com,2000:\n---\nk: !e!x v\n"));
    }
}
