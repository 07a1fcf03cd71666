//! Regression tests for the adversarial pass (store and input hardening):
//! no hang, no wrong bytes, bounded work.

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant, SystemTime};

use crate::util::{TempDir, TestCommand};

fn table(n: usize, tag: &str) -> String {
    let mut s = String::from("id,host,state,ms\n");
    for i in 0..n {
        s.push_str(&format!("{i},{tag}-{},ok,{}\n", i % 5, 20 + i % 9));
    }
    s
}

fn store_dir(tc: &TestCommand) -> std::path::PathBuf {
    tc.home.path().join("ccr")
}

fn handle_of(tc: &TestCommand, input: &str) -> String {
    tc.expect(&["compress"], input.as_bytes(), 0)
        .handle()
        .expect("the input compresses")
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn a_held_lock_makes_compress_pass_through_after_5s() {
    let tc = TestCommand::new();
    let kept = table(100, "before");
    let h = handle_of(&tc, &kept);
    let lock = std::fs::File::options()
        .read(true)
        .write(true)
        .open(store_dir(&tc).join(".lock"))
        .unwrap();
    lock.lock().unwrap();
    // Reads need no lock.
    assert_eq!(tc.retrieved(&h), kept.as_bytes());
    tc.expect(&["stats"], b"", 0);
    let input = table(100, "locked");
    let start = Instant::now();
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    let waited = start.elapsed();
    assert_eq!(r.stdout, input.as_bytes());
    assert_eq!(r.report()["error"], "cave_ccr_unavailable");
    assert!(waited >= Duration::from_secs(4), "gave up after {waited:?}");
    lock.unlock().unwrap();
    assert!(tc
        .expect(&["compress"], input.as_bytes(), 0)
        .handle()
        .is_some());
}

#[test]
fn a_fifo_named_as_a_record_is_refused_without_blocking() {
    let tc = TestCommand::new();
    let input = table(100, "fifo");
    let h = handle_of(&tc, &input);
    let path = store_dir(&tc).join(&h);
    std::fs::remove_file(&path).unwrap();
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let r = tc.expect(&["retrieve", &h], b"", 1);
    assert!(
        r.stderr_str().contains("refusing non-regular file"),
        "{}",
        r.stderr_str()
    );
    let st: serde_json::Value =
        serde_json::from_slice(&tc.expect(&["stats"], b"", 0).stdout).unwrap();
    assert_eq!(st["damaged"], 1);
    // compress writes the record again over the FIFO.
    assert_eq!(handle_of(&tc, &input), h);
    assert_eq!(tc.retrieved(&h), input.as_bytes());
}

#[test]
fn a_symlinked_record_is_refused() {
    let tc = TestCommand::new();
    let input = table(100, "link");
    let h = handle_of(&tc, &input);
    let path = store_dir(&tc).join(&h);
    let elsewhere = tc.home.path().join("elsewhere");
    std::fs::rename(&path, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    let r = tc.expect(&["retrieve", &h], b"", 1);
    assert!(
        r.stderr_str().contains("refusing non-regular file"),
        "{}",
        r.stderr_str()
    );
}

#[test]
fn a_record_moved_under_another_handle_is_refused() {
    let tc = TestCommand::new();
    let x = table(100, "xxx");
    let y = table(100, "yyy");
    let hx = handle_of(&tc, &x);
    let hy = handle_of(&tc, &y);
    let dir = store_dir(&tc);
    std::fs::rename(dir.join(&hy), dir.join(&hx)).unwrap();
    let r = tc.expect(&["retrieve", &hx], b"", 1);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr_str().contains("does not match its handle"),
        "{}",
        r.stderr_str()
    );
}

#[test]
fn a_store_directory_others_can_write_is_refused() {
    let other = TempDir::new("shared");
    let dir = other.path().join("ccr");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let tc = TestCommand::new().env("CAVEMAN_CCR_DIR", dir.to_str().unwrap());
    let input = table(100, "shared");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(r.stdout, input.as_bytes());
    assert_eq!(r.report()["error"], "cave_ccr_unavailable");
    let r = tc.expect(
        &["retrieve", "ccr_ca978112ca1bbdcafac231b39a23dc4d"],
        b"",
        1,
    );
    let msg = r.stderr_str();
    assert!(
        msg.contains("writable by group or others") && msg.contains("chmod go-w"),
        "{msg}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing planted or written"
    );
}

#[test]
fn a_group_writable_store_directory_passes_the_input_through() {
    let other = TempDir::new("group");
    let dir = other.path().join("ccr");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o770)).unwrap();
    let tc = TestCommand::new().env("CAVEMAN_CCR_DIR", dir.to_str().unwrap());
    // Past the 2000 tokens a lean table is read whole within.
    let input = table(400, "group");
    for profile in ["compat", "lean"] {
        let r = tc.expect(&["compress", "--profile", profile], input.as_bytes(), 0);
        assert_eq!(r.stdout, input.as_bytes(), "the payload is not lost");
        assert_eq!(r.report()["error"], "cave_ccr_unavailable");
    }
    let r = tc.expect(&["stats"], b"", 1);
    assert!(
        r.stderr_str().contains("group/world writable"),
        "{}",
        r.stderr_str()
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn a_store_directory_owned_by_another_user_is_refused() {
    if !is_root() {
        crate::util::skipped(
            "foreign store directory",
            "needs root to give a directory to another user",
        );
        return;
    }
    let other = TempDir::new("owned");
    let dir = other.path().join("ccr");
    std::fs::create_dir(&dir).unwrap();
    std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
    let tc = TestCommand::new().env("CAVEMAN_CCR_DIR", dir.to_str().unwrap());
    let input = table(100, "owned");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(r.report()["error"], "cave_ccr_unavailable");
    let r = tc.expect(&["stats"], b"", 1);
    assert!(
        r.stderr_str().contains("owned by uid 65534"),
        "{}",
        r.stderr_str()
    );
}

#[test]
fn a_huge_sparse_record_is_damaged_without_being_read() {
    let tc = TestCommand::new();
    let input = table(100, "sparse");
    let h = handle_of(&tc, &input);
    let path = store_dir(&tc).join(&h);
    let good = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&good).into_owned();
    let forged = text.replacen(
        &format!("\"original_len\":{}", input.len()),
        &format!("\"original_len\":{}", 2u64 << 30),
        1,
    );
    std::fs::write(&path, forged.as_bytes()).unwrap();
    let f = std::fs::File::options().write(true).open(&path).unwrap();
    f.set_len(2 << 30).unwrap();
    let start = Instant::now();
    let r = tc.expect(&["retrieve", &h], b"", 1);
    assert!(
        r.stderr_str().contains("damaged record"),
        "{}",
        r.stderr_str()
    );
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "read the sparse file"
    );
    tc.expect(&["stats"], b"", 0);
}

#[test]
fn stale_temp_files_are_removed_by_the_next_write() {
    let tc = TestCommand::new();
    handle_of(&tc, &table(100, "first"));
    let dir = store_dir(&tc);
    let stale = dir.join(".tmp-ccr_00000000000000000000000000000000-1-1");
    let fresh = dir.join(".tmp-ccr_00000000000000000000000000000000-2-2");
    std::fs::write(&stale, b"partial").unwrap();
    std::fs::write(&fresh, b"partial").unwrap();
    let old = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let st: serde_json::Value =
        serde_json::from_slice(&tc.expect(&["stats"], b"", 0).stdout).unwrap();
    assert_eq!(st["temp_files"], 2);
    handle_of(&tc, &table(100, "second"));
    assert!(!stale.exists(), "a crashed writer's temp file is removed");
    assert!(fresh.exists(), "a recent temp file is left alone");
}

/// Unclosed nesting used to cost time quadratic in its depth (50,000
/// `<div>`s: minutes): past 4096 levels the page is not parsed and passes
/// through; the test harness times out if this regresses.
#[test]
fn deeply_nested_html_passes_through_in_linear_time() {
    let tc = TestCommand::new();
    let page = "<html><body>".to_string() + &"<div>".repeat(200_000) + "text</body></html>";
    let r = tc.expect(&["compress", "--type", "html"], page.as_bytes(), 0);
    assert_eq!(r.stdout, page.as_bytes());
    // Shallow pages still compress.
    let shallow = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/conformance/html-article/input"
    ))
    .unwrap();
    let r = tc.expect(&["compress", "--type", "html"], &shallow, 0);
    assert!(r.stdout.len() < shallow.len());
}

#[test]
fn a_file_size_limit_is_a_full_disk_not_a_signal() {
    // `ulimit -f 64`: no file may grow past 32 KB.
    let tc = TestCommand::new().wrapped(&["sh", "-c", "ulimit -f 64 && exec \"$0\" \"$@\""]);
    let big = table(8000, "fsize");
    assert!(big.len() > 100_000);
    let r = tc.expect(&["compress"], big.as_bytes(), 0);
    assert_eq!(r.stdout, big.as_bytes(), "the payload is not lost");
    assert_eq!(r.report()["error"], "cave_ccr_budget_exceeded");
    let dir = store_dir(&tc);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != ".lock")
        .collect();
    assert!(left.is_empty(), "no temporary file left: {left:?}");
    // What fits is still stored.
    let small = table(100, "fsize");
    let r = tc.expect(&["compress"], small.as_bytes(), 0);
    let handle = r.handle().expect("stored under the limit");
    let back = tc.expect(&["retrieve", &handle], b"", 0);
    assert_eq!(back.stdout, small.as_bytes());
    // `run` gives its command the default disposition back.
    let script = format!(
        "head -c 100000 /dev/zero > '{}'",
        tc.home.path().join("f.bin").display()
    );
    tc.expect(
        &["run", "--", "sh", "-c", &script],
        b"",
        128 + libc::SIGXFSZ,
    );
}

#[test]
fn secrets_never_reach_the_invariants() {
    let rows: Vec<String> = (0..40)
        .map(|i| {
            format!(
                r#"{{"id":{i},"name":"svc{i}","db":{{"host":"h","password":"hunter2"}},"cfg":{{"a":{{"pwd":"s3cr3t"}}}},"k":"AKIAIOSFODNN7EXAMPLE_prod","k2":"prod_AKIAIOSFODNN7EXAMPLE","k3":"AKIAIOSFODNN7EXAMPLEX","sk":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}"#
            )
        })
        .collect();
    let input = format!("[{}]", rows.join(",\n"));
    let tc = TestCommand::new();
    for profile in ["compat", "lean"] {
        let r = tc.expect(&["compress", "--profile", profile], input.as_bytes(), 0);
        let view = String::from_utf8(r.stdout).unwrap();
        let start = view.find("__caveman_invariants__").expect("a summary");
        let summary = &view[start..start + view[start..].find("\"}").unwrap()];
        for secret in ["hunter2", "s3cr3t", "AKIA", "wJalrXUtnFEMI"] {
            assert!(
                !summary.contains(secret),
                "{profile}: {secret} in {summary}"
            );
        }
        assert!(
            summary.contains("id=") || summary.contains("id "),
            "{summary}"
        );
    }
}

#[test]
fn a_damaged_sparse_record_does_not_count_toward_the_budget() {
    let tc = TestCommand::new();
    let first = tc
        .expect(&["compress"], table(100, "first").as_bytes(), 0)
        .handle()
        .unwrap();
    let dir = store_dir(&tc);
    // 600 MB apparent size, no data: more than the whole default budget.
    let fake = dir.join("ccr_0123456789abcdef0123456789abcdef");
    std::fs::File::create(&fake)
        .unwrap()
        .set_len(600 << 20)
        .unwrap();
    let input = table(200, "after");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert!(r.report().get("error").is_none(), "{}", r.stderr_str());
    assert!(r.handle().is_some());
    // verify names it and fails; --repair removes it and succeeds.
    let r = tc.expect(&["store", "verify"], b"", 1);
    let out = String::from_utf8(r.stdout).unwrap();
    assert!(out.contains("2 healthy, 1 damaged"), "{out}");
    let r = tc.expect(&["store", "verify", "--repair"], b"", 0);
    let out = String::from_utf8(r.stdout).unwrap();
    assert!(
        out.contains("ccr_0123456789abcdef0123456789abcdef  DAMAGED")
            && out.contains("(removed)")
            && out.contains("1 removed"),
        "{out}"
    );
    assert!(!fake.exists());
    assert!(dir.join(&first).exists(), "healthy records stay");
    tc.expect(&["store", "verify"], b"", 0);
    // prune removes damaged records as well.
    std::fs::write(&fake, b"CAVEMAN-not-a-record").unwrap();
    let r = tc.expect(&["store", "prune", "--older-than", "30d"], b"", 0);
    assert!(!fake.exists(), "{}", r.stderr_str());
    assert!(dir.join(&first).exists());
}

#[test]
fn lean_passes_an_input_past_64_mib_through() {
    let line = b"2026-01-01T00:00:00Z INFO request served path=/api/v1/items status=200\n";
    let input: Vec<u8> = line
        .iter()
        .copied()
        .cycle()
        .take(((65 << 20) / line.len() + 1) * line.len())
        .collect();
    assert!(input.len() > 64 << 20);
    let tc = TestCommand::new();
    // compat keeps the reference's cap.
    let r = tc.expect(&["compress"], &input, 1);
    assert!(r.stdout.is_empty());
    assert!(r.stderr_str().contains("cave_input_too_large"));
    let r = tc.expect(&["compress", "--profile", "lean"], &input, 0);
    assert!(r.stdout == input, "the input comes back byte for byte");
    let report = r.report();
    assert_eq!(report["error"], "cave_input_too_large");
    assert_eq!(report["content_type"], "log");
    assert_eq!(report["profile"], "lean");
    assert_eq!(report["tokens_before"], report["tokens_after"]);
    assert_eq!(report["tokens_estimated"], true, "four bytes a token");
    assert!(report.get("recovery_handle").is_none());
}

/// 65 MiB of log lines with one error line past the middle.
fn large_log() -> Vec<u8> {
    let line = b"2026-01-01T00:00:00Z INFO request served path=/api/v1/items status=200\n";
    let lines = (65 << 20) / line.len() + 1;
    let mut input = Vec::with_capacity(lines * line.len() + 64);
    for i in 0..lines {
        if i == lines * 3 / 5 {
            input.extend_from_slice(b"2026-01-01T00:00:01Z ERROR disk full on /var/lib/db\n");
        }
        input.extend_from_slice(line);
    }
    input
}

#[test]
fn a_budget_holds_past_64_mib_and_the_original_comes_back() {
    let input = large_log();
    assert!(input.len() > 64 << 20);
    for profile in ["compat", "lean"] {
        let tc = TestCommand::new();
        let r = tc.expect(
            &["compress", "--profile", profile, "--budget", "2000"],
            &input,
            0,
        );
        let report = r.report();
        assert!(
            r.stdout.len() < 20_000,
            "{profile}: {} bytes",
            r.stdout.len()
        );
        let view = String::from_utf8(r.stdout.clone()).unwrap();
        assert!(view.contains("ERROR disk full on /var/lib/db"), "{view}");
        assert!(view.contains("lines elided (caveman)"), "{view}");
        assert!(report["tokens_after"].as_u64().unwrap() <= 2000, "{report}");
        assert!(report.get("tokens_estimated").is_none(), "counted exactly");
        assert_eq!(report["budget"], 2000);
        assert_eq!(report["content_type"], "log");
        let h = r.handle().expect("stored before the view is printed");
        assert!(
            tc.retrieved(&h) == input,
            "{profile}: retrieve gives it back"
        );
        tc.expect(&["store", "verify"], b"", 0);
    }
}

/// The lines a view stands for: a marker's count, else 1.
fn stands_for(view: &str) -> usize {
    view.lines()
        .map(|l| {
            l.strip_prefix("\u{2026} ")
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(1)
        })
        .sum()
}

#[test]
fn cr_only_line_endings_lose_nothing_under_lean() {
    let mut input = String::new();
    for i in 0..20_000 {
        let level = if i == 7_777 {
            "ERROR checksum mismatch on"
        } else {
            "INFO wrote"
        };
        input.push_str(&format!(
            "2026-01-01 10:{:02}:{:02} {level} block {i}\r",
            i / 60 % 60,
            i % 60
        ));
    }
    let tc = TestCommand::new();
    // Compat is the reference: one line of terminal redraws, the last kept
    // (spec/terminal.md; the original is stored).
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(r.stdout, b"2026-01-01 10:33:19 INFO wrote block 19999\r");
    // Lean reads the lines, keeps the error and counts what it drops.
    let r = tc.expect(&["compress", "--profile", "lean"], input.as_bytes(), 0);
    let view = String::from_utf8(r.stdout.clone()).unwrap();
    // (The view is the text as a terminal shows it: LF line endings.)
    let lines = view.replace('\r', "\n");
    assert!(
        lines.contains("ERROR checksum mismatch on block 7777"),
        "{lines}"
    );
    assert!(
        lines.starts_with("2026-01-01 10:00:00 INFO wrote block 0\n"),
        "{lines}"
    );
    assert!(
        lines.contains("10:33:19 INFO wrote block 19999\n"),
        "{lines}"
    );
    // Every line is kept or counted by a marker (lean's closing summary
    // line, `… caveman: 20000 lines in all …`, stands for none).
    let body: String = lines
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("\u{2026} caveman:"))
        .collect();
    assert_eq!(stands_for(&body), 20_000, "{lines}");
    let h = r.handle().expect("stored");
    assert_eq!(tc.retrieved(&h), input.as_bytes());
    let r = tc.expect(
        &["detect", "--profile", "lean", "--explain"],
        input.as_bytes(),
        0,
    );
    assert_eq!(r.stdout, b"log\n");
    // A CSV with CR-only line endings is a table under lean, not its last row.
    let mut csv = String::from("id,host,state,ms\r");
    for i in 0..300 {
        csv.push_str(&format!("{i},web-{},ok,{}\r", i % 5, 20 + i % 9));
    }
    let r = tc.expect(&["compress", "--profile", "lean"], csv.as_bytes(), 0);
    assert_eq!(r.report()["content_type"], "tabular", "{}", r.stderr_str());
    let view = String::from_utf8(r.stdout).unwrap();
    assert!(view.starts_with("id,host,state,ms\n"), "{view:?}");
    assert!(view.contains("\n0,web-0,ok,20\n"), "{view:?}");
}

#[test]
fn a_signal_line_drawn_over_survives_under_lean() {
    let mut input = String::from("INFO starting sync\n");
    for i in 0..40 {
        input.push_str(&format!("INFO step {i} copied files\n"));
    }
    input.push_str("fetch 10%\rfetch 40%\rERROR: connection reset by peer\rfetch 100% done\n");
    for i in 40..80 {
        input.push_str(&format!("INFO step {i} copied files\n"));
    }
    let tc = TestCommand::new();
    let r = tc.expect(&["compress", "--type", "terminal"], input.as_bytes(), 0);
    assert!(
        !String::from_utf8_lossy(&r.stdout).contains("connection reset"),
        "compat: the reference's last frame"
    );
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", "terminal"],
        input.as_bytes(),
        0,
    );
    let view = String::from_utf8_lossy(&r.stdout);
    assert!(
        view.contains("ERROR: connection reset by peer\nfetch 100% done\n"),
        "{view}"
    );
}

#[test]
fn run_streams_output_past_64_mib_and_prints_its_report() {
    let tc = TestCommand::new();
    let dir = crate::util::TempDir::new("run-large");
    let path = dir.path().join("big.log");
    let input = large_log();
    std::fs::write(&path, &input).unwrap();
    let path = path.to_str().unwrap();
    let r = tc.expect(&["run", "--", "cat", path], b"", 0);
    assert!(r.stdout == input, "passed through byte for byte");
    let report = r.report();
    assert_eq!(report["error"], "cave_input_too_large");
    assert_eq!(report["tokens_estimated"], true);
    let r = tc.run(
        &[
            "run",
            "--budget",
            "1000",
            "--",
            "sh",
            "-c",
            &format!("cat {path}; exit 5"),
        ],
        b"",
    );
    assert_eq!(r.code, 5, "{}", r.stderr_str());
    assert!(String::from_utf8_lossy(&r.stdout).contains("ERROR disk full"));
    let h = r.handle().expect("stored");
    assert!(tc.retrieved(&h) == input);
}

#[test]
fn a_small_address_space_is_enough_for_small_inputs() {
    // 100 MB, or room for a larger (debug) binary plus the same headroom.
    let binary = std::fs::metadata(crate::util::bin()).unwrap().len() / 1024;
    let limit_kb = (100_000).max(binary + 56_000);
    let script = format!("ulimit -v {limit_kb} && exec \"$0\" \"$@\"");
    let tc = TestCommand::new().wrapped(&["sh", "-c", &script]);
    let r = tc.expect(&["version"], b"", 0);
    assert!(r.stdout.starts_with(b"caveman-engine "));
    let r = tc.expect(&["detect", "--profile", "lean"], b"hi\n", 0);
    assert_eq!(r.stdout, b"text\n");
    let input = table(300, "small");
    for profile in ["compat", "lean"] {
        let r = tc.expect(&["compress", "--profile", profile], input.as_bytes(), 0);
        let h = r.handle().expect("stored");
        assert_eq!(
            tc.expect(&["retrieve", &h], b"", 0).stdout,
            input.as_bytes()
        );
    }
    // Past what the limit allows: an exit status with one line, never a
    // signal.
    let big = table(400_000, "big");
    let r = tc.run(&["compress", "--profile", "lean"], big.as_bytes());
    assert!(
        r.code == 0 || r.code == 1,
        "exit {}: {}",
        r.code,
        r.stderr_str()
    );
    if r.code == 1 {
        assert_eq!(r.stderr_str().lines().count(), 1, "{}", r.stderr_str());
    }
}

/// Runs the engine with `args` on the file `input`; its exit status and
/// peak resident memory in KB (the kernel's account, from `wait4`).
// The child is reaped by `wait4` (std's `wait` gives no rusage).
#[allow(clippy::zombie_processes)]
fn peak_rss_kb(tc: &TestCommand, args: &[&str], input: &std::path::Path) -> (i32, i64) {
    let mut cmd = tc.command(args);
    cmd.stdin(std::fs::File::open(input).unwrap())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let child = cmd.spawn().unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, whose pid is valid until reaped here.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4");
    assert!(libc::WIFEXITED(status), "ended by a signal: {status}");
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

#[test]
fn sixty_four_mib_of_tiny_lines_take_at_most_three_times_their_size() {
    // The line skeleton holds an index of the text, not a slice per line:
    // 33.5 million lines of `a` cost every line compressor, in both
    // profiles, at most three times the input (a 16-byte slice a line
    // was 8 times, and terminal cleaning 40).
    let dir = TempDir::new("tiny-lines");
    let input = dir.0.join("tiny.txt");
    std::fs::write(&input, b"a\n".repeat(32 * 1024 * 1024 - 8)).unwrap();
    let size_kb = std::fs::metadata(&input).unwrap().len() as i64 / 1024;
    let tc = TestCommand::new();
    // The process without its input: the binary's pages and the runtime.
    let (_, baseline) = peak_rss_kb(&tc, &["version"], &input);
    for profile in ["compat", "lean"] {
        for ty in [
            "auto",
            "log",
            "terminal",
            "text",
            "search-result",
            "diff",
            "tabular",
            "json",
            "code",
            "repetition",
        ] {
            let (code, kb) = peak_rss_kb(
                &tc,
                &["compress", "--profile", profile, "--type", ty],
                &input,
            );
            assert_eq!(code, 0, "{profile} {ty}");
            assert!(
                kb - baseline <= 3 * size_kb,
                "{profile} {ty}: {kb} KB peak, {baseline} KB without input, input {size_kb} KB"
            );
        }
    }
}

/// An `ls -l` listing of as many owners as rows: its usual owner was found
/// by a scan of the owners seen so far (quadratic: over a minute for
/// 150,000 rows); the harness times out if this regresses.
#[test]
fn a_listing_of_as_many_owners_as_rows_is_read_in_linear_time() {
    let mut s = String::from("total 9\n");
    for i in 0..40 {
        s.push_str(&format!(
            "-rw-r--r-- 1 alice staff 100 Jan  1 12:00 a{i}.txt\n"
        ));
    }
    for i in 0..150_000 {
        s.push_str(&format!(
            "-rw-r--r-- 1 u{i} g{i} 10 Jan  1 12:00 f{i}.txt\n"
        ));
    }
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", "tabular"],
        s.as_bytes(),
        0,
    );
    let view = String::from_utf8(r.stdout).unwrap();
    assert!(
        view.contains("\n\u{2026} 39 entries: all -rw-r--r-- alice staff size 100; links and dates elided (caveman): a1.txt a2.txt "),
        "{}",
        &view[..view.len().min(2000)]
    );
    assert!(view.contains("\n-rw-r--r-- 1 u149999 g149999 10 Jan  1 12:00 f149999.txt\n"));
}

/// A pipe table whose header is wider than any table a reader reads (its
/// rows one cell each): every column was weighed over every row (100,000
/// columns by 300,000 rows: a hang), and each marker row was as wide as
/// the header. Such a text is read by the other readers, its rows intact.
#[test]
fn a_pipe_table_of_a_hundred_thousand_columns_is_not_weighed_per_column() {
    let w = 100_000;
    let mut s = format!("|{}|\n", vec!["c"; w].join("|"));
    s.push_str(&format!("|{}|\n", vec!["-"; w].join("|")));
    for i in 0..300_000 {
        s.push_str(&format!("| r{i} |\n"));
    }
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", "tabular"],
        s.as_bytes(),
        0,
    );
    let view = String::from_utf8(r.stdout).unwrap();
    assert!(view.len() <= s.len() + 200);
    assert!(
        !view.contains("| | | |"),
        "no marker row as wide as the header"
    );
}

/// grep output over 55,000 files (4.7 MB) under a budget: each marker found
/// its files' counts by a scan of the files seen so far (quadratic: 8.5 s;
/// BENCHMARKS.md has the time). The view fits, names the handle, and its
/// markers count every line: a few files by name, the rest in a count.
#[test]
fn grep_output_over_fifty_five_thousand_files_fits_a_budget() {
    let mut s = String::new();
    for i in 0..55_000 {
        s.push_str(&format!(
            "src/mod{}/file{i}.rs:{}:    let value_{i} = compute(&input).unwrap_or_default();\n",
            i % 97,
            i % 400 + 1
        ));
    }
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--budget", "500"],
        s.as_bytes(),
        0,
    );
    assert!(r.report()["tokens_after"].as_u64().unwrap() <= 500);
    let view = String::from_utf8(r.stdout).unwrap();
    assert!(view.contains("caveman-engine retrieve ccr_"), "{view}");
    let lines: Vec<&str> = view
        .lines()
        .filter(|l| !l.starts_with("\u{2026} caveman:"))
        .collect();
    assert_eq!(stands_for(&lines.join("\n")), 55_000, "{view}");
    assert!(view.lines().count() < 60, "{view}");
    assert!(view.contains(" other files elided (caveman)"), "{view}");
}
