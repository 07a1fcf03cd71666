//! This project's own command-line additions: help and version that never
//! wait on stdin, completions, the man page, `--explain`, and store
//! management.

use std::process::Stdio;
use std::time::{Duration, Instant, SystemTime};

use crate::util::{Run, TestCommand};

/// Runs the binary with a stdin that stays open: a command that read it
/// would hang, so one that finishes did not read it.
fn without_stdin(tc: &TestCommand, args: &[&str]) -> Run {
    let mut child = tc
        .command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _held_open = child.stdin.take();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("{args:?} waited on stdin");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        stdout: out.stdout,
        stderr: out.stderr,
        code: out.status.code().unwrap_or(-1),
    }
}

fn table(n: usize, tag: &str) -> String {
    let mut s = String::from("id,host,state,ms\n");
    for i in 0..n {
        s.push_str(&format!("{i},{tag}-{},ok,{}\n", i % 5, 20 + i % 9));
    }
    s
}

fn orders(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "{{\"id\":{i},\"status\":\"{}\",\"ms\":{}}}",
                if i == 7 { "failed" } else { "ok" },
                10 + i % 7
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

#[test]
fn help_goes_to_stdout_and_reads_no_stdin() {
    let tc = TestCommand::new();
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let r = without_stdin(&tc, args);
        assert_eq!(r.code, 0, "{args:?}");
        let out = String::from_utf8(r.stdout).unwrap();
        assert!(out.contains("Usage: caveman-engine"), "{out}");
        for cmd in [
            "compress", "detect", "retrieve", "stats", "toon", "store", "mcp",
        ] {
            assert!(out.contains(cmd), "{cmd} missing from help");
        }
        assert!(out.contains("CAVEMAN_CCR_DIR"), "environment listed");
        assert!(r.stderr.is_empty());
    }
    for (args, usage) in [
        (
            &["compress", "--help"][..],
            "Usage: caveman-engine compress",
        ),
        (
            &["compress", "--type", "json", "-h"],
            "Usage: caveman-engine compress",
        ),
        (&["detect", "--help"], "Usage: caveman-engine detect"),
        (&["retrieve", "--help"], "Usage: caveman-engine retrieve"),
        (&["stats", "-h"], "Usage: caveman-engine stats"),
        (&["toon", "--help"], "Usage: caveman-engine toon"),
        (&["store", "--help"], "Usage: caveman-engine store"),
        (
            &["store", "prune", "--help"],
            "Usage: caveman-engine store prune",
        ),
        (&["help", "compress"], "Usage: caveman-engine compress"),
        (&["mcp", "--help"], "usage: caveman-mcp"),
    ] {
        let r = without_stdin(&tc, args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr_str());
        let out = String::from_utf8(r.stdout).unwrap();
        assert!(out.contains(usage), "{args:?}: {out}");
        assert!(out.contains("Example:"), "{args:?} has an example");
    }
    let r = without_stdin(&tc, &["help", "bogus"]);
    assert_eq!(r.code, 2);
}

#[test]
fn a_query_of_help_is_a_query() {
    let tc = TestCommand::new();
    let input = orders(50);
    let r = tc.expect(&["compress", "--query", "--help"], input.as_bytes(), 0);
    assert!(r.handle().is_some(), "compressed, not helped");
}

#[test]
fn version_forms() {
    let tc = TestCommand::new();
    let want = format!("caveman-engine {}\n", env!("CARGO_PKG_VERSION"));
    for args in [&["--version"][..], &["-V"], &["version"]] {
        let r = without_stdin(&tc, args);
        assert_eq!(r.code, 0);
        assert_eq!(String::from_utf8(r.stdout).unwrap(), want);
    }
    let r = without_stdin(&tc, &["--version", "--verbose"]);
    let out = String::from_utf8(r.stdout).unwrap();
    assert!(out.starts_with(&want));
    assert!(out.contains("o200k_base vocabulary: blake3 "), "{out}");
    assert!(out.contains("store format: CCR1"), "{out}");
}

#[test]
fn completions_and_man_page() {
    let tc = TestCommand::new();
    for shell in ["bash", "zsh", "fish"] {
        let r = without_stdin(&tc, &["completions", shell]);
        assert_eq!(r.code, 0, "{shell}");
        let out = String::from_utf8(r.stdout).unwrap();
        assert!(
            out.contains("caveman-engine") && out.contains("compress"),
            "{shell}"
        );
        assert!(out.contains("prune"), "{shell} completes store verbs");
    }
    let r = without_stdin(&tc, &["completions", "powershell"]);
    assert_eq!(r.code, 1, "a bad argument of a command that exists");
    assert!(r.stderr_str().contains("unknown shell"));
    let r = without_stdin(&tc, &["man"]);
    assert_eq!(r.code, 0);
    let out = String::from_utf8(r.stdout).unwrap();
    assert!(out.contains(".TH caveman-engine"), "{out}");
}

/// The report line is the same bytes with and without `--explain`; the
/// account follows it.
fn explained(tc: &TestCommand, args: &[&str], input: &[u8]) -> (Run, Vec<String>) {
    let plain = tc.expect(args, input, 0);
    let mut with = args.to_vec();
    with.push("--explain");
    let r = tc.expect(&with, input, 0);
    assert_eq!(r.stdout, plain.stdout, "stdout unchanged by --explain");
    let err = r.stderr_str();
    let mut lines = err.lines();
    let report = lines.next().unwrap();
    assert_eq!(
        format!("{report}\n").as_bytes(),
        plain.stderr.as_slice(),
        "report line unchanged"
    );
    let rest: Vec<String> = lines.map(str::to_string).collect();
    assert!(rest.iter().all(|l| l.starts_with("explain: ")), "{rest:?}");
    (r, rest)
}

#[test]
fn explain_a_lossy_json_view() {
    let tc = TestCommand::new();
    let (r, lines) = explained(&tc, &["compress"], orders(120).as_bytes());
    let handle = tc
        .expect(&["compress"], orders(120).as_bytes(), 0)
        .handle()
        .unwrap();
    assert!(r.stderr_str().contains(&handle));
    assert!(lines[0].contains("detected json"), "{lines:?}");
    let kept = &lines[1];
    assert!(
        kept.contains("head/tail") && kept.contains("error word"),
        "{kept}"
    );
    assert!(kept.contains("dropped"), "{kept}");
    assert!(lines[2].contains(&handle), "{lines:?}");
}

#[test]
fn explain_a_lossy_table_view() {
    let tc = TestCommand::new();
    let (r, lines) = explained(&tc, &["compress"], table(200, "web").as_bytes());
    assert!(r.stderr_str().contains("\"recovery_handle\":\"ccr_"));
    assert!(lines[0].contains("detected tabular"), "{lines:?}");
    assert!(
        lines[1].contains("header, head/tail") && lines[1].contains("dropped"),
        "{lines:?}"
    );
}

#[test]
fn explain_a_decline_and_a_pass_through() {
    let tc = TestCommand::new();
    let (_, lines) = explained(&tc, &["compress"], b"{\"a\":1}");
    assert!(
        lines.last().unwrap().contains("json compressor declined"),
        "{lines:?}"
    );
    let (_, lines) = explained(&tc, &["compress"], table(7, "small").as_bytes());
    assert!(
        lines.last().unwrap().contains("passed through unchanged"),
        "{lines:?}"
    );
    let (_, lines) = explained(&tc, &["compress", "--type", "bogus"], b"x");
    assert!(lines[0].contains("forced with --type"), "{lines:?}");
    assert!(
        lines
            .last()
            .unwrap()
            .contains("no compressor is registered"),
        "{lines:?}"
    );
    let r = tc.expect(&["detect", "--explain"], table(20, "t").as_bytes(), 0);
    assert_eq!(r.stdout, b"tabular\n");
    assert!(r.stderr_str().starts_with("explain: detected tabular: "));
}

fn list_json(tc: &TestCommand) -> Vec<serde_json::Value> {
    let r = tc.expect(&["store", "list", "--json"], b"", 0);
    String::from_utf8(r.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn age(tc: &TestCommand, handle: &str, secs: u64) {
    let path = tc.home.path().join("ccr").join(handle);
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(secs))
        .unwrap();
}

#[test]
fn store_list_rm_path() {
    let tc = TestCommand::new();
    let r = tc.expect(&["store", "path"], b"", 0);
    assert_eq!(
        String::from_utf8(r.stdout).unwrap().trim_end(),
        std::fs::canonicalize(tc.home.path())
            .unwrap()
            .join("ccr")
            .display()
            .to_string()
    );
    let a = tc
        .expect(&["compress"], table(100, "a").as_bytes(), 0)
        .handle()
        .unwrap();
    let b = tc
        .expect(&["compress"], orders(100).as_bytes(), 0)
        .handle()
        .unwrap();
    age(&tc, &a, 100);
    let listed = list_json(&tc);
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["handle"], a, "oldest use first");
    assert_eq!(listed[0]["content_type"], "tabular");
    assert_eq!(listed[1]["content_type"], "json");
    assert!(listed[1]["tokens_before"].as_u64() > listed[1]["tokens_after"].as_u64());
    let text = String::from_utf8(tc.expect(&["store", "list"], b"", 0).stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "a header and two records");
    assert!(text.starts_with("HANDLE "));
    assert!(text.contains(&a) && text.contains("tabular"));
    tc.expect(&["store", "rm", &a], b"", 0);
    tc.expect(&["retrieve", &a], b"", 1);
    assert_eq!(tc.retrieved(&b), orders(100).as_bytes());
    let r = tc.expect(&["store", "rm", &a], b"", 1);
    assert!(r.stderr_str().contains("no such record"));
    tc.expect(&["store"], b"", 0);
    tc.expect(&["store", "bogus"], b"", 2);
}

#[test]
fn store_prune_by_age_and_size() {
    let tc = TestCommand::new();
    let old = tc
        .expect(&["compress"], table(100, "old").as_bytes(), 0)
        .handle()
        .unwrap();
    let mid = tc
        .expect(&["compress"], table(100, "mid").as_bytes(), 0)
        .handle()
        .unwrap();
    let new = tc
        .expect(&["compress"], table(100, "new").as_bytes(), 0)
        .handle()
        .unwrap();
    age(&tc, &old, 40 * 86_400);
    age(&tc, &mid, 3600);
    let r = tc.expect(&["store", "prune", "--older-than", "30d"], b"", 0);
    assert!(String::from_utf8(r.stdout)
        .unwrap()
        .starts_with("removed 1 records"));
    tc.expect(&["retrieve", &old], b"", 1);
    // Using a record again makes it recent: compress of the same input.
    tc.expect(&["compress"], table(100, "mid").as_bytes(), 0);
    age(&tc, &new, 7200);
    let one = table(100, "mid").len() as u64;
    tc.expect(&["store", "prune", "--max-bytes", &one.to_string()], b"", 0);
    assert_eq!(
        tc.retrieved(&mid),
        table(100, "mid").as_bytes(),
        "most recently used kept"
    );
    tc.expect(&["retrieve", &new], b"", 1);
    tc.expect(&["store", "prune"], b"", 1);
    tc.expect(&["store", "prune", "--older-than", "soon"], b"", 1);
}

#[test]
fn store_verify_reports_damage() {
    let tc = TestCommand::new();
    let a = tc
        .expect(&["compress"], table(100, "ok").as_bytes(), 0)
        .handle()
        .unwrap();
    let b = tc
        .expect(&["compress"], table(100, "bad").as_bytes(), 0)
        .handle()
        .unwrap();
    let r = tc.expect(&["store", "verify"], b"", 0);
    assert!(String::from_utf8(r.stdout)
        .unwrap()
        .contains("2 healthy, 0 damaged"));
    let path = tc.home.path().join("ccr").join(&b);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let r = tc.expect(&["store", "verify"], b"", 1);
    let out = String::from_utf8(r.stdout).unwrap();
    assert!(out.contains(&format!("{b}  DAMAGED")), "{out}");
    assert!(out.contains("1 healthy, 1 damaged"), "{out}");
    assert!(!out.contains(&format!("{a}  DAMAGED")));
}

#[test]
fn prune_while_others_compress() {
    let tc = TestCommand::new();
    let inputs: Vec<String> = (0..12).map(|i| table(100 + i, &format!("c{i}"))).collect();
    for input in &inputs[..6] {
        let h = tc
            .expect(&["compress"], input.as_bytes(), 0)
            .handle()
            .unwrap();
        age(&tc, &h, 86_400);
    }
    let mut children = Vec::new();
    for input in &inputs[6..] {
        children.push((
            input.clone(),
            tc.spawn_fed(&["compress"], input.as_bytes(), Stdio::piped()),
        ));
    }
    let pruned = tc.expect(&["store", "prune", "--older-than", "1h"], b"", 0);
    assert!(String::from_utf8(pruned.stdout)
        .unwrap()
        .starts_with("removed 6 records"));
    for (input, (child, feeder)) in children {
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        assert!(out.status.success());
        let h = crate::util::handle_in(&out);
        assert_eq!(
            tc.retrieved(&h),
            input.as_bytes(),
            "a fresh record survives the prune"
        );
    }
}

#[test]
fn run_passes_on_the_commands_status_and_order() {
    let tc = TestCommand::new();
    // stdout and stderr interleaved as written, the status passed on.
    let r = tc.run(
        &[
            "run",
            "--",
            "sh",
            "-c",
            "echo one; echo two >&2; echo three; exit 3",
        ],
        b"",
    );
    assert_eq!(r.code, 3);
    assert_eq!(String::from_utf8_lossy(&r.stdout), "one\ntwo\nthree\n");
    assert!(
        r.stderr_str().starts_with("{\"content_type\":"),
        "{}",
        r.stderr_str()
    );
    // A command that is not there: 127, the shell's words.
    let r = tc.run(&["run", "--", "no-such-command-caveman"], b"");
    assert_eq!(r.code, 127);
    assert!(r
        .stderr_str()
        .contains("no-such-command-caveman: command not found"));
    // A signal that ends the command: 128 + its number.
    let r = tc.run(&["run", "--", "sh", "-c", "kill -TERM $$"], b"");
    assert_eq!(r.code, 128 + 15);
    // Options before --, compressed as compress would.
    let mut script = String::from("i=0; while [ $i -lt 400 ]; do echo \"INFO served request $i\"; i=$((i+1)); done; echo 'ERROR disk full'");
    script.push_str("; exit 0");
    let r = tc.run(
        &["run", "--profile", "lean", "--", "sh", "-c", &script],
        b"",
    );
    assert_eq!(r.code, 0);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        out.contains("ERROR disk full") && out.contains("lines elided"),
        "{out}"
    );
    // No command: a usage error.
    assert_eq!(tc.run(&["run", "--profile", "lean"], b"").code, 1);
}

#[test]
fn help_is_on_stdout_and_never_reads_stdin() {
    let tc = TestCommand::new();
    for args in [
        &["toon", "encode", "--help"][..],
        &["man", "--help"],
        &["version", "--help"],
        &["stats", "--help"],
        &["run", "--help"],
        &["evals", "--help"],
        &["registry", "--help"],
    ] {
        let r = tc.expect(args, b"", 0);
        assert!(!r.stdout.is_empty() && r.stderr.is_empty(), "{args:?}");
        assert!(!r.stdout.starts_with(b".TH"), "{args:?} printed roff");
    }
    let man = tc.expect(&["man"], b"", 0);
    let page = String::from_utf8_lossy(&man.stdout);
    assert!(!page.contains("caveman-engine-compress(1)"));
    assert!(page.contains("EXIT STATUS") && page.contains("\\-\\-budget"));
}

#[test]
fn lean_refuses_arguments_compat_ignores() {
    let tc = TestCommand::new();
    // Compat keeps the reference's leniency (cli.md §1).
    tc.expect(&["detect", "extra"], b"x", 0);
    tc.expect(&["stats", "--json"], b"", 0);
    let lean = TestCommand::new().env("CAVEMAN_ENGINE_PROFILE", "lean");
    for args in [
        &["detect", "--bogus"][..],
        &["stats", "--json"],
        &["toon", "encode", "x"],
    ] {
        let r = lean.run(args, b"{}");
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr_str());
        assert!(r.stdout.is_empty());
    }
    let r = lean.run(&["detect", "--profile", "fast"], b"");
    assert_eq!(r.code, 1);
}
