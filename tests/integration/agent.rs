//! The agent path: `hook claude-code` replayed on the documented events
//! (fixtures/hooks/claude-code), every rewrite run by a real `bash -c`
//! against the original; the rules that leave a command alone; `init` on
//! real settings files; the ledger under concurrent writers and `kill -9`;
//! `gain` against the reports; `.caveman.toml` and `config`; MCP version
//! negotiation under lean.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::util::{TempDir, TestCommand};

fn fixture(name: &str) -> serde_json::Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hooks/claude-code")
        .join(name);
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// A test command whose HOME (Claude Code's settings) is its own too.
fn agent_tc() -> (TestCommand, TempDir) {
    let home = TempDir::new("claude-home");
    let tc = TestCommand::new()
        .env("HOME", home.path().to_str().unwrap())
        .env(
            "CLAUDE_PROJECT_DIR",
            home.path().join("project").to_str().unwrap(),
        );
    std::fs::create_dir_all(home.path().join("project")).unwrap();
    (tc, home)
}

/// The documented PreToolUse event with `command` run in `cwd`.
fn pre_event(command: &str, cwd: &Path, mode: &str) -> Vec<u8> {
    let mut v = fixture("pretooluse-bash.json");
    v["tool_input"]["command"] = command.into();
    v["cwd"] = cwd.to_str().unwrap().into();
    v["permission_mode"] = mode.into();
    serde_json::to_vec(&v).unwrap()
}

/// The hook's answer (parsed) and its `--explain` line.
fn hook(tc: &TestCommand, event: &[u8]) -> (Option<serde_json::Value>, String) {
    let r = tc.expect(&["hook", "claude-code", "--explain"], event, 0);
    let answer = (!r.stdout.is_empty()).then(|| {
        serde_json::from_slice(&r.stdout).unwrap_or_else(|e| {
            panic!(
                "answer is not JSON ({e}): {}",
                String::from_utf8_lossy(&r.stdout)
            )
        })
    });
    (answer, r.stderr_str())
}

/// Runs `script` with `bash -c` in `cwd` (stdin from a file, stdout and
/// stderr on one pipe), then prints the exit status and the directory:
/// what a user of the command sees, in order.
fn observe(tc: &TestCommand, script: &str, cwd: &Path, stdin: &Path) -> String {
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg("exec 2>&1; bash -c \"$1\"; echo \"[status=$?]\"; pwd")
        .arg("observe")
        .arg(script)
        .current_dir(cwd)
        .stdin(std::fs::File::open(stdin).unwrap());
    // The caveman-engine inside runs with the test's environment.
    let probe = tc.command(&[]);
    cmd.env_clear();
    for (k, v) in probe.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default());
    let out = cmd.stdout(Stdio::piped()).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn rewritten(answer: &serde_json::Value) -> String {
    answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .expect("a rewrite")
        .to_string()
}

#[test]
fn rewrites_keep_order_status_cwd_and_stdin() {
    let (tc, _home) = agent_tc();
    let work = TempDir::new("work");
    std::fs::create_dir_all(work.path().join("sub")).unwrap();
    std::fs::write(work.path().join("sub/f.txt"), "x\n").unwrap();
    let stdin = work.path().join("stdin.txt");
    std::fs::write(&stdin, "line one\nline two\n").unwrap();
    for command in [
        "sh -c 'echo out1; echo err1 >&2; echo out2'",
        "sh -c 'echo a' && false",
        "sh -c 'exit 3'",
        "ls sub && test -f sub/f.txt",
        "sort -r",
        "sh -c 'echo \"$0\" \"$1\"' \"it's\" '$HOME'",
        "for i in 1 2 3; do sh -c \"echo $i; echo e$i >&2\"; done; sh -c 'exit 7'",
        "sh -c 'kill -TERM $$'",
        "pwd; test -d sub",
        "grep -c line",
        "nosuchcommand-xyz",
    ] {
        let (answer, explain) = hook(&tc, &pre_event(command, work.path(), "default"));
        if command.starts_with("grep -c") {
            assert!(answer.is_none(), "{command}: {explain}");
            assert!(explain.contains("never"), "{explain}");
            continue;
        }
        let answer = answer.unwrap_or_else(|| panic!("{command}: no rewrite: {explain}"));
        let hso = &answer["hookSpecificOutput"];
        assert_eq!(hso["hookEventName"], "PreToolUse");
        // No decision on the user's behalf without a rule of theirs.
        assert!(hso.get("permissionDecision").is_none(), "{answer}");
        // The whole input, with only the command changed.
        let input = &hso["updatedInput"];
        assert_eq!(input["description"], "Run the test suite");
        assert_eq!(input["timeout"], 120000);
        assert_eq!(input["run_in_background"], false);
        let new = rewritten(&answer);
        assert!(
            new.contains(" run --profile lean --agent -- bash -c "),
            "{new}"
        );
        let mut before = observe(&tc, command, work.path(), &stdin);
        let after = observe(&tc, &new, work.path(), &stdin);
        if command.contains("kill -TERM") {
            // The status is the same (128 + 15); `run` exits with it
            // rather than dying of the signal, so the shell around does
            // not add its own "Terminated" note.
            assert!(before.starts_with("Terminated\n"), "{before}");
            before = before["Terminated\n".len()..].to_string();
        }
        assert_eq!(after, before, "{command}\nrewritten: {new}");
    }
}

#[test]
fn large_output_is_compressed_and_recoverable() {
    let (tc, _home) = agent_tc();
    let work = TempDir::new("work");
    let command = "for i in $(seq 1 3000); do echo \"INFO request $i served in 12ms\"; done; sh -c 'echo ERROR disk full >&2; exit 4'";
    let (answer, explain) = hook(&tc, &pre_event(command, work.path(), "default"));
    let new = rewritten(&answer.unwrap_or_else(|| panic!("{explain}")));
    let stdin = work.path().join("in");
    std::fs::write(&stdin, "").unwrap();
    let before = observe(&tc, command, work.path(), &stdin);
    let after = observe(&tc, &new, work.path(), &stdin);
    assert!(after.len() * 10 < before.len(), "{after}");
    assert!(after.contains("ERROR disk full"), "{after}");
    assert!(
        after.ends_with(&format!("[status=4]\n{}\n", work.path().display())),
        "{after}"
    );
    let handle = after
        .split("retrieve ")
        .nth(1)
        .and_then(|s| {
            s.split(|c: char| c != '_' && !c.is_ascii_alphanumeric())
                .next()
        })
        .expect("the trailer names the handle")
        .to_string();
    let original = tc.retrieved(&handle);
    let status_at = before.rfind("[status=").unwrap();
    assert_eq!(String::from_utf8(original).unwrap(), before[..status_at]);
    // The run is in the ledger as a hook call, named by its command.
    let gain = tc.expect(&["gain", "--json", "--by", "command"], b"", 0);
    let g: serde_json::Value = serde_json::from_slice(&gain.stdout).unwrap();
    assert_eq!(g["groups"][0]["key"], "for");
}

#[test]
fn each_leave_alone_rule() {
    let (tc, home) = agent_tc();
    let work = TempDir::new("work");
    for (command, rule) in [
        ("cd /tmp", "shell-state"),
        ("export A=1", "shell-state"),
        ("source ./env.sh && make", "shell-state"),
        ("cat <<EOF\nhi\nEOF", "heredoc"),
        ("cargo test | grep FAIL", "pipeline"),
        ("make > build.log", "redirect"),
        ("vim notes.txt", "interactive"),
        ("git commit", "interactive"),
        ("sleep 5 &", "background"),
        ("caveman-engine stats", "already-caveman"),
        ("echo 'open", "unparsable"),
        ("git diff HEAD", "never"),
        ("ls -la", "permission-read-only"),
    ] {
        let (answer, explain) = hook(&tc, &pre_event(command, work.path(), "default"));
        assert!(answer.is_none(), "{command}: {answer:?}");
        assert!(
            explain.starts_with(&format!("explain: {rule}: ")),
            "{command}: {explain}"
        );
    }
    // run_in_background.
    let mut v: serde_json::Value =
        serde_json::from_slice(&pre_event("npm test", work.path(), "default")).unwrap();
    v["tool_input"]["run_in_background"] = true.into();
    let (answer, explain) = hook(&tc, &serde_json::to_vec(&v).unwrap());
    assert!(
        answer.is_none() && explain.contains("background"),
        "{explain}"
    );
    // A permission mode the rewrite could change the answer of.
    let (answer, explain) = hook(&tc, &pre_event("npm test", work.path(), "dontAsk"));
    assert!(
        answer.is_none() && explain.contains("permission-mode"),
        "{explain}"
    );
    // .caveman.toml: never, and an invalid file.
    std::fs::write(
        work.path().join(".caveman.toml"),
        "never = [\"npm test\"]\n",
    )
    .unwrap();
    let (answer, explain) = hook(&tc, &pre_event("npm test --ci", work.path(), "default"));
    assert!(
        answer.is_none() && explain.contains("never") && explain.contains(".caveman.toml:1"),
        "{explain}"
    );
    std::fs::write(work.path().join(".caveman.toml"), "nevr = 1\n").unwrap();
    let (answer, explain) = hook(&tc, &pre_event("npm test", work.path(), "default"));
    assert!(
        answer.is_none()
            && explain.contains("rules-invalid")
            && explain.contains(":1: unknown key"),
        "{explain}"
    );
    std::fs::remove_file(work.path().join(".caveman.toml")).unwrap();
    // A deny rule of the user's: the host applies it to the command as written.
    let settings = home.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"permissions":{"deny":["Bash(rm -rf:*)"],"allow":["Bash(npm test:*)"]}}"#,
    )
    .unwrap();
    let (answer, explain) = hook(
        &tc,
        &pre_event("npm test && rm -rf build", work.path(), "default"),
    );
    assert!(
        answer.is_none() && explain.contains("permission-rule"),
        "{explain}"
    );
    // An allow rule of the user's that covers the command: restated, named.
    let (answer, _) = hook(&tc, &pre_event("npm test --ci", work.path(), "default"));
    let hso = &answer.expect("rewrite")["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "allow");
    let reason = hso["permissionDecisionReason"].as_str().unwrap();
    assert!(
        reason.contains("Bash(npm test:*)") && reason.contains(".claude/settings.json"),
        "{reason}"
    );
    // Not covered by it: no decision.
    let (answer, _) = hook(&tc, &pre_event("npm run build", work.path(), "default"));
    assert!(answer.unwrap()["hookSpecificOutput"]
        .get("permissionDecision")
        .is_none());
    // Unreadable settings: nothing is rewritten.
    std::fs::write(&settings, "{ // a comment\n}").unwrap();
    let (answer, explain) = hook(&tc, &pre_event("npm test", work.path(), "default"));
    assert!(
        answer.is_none() && explain.contains("permission-unknown"),
        "{explain}"
    );
}

#[test]
fn failures_exit_zero_silently_into_the_ledger() {
    let (tc, _home) = agent_tc();
    for event in [
        &b"not json"[..],
        b"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\"}",
    ] {
        let r = tc.expect(&["hook", "claude-code"], event, 0);
        assert!(
            r.stdout.is_empty() && r.stderr.is_empty(),
            "{}",
            r.stderr_str()
        );
    }
    let r = tc.expect(&["hook", "nosuchhost"], b"{}", 0);
    assert!(r.stdout.is_empty());
    let ledger = std::fs::read_to_string(tc.home.path().join("ledger.jsonl")).unwrap();
    assert_eq!(ledger.lines().count(), 2, "{ledger}");
    assert!(
        ledger.contains("\"note\":\"the event is not JSON"),
        "{ledger}"
    );
    assert!(ledger.contains("without tool_input"), "{ledger}");
    // Other events and tools: nothing to do, nothing printed.
    let (answer, explain) = hook(
        &tc,
        &serde_json::to_vec(&fixture("posttooluse-write.json")).unwrap(),
    );
    assert!(
        answer.is_none() && explain.contains("not-documented"),
        "{explain}"
    );
}

fn big_text() -> String {
    (0..400)
        .map(|i| format!("{{\"id\":{i},\"state\":\"open\",\"title\":\"issue number {i}\"}}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn mcp_output_is_replaced_in_its_shape() {
    let (tc, _home) = agent_tc();
    let text = big_text();
    let mut v = fixture("posttooluse-mcp.json");
    v["tool_response"][0]["text"] = text.clone().into();
    v["tool_response"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"type": "text", "text": "small note"}));
    let (answer, explain) = hook(&tc, &serde_json::to_vec(&v).unwrap());
    let answer = answer.unwrap_or_else(|| panic!("{explain}"));
    let hso = &answer["hookSpecificOutput"];
    assert_eq!(hso["hookEventName"], "PostToolUse");
    let out = hso["updatedMCPToolOutput"]
        .as_array()
        .expect("content blocks stay blocks");
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["type"], "text");
    assert_eq!(
        out[1],
        serde_json::json!({"type": "text", "text": "small note"})
    );
    let view = out[0]["text"].as_str().unwrap();
    assert!(view.len() * 4 < text.len(), "{view}");
    let handle = view
        .split("retrieve ")
        .nth(1)
        .unwrap()
        .split(|c: char| c != '_' && !c.is_ascii_alphanumeric())
        .next()
        .unwrap();
    assert_eq!(tc.retrieved(handle), text.as_bytes());
    // A string output stays a string; a {content} result keeps its keys.
    v["tool_response"] = text.clone().into();
    let (answer, _) = hook(&tc, &serde_json::to_vec(&v).unwrap());
    assert!(answer.unwrap()["hookSpecificOutput"]["updatedMCPToolOutput"].is_string());
    v["tool_response"] =
        serde_json::json!({"content": [{"type": "text", "text": text}], "isError": false});
    let (answer, _) = hook(&tc, &serde_json::to_vec(&v).unwrap());
    let o = &answer.unwrap()["hookSpecificOutput"]["updatedMCPToolOutput"];
    assert_eq!(o["isError"], false);
    assert!(o["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("caveman-engine retrieve ccr_"));
    // Small, or already a view: untouched.
    v["tool_response"] = serde_json::json!([{"type": "text", "text": "short"}]);
    let (answer, explain) = hook(&tc, &serde_json::to_vec(&v).unwrap());
    assert!(answer.is_none(), "{explain}");
    v["tool_response"] = serde_json::json!([{"type": "text", "text": format!("{view}{text}")}]);
    let (answer, _) = hook(&tc, &serde_json::to_vec(&v).unwrap());
    assert!(answer.is_none());
}

// ---- init ----

fn init(dir: &Path, args: &[&str], code: i32) -> String {
    let mut a = vec!["init", "claude-code", "--project"];
    a.extend_from_slice(args);
    let r = TestCommand::new().cwd(dir).expect(&a, b"", code);
    format!("{}{}", String::from_utf8_lossy(&r.stdout), r.stderr_str())
}

#[test]
fn init_merges_idempotently_with_backup() {
    let dir = TempDir::new("proj");
    let settings = dir.path().join(".claude/settings.json");
    // A missing file is created.
    let out = init(dir.path(), &[], 0);
    assert!(
        out.contains("+ hooks.PreToolUse (Bash)") && out.contains("(a new file)"),
        "{out}"
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&settings).unwrap()).unwrap();
    let cmd = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(cmd.ends_with("caveman-engine hook claude-code"), "{cmd}");
    assert_eq!(v["hooks"]["PostToolUse"][0]["matcher"], "mcp__.*");
    // Again: nothing changes.
    let out = init(dir.path(), &[], 0);
    assert!(out.contains("nothing to change"), "{out}");
    // A file with other hooks and unknown keys keeps them, in order.
    let original = "{\n  \"zeta\": {\"nested\": [1, 2.5, \"x\"]},\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-guard.sh\"}]}\n    ],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify\"}]}]\n  },\n  \"alpha\": true\n}\n";
    std::fs::write(&settings, original).unwrap();
    let out = init(dir.path(), &["--mcp"], 0);
    assert!(out.contains("backup of the previous file"), "{out}");
    let backup = dir.path().join(".claude/settings.json.caveman-backup");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), original);
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(
        text.find("\"zeta\"") < text.find("\"hooks\"")
            && text.find("\"hooks\"") < text.find("\"alpha\""),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "my-guard.sh"
    );
    assert_eq!(v["hooks"]["PreToolUse"].as_array().unwrap().len(), 2);
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "notify");
    assert_eq!(v["zeta"]["nested"][1], 2.5);
    let mcp: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(".mcp.json")).unwrap()).unwrap();
    assert!(mcp["mcpServers"]["caveman"]["args"]
        .as_array()
        .unwrap()
        .contains(&"lean".into()));
    // Uninstall gives the original back (as JSON).
    let out = init(dir.path(), &["--mcp", "--uninstall"], 0);
    assert!(out.contains("- hooks.PreToolUse"), "{out}");
    let back: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&settings).unwrap()).unwrap();
    assert_eq!(
        back,
        serde_json::from_str::<serde_json::Value>(original).unwrap()
    );
}

#[test]
fn init_refuses_what_it_cannot_edit() {
    let dir = TempDir::new("proj");
    let settings = dir.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    for (content, mode, why) in [
        ("{\n  // a comment\n}\n", 0o644, "not plain JSON"),
        ("[1]", 0o644, "not a JSON object"),
        ("{}", 0o444, "read-only"),
    ] {
        std::fs::write(&settings, content).unwrap();
        std::fs::set_permissions(
            &settings,
            std::os::unix::fs::PermissionsExt::from_mode(mode),
        )
        .unwrap();
        let out = init(dir.path(), &[], 1);
        assert!(
            out.contains(why) && out.contains("nothing changed"),
            "{out}"
        );
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), content);
        std::fs::set_permissions(
            &settings,
            std::os::unix::fs::PermissionsExt::from_mode(0o644),
        )
        .unwrap();
    }
    // The hosts it can and cannot set up.
    let r = TestCommand::new().expect(&["init"], b"", 0);
    let s = String::from_utf8_lossy(&r.stdout);
    assert!(
        s.contains("claude-code") && s.contains("cannot set up other hosts"),
        "{s}"
    );
    let r = TestCommand::new().expect(&["init", "cursor"], b"", 2);
    assert!(r.stderr_str().contains("cannot set up \"cursor\""));
}

// ---- ledger and gain ----

fn ledger_path(tc: &TestCommand) -> PathBuf {
    tc.home.path().join("ledger.jsonl")
}

#[test]
fn gain_matches_the_reports_net_of_retrieves() {
    let tc = TestCommand::new();
    let mut before = 0u64;
    let mut after = 0u64;
    let mut handles = Vec::new();
    for n in [50, 300, 2000] {
        let input: String = (0..n)
            .map(|i| format!("GET /api/item/{i} 200 {}ms\n", i % 17))
            .collect();
        let r = tc.expect(&["compress", "--profile", "lean"], input.as_bytes(), 0);
        let rep = r.report();
        before += rep["tokens_before"].as_u64().unwrap();
        after += rep["tokens_after"].as_u64().unwrap();
        if let Some(h) = rep["recovery_handle"].as_str() {
            handles.push((h.to_string(), rep["tokens_before"].as_u64().unwrap()));
        }
    }
    let (h, tokens) = handles.last().unwrap().clone();
    tc.retrieved(&h);
    let r = tc.expect(&["gain", "--json"], b"", 0);
    let g: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(g["calls"], 3);
    assert_eq!(g["tokens_before"], before);
    assert_eq!(g["tokens_after"], after);
    assert_eq!(g["tokens_retrieved"], tokens);
    assert_eq!(g["saved"], before as i64 - after as i64 - tokens as i64);
    let text = String::from_utf8(tc.expect(&["gain", "--by", "type"], b"", 0).stdout).unwrap();
    assert!(
        text.contains("saved per day") && text.contains('#'),
        "{text}"
    );
    // Off: nothing more is written.
    let lines = std::fs::read_to_string(ledger_path(&tc))
        .unwrap()
        .lines()
        .count();
    let off = tc.env("CAVEMAN_LEDGER", "off");
    off.expect(&["compress"], b"hello\n", 0);
    assert_eq!(
        std::fs::read_to_string(ledger_path(&off))
            .unwrap()
            .lines()
            .count(),
        lines
    );
}

#[test]
fn ledger_survives_sixteen_writers_and_kill_9() {
    let tc = TestCommand::new();
    let input: String = (0..3000)
        .map(|i| format!("line {i} of a build log: ok\n"))
        .collect();
    let per = 4;
    std::thread::scope(|s| {
        for _ in 0..16 {
            s.spawn(|| {
                for _ in 0..per {
                    tc.expect(&["compress"], input.as_bytes(), 0);
                }
            });
        }
    });
    let text = std::fs::read(ledger_path(&tc)).unwrap();
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len(), 16 * per);
    for l in &lines {
        let v: serde_json::Value = serde_json::from_slice(l).unwrap();
        assert_eq!(v["src"], "compress");
    }
    // kill -9 while writers run: every line left is whole, or the tail.
    let mut children = Vec::new();
    for _ in 0..16 {
        let (c, _feeder) = tc.spawn_fed(&["compress"], input.as_bytes(), Stdio::null());
        children.push(c);
    }
    for (i, c) in children.iter_mut().enumerate() {
        if i % 2 == 0 {
            let _ = c.kill();
        }
    }
    for mut c in children {
        let _ = c.wait();
    }
    // A torn record at the end (as a writer killed mid-write leaves one).
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(ledger_path(&tc))
        .unwrap();
    std::io::Write::write_all(&mut f, b"{\"v\":1,\"t\":17646336").unwrap();
    let r = tc.expect(&["gain", "--json"], b"", 0);
    let g: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(g["skipped_lines"], 1, "{g}");
    assert!(g["calls"].as_u64().unwrap() >= 16 * per as u64 + 8, "{g}");
    let text = String::from_utf8(tc.expect(&["gain"], b"", 0).stdout).unwrap();
    assert!(text.contains("skipped the last line"), "{text}");
}

// ---- rules ----

#[test]
fn rules_shape_run_and_config_says_where() {
    let dir = TempDir::new("proj");
    let nested = dir.path().join("a/b");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::write(
        dir.path().join(".caveman.toml"),
        "profile = \"lean\"\nnever = [\"printf\"]\n\n[[command]]\nmatch = \"seq\"\nbudget = 40\n",
    )
    .unwrap();
    let tc = TestCommand::new().cwd(&nested);
    let r = tc.expect(&["config"], b"", 0);
    let s = String::from_utf8_lossy(&r.stdout);
    assert!(
        s.contains(&format!(
            "profile = \"lean\"    # {}:1",
            dir.path().join(".caveman.toml").display()
        )),
        "{s}"
    );
    assert!(s.contains("\"cat\",    # built-in"), "{s}");
    // A never rule: the output as it is, no report.
    let r = tc.expect(&["run", "--", "printf", "%s\\n", "a b"], b"", 0);
    assert_eq!(r.stdout, b"a b\n");
    assert!(r.stderr.is_empty());
    // Per-command budget and the file's profile.
    let r = tc.expect(&["run", "--", "seq", "1", "3000"], b"", 0);
    let rep = r.report();
    assert_eq!(rep["profile"], "lean");
    assert_eq!(rep["budget"], 40);
    // A flag wins over the rules.
    let r = tc.expect(
        &["run", "--profile", "compat", "--", "seq", "1", "3000"],
        b"",
        0,
    );
    assert!(r.report().get("profile").is_none());
    // An invalid file: named with its line; run passes the output through.
    std::fs::write(dir.path().join(".caveman.toml"), "budget = \"lots\"\n").unwrap();
    let r = tc.expect(&["config"], b"", 1);
    assert!(
        r.stderr_str().contains(".caveman.toml:1: budget must be"),
        "{}",
        r.stderr_str()
    );
    let r = tc.expect(&["run", "--", "seq", "1", "3000"], b"", 0);
    assert_eq!(
        r.stdout.len(),
        (1..=3000)
            .map(|i: u32| i.to_string().len() + 1)
            .sum::<usize>()
    );
    assert!(r.stderr_str().contains("passes through"));
}

// ---- MCP ----

fn mcp(tc: &TestCommand, profile: &str, lines: &[String]) -> Vec<serde_json::Value> {
    let input = lines.join("\n") + "\n";
    let r = tc.expect(&["mcp", "--profile", profile], input.as_bytes(), 0);
    String::from_utf8(r.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn init_line(version: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{{\"protocolVersion\":\"{version}\",\"capabilities\":{{}},\"clientInfo\":{{\"name\":\"t\",\"version\":\"1\"}}}}}}")
}

fn call_line(input: &str) -> String {
    serde_json::json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"caveman_compress","arguments":{"input": input}}}).to_string()
}

#[test]
fn lean_negotiates_newer_mcp_versions() {
    let tc = TestCommand::new();
    let text = big_text();
    let list = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}".to_string();
    // 2025-06-18: agreed; structured content and the handle in the text.
    let a = mcp(
        &tc,
        "lean",
        &[init_line("2025-06-18"), call_line(&text), list.clone()],
    );
    assert_eq!(a[0]["result"]["protocolVersion"], "2025-06-18");
    let res = &a[1]["result"];
    let handle = res["structuredContent"]["recovery_handle"]
        .as_str()
        .unwrap();
    assert!(res["content"][0]["text"].as_str().unwrap().contains(handle));
    assert!(a[2]["result"]["tools"][0].get("outputSchema").is_some());
    // 2025-03-26: agreed; no structured content, no output schema.
    let a = mcp(
        &tc,
        "lean",
        &[init_line("2025-03-26"), call_line(&text), list.clone()],
    );
    assert_eq!(a[0]["result"]["protocolVersion"], "2025-03-26");
    assert!(a[1]["result"].get("structuredContent").is_none());
    assert!(a[1]["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("ccr_"));
    assert!(a[2]["result"]["tools"][0].get("outputSchema").is_none());
    // Unknown versions, and compat always: 2024-11-05 as before.
    let a = mcp(&tc, "lean", &[init_line("2099-01-01")]);
    assert_eq!(a[0]["result"]["protocolVersion"], "2024-11-05");
    let a = mcp(&tc, "compat", &[init_line("2025-06-18")]);
    assert_eq!(a[0]["result"]["protocolVersion"], "2024-11-05");
    // MCP calls are in the ledger.
    let r = tc.expect(&["gain", "--json", "--by", "command"], b"", 0);
    let g: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(g["groups"][0]["key"], "(mcp)");
}
