//! Test runners' output under the lean line rules: the evidence of every
//! failure stays, the routine lines of passing tests fold to counts.
//!
//! - **Failure blocks** keep their evidence whatever the de-duplication
//!   and the rarity rules would drop: pytest's (`____ test_x ____` up to
//!   the next header or `====` line: the header, every `>` source line
//!   with its caret line, every `E` line, every `file:line:` location),
//!   unittest's (`FAIL: test_x (mod.Class)` up to its `----` rule: every
//!   line), jest's (`● suite › test`: every line but the code frame's
//!   context rows and `at` frames past the first few), cargo test's
//!   (`---- name stdout ----`: every line), go test's (`--- FAIL: TestX`,
//!   and under `-v` the log lines the failing test printed between its
//!   `=== RUN`/`=== CONT` and its verdict). A very long run of `E` lines
//!   keeps its first and last lines; the lines between are left to the
//!   line rules, whose marker counts them.
//! - The short test summary (`==== short test summary info ====`) and
//!   cargo's `failures:` list stay whole; `ignored` tests stay.
//! - **Routine lines** (`=== RUN`, `--- PASS`, `--- SKIP`, `test x ... ok`,
//!   pytest's `PASSED`/`SKIPPED`, jest's `✓`) are neither errors nor rare
//!   lines: they fold into markers that count them by kind and module
//!   ([`tally`]); the slowest few passing tests stay.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use rustc_hash::FxHashMap;

use super::super::lines::{Keep, Lines};

/// Lines of one unittest, jest or cargo failure block kept at most (its
/// location lines always).
const MAX_BLOCK_LINES: usize = 200;
/// `at` frames of one jest failure kept.
const JEST_FRAMES: usize = 3;
/// Passing tests kept as the slowest, when there are more than
/// [`SLOW_FROM`] of them.
const SLOWEST: usize = 3;
const SLOW_FROM: usize = 20;
/// Go tests whose log lines are remembered at once, at most.
const MAX_OPEN_TESTS: usize = 50_000;
/// Spans of log lines remembered for one go test, at most.
const MAX_SPANS: usize = 64;

/// What a routine line of a test run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Routine {
    /// A test started, paused or continued (`=== RUN`).
    Run,
    /// A test passed.
    Pass,
    /// A test was skipped.
    Skip,
}

/// A routine line: the kind, and the words that name its format and
/// its module (`--- PASS`, ``; `test … ok`, `src/lib.rs`).
static ROUTINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:\s*=== (?P<run>RUN|PAUSE|CONT|NAME)\s+\S+$",
        r"|\s*--- (?P<go>PASS|SKIP): \S+ \([\d.]+s\)$",
        r"|test (?P<cargo>\S.*?) \.\.\. ok$",
        r"|(?P<pyfile>[^\s:]+)::\S.*? (?P<py>PASSED|SKIPPED)(?:\s+\[\s*\d+%\])?$",
        r"|\s+(?P<jest>[✓√]|○ skipped) \S.*$",
        r"|\s*(?:::group::)?(?P<gs>PASS|SKIP) \S+\.\S+ \([\d.]+s\)$",
        r"|\w+ \((?P<ut>[\w.]+)\) \.\.\. (?:ok|(?P<uts>skipped\b.*))$)",
    ))
    .expect("routine pattern")
});

/// The routine kind of `line`, if it is one.
pub(crate) fn routine(line: &str) -> Option<Routine> {
    let line = line.trim_end_matches('\r');
    let t = line.trim_start();
    let may = t.starts_with("=== ")
        || t.starts_with("--- ")
        || line.starts_with("test ")
        || t.starts_with("PASS ")
        || t.starts_with("SKIP ")
        || line.contains("::")
        || line.contains(") ... ")
        || t.starts_with(['✓', '√', '○']);
    if !may {
        return None;
    }
    let c = ROUTINE.captures(line)?;
    Some(if c.name("run").is_some() {
        Routine::Run
    } else if let Some(m) = c.name("go").or(c.name("py")).or(c.name("gs")) {
        if m.as_str().starts_with('S') {
            Routine::Skip
        } else {
            Routine::Pass
        }
    } else if c.name("uts").is_some() || c.name("jest").is_some_and(|m| m.as_str().starts_with('○'))
    {
        Routine::Skip
    } else {
        Routine::Pass
    })
}

/// The module a routine line names: cargo's test path up to its last
/// `::` (a doctest's file), pytest's file; "" for none.
fn module(line: &str) -> &str {
    let Some(c) = ROUTINE.captures(line.trim_end_matches('\r')) else {
        return "";
    };
    if let Some(m) = c.name("pyfile").or(c.name("ut")) {
        return m.as_str();
    }
    let Some(name) = c.name("cargo").map(|m| m.as_str()) else {
        return "";
    };
    if let Some((file, _)) = name.split_once(" - ") {
        return file;
    }
    name.rsplit_once("::").map_or("", |(m, _)| m)
}

/// The Go test a pass line names (`TestX/a` of `--- PASS: TestX/a (0.00s)`
/// and of `::group::PASS pkg/path.TestX/a (0.00s)`), or `None` for other
/// runners' lines.
fn go_test_name(line: &str) -> Option<&str> {
    let rest = &line[line.find("PASS")? + 4..];
    let rest = rest.strip_prefix(':').unwrap_or(rest).trim_start();
    let name = rest.split(" (").next().unwrap_or(rest).trim_end();
    let at = name.find("Test").or_else(|| name.find("Example"))?;
    let name = &name[at..];
    (!name.contains(' ')).then_some(name)
}

/// What a run of dropped lines holds when most of them are routine test
/// lines: `61 passed (test … ok): src/lib.rs×58 src/iterator.rs×3`,
/// `9 passed (--- PASS), 3 skipped, 18 RUN/PAUSE/CONT lines (+2 other)`;
/// `None` when fewer than half its non-blank lines are routine.
pub(crate) fn tally<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    let (mut pass, mut skip, mut run, mut other) = (0usize, 0usize, 0usize, 0usize);
    let mut modules: Vec<(&str, usize)> = Vec::new();
    let mut many_modules = false;
    // How the first pass was written: the marker says it the same way.
    let mut how = "";
    // Go tests passed, by name: gotestsum's `::group::PASS pkg.TestX/a`
    // and go's own `--- PASS: TestX/a` report one test twice.
    let mut go_passed: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
    for l in lines {
        if l.trim().is_empty() {
            continue;
        }
        match routine(l) {
            Some(Routine::Run) => run += 1,
            Some(Routine::Skip) => skip += 1,
            Some(Routine::Pass) => {
                if go_test_name(l).is_some_and(|name| !go_passed.insert(name)) {
                    continue;
                }
                pass += 1;
                if how.is_empty() {
                    how = pass_word(l);
                }
                let m = module(l);
                if !m.is_empty() && !many_modules {
                    match modules.iter().position(|(x, _)| *x == m) {
                        Some(k) => modules[k].1 += 1,
                        None if modules.len() < 64 => modules.push((m, 1)),
                        None => many_modules = true,
                    }
                }
            }
            None => other += 1,
        }
    }
    let routine = pass + skip + run;
    if routine == 0 || routine < other {
        return None;
    }
    let mut parts = Vec::new();
    if pass > 0 {
        let mut s = format!("{pass} passed ({how})");
        if !modules.is_empty() && !many_modules {
            modules.sort_by_key(|m| std::cmp::Reverse(m.1));
            s.push(':');
            for (m, c) in modules.iter().take(4) {
                s.push_str(&format!(" {m}\u{d7}{c}"));
            }
            let rest = pass - modules.iter().take(4).map(|m| m.1).sum::<usize>();
            if rest > 0 {
                s.push_str(&format!(" (+{rest} in other modules)"));
            }
        }
        parts.push(s);
    }
    if skip > 0 {
        parts.push(format!("{skip} skipped"));
    }
    if run > 0 {
        parts.push(format!("{run} RUN/PAUSE/CONT lines"));
    }
    let mut s = parts.join(", ");
    if other > 0 {
        s.push_str(&format!(" (+{other} other lines)"));
    }
    Some(s)
}

/// The word a passing test's line says it with.
fn pass_word(line: &str) -> &'static str {
    // gotestsum's GitHub Actions format opens a test's log group on its
    // verdict line.
    let t = line.trim_start();
    let t = t.strip_prefix("::group::").unwrap_or(t);
    if t.starts_with("--- PASS") {
        "--- PASS"
    } else if t.starts_with("PASS ") {
        "PASS"
    } else if t.contains(" PASSED") {
        "PASSED"
    } else if t.starts_with(['\u{2713}', '\u{221a}']) {
        "\u{2713}"
    } else {
        "ok"
    }
}

static PYTEST_SECTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^={3,} (\S.*?) ={3,}$").expect("section pattern"));
static PYTEST_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^_{3,} (\S.*?) _{3,}$").expect("header pattern"));
/// A pytest location: `file.py:12: AssertionError`, `file.py:12: in f`,
/// `file.py:12:`.
static LOCATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[^\s:][^\s]*:\d+:(?: |$)").expect("location pattern"));
static UNITTEST_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:FAIL|ERROR): \S+ \(\S+\)").expect("unittest pattern"));
static GO_VERDICT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$").expect("go verdict pattern")
});
static GO_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*=== (?:RUN|CONT|NAME)\s+(\S+)$").expect("go start pattern"));
static SLOW: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\((\d+(?:\.\d+)?) ?(s|ms)\)$").expect("duration pattern"));

/// The failure block a line is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    None,
    /// pytest's failure (from its header), and whether the last line
    /// kept was a `>` line.
    Pytest {
        after_source: bool,
    },
    /// pytest's short test summary, cargo's `failures:` list.
    List,
    /// A unittest, cargo or jest failure: lines kept so far, `at`
    /// frames so far.
    Whole {
        kept: usize,
        frames: usize,
        jest: bool,
    },
}

/// Marks the evidence of every failure block and the slowest passing
/// tests in `keep`, in one pass over the lines.
pub(crate) fn evidence(doc: &Lines<'_>, keep: &mut Keep) {
    let mut block = Block::None;
    // Go: the test a log line belongs to, and each open test's spans.
    let mut current: Option<(String, usize)> = None;
    let mut spans: FxHashMap<String, Vec<Range<usize>>> = FxHashMap::default();
    let mut slowest: Vec<(u64, usize)> = Vec::with_capacity(SLOWEST + 1);
    let mut passes = 0usize;
    for (i, raw) in doc.iter().enumerate() {
        let l = raw.trim_end_matches('\r');
        // Go -v: which test a line belongs to.
        let go = l.contains("=== ") || l.contains("--- ");
        if let Some(c) = go.then(|| GO_START.captures(l)).flatten() {
            close_span(&mut current, &mut spans, i);
            if spans.len() < MAX_OPEN_TESTS || spans.contains_key(&c[1]) {
                current = Some((c[1].to_owned(), i + 1));
            }
        } else if let Some(c) = go.then(|| GO_VERDICT.captures(l)).flatten() {
            close_span(&mut current, &mut spans, i);
            let ranges = spans.remove(&c[2]);
            if &c[1] == "FAIL" {
                keep.set(i, "test failure (go verdict)");
                for r in ranges.into_iter().flatten() {
                    let mut logged = false;
                    for j in r.clone() {
                        let line = doc.line(j);
                        if !line.trim().is_empty() && routine(line).is_none() {
                            keep.set(j, "test failure evidence (the failing test's log)");
                            logged = true;
                        }
                    }
                    // The `=== RUN`/`=== CONT` line the log follows.
                    if logged && r.start > 0 {
                        keep.set(
                            r.start - 1,
                            "test failure evidence (the failing test's log)",
                        );
                    }
                }
            }
        } else if l.starts_with("FAIL\t") || l.starts_with("FAIL ") || l == "FAIL" {
            keep.set(i, "test failure (package)");
        }
        if routine(l) == Some(Routine::Pass) {
            passes += 1;
            if let Some(c) = SLOW.captures(l) {
                let v: f64 = c[1].parse().unwrap_or(0.0);
                let ms = if &c[2] == "s" { v * 1000.0 } else { v };
                slowest.push(((ms * 1000.0) as u64, i));
                slowest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                slowest.truncate(SLOWEST);
            }
        }
        if l.starts_with("test ") && l.ends_with(" ... ignored")
            || l.starts_with("test ") && l.ends_with(" ... FAILED")
        {
            keep.set(i, "test failure or ignored test (each listed)");
        }
        // Block boundaries.
        if let Some(c) = l
            .starts_with("===")
            .then(|| PYTEST_SECTION.captures(l))
            .flatten()
        {
            keep.set(i, "test run section (summary line)");
            let title = c[1].to_ascii_lowercase();
            block = if title.contains("short test summary") {
                Block::List
            } else {
                Block::None
            };
            continue;
        }
        if l.starts_with("___") && PYTEST_HEADER.is_match(l) {
            keep.set(i, "test failure header");
            block = Block::Pytest {
                after_source: false,
            };
            continue;
        }
        let whole_header = ((l.starts_with("FAIL: ") || l.starts_with("ERROR: "))
            && UNITTEST_HEADER.is_match(l))
            || (l.starts_with("---- ") && l.ends_with(" stdout ----"))
            || l.trim_start().starts_with("● ");
        if whole_header {
            keep.set(i, "test failure header");
            block = Block::Whole {
                kept: 0,
                frames: 0,
                jest: l.trim_start().starts_with("● "),
            };
            continue;
        }
        if l == "failures:" {
            keep.set(i, "test failure list");
            block = Block::List;
            continue;
        }
        // A jest failure ends at the next file's verdict or the totals; a
        // unittest or cargo one at its closing rule or the totals.
        let jest_end = l.starts_with("PASS ")
            || l.starts_with("FAIL ")
            || l.starts_with("Test Suites:")
            || l.starts_with("Tests:");
        let rule = l.len() >= 10 && (l.bytes().all(|b| b == b'-') || l.bytes().all(|b| b == b'='));
        let other_end = l.starts_with("test result:") || l.starts_with("Ran ") || rule;
        match &mut block {
            Block::None => {}
            Block::List => {
                if l.starts_with("test result:") || l.starts_with("error: test failed") {
                    block = Block::None;
                } else if !l.trim().is_empty() {
                    keep.set(i, "test failure list");
                }
            }
            Block::Pytest { after_source } => {
                let is_e = l == "E" || l.starts_with("E ") || l.starts_with("E\t");
                let kept = if is_e {
                    keep.set(i, "test failure evidence (E line)");
                    false
                } else if l.starts_with('>') {
                    keep.set(i, "test failure evidence (> line)");
                    true
                } else if *after_source && l.trim_start().starts_with('^') {
                    keep.set(i, "test failure evidence (> line)");
                    false
                } else if LOCATION.is_match(l) {
                    keep.set(i, "test failure evidence (location)");
                    false
                } else if l.starts_with('-') && l.contains(" Captured ") {
                    keep.set(i, "test failure header");
                    false
                } else {
                    false
                };
                *after_source = kept;
            }
            Block::Whole { kept, frames, jest } => {
                let ends = if *jest {
                    jest_end
                } else {
                    // The rule right under a unittest header opens it.
                    other_end && !(rule && *kept == 0 && l.starts_with('-'))
                };
                if ends {
                    block = Block::None;
                    continue;
                }
                let t = l.trim_start();
                if t.is_empty() || rule {
                    continue;
                }
                if *jest {
                    // The code frame's context rows (`  12 |   x`) and
                    // frames past the first few are left to the rules.
                    if t.as_bytes()[0].is_ascii_digit() && t.contains(" |") {
                        continue;
                    }
                    if t.starts_with("at ") {
                        *frames += 1;
                        if *frames > JEST_FRAMES {
                            continue;
                        }
                    }
                }
                *kept += 1;
                if *kept <= MAX_BLOCK_LINES || t.starts_with("File \"") || LOCATION.is_match(t) {
                    keep.set(i, "test failure evidence");
                }
            }
        }
    }
    if passes > SLOW_FROM {
        for &(_, i) in &slowest {
            keep.set(i, "slowest passing test (extreme)");
        }
    }
}

/// Ends the current go test's span of log lines before line `end`.
fn close_span(
    current: &mut Option<(String, usize)>,
    spans: &mut FxHashMap<String, Vec<Range<usize>>>,
    end: usize,
) {
    if let Some((name, start)) = current.take() {
        if end > start {
            let v = spans.entry(name).or_default();
            if v.len() < MAX_SPANS {
                v.push(start..end);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{cut, join, Rules};
    use super::*;

    /// The lean view of `text` as the terminal compressor cuts it.
    fn view(text: &str) -> String {
        let doc = Lines::split(text);
        let rules = Rules {
            tail: 3,
            extra: None,
            unit: "lines",
            extra_by_kind: false,
            probe: None,
        };
        let (pieces, _) = cut(&doc, &rules, "", None).expect("long enough to cut");
        String::from_utf8(join(&doc, &pieces)).unwrap()
    }

    /// One pytest failure whose frames repeat another test's.
    fn pytest_failure(name: &str, line: usize) -> String {
        format!(
            "________________________________ {name} ________________________________\n\
             \n\
             self = <test_calc.TestCalc object at 0xdeadbeef{line:04}>\n\
             \n\
             \x20   def {name}(self):\n\
             >       check(compute({line}), {line})\n\
             \n\
             test_calc.py:{line}: \n\
             _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n\
             \n\
             got = 0, want = {line}\n\
             \n\
             \x20   def check(got, want):\n\
             \x20       helper_setup()\n\
             \x20       more_setup()\n\
             >       assert got == want\n\
             E       assert 0 == {line}\n\
             E         +0\n\
             E         -{line}\n\
             \n\
             helpers.py:7: AssertionError\n"
        )
    }

    #[test]
    fn pytest_failure_blocks_keep_their_evidence() {
        let mut s = String::from(
            "============================= test session starts ==============================\n\
             collected 40 items\n\n\
             test_calc.py ...F.....F.......F....................                           [100%]\n\n\
             =================================== FAILURES ===================================\n",
        );
        for (name, line) in [("test_add", 12), ("test_sub", 19), ("test_mul", 26)] {
            s.push_str(&pytest_failure(name, line));
        }
        s.push_str(
            "=========================== short test summary info ============================\n\
             FAILED test_calc.py::TestCalc::test_add - assert 0 == 12\n\
             FAILED test_calc.py::TestCalc::test_sub - assert 0 == 19\n\
             FAILED test_calc.py::TestCalc::test_mul - assert 0 == 26\n\
             ========================= 3 failed, 37 passed in 0.12s =========================\n",
        );
        let v = view(&s);
        for name in ["test_add", "test_sub", "test_mul"] {
            assert!(
                v.contains(&format!(
                    "________________________________ {name} ________________________________\n"
                )),
                "{v}"
            );
            assert!(
                v.contains(&format!("FAILED test_calc.py::TestCalc::{name}")),
                "{v}"
            );
        }
        // Every `>` line, `E` line and location of every block, though the
        // blocks repeat one another's frames.
        for l in s.lines().filter(|l| {
            l.starts_with('>')
                || l.starts_with("E ")
                || l.starts_with("test_calc.py:")
                || l.starts_with("helpers.py:")
        }) {
            let want = s.lines().filter(|x| x == &l).count();
            let got = v.lines().filter(|x| x == &l).count();
            assert_eq!(got, want, "{l}\n{v}");
        }
        assert!(
            v.contains("========================= 3 failed, 37 passed in 0.12s"),
            "{v}"
        );
    }

    #[test]
    fn a_long_run_of_e_lines_stays() {
        let mut s = String::from(
            "=================================== FAILURES ===================================\n\
             ______________________________ test_big ______________________________\n\
             >       assert left == right\n",
        );
        for k in 0..100 {
            s.push_str(&format!("E         - item {k}\n"));
        }
        s.push_str("test_big.py:3: AssertionError\n");
        s.push_str("========================= 1 failed in 0.12s =========================\n");
        let v = view(&s);
        assert!(v.starts_with(&s), "{v}");
        assert!(!v.contains("elided"), "{v}");
    }

    #[test]
    fn a_jest_failure_keeps_expected_and_received() {
        let mut s = String::from("PASS src/a.test.js\n");
        for k in 0..12 {
            s.push_str(&format!("  \u{2713} adds case {k} (3 ms)\n"));
        }
        s.push_str(
            "FAIL src/cart.test.js\n\
             \x20 \u{25cf} cart \u{203a} totals the items\n\
             \n\
             \x20   expect(received).toBe(expected) // Object.is equality\n\
             \n\
             \x20   Expected: 30\n\
             \x20   Received: 25\n\
             \n\
             \x20     10 |   const cart = makeCart();\n\
             \x20     11 |   cart.add(item);\n\
             \x20   > 12 |   expect(cart.total()).toBe(30);\n\
             \x20        |                        ^\n\
             \x20     13 | });\n\
             \n\
             \x20     at Object.<anonymous> (src/cart.test.js:12:24)\n\
             \n\
             Test Suites: 1 failed, 1 passed, 2 total\n\
             Tests:       1 failed, 12 passed, 13 total\n\
             Time:        1.2 s\n",
        );
        let v = view(&s);
        for want in [
            "  \u{25cf} cart \u{203a} totals the items\n",
            "    expect(received).toBe(expected) // Object.is equality\n",
            "    Expected: 30\n",
            "    Received: 25\n",
            "    > 12 |   expect(cart.total()).toBe(30);\n",
            "      at Object.<anonymous> (src/cart.test.js:12:24)\n",
            "Tests:       1 failed, 12 passed, 13 total\n",
        ] {
            assert!(v.contains(want), "{want}\n{v}");
        }
        // The passing tests are counted, not listed.
        assert!(v.contains(" passed (\u{2713})"), "{v}");
    }

    #[test]
    fn go_test_v_keeps_the_failure_and_counts_the_passes() {
        let mut s = String::new();
        for k in 0..500 {
            if k == 250 {
                s.push_str(
                    "=== RUN   TestParseHeader\n\
                     \x20   parse_test.go:88: got \"a\", want \"b\"\n\
                     \x20   parse_test.go:91: header mismatch at byte 3\n\
                     --- FAIL: TestParseHeader (0.02s)\n",
                );
            }
            s.push_str(&format!("=== RUN   TestCase{k}\n"));
            let secs = if k == 77 { "3.40" } else { "0.00" };
            s.push_str(&format!("--- PASS: TestCase{k} ({secs}s)\n"));
        }
        s.push_str("FAIL\nFAIL\texample.com/parse\t4.210s\n");
        let v = view(&s);
        for want in [
            "=== RUN   TestParseHeader\n",
            "    parse_test.go:88: got \"a\", want \"b\"\n",
            "    parse_test.go:91: header mismatch at byte 3\n",
            "--- FAIL: TestParseHeader (0.02s)\n",
            "FAIL\texample.com/parse\t4.210s\n",
            // The slowest passing test.
            "--- PASS: TestCase77 (3.40s)\n",
        ] {
            assert!(v.contains(want), "{want}\n{v}");
        }
        assert!(
            v.lines().filter(|l| l.starts_with("--- PASS")).count() <= 4,
            "{v}"
        );
        // Every pass is counted in a marker.
        let counted: usize = v
            .lines()
            .filter_map(|l| {
                l.split(" passed (--- PASS)")
                    .next()
                    .filter(|_| l.contains(" passed (--- PASS)"))
            })
            .map(|l| l.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
            .sum();
        let shown = v.lines().filter(|l| l.starts_with("--- PASS")).count();
        assert_eq!(counted + shown, 500, "{v}");
    }

    #[test]
    fn cargo_test_folds_passes_per_module_and_keeps_failures() {
        let mut s = String::from("running 43 tests\n");
        for k in 0..20 {
            s.push_str(&format!("test parser::tests::case_{k} ... ok\n"));
        }
        s.push_str("test parser::tests::slow_case ... ignored\n");
        for k in 0..21 {
            s.push_str(&format!("test lexer::tests::token_{k} ... ok\n"));
        }
        s.push_str("test lexer::tests::error_span ... FAILED\n");
        s.push_str(
            "\nfailures:\n\n\
             ---- lexer::tests::error_span stdout ----\n\
             thread 'lexer::tests::error_span' panicked at src/lexer.rs:210:9:\n\
             assertion `left == right` failed\n\
             \x20 left: 4\n\
             \x20right: 5\n\
             note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\
             \n\n\
             failures:\n\
             \x20   lexer::tests::error_span\n\
             \n\
             test result: FAILED. 41 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s\n",
        );
        let v = view(&s);
        for want in [
            "test parser::tests::slow_case ... ignored\n",
            "test lexer::tests::error_span ... FAILED\n",
            "---- lexer::tests::error_span stdout ----\n",
            "thread 'lexer::tests::error_span' panicked at src/lexer.rs:210:9:\n",
            "  left: 4\n",
            " right: 5\n",
            "    lexer::tests::error_span\n",
            "test result: FAILED. 41 passed",
            "20 passed (ok): parser::tests\u{d7}20",
        ] {
            assert!(v.contains(want), "{want}\n{v}");
        }
        // The passes: counted per module; no error word in a test's name
        // makes it one.
        assert!(!v.contains("case_3 ... ok"), "{v}");
    }

    #[test]
    fn unittest_failures_stay_whole() {
        let mut s = String::new();
        for k in 0..30 {
            s.push_str(&format!(
                "test_case_{k} (tests.test_util.UtilTest) ... ok\n"
            ));
        }
        s.push_str(
            "test_join (tests.test_util.UtilTest) ... FAIL\n\
             \n\
             ======================================================================\n\
             FAIL: test_join (tests.test_util.UtilTest)\n\
             ----------------------------------------------------------------------\n\
             Traceback (most recent call last):\n\
             \x20 File \"/src/tests/test_util.py\", line 40, in test_join\n\
             \x20   self.assertEqual(join(\"a\", \"b\"), \"a/b\")\n\
             AssertionError: 'a\\\\b' != 'a/b'\n\
             \n\
             ----------------------------------------------------------------------\n\
             Ran 31 tests in 0.004s\n\
             \n\
             FAILED (failures=1)\n",
        );
        let v = view(&s);
        for want in [
            "FAIL: test_join (tests.test_util.UtilTest)\n",
            "Traceback (most recent call last):\n",
            "  File \"/src/tests/test_util.py\", line 40, in test_join\n",
            "    self.assertEqual(join(\"a\", \"b\"), \"a/b\")\n",
            "AssertionError: 'a\\\\b' != 'a/b'\n",
            "Ran 31 tests in 0.004s\n",
            "FAILED (failures=1)\n",
        ] {
            assert!(v.contains(want), "{want}\n{v}");
        }
    }

    #[test]
    fn a_go_test_reported_twice_passes_once() {
        let lines = [
            "::group::PASS testjson/internal/good.TestNestedSuccess/a/sub (0.00s)",
            "        --- PASS: TestNestedSuccess/a/sub (0.00s)",
            "::group::PASS testjson/internal/good.TestNestedSuccess/a (0.00s)",
            "    --- PASS: TestNestedSuccess/a (0.00s)",
        ];
        let t = tally(lines.iter().copied()).unwrap();
        assert!(t.starts_with("2 passed"), "{t}");
    }

    #[test]
    fn routine_lines_are_recognised() {
        assert_eq!(routine("=== RUN   TestX"), Some(Routine::Run));
        assert_eq!(
            routine("    --- PASS: TestX/a (0.00s)"),
            Some(Routine::Pass)
        );
        assert_eq!(routine("--- SKIP: TestX (0.00s)"), Some(Routine::Skip));
        assert_eq!(routine("--- FAIL: TestX (0.00s)"), None);
        assert_eq!(routine("test a::b ... ok"), Some(Routine::Pass));
        assert_eq!(routine("test a::b ... FAILED"), None);
        assert_eq!(routine("test a::b ... ignored"), None);
        assert_eq!(
            routine("tests/t.py::test_x PASSED    [ 50%]"),
            Some(Routine::Pass)
        );
        assert_eq!(routine("tests/t.py::test_x FAILED    [ 50%]"), None);
        assert_eq!(routine("  \u{2713} works (3 ms)"), Some(Routine::Pass));
        assert_eq!(routine("PASS pkg.TestX (0.00s)"), Some(Routine::Pass));
        // gotestsum --format github-actions: indented, or opening a group.
        assert_eq!(routine("  PASS pkg.TestX (0.00s)"), Some(Routine::Pass));
        assert_eq!(
            routine("::group::SKIP pkg.TestX (0.00s)"),
            Some(Routine::Skip)
        );
        assert_eq!(routine("::group::FAIL pkg.TestX (0.00s)"), None);
        assert_eq!(routine("  PASS Package pkg (cached)"), None);
        assert_eq!(pass_word("::group::PASS pkg.TestX (0.00s)"), "PASS");
        assert_eq!(module("test src/lib.rs - f (line 3) ... ok"), "src/lib.rs");
        assert_eq!(module("test a::b::c ... ok"), "a::b");
        assert_eq!(routine("test_x (a.B) ... ok"), Some(Routine::Pass));
        assert_eq!(
            routine("test_x (a.B) ... skipped 'slow'"),
            Some(Routine::Skip)
        );
        assert_eq!(routine("test_x (a.B) ... FAIL"), None);
        assert_eq!(module("test_x (a.B) ... ok"), "a.B");
    }
}
