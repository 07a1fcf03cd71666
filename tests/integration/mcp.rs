//! The MCP server as a host runs it: the spec's examples over a file
//! store shared with the CLI (spec/mcp.md §14.9, §14.10, §14.13, §14.14),
//! the program's arguments and exit codes, and arbitrary bytes on stdin.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::util::TestCommand;

fn mcp_bin() -> &'static str {
    env!("CARGO_BIN_EXE_caveman-mcp")
}

/// Runs the server over `stdin` with the test's environment; returns
/// stdout, stderr and the exit code.
pub(crate) fn serve(
    tc: &TestCommand,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
) -> (String, String, i32) {
    let mut cmd = tc.command(&[]);
    let mut c = Command::new(mcp_bin());
    c.args(args);
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    let _ = &mut cmd;
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sin = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = sin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn example(n: &str) -> (String, String) {
    let spec = include_str!("../../fixtures/mcp/examples.md");
    let start = spec.find(&format!("**{n} ")).unwrap();
    let rest = &spec[start..];
    let i = rest.find("stdin:\n").unwrap() + "stdin:\n".len();
    let j = i + rest[i..].find("stdout:\n").unwrap();
    let k = j + "stdout:\n".len();
    let end = k + rest[k..].find("```").unwrap();
    (rest[i..j].to_string(), rest[k..end].to_string())
}

#[test]
fn compress_then_stats_then_retrieve_in_a_second_process() {
    let tc = TestCommand::new();
    let (stdin, stdout) = example("14.9");
    let (out, _, code) = serve(&tc, &[], stdin.as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(out, stdout, "14.9");
    // The CLI resolves the handle the server minted.
    let body = "{\"items\":[".to_string() + &["{\"k\":\"v\",\"n\":1}"; 12].join(",") + "]}";
    assert_eq!(
        tc.retrieved("ccr_178b72135586f06e2cff66fc0db3f0fe"),
        body.as_bytes()
    );
    let (stdin, stdout) = example("14.10");
    let (out, _, code) = serve(&tc, &[], stdin.as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(out, stdout, "14.10");
}

#[test]
fn narrowed_retrieves_and_the_storm_payout_over_a_cli_handle() {
    let tc = TestCommand::new();
    let mut csv = String::from("id,state,amount\n");
    for n in 1..=40 {
        let state = if n == 6 || n == 26 {
            "failed"
        } else {
            "charged"
        };
        csv.push_str(&format!("{n},{state},{n}.00\n"));
    }
    assert_eq!(csv.len(), 676);
    let r = tc.expect(&["compress"], csv.as_bytes(), 0);
    assert_eq!(r.handle().unwrap(), "ccr_905b4a771b685a0381c0455d4099c017");
    let (stdin, stdout) = example("14.13");
    let (out, _, code) = serve(&tc, &[], stdin.as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(out, stdout, "14.13");
}

#[test]
fn a_large_original_is_retrieved_whole() {
    let tc = TestCommand::new();
    let rows: Vec<String> = (0..420_000)
        .map(|i| format!("{{\"id\":{i},\"state\":\"ok\",\"note\":\"<row {i}>\"}}"))
        .collect();
    let body = format!("[{}]", rows.join(","));
    assert!(body.len() > 16 << 20, "over the result cap");
    let h = tc
        .expect(&["compress"], body.as_bytes(), 0)
        .handle()
        .unwrap();
    let req = format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"caveman_retrieve\",\"arguments\":{{\"recovery_handle\":\"{h}\"}}}}}}\n");
    let (out, _, code) = serve(&tc, &[], req.as_bytes(), &[]);
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["result"]["isError"], false);
    assert_eq!(
        answer["result"]["content"][0]["text"].as_str().unwrap(),
        body
    );
}

#[test]
fn a_handle_from_mcp_resolves_through_the_cli_and_back() {
    let tc = TestCommand::new();
    let rows: Vec<String> = (0..60)
        .map(|i| format!("{{\"id\":{i},\"state\":\"ok\"}}"))
        .collect();
    let body = format!("[{}]", rows.join(","));
    let req = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"caveman_compress\",\"arguments\":{{\"input\":{}}}}}}}\n",
        serde_json::to_string(&body).unwrap()
    );
    let (out, _, _) = serve(&tc, &[], req.as_bytes(), &[]);
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    let payload: serde_json::Value =
        serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    let h = payload["recovery_handle"].as_str().unwrap();
    assert_eq!(tc.retrieved(h), body.as_bytes());
    // The CLI's compress of the same bytes prints the same view.
    let cli = tc.expect(&["compress"], body.as_bytes(), 0);
    assert_eq!(
        String::from_utf8(cli.stdout.clone()).unwrap(),
        payload["compressed"].as_str().unwrap()
    );
    assert_eq!(cli.handle().unwrap(), h);
}

#[test]
fn arguments_and_exit_codes() {
    let tc = TestCommand::new();
    let (out, _, code) = serve(&tc, &["version", "--json"], b"", &[]);
    assert_eq!(code, 0);
    assert_eq!(out, "{\"capabilities\":[\"mcp_recovery\",\"build_stamped_version\"],\"schema\":\"caveman.mcp.version.v1\",\"version\":\"dev\"}\n");
    for args in [&["version"][..], &["--bogus"], &["version", "--json", "x"]] {
        let (out, err, code) = serve(&tc, args, b"", &[]);
        assert_eq!(
            (out.as_str(), err.as_str(), code),
            ("", "usage: caveman-mcp [version --json]\n", 2)
        );
    }
    // Ours: help and version on stdout, exit 0, stdin never read.
    let (out, err, code) = serve(&tc, &["--help"], b"", &[]);
    assert!(out.starts_with("caveman-mcp: ") && out.contains("caveman_compress"));
    assert_eq!((err.as_str(), code), ("", 0));
    let (out, _, code) = serve(&tc, &["--version"], b"", &[]);
    assert_eq!(
        (out, code),
        (format!("caveman-mcp {}\n", env!("CARGO_PKG_VERSION")), 0)
    );
    // A store that cannot be opened: logged, exit 1, stdin never read.
    let (out, err, code) = serve(
        &tc,
        &[],
        b"{\"id\":1,\"method\":\"ping\"}\n",
        &[("CAVEMAN_CCR_MAX_BYTES", "x")],
    );
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(
        err.contains("open recovery store") && err.contains("positive integer"),
        "{err}"
    );
    // Ephemeral: nothing touches the disk.
    let (out, _, code) = serve(
        &tc,
        &[],
        b"{\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"caveman_stats\"}}\n",
        &[
            ("CAVEMAN_MCP_EPHEMERAL", "1"),
            ("CAVEMAN_CCR_MAX_BYTES", "x"),
        ],
    );
    assert_eq!(code, 0);
    assert!(out.contains("requests\\\":0"), "{out}");
    // `caveman-engine mcp` is the same server.
    let r = tc.expect(&["mcp"], b"{\"id\":7,\"method\":\"ping\"}\n", 0);
    assert_eq!(r.stdout, b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Arbitrary bytes (mixed with real requests) never end the
        /// server before EOF, and every line it writes is one JSON value.
        #[test]
        fn any_bytes_get_json_lines(
            chunks in prop::collection::vec(prop_oneof![
                prop::collection::vec(any::<u8>(), 0..200),
                Just(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".to_vec()),
                Just(b"[{\"id\":2,\"method\":\"tools/list\"},7,null]\n".to_vec()),
                Just(b"{\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"caveman_compress\",\"arguments\":{\"input\":\"a\\u0000\\ud800\"}}}\n".to_vec()),
            ], 1..12)
        ) {
            let tc = TestCommand::new();
            let mut stdin: Vec<u8> = chunks.concat();
            stdin.extend_from_slice(b"\n{\"id\":\"last\",\"method\":\"ping\"}\n");
            let (out, _, code) = serve(&tc, &[], &stdin, &[("CAVEMAN_MCP_EPHEMERAL", "1")]);
            prop_assert_eq!(code, 0);
            for line in out.lines() {
                prop_assert!(serde_json::from_str::<serde_json::Value>(line).is_ok(), "{}", line);
            }
            prop_assert!(out.ends_with("{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"result\":{}}\n"), "{}", out);
        }
    }
}

/// A Python with the official MCP SDK: `CAVEMAN_MCP_PYTHON`, or the venv
/// `.ci/run` creates in `target/mcp-venv`.
fn sdk_python() -> Option<std::path::PathBuf> {
    let candidates = [
        std::env::var_os("CAVEMAN_MCP_PYTHON").map(std::path::PathBuf::from),
        Some(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mcp-venv/bin/python")),
    ];
    candidates.into_iter().flatten().find(|p| {
        Command::new(p)
            .args(["-c", "import mcp"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn the_official_python_sdk_drives_the_server() {
    let Some(python) = sdk_python() else {
        crate::util::skipped(
            "mcp official SDK client",
            "no Python with the MCP SDK (`.ci/run` installs one into target/mcp-venv)",
        );
        return;
    };
    let dir = crate::util::TempDir::new("mcp-sdk");
    // A real API response when the shared corpus is present, else a
    // synthetic one of the same shape.
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/json/usgs_quakes.json");
    let payload = dir.path().join("payload.json");
    match std::fs::read(&corpus) {
        Ok(b) if std::str::from_utf8(&b).is_ok() => std::fs::write(&payload, b).unwrap(),
        _ => {
            let rows: Vec<String> = (0..80)
                .map(|i| {
                    format!(
                        "{{\"id\":{i},\"state\":\"{}\",\"ms\":{}}}",
                        if i == 9 { "failed" } else { "ok" },
                        10 + i % 7
                    )
                })
                .collect();
            std::fs::write(&payload, format!("[{}]", rows.join(","))).unwrap();
        }
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client.py");
    let out = Command::new(python)
        .arg(script)
        .arg(mcp_bin())
        .arg(&payload)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
