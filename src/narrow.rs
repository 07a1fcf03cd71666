//! `retrieve HANDLE QUERY`: a narrowed view of an original made of whole
//! units joined by gap markers (spec/store.md §6). Under lean a unit keeps
//! its first line's indentation (the reference trims it away, so a YAML
//! or Python paragraph loses its shape) and the view ends with a newline.

use crate::compress::shared::relevance;
use crate::go::json::{self as gojson, Json, Value};

use crate::go::unicode::{is_blank, trim_space};
use crate::profile::Profile;

/// At most this many hits are shown.
const MAX_HITS: usize = 20;
const GAP: &str = "\u{2026} [caveman: non-adjacent] \u{2026}";

/// A paragraph or line unit: trimmed (compat), or under lean only its
/// blank lines before and its whitespace after removed.
fn trim_unit(piece: &str, profile: Profile) -> String {
    if !profile.is_lean() {
        return piece.trim().to_string();
    }
    let piece = piece.trim_end();
    let mut start = 0;
    for line in piece.split_inclusive('\n') {
        if !line.trim().is_empty() {
            break;
        }
        start += line.len();
    }
    piece[start..].to_string()
}

/// Units of the original and an optional header prelude.
fn units(c: &[u8], profile: Profile) -> Option<(Option<String>, Vec<String>)> {
    if let Ok(v) = gojson::decode_go(c) {
        let mut groups: Vec<Vec<String>> = Vec::new();
        collect_groups(v.root(), &mut groups);
        if groups.is_empty() {
            return None;
        }
        let mut u = vec![String::new()];
        for g in groups {
            u.extend(g);
            u.push(String::new());
        }
        return Some((None, u));
    }
    if let Some(r) = csv_units(c) {
        return Some(r);
    }
    let text = String::from_utf8_lossy(c);
    let pieces: Vec<String> = if text.contains("\n\n") {
        text.split("\n\n").map(|p| trim_unit(p, profile)).collect()
    } else {
        text.split('\n').map(|p| trim_unit(p, profile)).collect()
    };
    let u: Vec<String> = pieces.into_iter().filter(|p| !p.is_empty()).collect();
    if u.is_empty() {
        None
    } else {
        Some((None, u))
    }
}

fn collect_groups(v: Json<'_>, groups: &mut Vec<Vec<String>>) {
    match v.get() {
        Value::Object(m) => {
            for (_, val) in m {
                collect_groups(val, groups);
            }
        }
        Value::Array(items) => {
            if !items.is_empty() && items.iter().all(|i| i.is_object()) {
                groups.push(
                    items
                        .iter()
                        .map(|i| {
                            let mut out = Vec::new();
                            gojson::write_indented(&mut out, i, 0);
                            String::from_utf8(out).unwrap_or_default()
                        })
                        .collect(),
                );
            } else {
                for i in items {
                    collect_groups(i, groups);
                }
            }
        }
        _ => {}
    }
}

fn csv_units(c: &[u8]) -> Option<(Option<String>, Vec<String>)> {
    let text = std::str::from_utf8(c).ok()?;
    if is_blank(c) {
        return None;
    }
    let t = trim_space(c);
    if t[0] == b'{' || t[0] == b'[' {
        return None;
    }
    let first = t.split(|&b| b == b'\n').next().unwrap_or(t);
    let tabs = first.iter().filter(|&&b| b == b'\t').count();
    let commas = first.iter().filter(|&&b| b == b',').count();
    let delim = if tabs > commas { b'\t' } else { b',' };
    if !first.contains(&delim) {
        return None;
    }
    let records = crate::go::csv::read_csv(text, delim)?;
    if records.len() < 3 || records.row(0).len() < 2 {
        return None;
    }
    // Record i runs from the end of record i - 1 to its own end.
    let slice = |a: u32, b: u32| {
        text[a as usize..b as usize]
            .trim_end_matches(['\r', '\n'])
            .to_string()
    };
    let header = slice(0, records.ends[0]);
    let u = records.ends.windows(2).map(|w| slice(w[0], w[1])).collect();
    Some((Some(header), u))
}

/// True when no part of the original matches the query: no unit scores
/// (or, for an original without units, no query term occurs in it).
pub fn matches_nothing(original: &[u8], query: &str) -> bool {
    match units(original, Profile::Compat) {
        Some((_, units)) => relevance::scores(query, &units).iter().all(|&s| s <= 0.0),
        None => {
            let text = String::from_utf8_lossy(original).to_lowercase();
            relevance::query_terms(query)
                .iter()
                .all(|t| !text.contains(t.as_str()))
        }
    }
}

/// The narrowed view, or the original when narrowing would not shrink it
/// (spec/store.md §6, byte for byte).
pub fn narrow(original: Vec<u8>, query: &str) -> Vec<u8> {
    narrow_as(original, query, Profile::Compat)
}

/// [`narrow`] under `profile`: lean keeps indentation and ends the view
/// with a newline.
pub fn narrow_as(original: Vec<u8>, query: &str, profile: Profile) -> Vec<u8> {
    let Some((header, units)) = units(&original, profile) else {
        return original;
    };
    let scores = relevance::scores(query, &units);
    let mut hits: Vec<usize> = (0..units.len()).filter(|&i| scores[i] > 0.0).collect();
    if hits.is_empty() {
        return original;
    }
    hits.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    hits.truncate(MAX_HITS);
    hits.sort_unstable();
    let mut view = String::new();
    if let Some(h) = header {
        view.push_str(&h);
        view.push('\n');
    }
    for (j, &i) in hits.iter().enumerate() {
        if j == 0 {
            if i > 0 {
                view.push_str(GAP);
                view.push_str("\n\n");
            }
        } else if i == hits[j - 1] + 1 {
            view.push_str("\n\n");
        } else {
            view.push_str("\n\n");
            view.push_str(GAP);
            view.push_str("\n\n");
        }
        view.push_str(&units[i]);
    }
    if hits.last().is_some_and(|&l| l + 1 < units.len()) {
        view.push_str("\n\n");
        view.push_str(GAP);
    }
    if profile.is_lean() {
        view.push('\n');
    }
    if view.len() < original.len() {
        view.into_bytes()
    } else {
        original
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lean_keeps_indentation_and_ends_with_a_newline() {
        let mut s = String::from("intro\n\n");
        for i in 0..30 {
            s.push_str(&format!("  step{i}:\n    run: job {i}\n\n"));
        }
        s.push_str("    deploy:\n      run: broken thing\n");
        let compat = String::from_utf8(narrow(s.clone().into_bytes(), "broken")).unwrap();
        assert_eq!(
            compat,
            "\u{2026} [caveman: non-adjacent] \u{2026}\n\ndeploy:\n      run: broken thing"
        );
        let lean = String::from_utf8(narrow_as(s.into_bytes(), "broken", Profile::Lean)).unwrap();
        assert_eq!(
            lean,
            "\u{2026} [caveman: non-adjacent] \u{2026}\n\n    deploy:\n      run: broken thing\n"
        );
    }

    #[test]
    fn lean_lines_keep_their_indentation() {
        let mut s = String::new();
        for i in 0..40 {
            s.push_str(&format!("    line {i} fine\n"));
        }
        s.push_str("\t  line 40 broken   \n");
        let lean = String::from_utf8(narrow_as(s.into_bytes(), "broken", Profile::Lean)).unwrap();
        assert_eq!(
            lean,
            "\u{2026} [caveman: non-adjacent] \u{2026}\n\n\t  line 40 broken\n"
        );
    }

    #[test]
    fn csv_example() {
        let mut s = String::from("id,state\n");
        for i in 1..=40 {
            let st = if i == 6 || i == 26 { "broken" } else { "fine" };
            s.push_str(&format!("{i},{st}\n"));
        }
        let got = String::from_utf8(narrow(s.into_bytes(), "broken")).unwrap();
        assert_eq!(
            got,
            "id,state\n… [caveman: non-adjacent] …\n\n6,broken\n\n… [caveman: non-adjacent] …\n\n26,broken\n\n… [caveman: non-adjacent] …"
        );
    }
}
