//! What the environment and the command line can do to a payload: a bad
//! value in the environment is one line of warning and a pass-through
//! (never a lost payload), usage errors share one exit-code rule, an
//! object store that cannot work says why once, and `--help` lists every
//! variable the README does (issue 44).

use crate::util::TestCommand;

fn table(n: usize) -> String {
    let mut s = String::from("id,host,state,ms\n");
    for i in 0..n {
        s.push_str(&format!("{i},web-{},ok,{}\n", i % 5, 20 + i % 9));
    }
    s
}

/// The lines of stderr after the report line.
fn notes(stderr: &str) -> Vec<&str> {
    stderr.lines().skip(1).collect()
}

#[test]
fn a_bad_profile_or_budget_in_the_environment_passes_the_payload_through() {
    let input = table(200);
    for (key, value, says) in [
        ("CAVEMAN_ENGINE_PROFILE", "Lean", "unknown profile \"Lean\""),
        ("CAVEMAN_ENGINE_BUDGET", "0", "\"0\" is not a token budget"),
        (
            "CAVEMAN_ENGINE_BUDGET",
            "lots",
            "\"lots\" is not a token budget",
        ),
    ] {
        let tc = TestCommand::new().env(key, value);
        let r = tc.expect(&["compress"], input.as_bytes(), 0);
        assert_eq!(r.stdout, input.as_bytes(), "{key}={value}: payload kept");
        let err = r.stderr_str();
        let report: serde_json::Value = serde_json::from_str(err.lines().next().unwrap()).unwrap();
        assert_eq!(report["content_type"], "tabular");
        assert_eq!(report["ratio"], 0);
        assert_eq!(report["tokens_before"], report["tokens_after"]);
        assert!(report.get("recovery_handle").is_none());
        let notes = notes(&err);
        assert_eq!(notes.len(), 1, "{err}");
        assert!(
            notes[0].starts_with(&format!("caveman-engine: {key}: "))
                && notes[0].contains(says)
                && notes[0].ends_with("the input passed through"),
            "{err}"
        );
        // `run` keeps the command's output and status the same way.
        let r = tc.run(
            &["run", "--", "sh", "-c", "printf 'ERROR boom\\n'; exit 3"],
            b"",
        );
        assert_eq!(r.code, 3, "{}", r.stderr_str());
        assert_eq!(r.stdout, b"ERROR boom\n");
        assert!(r.stderr_str().contains(says), "{}", r.stderr_str());
        // A flag wins over the environment and is checked at once.
        let r = tc.expect(
            &["compress", "--profile", "lean", "--budget", "50"],
            input.as_bytes(),
            0,
        );
        assert!(r.handle().is_some(), "{}", r.stderr_str());
    }
    // Flags on the command line still fail fast.
    let tc = TestCommand::new();
    let r = tc.expect(&["compress", "--profile", "Lean"], input.as_bytes(), 1);
    assert!(r.stdout.is_empty());
    assert_eq!(
        r.stderr_str(),
        "--profile: unknown profile \"Lean\" (compat or lean)\n"
    );
}

#[test]
fn usage_errors_share_one_exit_code() {
    let tc = TestCommand::new();
    // A bad flag, flag value or argument of a command that exists: 1, as
    // the reference's `compress --bogus`.
    for args in [
        &["compress", "--bogus"][..],
        &["compress", "--budget", "abc"],
        &["compress", "--budget"],
        &["compress", "--profile", "fast"],
        &["compress", "--type"],
        &["detect", "--profile", "fast"],
        &["run", "--budget", "abc", "--", "true"],
        &["run", "--"],
        &["run"],
        &["retrieve"],
        &["toon"],
        &["store", "prune"],
        &["store", "list", "--bogus"],
        &["completions", "powershell"],
        &["evals", "walk"],
    ] {
        let r = tc.run(args, b"{}");
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr_str());
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(!r.stderr.is_empty(), "{args:?} says why");
    }
    // A command that does not exist: 2.
    for args in [&["bogus"][..], &["help", "bogus"], &["store", "bogus"]] {
        let r = tc.run(args, b"");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr_str());
    }
}

#[test]
fn help_lists_every_variable_the_readme_documents() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table = &readme[readme.find("## Environment").unwrap()..];
    let table = &table[..table[3..].find("\n## ").unwrap()];
    let vars: Vec<&str> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split(['`', '=']).next())
        .collect();
    assert!(vars.contains(&"CAVEMAN_CCR_URL"), "{vars:?}");
    let tc = TestCommand::new();
    let help = String::from_utf8(tc.expect(&["--help"], b"", 0).stdout).unwrap();
    for v in vars {
        assert!(help.contains(v), "--help does not list {v}");
    }
    for aws in ["AWS_ENDPOINT_URL", "AWS_ALLOW_HTTP"] {
        assert!(help.contains(aws), "--help does not list {aws}");
    }
}

#[test]
fn an_object_store_that_cannot_work_says_why_once() {
    let input = table(200);
    let cases = [
        (
            TestCommand::new().env("CAVEMAN_CCR_URL", "not-a-url"),
            "only s3:// URLs",
        ),
        (
            TestCommand::new()
                .env("CAVEMAN_CCR_URL", "s3://ccr/x")
                .env("AWS_ENDPOINT_URL", "http://127.0.0.1:9"),
            "set AWS_ALLOW_HTTP=true",
        ),
        (
            TestCommand::new()
                .env("CAVEMAN_CCR_URL", "s3://ccr/x")
                .env("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
                .env("AWS_ALLOW_HTTP", "true")
                .env("CAVEMAN_CCR_TIMEOUT_MS", "300"),
            "s3://ccr/x",
        ),
    ];
    for (tc, says) in cases {
        let r = tc.expect(&["compress"], input.as_bytes(), 0);
        assert_eq!(r.stdout, input.as_bytes(), "the payload is not lost");
        let err = r.stderr_str();
        let report: serde_json::Value = serde_json::from_str(err.lines().next().unwrap()).unwrap();
        assert_eq!(report["error"], "cave_ccr_unavailable", "{err}");
        let notes = notes(&err);
        assert_eq!(notes.len(), 1, "said once: {err}");
        assert!(
            notes[0].contains(says) && notes[0].ends_with("the input passed through"),
            "{err}"
        );
    }
}
