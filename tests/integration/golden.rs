//! Golden cases in fixtures/conformance (copied from ../shared/conformance):
//! exact stdout, stderr and exit code, the files a command writes
//! (`expected.files/`, byte for byte, and no other new file), plus a
//! `retrieve` round trip after every compress that stored a record. Each
//! case runs in a temporary copy of its folder. `BLESS=1` rewrites the
//! expected files (never when `CI` is set).

use std::path::Path;

use crate::util::{TempDir, TestCommand};

/// Relative paths of the files under `top`, sorted.
fn list_files(top: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![top.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(top).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

/// Copies the folder `from` (files and folders, recursively) to `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

fn split_cmd(line: &str) -> Vec<String> {
    // The case files use simple shell quoting: words and '…' groups.
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.trim().chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

fn show(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    if s.len() > 400 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(400).map(|c| c.0).unwrap_or(s.len())]
        )
    } else {
        s.into_owned()
    }
}

fn first_difference(got: &[u8], want: &[u8]) -> String {
    let i = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let lo = i.saturating_sub(40);
    format!(
        "first difference at byte {i}:\n  got:  {}\n  want: {}",
        show(&got[lo..(i + 40).min(got.len())]),
        show(&want[lo..(i + 40).min(want.len())])
    )
}

/// The expected stdout: `expected.stdout`, or only its SHA-256 in
/// `expected.stdout.sha256` (large outputs). A case with neither fails.
enum WantStdout {
    Bytes(Vec<u8>),
    Sha256(String),
}

fn sha256_hex(b: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

fn check_case(dir: &Path, bless: bool) -> Result<(), String> {
    let read = |n: &str| std::fs::read(dir.join(n)).ok();
    let need = |n: &str| read(n).ok_or_else(|| format!("{n} is missing"));
    let cmd_line = String::from_utf8(need("cmd")?).unwrap();
    let args = split_cmd(&cmd_line);
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let input = need("input")?;
    // Each case runs inside a copy of its folder (the evals cases name
    // `fixtures`, the pixel cases a text file they write pages next to).
    let scratch = TempDir::new("case");
    let work = scratch.path().join("work");
    copy_tree(dir, &work);
    let before = list_files(&work);
    let mut tc = TestCommand::new().cwd(&work);
    if let Some(env) = read("env") {
        for line in String::from_utf8_lossy(&env).lines() {
            if let Some((k, v)) = line.split_once('=') {
                tc = tc.env(k, v);
            }
        }
    }
    let r = tc.run(&arg_refs, &input);
    if bless {
        std::fs::write(dir.join("expected.stdout"), &r.stdout).unwrap();
        std::fs::write(dir.join("expected.stderr"), &r.stderr).unwrap();
        std::fs::write(dir.join("expected.exit"), format!("{}\n", r.code)).unwrap();
        return Ok(());
    }
    let want_exit: i32 = String::from_utf8_lossy(&need("expected.exit")?)
        .trim()
        .parse()
        .map_err(|e| format!("expected.exit: {e}"))?;
    let want_stdout = match (read("expected.stdout"), read("expected.stdout.sha256")) {
        (Some(b), _) => WantStdout::Bytes(b),
        (None, Some(h)) => WantStdout::Sha256(String::from_utf8_lossy(&h).trim().to_string()),
        (None, None) => return Err("expected.stdout (or .sha256) is missing".into()),
    };
    // A case without expected.stderr does not pin it (the runner's rule:
    // `pixel-simulate-help` leaves the usage text free).
    let want_stderr = read("expected.stderr");
    let mut problems = Vec::new();
    if r.code != want_exit {
        problems.push(format!("exit {} want {want_exit}", r.code));
    }
    match want_stdout {
        WantStdout::Bytes(want) if r.stdout != want => problems.push(format!(
            "stdout differs; {}",
            first_difference(&r.stdout, &want)
        )),
        WantStdout::Sha256(want) if sha256_hex(&r.stdout) != want => problems.push(format!(
            "stdout's SHA-256 is {}, want {want}",
            sha256_hex(&r.stdout)
        )),
        _ => {}
    }
    if let Some(want) = want_stderr.filter(|w| *w != r.stderr) {
        problems.push(format!(
            "stderr differs; {}",
            first_difference(&r.stderr, &want)
        ));
    }
    let expected_files = dir.join("expected.files");
    if expected_files.is_dir() {
        let created: Vec<String> = list_files(&work)
            .into_iter()
            .filter(|f| !before.contains(f))
            .collect();
        let wanted = list_files(&expected_files);
        if created != wanted {
            problems.push(format!("files created {created:?}, want {wanted:?}"));
        }
        for rel in &wanted {
            let want = std::fs::read(expected_files.join(rel)).unwrap();
            match std::fs::read(work.join(rel)) {
                Ok(got) if got == want => {}
                Ok(got) => problems.push(format!(
                    "{rel} differs ({} bytes, want {}); {}",
                    got.len(),
                    want.len(),
                    first_difference(&got, &want)
                )),
                Err(e) => problems.push(format!("{rel}: {e}")),
            }
        }
    }
    if args.first().map(String::as_str) == Some("compress") && r.code == 0 {
        if let Some(h) = r.handle() {
            let back = tc.run(&["retrieve", &h], b"");
            if back.code != 0 || back.stdout != input {
                problems.push(format!(
                    "retrieve {h} did not return the input byte for byte"
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn conformance_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
    let bless = std::env::var_os("BLESS").is_some() && std::env::var_os("CI").is_none();
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("cmd").is_file())
        .collect();
    names.sort();
    assert!(names.len() >= 255, "fixtures missing: {}", names.len());
    let mut failures = Vec::new();
    for dir in &names {
        if let Err(e) = check_case(dir, bless) {
            failures.push(format!(
                "FAIL {}:\n{e}",
                dir.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden cases failed:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}
