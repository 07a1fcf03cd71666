//! Every subcommand's messages and exit codes (spec/cli.md).

use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;

use serde::Deserialize;

use crate::util::{assert_fatal, Run, TestCommand};

/// The reference's help line, which the bare command prints on stderr.
const HELP: &str = "caveman-engine compress | detect | retrieve <handle> | stats | registry | toon encode|decode | pixel render|simulate | evals run [--fixtures DIR]\n";

/// Mirror of the report: unknown fields are a failure.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Report {
    content_type: String,
    tokens_before: u64,
    tokens_after: u64,
    ratio: f64,
    basis: String,
    recovery_handle: Option<String>,
    method: Option<String>,
    lossless_to_model: Option<bool>,
    error: Option<String>,
}

fn orders(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "{{\"id\":\"ord-{}\",\"status\":\"ok\",\"total\":{}}}",
                1000 + i,
                10 + i % 7
            )
        })
        .collect();
    format!("{{\"orders\":[{}]}}", items.join(",\n"))
}

#[test]
fn help_and_unknown_subcommands() {
    let tc = TestCommand::new();
    let r = tc.expect(&[], b"", 0);
    assert_eq!(r.stderr_str(), HELP);
    assert!(r.stdout.is_empty());
    let r = tc.expect(&["bogus"], b"", 2);
    assert_eq!(r.stderr_str(), "unknown caveman-engine subcommand: bogus\n");
    // Out of scope here, but `pixel` without a verb is still a usage error.
    let r = tc.expect(&["pixel"], b"", 2);
    assert!(
        r.stderr_str()
            .starts_with("usage: caveman-engine pixel render [--cols N]"),
        "{}",
        r.stderr_str()
    );
    let r = tc.expect(&["pixel", "render"], b"", 1);
    assert!(!r.stderr_str().is_empty());
    // registry ignores its arguments and prints the manifest line.
    let r = tc.expect(&["registry", "extra"], b"", 0);
    assert!(r.stdout.starts_with(b"{\"schema_version\":1,"));
    assert!(r.stderr.is_empty());
    let r = tc.expect(&["evals", "walk"], b"", 1);
    assert_eq!(
        r.stderr_str(),
        "usage: caveman-engine evals run [--fixtures DIR]\n"
    );
}

#[test]
fn evals_run_the_built_in_set_and_a_users_directory() {
    let tc = TestCommand::new();
    let r = tc.run(&["evals", "run"], b"");
    let text = String::from_utf8_lossy(&r.stdout).into_owned();
    let report: serde_json::Value =
        serde_json::from_str(&text[..text.find("\n}\n").unwrap() + 2]).unwrap();
    assert!(report["fixtures"].as_array().unwrap().len() >= 17);
    assert_eq!(r.code, if report["passed"] == true { 0 } else { 1 });
    // The example directory of the README passes, in both profiles.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/evals");
    for profile in ["compat", "lean"] {
        let r = tc.expect(
            &["evals", "run", "--fixtures", dir, "--profile", profile],
            b"",
            0,
        );
        assert!(r.stderr.is_empty());
    }
}

#[test]
fn compress_flag_errors() {
    let tc = TestCommand::new();
    for (args, msg) in [
        (
            &["compress", "--bogus", "--type"][..],
            "unknown compress flag: --bogus\n",
        ),
        (
            &["compress", "--type"],
            "usage: caveman-engine compress [--type <content-type>]\n",
        ),
        (
            &["compress", "--query"],
            "usage: caveman-engine compress [--query <text>]\n",
        ),
        (
            &["compress", "--type=json"],
            "unknown compress flag: --type=json\n",
        ),
    ] {
        let r = tc.expect(args, b"{}", 1);
        assert_eq!(r.stderr_str(), msg);
        assert!(r.stdout.is_empty());
    }
}

#[test]
fn empty_stdin_report() {
    let r = TestCommand::new().expect(&["compress"], b"", 0);
    assert!(r.stdout.is_empty());
    assert_eq!(
        r.stderr_str(),
        "{\"content_type\":\"text\",\"tokens_before\":0,\"tokens_after\":0,\"ratio\":0,\"basis\":\"inferred\"}\n"
    );
}

#[test]
fn whitespace_only_input_passes_through() {
    let tc = TestCommand::new();
    for input in [
        &b" "[..],
        b"\n",
        b"\r\n",
        "\u{a0}".as_bytes(),
        "\u{3000}".as_bytes(),
    ] {
        let r = tc.expect(&["compress"], input, 0);
        assert_eq!(r.stdout, input);
        assert_eq!(r.report()["content_type"], "text");
        assert_eq!(tc.expect(&["detect"], input, 0).stdout, b"text\n");
    }
    let nine: String = (1..=9).map(|i| format!("{i} | \n")).collect();
    assert_eq!(tc.expect(&["detect"], nine.as_bytes(), 0).stdout, b"text\n");
    assert_eq!(
        tc.expect(&["compress"], nine.as_bytes(), 0).stdout,
        nine.as_bytes()
    );
}

#[test]
fn forced_type_is_reported_verbatim() {
    let tc = TestCommand::new();
    let r = tc.expect(&["compress", "--type", "fo\"o<"], b"hello", 0);
    assert_eq!(r.stdout, b"hello");
    assert!(r
        .stderr_str()
        .starts_with("{\"content_type\":\"fo\\\"o\\u003c\","));
    let r = tc.expect(
        &["compress", "--type", "json", "--type", "auto"],
        b"plain words",
        0,
    );
    assert_eq!(r.report()["content_type"], "text");
}

#[test]
fn compress_report_fields_and_round_trip() {
    let tc = TestCommand::new();
    let input = orders(120);
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    let rep: Report = serde_json::from_slice(&r.stderr).unwrap();
    assert_eq!(rep.content_type, "json");
    assert_eq!(rep.method.as_deref(), Some("elision"));
    assert_eq!(rep.lossless_to_model, Some(false));
    assert!(rep.tokens_after < rep.tokens_before);
    assert_eq!(rep.basis, "inferred");
    let h = rep.recovery_handle.unwrap();
    assert!(h.starts_with("ccr_") && h.len() == 36);
    let back = tc.expect(&["retrieve", &h], b"", 0);
    assert_eq!(back.stdout, input.as_bytes());
    // Same input, same bytes.
    let again = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(again.stdout, r.stdout);
    assert_eq!(again.stderr, r.stderr);
    // The compressed view compresses no further: its arrays hold markers.
    let second = tc.expect(&["compress"], &r.stdout, 0);
    assert_eq!(second.stdout, r.stdout);
    assert!(second.report().get("recovery_handle").is_none());
}

#[test]
fn query_flag_forms_agree() {
    let tc = TestCommand::new();
    let input = orders(60);
    let a = tc.expect(&["compress", "--query", "ord-1030"], input.as_bytes(), 0);
    let b = tc.expect(&["compress", "--query=ord-1030"], input.as_bytes(), 0);
    assert_eq!(a.stdout, b.stdout);
    let none = tc.expect(&["compress"], input.as_bytes(), 0);
    let empty = tc.expect(&["compress", "--query", ""], input.as_bytes(), 0);
    assert_eq!(none.stdout, empty.stdout);
    assert_eq!(none.stderr, empty.stderr);
}

#[test]
fn stdin_cap() {
    let tc = TestCommand::new();
    let exact = vec![b'a'; 64 << 20];
    let r = tc.expect(&["detect"], &exact, 0);
    assert_eq!(r.stdout, b"text\n");
    let mut over = exact;
    over.push(b'a');
    for cmd in [&["compress"][..], &["detect"], &["toon", "encode"]] {
        let r = tc.expect(cmd, &over, 1);
        assert_eq!(
            r.stderr_str(),
            "read stdin: cave_input_too_large: stdin exceeds 67108864 bytes\n"
        );
        assert!(r.stdout.is_empty());
    }
}

/// A redirected file is read by its size: same answers, same cap.
#[test]
fn stdin_from_a_regular_file() {
    let tc = TestCommand::new();
    let dir = crate::util::TempDir::new("stdin-file");
    let run_file = |args: &[&str], bytes: &[u8]| {
        let path = dir.path().join("in");
        std::fs::write(&path, bytes).unwrap();
        let out = tc
            .command(args)
            .stdin(std::fs::File::open(&path).unwrap())
            .output()
            .unwrap();
        (out.status.code(), out.stdout, out.stderr)
    };
    let input = orders(60);
    let piped = tc.expect(&["compress"], input.as_bytes(), 0);
    let (code, stdout, stderr) = run_file(&["compress"], input.as_bytes());
    assert_eq!(
        (code, &stdout, &stderr),
        (Some(0), &piped.stdout, &piped.stderr)
    );
    let (code, stdout, _) = run_file(&["detect"], b"");
    assert_eq!((code, stdout.as_slice()), (Some(0), b"text\n".as_slice()));
    let over = vec![b'a'; (64 << 20) + 1];
    let (code, stdout, stderr) = run_file(&["detect"], &over);
    assert_eq!(code, Some(1));
    assert!(stdout.is_empty());
    assert_eq!(
        stderr,
        b"read stdin: cave_input_too_large: stdin exceeds 67108864 bytes\n"
    );
}

#[test]
fn stdin_from_a_directory() {
    let tc = TestCommand::new();
    let out = tc
        .command(&["detect"])
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    assert_fatal(&out, "read stdin: read /dev/stdin: is a directory");
}

#[test]
fn stdout_on_a_full_device() {
    let tc = TestCommand::new();
    let out = tc
        .command(&["compress"])
        .stdin(
            std::fs::File::open(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/fixtures/conformance/json-orders-120/input"
            ))
            .unwrap(),
        )
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_fatal(
        &out,
        "compress: write stdout: write /dev/stdout: no space left on device",
    );
    // detect ignores the failure.
    let out = tc
        .command(&["detect"])
        .stdin(Stdio::null())
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn retrieve_errors() {
    let tc = TestCommand::new();
    let r = tc.expect(&["retrieve"], b"", 1);
    assert_eq!(
        r.stderr_str(),
        "usage: caveman-engine retrieve <handle> [query]\n"
    );
    for h in [
        "ccr_00000000000000000000000000000000",
        "../x",
        "/etc/passwd",
        "ccr_0000000000000000000000000000000",
        "ccr_ABCDEF00000000000000000000000000",
        "ccr://ccr_00000000000000000000000000000000",
        "",
    ] {
        let r = tc.expect(&["retrieve", h], b"", 1);
        assert_eq!(
            r.stderr_str(),
            "retrieve: ccr: recovery handle not found\n",
            "{h}"
        );
        assert!(r.stdout.is_empty());
    }
}

#[test]
fn toon_errors() {
    let tc = TestCommand::new();
    let r = tc.expect(&["toon"], b"", 1);
    assert_eq!(r.stderr_str(), "usage: caveman-engine toon encode|decode\n");
    let r = tc.expect(&["toon", "sideways"], b"{}", 1);
    assert_eq!(r.stderr_str(), "usage: caveman-engine toon encode|decode\n");
    let r = tc.expect(&["toon", "encode"], b"[[1]]", 1);
    assert_eq!(
        r.stderr_str(),
        "toon encode: not losslessly TOON-encodable (invalid JSON, or nested/non-uniform shape); keep JSON\n"
    );
    let r = tc.expect(&["toon", "decode"], b"  a: 1", 1);
    assert_eq!(r.stderr_str(), "toon decode: not valid TOON\n");
    let r = tc.expect(&["toon", "decode"], b"a:  1", 1);
    assert_eq!(
        r.stderr_str(),
        "toon decode: json: invalid number literal \" 1\"\n"
    );
    let r = tc.expect(&["toon", "encode"], br#"{"b":[1,2],"a":"x"}"#, 0);
    assert_eq!(r.stdout, b"a: x\nb[2]: 1,2");
    let r = tc.expect(&["toon", "decode"], &r.stdout, 0);
    assert_eq!(r.stdout, br#"{"a":"x","b":[1,2]}"#);
}

/// `compress` with a store it cannot open: the input on stdout untouched,
/// exit 0, the one-line report naming the store failure.
fn assert_passes_through_unstored(tc: &TestCommand) {
    let input = orders(60);
    for profile in ["compat", "lean"] {
        let r = tc.expect(&["compress", "--profile", profile], input.as_bytes(), 0);
        assert_eq!(r.stdout, input.as_bytes(), "{profile}");
        let report = r.stderr_str();
        assert_eq!(report.lines().count(), 1, "{report}");
        let v: serde_json::Value = serde_json::from_str(&report).unwrap();
        assert_eq!(v["error"], "cave_ccr_unavailable", "{report}");
        assert_eq!(v["tokens_after"], v["tokens_before"], "{report}");
        assert!(v.get("recovery_handle").is_none(), "{report}");
    }
}

#[test]
fn store_open_errors() {
    let tc = TestCommand::new().env("CAVEMAN_CCR_MAX_BYTES", "x");
    for args in [
        &["stats"][..],
        &["retrieve", "ccr_00000000000000000000000000000000"],
    ] {
        let r = tc.expect(args, b"", 1);
        assert_eq!(
            r.stderr_str(),
            "cannot open recovery store: CAVEMAN_CCR_MAX_BYTES must be a positive integer\n"
        );
    }
    // compress loses nothing: the input passes through, the report says why.
    assert_passes_through_unstored(&tc);
    // detect and toon never open the store.
    tc.expect(&["detect"], b"x", 0);
    let tc = TestCommand::new().env("CAVEMAN_HOME", "/dev/null/x");
    let r = tc.expect(&["stats"], b"", 1);
    assert_eq!(
        r.stderr_str(),
        "cannot create ~/.caveman: mkdir /dev/null: not a directory\n"
    );
    assert_passes_through_unstored(&tc);
    let mut cmd = TestCommand::new().command(&["stats"]);
    cmd.env_remove("CAVEMAN_HOME").env_remove("HOME");
    let out = cmd.output().unwrap();
    assert_fatal(&out, "cannot resolve home directory: $HOME is not defined");
}

#[test]
fn shared_state_directory_is_refused() {
    let tc = TestCommand::new();
    let home = tc.home.path().to_path_buf();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o777)).unwrap();
    let r = tc.expect(&["stats"], b"", 1);
    assert_eq!(
        r.stderr_str(),
        format!(
            "cannot open recovery store: sqlite parent \"{}\" is group/world writable\n",
            std::fs::canonicalize(&home).unwrap().display()
        )
    );
    assert_passes_through_unstored(&tc);
    assert!(
        !home.join("ccr").exists(),
        "no store created under a shared home"
    );
    let tc2 = TestCommand::new()
        .env("CAVEMAN_HOME", home.to_str().unwrap())
        .env("CAVEMAN_CCR_MAX_BYTES", "x");
    let r = tc2.expect(&["stats"], b"", 1);
    assert_eq!(
        r.stderr_str(),
        "cannot open recovery store: CAVEMAN_CCR_MAX_BYTES must be a positive integer\n"
    );
}

#[test]
fn stats_shapes() {
    let tc = TestCommand::new();
    let r = tc.expect(&["stats"], b"", 0);
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "{\n  \"totals\": {\n    \"count\": 0,\n    \"tokens_before\": 0,\n    \"tokens_after\": 0,\n    \"ratio\": 0\n  },\n  \"by_content_type\": {},\n  \"basis\": \"inferred\",\n  \"max_storage_bytes\": 536870912\n}\n"
    );
    let input = orders(120);
    let c = tc.expect(&["compress"], input.as_bytes(), 0);
    let rep = c.report();
    let r = tc.expect(&["stats"], b"", 0);
    let st: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(st["totals"]["count"], 1);
    assert_eq!(
        st["by_content_type"]["json"]["tokens_before"],
        rep["tokens_before"]
    );
    assert_eq!(
        st["by_content_type"]["json"]["tokens_after"],
        rep["tokens_after"]
    );
    assert_eq!(st["storage_bytes"], input.len());
}

#[test]
fn closed_stdout_is_not_an_error() {
    let tc = TestCommand::new();
    let input = orders(300);
    let mut child = tc
        .command(&["compress"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before anything is written.
    drop(child.stdout.take());
    {
        use std::io::Write;
        let mut sin = child.stdin.take().unwrap();
        sin.write_all(input.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    // The report still names the stored original, and it comes back.
    let h = crate::util::handle_in(&out);
    assert_eq!(tc.retrieved(&h), input.as_bytes());
}

#[test]
fn deep_nesting_and_huge_arrays() {
    let tc = TestCommand::new();
    // 10,000 levels is JSON; 10,001 is not (Go's limit), and neither panics.
    let ok = "[".repeat(10_000) + &"]".repeat(10_000);
    assert_eq!(tc.expect(&["detect"], ok.as_bytes(), 0).stdout, b"json\n");
    let r = tc.expect(&["compress"], ok.as_bytes(), 0);
    assert_eq!(r.stdout, ok.as_bytes());
    let bad = "[".repeat(10_001) + &"]".repeat(10_001);
    assert_eq!(tc.expect(&["detect"], bad.as_bytes(), 0).stdout, b"text\n");
    let r = tc.expect(&["compress", "--type", "json"], bad.as_bytes(), 0);
    assert_eq!(r.stdout, bad.as_bytes());
    // Deep objects would indent TOON quadratically: refused with a clear
    // error once the output would pass four times the input (exit 1), and
    // passed through by compress.
    let deep = "{\"a\":".repeat(50_000) + "1" + &"}".repeat(50_000);
    let r = tc.expect(&["toon", "encode"], deep.as_bytes(), 1);
    assert!(r.stdout.is_empty());
    assert!(r.stderr_str().contains("would pass"), "{}", r.stderr_str());
    let r = tc.expect(&["compress", "--type", "toon"], deep.as_bytes(), 0);
    assert_eq!(r.stdout, deep.as_bytes());
    let nested = "{\"a\":".repeat(150) + "1" + &"}".repeat(150);
    let r = tc.expect(&["toon", "encode"], nested.as_bytes(), 0);
    assert!(r.stdout.ends_with(b"a: 1"));
    // A million-element array collapses and round-trips.
    let million = format!("[{}]", vec!["7"; 1_000_000].join(","));
    let r = tc.expect(&["compress"], million.as_bytes(), 0);
    assert!(r
        .stdout
        .starts_with(b"[7,7,7,{\"__caveman_elided__\":999995,\"__caveman_note__\":"));
    assert!(r.stdout.ends_with(b"},7,7]"));
    let h = r.handle().unwrap();
    assert_eq!(tc.retrieved(&h), million.as_bytes());
}

/// Compresses `input` twice: exit 0, no panic, the same bytes both times,
/// and either the input untouched or a view whose handle gives it back.
fn survives(tc: &TestCommand, what: &str, input: &[u8]) -> Run {
    let r = tc.expect(&["compress"], input, 0);
    assert!(
        !r.stderr_str().contains("panicked"),
        "{what}: {}",
        r.stderr_str()
    );
    let again = tc.expect(&["compress"], input, 0);
    assert_eq!(r.stdout, again.stdout, "{what}: not deterministic");
    match r.handle() {
        Some(h) => assert_eq!(tc.retrieved(&h), input, "{what}"),
        None => assert_eq!(r.stdout, input, "{what}: a pass-through must be exact"),
    }
    let d = tc.expect(&["detect"], input, 0);
    assert!(d.stdout.ends_with(b"\n"), "{what}");
    r
}

#[test]
fn hostile_inputs_pass_through_or_round_trip() {
    let tc = TestCommand::new();
    let rows = |sep: &str, end: &str| -> String {
        let mut s = format!("id{sep}state{sep}ms{end}");
        for i in 0..300 {
            s.push_str(&format!("{i}{sep}ok{sep}{}{end}", i % 7));
        }
        s
    };
    let mut invalid = rows(",", "\n").into_bytes();
    invalid.extend_from_slice(b"301,\xff\xfe broken,1\n");
    let nul_json = format!(
        "[{}]",
        (0..200)
            .map(|i| format!("{{\"id\":{i},\"s\":\"a\\u0000b\"}}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut nul_csv = rows(",", "\n").into_bytes();
    nul_csv.extend_from_slice(b"301,o\0k,2\n");
    let wide = |cols: usize| -> String {
        let header: Vec<String> = (0..cols).map(|c| format!("c{c}")).collect();
        let mut s = header.join(",") + "\n";
        for i in 0..50 {
            let row: Vec<String> = (0..cols).map(|c| format!("{}", i * c % 11)).collect();
            s.push_str(&(row.join(",") + "\n"));
        }
        s
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("invalid UTF-8 in a table", invalid),
        ("NUL escapes in JSON", nul_json.into_bytes()),
        ("NUL bytes in a table", nul_csv),
        (
            "BOM before JSON",
            [b"\xef\xbb\xbf".as_slice(), orders(60).as_bytes()].concat(),
        ),
        (
            "BOM before a table",
            [b"\xef\xbb\xbf".as_slice(), rows(",", "\n").as_bytes()].concat(),
        ),
        ("CR-only line ends", rows(",", "\r").into_bytes()),
        ("CRLF line ends", rows(",", "\r\n").into_bytes()),
        ("128 columns", wide(128).into_bytes()),
        ("129 columns", wide(129).into_bytes()),
        ("300 columns", wide(300).into_bytes()),
        (
            "random bytes",
            (0..100_000u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
                .collect(),
        ),
    ];
    for (what, input) in &cases {
        survives(&tc, what, input);
    }
    // 129+ columns are not a table (tabular.md): they pass through.
    let r = survives(&tc, "129 columns", wide(129).as_bytes());
    assert_eq!(r.report()["content_type"], "text");
}

#[test]
fn a_64_mib_single_line_passes_through() {
    let tc = TestCommand::new();
    let line: Vec<u8> = (0..64usize << 20).map(|i| b"abcdefgh, "[i % 10]).collect();
    let r = tc.expect(&["compress"], &line, 0);
    assert!(r.stdout == line, "a single line of prose passes through");
    assert!(r.report()["tokens_before"].as_u64().unwrap() > 10_000_000);
}

#[test]
fn secret_field_names_never_reach_a_summary() {
    let tc = TestCommand::new();
    let items: Vec<String> = (0..120)
        .map(|i| {
            format!(
                "{{\"id\":{i},\"api_key\":\"sk-live-123\",\"Password\":\"hunter2\",\"session_id\":\"s-{}\",\"authorization\":\"Bearer abc\",\"region\":\"eu\"}}",
                i % 3
            )
        })
        .collect();
    let input = format!("[{}]", items.join(","));
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    let out: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let summaries: Vec<&str> = out
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e.get("__caveman_invariants__").and_then(|s| s.as_str()))
        .collect();
    assert!(!summaries.is_empty(), "the run has a summary");
    for s in summaries {
        assert!(s.contains("region=eu"), "{s}");
        for secret in [
            "api_key",
            "Password",
            "session",
            "authorization",
            "sk-live",
            "hunter2",
            "Bearer",
        ] {
            assert!(!s.contains(secret), "{secret} in {s}");
        }
    }
}

/// `tokens_after` is the count of what was printed, in best-of mode too,
/// with and without a wrapper around the payload.
#[test]
fn best_of_reports_the_count_of_its_output() {
    let tc = TestCommand::new().env("CAVE_ENGINE_TOON", "best-of");
    let json = orders(80);
    let wrapped = format!("<file path=\"orders.json\">\n{json}</file>\n");
    for input in [json.clone(), wrapped] {
        let r = tc.expect(&["compress"], input.as_bytes(), 0);
        let rep = r.report();
        assert!(rep["recovery_handle"].is_string(), "{}", r.stderr_str());
        assert_eq!(
            rep["tokens_after"].as_u64().unwrap() as usize,
            caveman_engine::tokens::count(&r.stdout)
        );
        assert_eq!(
            rep["tokens_before"].as_u64().unwrap() as usize,
            caveman_engine::tokens::count(input.as_bytes())
        );
    }
}
