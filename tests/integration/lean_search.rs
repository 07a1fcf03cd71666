//! Lean search results and terminal output (round t47, area lsearch):
//! lossless work before any cap, names never hidden, honest markers.
//! Each payload is rebuilt from the shapes real tools print.

use crate::util::TestCommand;

/// The lean view of `input` as content type `ct`.
fn lean_as(input: &str, ct: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", ct],
        input.as_bytes(),
        0,
    );
    String::from_utf8(r.stdout.clone()).expect("UTF-8 view")
}

/// The lines markers say they stand for (`… N more matches`).
fn marked(view: &str) -> usize {
    view.lines()
        .filter_map(|l| l.strip_prefix("\u{2026} "))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum()
}

#[test]
fn a_small_grep_keeps_every_definition_with_its_path_once() {
    // `grep -rn 'def '`: 18 methods of one file, indented, and two of
    // another: small enough to read whole.
    let mut s = String::new();
    for k in 0..18 {
        s.push_str(&format!(
            "src/_pytest/_io/terminalwriter.py:{}:    def method_{k}(self) -> None:\n",
            20 + k * 9
        ));
    }
    s.push_str("src/_pytest/_io/wcwidth.py:8:def wcwidth(c: str) -> int:\n");
    s.push_str("src/_pytest/_io/wcwidth.py:46:def wcswidth(s: str) -> int:\n");
    let view = lean_as(&s, "search-result");
    for k in 0..18 {
        assert!(
            view.contains(&format!("{}:def method_{k}(self) -> None:\n", 20 + k * 9)),
            "{k}: {view}"
        );
    }
    assert_eq!(
        view.matches("src/_pytest/_io/terminalwriter.py").count(),
        1,
        "{view}"
    );
    assert!(
        view.contains("src/_pytest/_io/wcwidth.py\n8:def wcwidth"),
        "{view}"
    );
    assert!(!view.contains("more matches"), "{view}");
}

#[test]
fn a_small_grep_writes_each_path_once_and_each_hit_on_its_line() {
    let mut s = String::new();
    for n in [651, 669, 700, 720] {
        s.push_str(&format!(
            "src/_pytest/main.py:{n}:            warnings.warn(\n"
        ));
    }
    s.push_str("src/_pytest/main.py:800:    warnings.warn(CONSOLE_MAIN, stacklevel=2)\n");
    for n in [205, 450, 628] {
        s.push_str(&format!(
            "src/_pytest/mark/structures.py:{n}:        warnings.warn(\n"
        ));
    }
    let view = lean_as(&s, "search-result");
    assert!(
        view.starts_with(
            "src/_pytest/main.py\n651:warnings.warn(\n669:warnings.warn(\n700:warnings.warn(\n"
        ),
        "{view}"
    );
    assert!(
        view.contains("800:warnings.warn(CONSOLE_MAIN, stacklevel=2)"),
        "{view}"
    );
    assert!(
        view.contains("src/_pytest/mark/structures.py\n205:warnings.warn(\n450:"),
        "{view}"
    );
    assert!(!view.contains("more matches"), "{view}");
}

#[test]
fn a_large_grep_caps_files_but_keeps_their_definitions_and_never_marks_one_hit() {
    // 30 files of 40 distinct hits each (a large output); the definition
    // of each file comes last.
    let mut s = String::new();
    for f in 0..30 {
        for k in 0..40 {
            s.push_str(&format!(
                "pkg/mod{f:02}/lib.rs:{}:        let value_{k} = compute_something_long(input_{k}, {f});\n",
                10 + k
            ));
        }
        s.push_str(&format!(
            "pkg/mod{f:02}/lib.rs:90:pub fn entry_{f}(input: &str) -> usize {{\n"
        ));
    }
    let view = lean_as(&s, "search-result");
    assert!(view.len() * 3 < s.len(), "{}", view.len());
    for f in 0..30 {
        assert!(
            view.contains(&format!("90:pub fn entry_{f}(input: &str)")),
            "{f}: {view}"
        );
    }
    // Every hit is shown or counted by a marker; no marker counts one.
    let shown = view.lines().filter(|l| l.contains(":let value_")).count();
    assert_eq!(shown + marked(&view), 30 * 40, "{view}");
    for l in view.lines().filter(|l| l.contains(" more matches")) {
        assert!(!l.starts_with("\u{2026} 1 more"), "{l}");
        // A marker names the file whose hits it stands for.
        assert!(l.contains(" more matches in pkg/mod"), "{l}");
    }
}

#[test]
fn a_url_list_is_never_read_as_grep_records_and_drops_badges_before_links() {
    // Links pulled out of READMEs: badges, repeated licence links, links
    // with ports (once read as `path:N:` records of a path "http").
    let mut s = String::new();
    for k in 0..12 {
        s.push_str(&format!("https://img.shields.io/crates/v/crate{k}.svg\n"));
        s.push_str(&format!(
            "https://github.com/owner{k}/crate{k}/actions/workflows/ci.yml/badge.svg\n"
        ));
        s.push_str(&format!("https://github.com/owner{k}/crate{k}\n"));
        s.push_str(&format!("https://docs.rs/crate{k}/\n"));
        s.push_str("http://opensource.org/licenses/MIT\n");
    }
    s.push_str("http://localhost:8000/xyz?abc\n");
    s.push_str("http://localhost:8000/a:12:b\n");
    let view = lean_as(&s, "search-result");
    assert!(!view.contains("matches in http"), "{view}");
    for k in 0..12 {
        assert!(
            view.contains(&format!("/owner{k}/crate{k}\n")),
            "{k}: {view}"
        );
        assert!(view.contains(&format!("/crate{k}/\n")), "{k}: {view}");
    }
    assert!(
        view.contains("http://opensource.org/licenses/MIT \u{d7}12\n"),
        "{view}"
    );
    assert!(
        view.contains("/xyz?abc\n") && view.contains("/a:12:b\n"),
        "{view}"
    );
    assert!(
        view.contains("\u{2026} 24 badge, CI and .svg image links elided (caveman) \u{2026}"),
        "{view}"
    );
    assert!(!view.contains("shields"), "{view}");
}
