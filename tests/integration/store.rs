//! The file-backed recovery store under use and abuse.

use std::os::unix::fs::PermissionsExt;

use crate::util::{Run, TempDir, TestCommand};

fn table(n: usize, tag: &str) -> String {
    let mut s = String::from("id,host,state,ms\n");
    for i in 0..n {
        s.push_str(&format!("{i},{tag}-{},ok,{}\n", i % 5, 20 + i % 9));
    }
    s
}

/// `retrieve HANDLE` fails with exit 1 and no bytes; returns its stderr.
fn refused(tc: &TestCommand, handle: &str) -> String {
    let r = tc.expect(&["retrieve", handle], b"", 1);
    assert!(r.stdout.is_empty(), "a refused record prints no bytes");
    r.stderr_str()
}

/// The input came back untouched, reported with `error` and no handle.
fn assert_passed_through(r: &Run, input: &str, error: &str) {
    assert_eq!(
        r.stdout,
        input.as_bytes(),
        "the input passes through untouched"
    );
    assert_eq!(r.report()["error"], error);
    assert!(r.report().get("recovery_handle").is_none());
}

fn records(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("ccr_"))
        .collect();
    v.sort();
    v
}

#[test]
fn round_trip_and_permissions() {
    let tc = TestCommand::new();
    let input = table(200, "web");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    let h = r.handle().expect("a table of 200 rows compresses");
    assert_eq!(tc.retrieved(&h), input.as_bytes());
    let dir = tc.home.path().join("ccr");
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let recs = records(&dir);
    assert_eq!(recs.len(), 1);
    assert_eq!(
        std::fs::metadata(&recs[0]).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // No temporary files are left behind.
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with(".tmp")));
}

#[test]
fn ccr_dir_overrides_home() {
    let other = TempDir::new("ccrdir");
    let target = other.path().join("store");
    let tc = TestCommand::new().env("CAVEMAN_CCR_DIR", target.to_str().unwrap());
    let input = table(100, "db");
    let h = tc
        .expect(&["compress"], input.as_bytes(), 0)
        .handle()
        .unwrap();
    assert_eq!(records(&target).len(), 1);
    assert_eq!(tc.retrieved(&h), input.as_bytes());
}

/// Compresses `input` and returns its handle, record path and record bytes.
fn stored_record(tc: &TestCommand, input: &str) -> (String, std::path::PathBuf, Vec<u8>) {
    let h = tc
        .expect(&["compress"], input.as_bytes(), 0)
        .handle()
        .expect("the input compresses");
    let path = records(&tc.home.path().join("ccr")).pop().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (h, path, bytes)
}

#[test]
fn damaged_records_are_errors_not_bytes() {
    let tc = TestCommand::new();
    let input = table(150, "api");
    let (h, path, good) = stored_record(&tc, &input);
    // Flip one byte of the original.
    let mut bad = good.clone();
    let last = bad.len() - 10;
    bad[last] ^= 0x20;
    std::fs::write(&path, &bad).unwrap();
    let err = refused(&tc, &h);
    assert!(
        err.starts_with(&format!("retrieve: ccr get: damaged record {h}: ")),
        "{err}"
    );
    // Truncated.
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    refused(&tc, &h);
    // A symlink in place of a record is refused.
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", &path).unwrap();
    let err = refused(&tc, &h);
    assert!(err.contains("refusing non-regular file"), "{err}");
    // compress repairs the record.
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, &bad).unwrap();
    tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(tc.retrieved(&h), input.as_bytes());
}

#[test]
fn an_identical_record_is_verified_not_rewritten() {
    let tc = TestCommand::new();
    let input = table(150, "same");
    let (h, path, first) = stored_record(&tc, &input);
    let again = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(again.handle().as_deref(), Some(h.as_str()));
    // A rewrite would carry a new created_at (nanoseconds).
    assert_eq!(std::fs::read(&path).unwrap(), first);
    assert_eq!(tc.retrieved(&h), input.as_bytes());
}

#[test]
fn budget_refusal_passes_through() {
    let tc = TestCommand::new().env("CAVEMAN_CCR_MAX_BYTES", "5000");
    let small = table(60, "a");
    assert!(small.len() < 5000);
    let h = tc
        .expect(&["compress"], small.as_bytes(), 0)
        .handle()
        .unwrap();
    let big = table(400, "b");
    let r = tc.expect(&["compress"], big.as_bytes(), 0);
    assert_passed_through(&r, &big, "cave_ccr_budget_exceeded");
    let rep = r.report();
    assert_eq!(rep["ratio"], 0);
    assert_eq!(rep["tokens_after"], rep["tokens_before"]);
    assert!(rep.get("recovery_handle").is_none());
    // Existing records stay retrievable; a repeat put of them succeeds.
    assert_eq!(tc.retrieved(&h), small.as_bytes());
    assert_eq!(
        tc.expect(&["compress"], small.as_bytes(), 0)
            .handle()
            .unwrap(),
        h
    );
    let st: serde_json::Value =
        serde_json::from_slice(&tc.expect(&["stats"], b"", 0).stdout).unwrap();
    assert_eq!(st["max_storage_bytes"], 5000);
    assert_eq!(st["storage_bytes"], small.len());
}

/// The uid the read-only test drops to when it runs as root (root ignores
/// directory modes): `nobody`.
const NOBODY: u32 = 65534;

#[test]
fn read_only_store_passes_through() {
    let mut tc = TestCommand::new();
    if is_root() {
        tc = tc.run_as(NOBODY);
    }
    let dir = tc.home.path().join("ccr");
    tc.expect(&["stats"], b"", 0);
    // A record stored before the directory turned read-only stays readable.
    let before = table(100, "rw");
    let h = tc
        .expect(&["compress"], before.as_bytes(), 0)
        .handle()
        .unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o500)).unwrap();
    let input = table(100, "ro");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert_passed_through(&r, &input, "cave_ccr_unavailable");
    assert_eq!(records(&dir).len(), 1);
    assert_eq!(tc.retrieved(&h), before.as_bytes());
}

#[test]
fn full_store_passes_through_and_leaves_nothing_behind() {
    // A file-size limit makes every write past 8 blocks fail (EFBIG, with
    // SIGXFSZ ignored) as a full disk would, mid-record: the budget refusal.
    let tc = TestCommand::new().wrapped(&[
        "sh",
        "-c",
        "trap '' XFSZ; ulimit -f 8 && exec \"$0\" \"$@\"",
    ]);
    let dir = tc.home.path().join("ccr");
    let small = table(60, "fits");
    let h = tc
        .expect(&["compress"], small.as_bytes(), 0)
        .handle()
        .expect("a small record fits");
    let input = table(3000, "full");
    assert!(input.len() > 16 * 512);
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_passed_through(&r, &input, "cave_ccr_budget_exceeded");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".lock")
        .collect();
    assert_eq!(names, vec![h.clone()], "no partial record, no temp file");
    assert_eq!(tc.retrieved(&h), small.as_bytes());
}

#[test]
fn missing_store_directory_is_created_again() {
    let tc = TestCommand::new();
    let dir = tc.home.path().join("ccr");
    tc.expect(&["stats"], b"", 0);
    std::fs::remove_dir_all(&dir).unwrap();
    let input = table(100, "gone");
    let h = tc
        .expect(&["compress"], input.as_bytes(), 0)
        .handle()
        .unwrap();
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    assert_eq!(tc.retrieved(&h), input.as_bytes());
}

#[test]
fn store_path_taken_by_a_file_is_a_clear_error() {
    let tc = TestCommand::new();
    std::fs::write(tc.home.path().join("ccr"), b"not a dir").unwrap();
    let r = tc.run(&["stats"], b"");
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty());
    assert!(r.stderr_str().starts_with("cannot open recovery store: "));
    // compress loses nothing: the input passes through.
    let input = table(100, "x");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_passed_through(&r, &input, "cave_ccr_unavailable");
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}

#[test]
fn many_processes_at_once() {
    let tc = TestCommand::new();
    let inputs: Vec<String> = (0..16)
        .map(|i| table(120 + i % 4, &format!("h{}", i % 4)))
        .collect();
    let mut children = Vec::new();
    for input in &inputs {
        let (child, _feeder) = tc.spawn_fed(
            &["compress"],
            input.as_bytes(),
            std::process::Stdio::piped(),
        );
        children.push(child);
    }
    for (child, input) in children.into_iter().zip(&inputs) {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let h = crate::util::handle_in(&out);
        assert_eq!(tc.retrieved(&h), input.as_bytes());
    }
    assert_eq!(records(&tc.home.path().join("ccr")).len(), 4);
}

#[test]
fn retrieve_with_a_query_narrows() {
    let tc = TestCommand::new();
    let mut s = String::from("id,state\n");
    for i in 1..=40 {
        let st = if i == 6 || i == 26 { "broken" } else { "fine" };
        s.push_str(&format!("{i},{st},\n").replace(",\n", "\n"));
    }
    // Make it compressible: more rows of the same shape.
    for i in 41..=200 {
        s.push_str(&format!("{i},fine\n"));
    }
    let h = tc.expect(&["compress"], s.as_bytes(), 0).handle().unwrap();
    let r = tc.expect(&["retrieve", &h, "broken"], b"", 0);
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "id,state\n… [caveman: non-adjacent] …\n\n6,broken\n\n… [caveman: non-adjacent] …\n\n26,broken\n\n… [caveman: non-adjacent] …"
    );
    let r = tc.expect(&["retrieve", &h, "   "], b"", 0);
    assert_eq!(r.stdout, s.as_bytes());
}

#[test]
fn crafted_headers_are_damaged_not_trusted() {
    let tc = TestCommand::new();
    let input = table(150, "hdr");
    let (h, path, good) = stored_record(&tc, &input);
    let text = String::from_utf8_lossy(&good).into_owned();
    let len = input.len().to_string();
    for forged in ["18446744073709551615", "0", "1"] {
        let bad = text.replacen(
            &format!("\"original_len\":{len}"),
            &format!("\"original_len\":{forged}"),
            1,
        );
        std::fs::write(&path, bad.as_bytes()).unwrap();
        let err = refused(&tc, &h);
        assert!(err.contains("damaged record"), "{err}");
        // stats sums the healthy records and counts the damaged one.
        let s = tc.expect(&["stats"], b"", 0);
        let st: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
        assert_eq!(st["damaged"], 1, "{st}");
        assert_eq!(st["totals"]["count"], 0, "{st}");
    }
}

#[test]
fn a_killed_writer_leaves_no_partial_record() {
    let tc = TestCommand::new();
    // Large enough that hashing and writing take a while.
    let input = table(400_000, "kill");
    for delay_ms in [5u64, 20, 40, 80, 160] {
        let (mut child, writer) =
            tc.spawn_fed(&["compress"], input.as_bytes(), std::process::Stdio::null());
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let _ = writer.join();
        // Whatever is visible is whole: every record retrieves exactly.
        let dir = tc.home.path().join("ccr");
        if dir.exists() {
            for rec in records(&dir) {
                let h = rec.file_name().unwrap().to_string_lossy().into_owned();
                let r = tc.expect(&["retrieve", &h], b"", 0);
                assert_eq!(r.stdout, input.as_bytes());
            }
        }
        tc.expect(&["stats"], b"", 0);
    }
    // A leftover temporary file is not a record and does not block a put.
    let dir = tc.home.path().join("ccr");
    std::fs::create_dir_all(&dir).unwrap();
    let small = table(200, "tmp");
    let h = caveman_engine::store::Handle::of(small.as_bytes());
    std::fs::write(
        dir.join(format!(".tmp-{}-1-1", h.as_str())),
        b"CCR1 partial",
    )
    .unwrap();
    let r = tc.expect(&["retrieve", h.as_str()], b"", 1);
    assert_eq!(r.stderr_str(), "retrieve: ccr: recovery handle not found\n");
    assert_eq!(
        tc.expect(&["compress"], small.as_bytes(), 0)
            .handle()
            .unwrap(),
        h.as_str()
    );
    assert_eq!(
        tc.expect(&["retrieve", h.as_str()], b"", 0).stdout,
        small.as_bytes()
    );
}
