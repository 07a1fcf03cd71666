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
