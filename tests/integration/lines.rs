//! Property tests of the line and section compressors' promises (log,
//! terminal, search-result, diff, text, config, repetition, html), through
//! the registry entry each content type routes to.

use caveman_engine::testing::compress_as;
use caveman_engine::ContentType;
use proptest::prelude::*;
use regex::Regex;

fn view(ct: ContentType, s: &str, query: &str) -> Option<String> {
    compress_as(&ct, s.as_bytes(), query).map(|b| String::from_utf8(b).expect("UTF-8 view"))
}

/// How an output line reads against the input: kept input line, or a
/// marker standing for `n` lines.
enum Out {
    Kept(usize),
    Marker(usize),
    Other,
}

/// Matches every output line to the input: kept lines verbatim and in
/// order, markers standing for the runs between them. Returns the reading
/// and whether every input line was accounted for.
fn align(input: &[&str], output: &[&str], marker: &Regex) -> (Vec<Out>, bool) {
    let mut at = 0;
    let mut reading = Vec::new();
    for line in output {
        if input.get(at) == Some(line) {
            reading.push(Out::Kept(at));
            at += 1;
        } else if let Some(c) = marker.captures(line) {
            let n: usize = c[1].parse().unwrap();
            reading.push(Out::Marker(n));
            at += n;
        } else {
            reading.push(Out::Other);
        }
    }
    (reading, at == input.len())
}

fn split(s: &str) -> Vec<&str> {
    s.strip_suffix('\n').unwrap_or(s).split('\n').collect()
}

/// Lines a service writes: levels, logfmt fields, stack frames, JSON,
/// blank lines, and now and then one of our own markers.
fn log_line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0u32..40, prop::sample::select(vec!["ok", "tick", "ok"])).prop_map(|(n, w)| format!("[INFO] step {n} {w}")),
        6 => (0u32..9, 0u32..300, prop::sample::select(vec!["info", "debug"])).prop_map(|(h, d, l)| format!("ts={d} level={l} msg=tick host=web-{h} dur={d}ms")),
        2 => (0u32..9).prop_map(|n| format!("{{\"level\":\"info\",\"event\":\"delivered\",\"id\":\"evt-{n:03}\",\"n\":null}}")),
        1 => Just("[ERROR] kaboom: undefined symbol".to_string()),
        1 => Just("  at frame (file.go:10)".to_string()),
        1 => Just("caused by: timeout".to_string()),
        1 => Just(String::new()),
        1 => Just("… 3 lines elided (caveman) …".to_string()),
    ]
}

fn log_text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(log_line(), 0..120),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, final_lf)| {
            let end = if crlf { "\r\n" } else { "\n" };
            let mut s = lines.join(end);
            if final_lf {
                s.push_str(end);
            }
            s
        })
}

fn log_keep() -> Regex {
    Regex::new(r#"(?i)((?-u:\b)(ERROR|FATAL|PANIC|EXCEPTION|TRACEBACK|FAIL|FAILED|FAILURE|WARN|WARNING)(?-u:\b)|^[\t\n\x0C\r ]+at[\t\n\x0C\r ]|^[\t\n\x0C\r ]+File "|\.go:[0-9]+|^[\t\n\x0C\r ]+--->|caused by)"#).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// log.md: kept lines verbatim and in order, markers' counts and kept
    /// lines add up to the input, no signal line dropped, every constant a
    /// summary states holds on each line it replaced, a second pass
    /// changes nothing, the same input gives the same bytes.
    #[test]
    fn log_promises(text in log_text(), query in prop::sample::select(vec!["", "tick web", "kaboom"])) {
        let Some(out) = view(ContentType::Log, &text, query) else { return Ok(()); };
        prop_assert_eq!(view(ContentType::Log, &text, query), Some(out.clone()));
        let marker = Regex::new(r"^… (\d+) lines elided \(caveman\)(: (.*))? …\r?$").unwrap();
        let contract = "… caveman: elided lines resemble shown lines";
        let input = split(&text);
        let mut output = split(&out);
        if output.last().is_some_and(|l| l.starts_with(contract)) {
            output.pop();
        }
        let (reading, complete) = align(&input, &output, &marker);
        prop_assert!(complete, "lines unaccounted for:\n{}\n---\n{}", text, out);
        let keep = log_keep();
        let mut at = 0;
        for (r, line) in reading.iter().zip(&output) {
            match r {
                Out::Kept(i) => at = i + 1,
                Out::Marker(n) => {
                    for dropped in &input[at..at + n] {
                        prop_assert!(!keep.is_match(dropped), "signal line dropped: {dropped:?}");
                        prop_assert!(!dropped.contains("lines elided (caveman)"));
                    }
                    let caps = marker.captures(line).unwrap();
                    if let Some(summary) = caps.get(3) {
                        if let Some(all) = summary.as_str().split("; ").find_map(|s| s.strip_prefix("all ")) {
                            for fact in all.split(' ').filter(|f| f.contains('=')) {
                                let (k, v) = fact.split_once('=').unwrap();
                                for dropped in &input[at..at + n] {
                                    let json = format!("\"{k}\":\"{v}\"");
                                    prop_assert!(dropped.contains(fact) || dropped.contains(&json), "{fact} not on {dropped:?}");
                                }
                            }
                        }
                    }
                    at += n;
                }
                Out::Other => prop_assert!(false, "unexpected line {line:?}"),
            }
        }
        match view(ContentType::Log, &out, query) {
            None => {}
            Some(again) => prop_assert_eq!(again, out),
        }
    }

    /// terminal.md: every kept line's cleaned text in order, markers for
    /// the rest, no signal line dropped, no complete CSI/OSC left, second
    /// pass unchanged, deterministic.
    #[test]
    fn terminal_promises(lines in prop::collection::vec(prop_oneof![
        4 => (0u32..30).prop_map(|n| format!("  \x1b[2m✓ passes assertion {n}\x1b[0m")),
        2 => (0u32..100).prop_map(|n| format!("fetch {n}%\rfetch {}%\rdone {n}", n / 2)),
        1 => Just("\x1b[31m✗ fails\x1b[0m AssertionError: expected 1".to_string()),
        1 => Just("b\x1b]0;title\x07c\x1b]0;open".to_string()),
        1 => Just("exit status 2".to_string()),
        1 => Just("\r\r\r".to_string()),
        1 => Just("\x1b".to_string()),
    ], 0..60)) {
        let text = lines.join("\n") + "\n";
        let Some(out) = view(ContentType::Terminal, &text, "") else { return Ok(()); };
        prop_assert_eq!(view(ContentType::Terminal, &text, ""), Some(out.clone()));
        let csi = Regex::new(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)").unwrap();
        prop_assert!(!csi.is_match(&out), "escape left in {out:?}");
        match view(ContentType::Terminal, &out, "") {
            None => {}
            Some(again) => prop_assert_eq!(again, out),
        }
    }

    /// searchresult.md: the first 8 and last 4 lines and every line with a
    /// signal word survive in order; second pass unchanged.
    #[test]
    fn search_promises(hits in prop::collection::vec((0u32..40, prop::sample::select(vec!["ordinary cache match", "ordinary cache match", "TOKEN leaked", "websocket reconnect"])), 0..60), query in prop::sample::select(vec!["", "websocket"])) {
        let text: String = hits.iter().map(|(n, w)| format!("src/file_{n:02}.go:{}:{w}\n", n + 10)).collect();
        let Some(out) = view(ContentType::SearchResult, &text, query) else { return Ok(()); };
        let marker = Regex::new(r"^… (\d+) search result lines elided \(caveman\) …$").unwrap();
        let input = split(&text);
        let output = split(&out);
        let (reading, complete) = align(&input, &output, &marker);
        prop_assert!(complete);
        let n = input.len();
        let kept: Vec<usize> = reading.iter().filter_map(|r| match r { Out::Kept(i) => Some(*i), _ => None }).collect();
        for (i, line) in input.iter().enumerate() {
            if i < 8 || i >= n - 4 || line.contains("TOKEN") {
                prop_assert!(kept.contains(&i), "line {i} dropped");
            }
        }
        prop_assert!(view(ContentType::SearchResult, &out, query).is_none());
    }

    /// diff.md: every header and changed line survives in order, second
    /// pass declines.
    #[test]
    fn diff_promises(body in prop::collection::vec(prop_oneof![
        6 => (0u32..99).prop_map(|n| format!(" context line {n}")),
        1 => (0u32..99).prop_map(|n| format!("-old {n}")),
        1 => (0u32..99).prop_map(|n| format!("+new {n}")),
        1 => Just("@@ -1,9 +1,9 @@".to_string()),
        1 => Just("\\ No newline at end of file".to_string()),
    ], 0..80)) {
        let text = format!("diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n{}\n", body.join("\n"));
        let Some(out) = view(ContentType::Diff, &text, "") else { return Ok(()); };
        let structural = |l: &&str| l.starts_with('+') || l.starts_with('-') || l.starts_with("@@ ") || l.starts_with("diff --git ") || l.starts_with("index ");
        let want: Vec<&str> = split(&text).into_iter().filter(structural).collect();
        let got: Vec<&str> = split(&out).into_iter().filter(structural).collect();
        prop_assert_eq!(got, want);
        prop_assert!(view(ContentType::Diff, &out, "").is_none());
    }

    /// text.md: every kept section verbatim and in order, fenced blocks
    /// whole, headings and signal sections kept, second pass unchanged.
    #[test]
    fn text_promises(paras in prop::collection::vec(prop_oneof![
        6 => (0u32..20).prop_map(|n| format!("Routine paragraph {n:02} with background material about the quarterly plan and its many details.")),
        1 => Just("NOTE: this paragraph is important and must stay visible to the reader.".to_string()),
        1 => (0u32..9).prop_map(|n| format!("## Heading {n}")),
        1 => Just("```\nfenced code\n\nwith a blank line\n```".to_string()),
    ], 10..60), query in prop::sample::select(vec!["", "quarterly"])) {
        let text = paras.join("\n\n") + "\n";
        let Some(out) = view(ContentType::Text, &text, query) else { return Ok(()); };
        let pieces: Vec<&str> = out.split("\n\n").collect();
        let marker = Regex::new(r"^… (\d+) sections elided \(caveman\) …$").unwrap();
        let mut at = 0;
        let mut i = 0;
        while i < pieces.len() {
            let p = pieces[i];
            if let Some(c) = marker.captures(p) {
                let n: usize = c[1].parse().unwrap();
                for s in &paras[at..at + n] {
                    prop_assert!(!s.starts_with('#') && !s.starts_with("NOTE"), "kept section dropped: {s}");
                }
                at += n;
                i += 1;
            } else {
                // A fenced block spans pieces of the split on blank lines.
                let want = paras[at].trim();
                let parts = want.split("\n\n").count();
                prop_assert_eq!(pieces[i..i + parts].join("\n\n"), want);
                at += 1;
                i += parts;
            }
        }
        prop_assert_eq!(at, paras.len());
        prop_assert!(view(ContentType::Text, &out, query).is_none());
    }

    /// repetition.md: the output expands back to the input.
    #[test]
    fn repetition_expands_back(runs in prop::collection::vec((prop::sample::select(vec!["retry connect", "", "   ", "… caveman: 2 identical lines elided …", "poll"]), 1usize..8), 0..40), crlf in any::<bool>()) {
        let end = if crlf { "\r" } else { "" };
        let lines: Vec<String> = runs.iter().flat_map(|(l, k)| std::iter::repeat_n(format!("{l}{end}"), *k)).collect();
        let text = lines.join("\n") + "\n";
        let Some(out) = view(ContentType::Repetition, &text, "") else { return Ok(()); };
        let marker = Regex::new(r"^… caveman: (\d+) identical lines elided …$").unwrap();
        // Walk the input with a cursor: an output line is the input line
        // there, or a marker repeating the line before it.
        let input: Vec<&str> = text.split('\n').collect();
        let mut expanded: Vec<&str> = Vec::new();
        for line in out.split('\n') {
            if input.get(expanded.len()) == Some(&line) {
                expanded.push(line);
                continue;
            }
            let c = marker.captures(line);
            prop_assert!(c.is_some(), "neither input nor marker: {line:?}");
            let prev = *expanded.last().unwrap();
            for _ in 0..c.unwrap()[1].parse::<usize>().unwrap() {
                expanded.push(prev);
            }
        }
        prop_assert_eq!(expanded.join("\n"), text);
    }

    /// Arbitrary bytes never panic any line or section compressor.
    #[test]
    fn no_panic_on_arbitrary_bytes(bytes in prop::collection::vec(prop_oneof![
        Just(b'\n'), Just(b'\r'), Just(0x1b), Just(b'['), Just(b']'), Just(0x07), Just(b' '),
        Just(b'a'), Just(b'='), Just(b'"'), Just(b'{'), Just(b'}'), Just(b'<'), Just(b'>'),
        Just(b'#'), Just(b'`'), Just(b'-'), Just(b'+'), Just(b':'), Just(0xff), Just(0xc3),
    ], 0..400), query in prop::sample::select(vec!["", "a"])) {
        for ct in [ContentType::Log, ContentType::Terminal, ContentType::SearchResult, ContentType::Diff,
                   ContentType::Text, ContentType::Html, ContentType::Config, ContentType::Repetition,
                   ContentType::Toolschema, ContentType::ToolschemaAnnotations, ContentType::A11y] {
            let _ = compress_as(&ct, &bytes, query);
        }
    }
}

/// Large and deep inputs stay linear and do not overflow.
#[test]
fn adversarial_shapes() {
    let one_line = "x".repeat(10) + &"\r12%".repeat(250_000) + "\n";
    assert_eq!(view(ContentType::Terminal, &one_line, "").unwrap(), "12%\n");
    let soup = "\x1b[".repeat(200_000) + &"\x1b]".repeat(200_000);
    let _ = view(ContentType::Terminal, &soup, "");
    let open_script = "<html><body><script>".to_string() + &"x".repeat(2_000_000);
    let _ = view(ContentType::Text, &open_script, "");
    let deep = "<div>".repeat(10_000) + "<p>text</p>";
    let _ = view(ContentType::Html, &deep, "");
    let attr = format!(
        "<html><body><div class=\"{}\"><p>x</p></div></body></html>",
        "a".repeat(1 << 20)
    );
    let _ = view(ContentType::Html, &attr, "");
    let unclosed = "<p><b><i><a>".repeat(20_000);
    let _ = view(ContentType::Html, &unclosed, "");
}

/// config.md: a YAML view still parses and keeps every top-level key.
#[test]
fn yaml_view_parses_and_keeps_top_level_keys() {
    let mut s = String::from("version: 2\nname: fleet\nowner: platform\nservices:\n");
    for k in 0..20 {
        s.push_str(&format!(
            "  - name: svc-{k:02}\n    port: 80{k:02}\n    replicas: 2\n"
        ));
    }
    s.push_str("defaults:\n  timeout: 30\n  retries: 3\n");
    let out = view(ContentType::Config, &s, "").unwrap();
    for key in ["version:", "name:", "owner:", "services:", "defaults:"] {
        assert!(out.lines().any(|l| l.starts_with(key)), "{key} missing");
    }
    assert!(caveman_engine::testing::yaml_decodes(&out), "{out}");
    assert!(out.lines().count() < 67);
    assert!(view(ContentType::Config, &out, "").is_none());
}
