//! Lean views of text, terminal output and diffs: the closing note that
//! names the handle, and the promise that a lean view is never larger
//! than compat's view of the same payload.

use crate::util::TestCommand;

/// The lean view and the report of `input`.
fn lean(tc: &TestCommand, input: &[u8]) -> (String, serde_json::Value) {
    let r = tc.run(&["compress", "--profile", "lean"], input);
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    let report = r.report();
    (String::from_utf8(r.stdout).expect("UTF-8 view"), report)
}

/// A view that differs from what the terminal showed only in spacing
/// elided nothing a reader sees: no retrieve line (the report still names
/// the handle).
#[test]
fn a_view_of_the_screen_as_shown_carries_no_retrieve_line() {
    let tc = TestCommand::new();
    let input = "\x1b[90m$\x1b[0m curl -o /tmp/a.txt https://example.com/a.txt\n  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\r  0     0    0     0    0     0      0      0 --:--:--  0:00:01 --:--:--     0\r100   170  100   170    0     0    105      0  0:00:01  0:00:01 --:--:--   105\n";
    let (view, report) = lean(&tc, input.as_bytes());
    assert_eq!(
        view,
        "$ curl -o /tmp/a.txt https://example.com/a.txt\n  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n100   170  100   170    0     0    105      0  0:00:01  0:00:01 --:--:--   105\n"
    );
    let handle = report["recovery_handle"].as_str().expect("stored");
    assert_eq!(tc.retrieved(handle), input.as_bytes());
}

/// The note of a view that elided lines is the command and nothing more:
/// an MCP host's text content names `caveman_retrieve` itself.
#[test]
fn the_retrieve_line_is_the_command_alone() {
    let tc = TestCommand::new();
    let mut log: String = (0..2000)
        .map(|i| {
            format!(
                "2026-12-07T10:{:02}:{:02} INFO request {i} served in {} ms\n",
                i / 60 % 60,
                i % 60,
                i % 17
            )
        })
        .collect();
    log.push_str("2026-12-07T11:00:00 ERROR database connection refused\n");
    let (view, report) = lean(&tc, log.as_bytes());
    let handle = report["recovery_handle"].as_str().expect("stored");
    assert!(
        view.ends_with(&format!(
            "\n\u{2026} caveman: elided parts: caveman-engine retrieve {handle} [QUERY] \u{2026}\n"
        )),
        "{view}"
    );
    assert!(view.contains("ERROR database connection refused"), "{view}");
}

/// A JUnit report in the shape surefire and gotestsum write: `suites`
/// testsuites of `cases` testcases, every `fail_every`-th failing with a
/// one-line message, every seventh skipped.
fn junit(suites: usize, cases: usize, fail_every: usize) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    for k in 0..suites {
        let name = format!("com.example.shop.Service{k}Test");
        s.push_str(&format!(
            "\t<testsuite name=\"{name}\" tests=\"{cases}\" failures=\"{}\" time=\"1.5\">\n\t\t<properties>\n\t\t\t<property name=\"java.version\" value=\"21\"/>\n\t\t</properties>\n",
            (0..cases).filter(|i| (i + k) % fail_every == 0).count()
        ));
        for i in 0..cases {
            let case = format!(
                "\t\t<testcase classname=\"{name}\" name=\"testCase{i}\" time=\"0.0{}\"",
                i % 10
            );
            if (i + k) % fail_every == 0 {
                s.push_str(&format!("{case}>\n\t\t\t<failure message=\"expected {i} but was {}\" type=\"org.opentest4j.AssertionFailedError\">Service{k}Test.java:{}</failure>\n\t\t</testcase>\n", i + 1, 40 + i));
            } else if i % 7 == 3 {
                s.push_str(&format!("{case}>\n\t\t\t<skipped/>\n\t\t</testcase>\n"));
            } else {
                s.push_str(&format!("{case}/>\n"));
            }
        }
        s.push_str("\t</testsuite>\n");
    }
    s.push_str("</testsuites>\n");
    s
}

/// A JUnit report keeps every failing testcase with its message, its
/// testsuite's line and the report's header; passing and skipped
/// testcases are counted in markers that add up.
#[test]
fn a_junit_report_keeps_its_failures_and_counts_the_rest() {
    let tc = TestCommand::new();
    let report = junit(3, 40, 9);
    let (view, _) = lean(&tc, report.as_bytes());
    let failures: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("<failure"))
        .map(str::trim)
        .collect();
    assert_eq!(failures.len(), 13);
    for f in &failures {
        assert!(view.contains(f), "lost {f}:\n{view}");
    }
    assert!(
        view.contains(
            "<testcase name=\"testCase9\" time=\"0.09\"><failure message=\"expected 9 but was 10\""
        ),
        "{view}"
    );
    assert!(view.contains("<testsuites>\n"), "{view}");
    // The markers count every testcase that is not shown.
    let (mut passed, mut skipped) = (0, 0);
    for l in view.lines().filter(|l| l.contains(" elided (caveman)")) {
        for part in l.split([':', ',']) {
            let w: Vec<&str> = part.split_whitespace().collect();
            match w.as_slice() {
                [n, "testcase" | "testcases", "passed", ..] => {
                    passed += n.parse::<usize>().unwrap()
                }
                [n, "skipped", ..] => skipped += n.parse::<usize>().unwrap(),
                _ => {}
            }
        }
    }
    let shown_skipped = report.matches("<skipped/>").count();
    assert_eq!(skipped, shown_skipped, "{view}");
    assert_eq!(passed + skipped + failures.len(), 120, "{view}");
    assert!(view.len() * 3 < report.len(), "{view}");
}

/// A jest-style JUnit report (one testcase per line, names of every
/// shape, a multi-line failure with escaped markup) is named test output
/// by lean detection whatever its names look like, and its view is the
/// failure: the report's header, the failing suite and testcase whole,
/// the passing ones counted.
#[test]
fn a_junit_report_with_names_of_every_shape_is_read_as_a_report() {
    let tc = TestCommand::new();
    let mut seed: u64 = 7;
    let mut word = |len: usize| -> String {
        (0..len)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b"abcdefghjkmnpqrstvwxz0123456789"[(seed >> 33) as usize % 31] as char
            })
            .collect()
    };
    let mut report = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"jest tests\" tests=\"200\" failures=\"1\" errors=\"0\" time=\"31.2\">\n",
    );
    for k in 0..10 {
        let fails = k == 6;
        report.push_str(&format!(
            "  <testsuite name=\"src/{}.test.ts\" errors=\"0\" failures=\"{}\" skipped=\"0\" timestamp=\"2026-12-05T09:00:00\" time=\"1.{k}\" tests=\"20\">\n",
            word(6),
            u8::from(fails)
        ));
        for i in 0..20 {
            if fails && i == 11 {
                report.push_str("    <testcase classname=\"cart totals rounds half-even\" name=\"cart totals rounds half-even\" time=\"0.012\"><failure message=\"expect(received).toBe(expected)\">Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 10.02\nReceived: 10.03\n    at Object.&lt;anonymous&gt; (src/cart/totals.test.ts:88:27)</failure></testcase>\n");
            } else {
                let (a, b, c, d) = (word(6), word(8), word(6), word(8));
                report.push_str(&format!(
                    "    <testcase classname=\"{a} {b}\" name=\"{c} {d} works\" time=\"0.{i:03}\"></testcase>\n"
                ));
            }
        }
        report.push_str("  </testsuite>\n");
    }
    report.push_str("</testsuites>\n");
    let detected = tc.run(&["detect", "--profile", "lean"], report.as_bytes());
    assert_eq!(String::from_utf8_lossy(&detected.stdout), "log\n");
    let (view, _) = lean(&tc, report.as_bytes());
    for needle in [
        "<testsuites name=\"jest tests\" tests=\"200\" failures=\"1\"",
        "Expected: 10.02\nReceived: 10.03\n",
        "(src/cart/totals.test.ts:88:27)</failure></testcase>",
        "failures=\"1\" skipped=\"0\"",
    ] {
        assert!(view.contains(needle), "lost {needle}:\n{view}");
    }
    assert!(view.contains("testcases passed"), "{view}");
    assert!(view.len() * 10 < report.len(), "{view}");
}

/// The tokens of a view, as the report counts them.
fn after(r: &serde_json::Value) -> u64 {
    r["tokens_after"].as_u64().expect("tokens_after")
}

/// Issue 40 rule 8 over text and terminal payloads: a lean view (its
/// retrieve line included) is never larger than compat's view of the
/// same payload. (Where failures are dense, compat drops some and lean
/// keeps them all: a JUnit report with one testcase in six failing, or
/// gotestsum's github-actions output with three failures in 30 tests,
/// is larger under lean.)
#[test]
fn lean_views_of_text_terminal_and_diffs_are_never_larger_than_compat() {
    let payloads: Vec<(&str, String)> = vec![
        ("junit, one failure in 25", junit(6, 30, 25)),
        ("junit, one failure", junit(2, 30, 1000)),
        (
            "curl with a progress redraw",
            "\x1b[90m$\x1b[0m curl -o /tmp/a.txt https://example.com/a.txt\n  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\r100   170  100   170    0     0    105      0  0:00:01  0:00:01 --:--:--   105\n".to_string(),
        ),
        (
            "coloured weather",
            "Weather for City: Berlin\n\n\x1b[38;5;250m     .-.     \x1b[0m Light rain\n\x1b[38;5;250m    (   ).   \x1b[0m \x1b[38;5;118m2\x1b[0m - \x1b[38;5;118m6\x1b[0m °C\n\x1b[38;5;250m   (___(__)  \x1b[0m ↑ 21 km/h\n\x1b[38;5;111m    ‚‘‚‘‚‘   \x1b[0m 8 km\n\x1b[38;5;111m    ‚’‚’‚’   \x1b[0m 2.4 mm\n".to_string(),
        ),
    ];
    let tc = TestCommand::new();
    for (what, p) in &payloads {
        let c = tc.run(&["compress"], p.as_bytes());
        let l = tc.run(&["compress", "--profile", "lean"], p.as_bytes());
        assert_eq!((c.code, l.code), (0, 0), "{what}");
        let (c, l) = (c.report(), l.report());
        assert!(
            after(&l) <= after(&c),
            "{what}: lean {} > compat {} tokens",
            after(&l),
            after(&c)
        );
    }
}

/// gotestsum's github-actions format writes a passing test's verdict
/// indented or as the title of its log group: routine lines, counted in
/// markers by their verdict; every failure keeps its message.
#[test]
fn gotestsum_github_actions_passes_are_counted_and_failures_stay() {
    let mut gha = String::new();
    for k in 0..30 {
        if k % 10 == 4 {
            gha.push_str(&format!("::group::FAIL pkg/cart.TestTotal{k} (0.00s)\n    cart_test.go:{}: Total() = 99.99, want 100.00\n    --- FAIL: TestTotal{k} (0.00s)\n\n::endgroup::\n", 40 + k));
        } else if k % 5 != 1 {
            gha.push_str(&format!("  PASS pkg/cart.TestPlain{k} (0.00s)\n"));
        } else {
            gha.push_str(&format!("::group::PASS pkg/cart.TestLogged{k} (0.00s)\n    cart_test.go:{}: step {k} done\n\n::endgroup::\n", 100 + k));
        }
    }
    gha.push_str("  FAIL Package pkg/cart (20ms)\n\nDONE 30 tests, 3 failures in 0.5s\n");
    let tc = TestCommand::new();
    let (view, _) = lean(&tc, gha.as_bytes());
    for k in [4, 14, 24] {
        for l in [
            format!("::group::FAIL pkg/cart.TestTotal{k} (0.00s)"),
            format!("    cart_test.go:{}: Total() = 99.99, want 100.00", 40 + k),
        ] {
            assert!(view.lines().any(|v| v == l), "lost {l}:\n{view}");
        }
    }
    assert!(view.contains(" passed (PASS)"), "{view}");
    assert!(view.contains("DONE 30 tests, 3 failures in 0.5s"), "{view}");
}
