//! Lean JSON views read by eye (round t47): what a marker states of the
//! elements it replaces is the whole truth (every value of a listed
//! field, the basis of a distinct count), and shapes that are the content
//! (accessibility trees, short lists of names) are never sampled. Each
//! payload is synthetic, shaped like the class of real payloads it
//! stands for.

use crate::util::TestCommand;

/// The lean view of `input`.
fn lean(input: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", "auto"],
        input.as_bytes(),
        0,
    );
    String::from_utf8(r.stdout.clone()).expect("UTF-8 view")
}

/// The summaries (`__caveman_invariants__`) of the view's markers.
fn summaries(view: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in view.lines() {
        let l = l.trim_start_matches(',').trim_end_matches(',');
        let l = l.trim_end_matches(']').trim_end_matches('}');
        if let Some(at) = l.find("\"__caveman_invariants__\":\"") {
            let rest = &l[at + 26..];
            let end = rest.rfind('"').unwrap_or(rest.len());
            out.push(rest[..end].replace("\\\"", "\""));
        }
    }
    out
}

/// The section of the first summary about `field` (`field: …`).
fn section(view: &str, field: &str) -> String {
    let all = summaries(view).join("; ");
    all.split("; ")
        .find(|s| s.starts_with(&format!("{field}: ")))
        .unwrap_or_else(|| panic!("no section for {field}:\n{view}"))
        .to_string()
}

#[test]
fn a_value_count_list_holds_long_values_shortened() {
    // Tweets: the client of most is a long `<a href=…>` anchor.
    let long = |site: &str, name: &str| {
        format!("<a href=\\\"https://{site}.example.com/download/client\\\" rel=\\\"nofollow\\\">{name}</a>")
    };
    let sources: Vec<String> = (0..73)
        .map(|i| match i % 73 {
            5 | 40 => "twittbot".to_string(),
            9 => "Janetter".to_string(),
            11 | 22 | 33 | 44 => long("iphone", "Twitter for iPhone"),
            50..=56 => "web".to_string(),
            _ => long("omamori", "Omamori bot"),
        })
        .collect();
    let items: Vec<String> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "{{\"id\":{},\"text\":\"tweet number {i} says something new\",\"source\":\"{s}\",\"lang\":\"ja\"}}",
                1000 + i * 7
            )
        })
        .collect();
    let view = lean(&format!("{{\"statuses\":[{}]}}", items.join(",")));
    let s = section(&view, "source");
    // The most held value is there (shortened, marked with `…`), with
    // its count, and the counts add up to the 73 holders.
    assert!(
        s.contains("<a href=\"https://omamori.example.com/dow…×59"),
        "{s}"
    );
    assert!(s.contains("…×4"), "{s}");
    let total: usize = s
        .split(' ')
        .filter_map(|w| w.rsplit_once('×'))
        .filter_map(|(_, c)| c.parse::<usize>().ok())
        .sum();
    assert_eq!(total, 73, "{s}");
}

#[test]
fn a_value_list_says_what_it_could_not_write() {
    // Values that carry a credential are never written: they are counted.
    let items: Vec<String> = (0..40)
        .map(|i| {
            let auth = match i % 10 {
                3 => "Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                _ => "none",
            };
            format!("{{\"seq\":{i},\"auth\":\"{auth}\",\"note\":\"row {i} of the log\"}}")
        })
        .collect();
    let view = lean(&format!("[{}]", items.join(",")));
    assert!(!view.contains("ghp_abc"), "{view}");
    let s = section(&view, "auth");
    assert_eq!(s, "auth: none×36 +1 other values (4)");
}

#[test]
fn a_distinct_count_states_its_basis() {
    // CI vendors: `env` is a variable name, or an object of them.
    let items: Vec<String> = (0..50)
        .map(|i| {
            let env = if i % 7 == 3 {
                format!("{{\"env\":\"VAR_{i}\",\"includes\":\"x{i}\"}}")
            } else {
                format!("\"ENV_VAR_{i}\"")
            };
            format!("{{\"name\":\"Vendor {i}\",\"constant\":\"VENDOR_{i}\",\"env\":{env}}}")
        })
        .collect();
    let view = lean(&format!("[{}]", items.join(",")));
    let s = section(&view, "env");
    assert_eq!(
        s, "env: 43 distinct among 43 strings, and 7 objects",
        "{view}"
    );
}
