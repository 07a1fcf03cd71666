//! `TestCommand`: runs the binary with its own empty `CAVEMAN_HOME` and none
//! of the tool's environment variables, and explains failures.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Environment variables the tool reads; removed so the host cannot leak in.
const TOOL_ENV: [&str; 16] = [
    "CAVEMAN_HOME",
    "CAVEMAN_LEDGER",
    "CLAUDE_PROJECT_DIR",
    "CAVEMAN_TIMINGS",
    "CAVEMAN_CCR_DIR",
    "CAVEMAN_CCR_DB",
    "CAVEMAN_CCR_MAX_BYTES",
    "CAVEMAN_CCR_URL",
    "CAVEMAN_CCR_TIMEOUT_MS",
    "CAVEMAN_ENGINE_PROFILE",
    "CAVEMAN_ENGINE_BUDGET",
    "CAVEMAN_MCP_EPHEMERAL",
    "CAVE_ENGINE_TOON",
    "CAVE_PIXEL_DENSITY",
    "CAVE_PIXEL_GPT_PROFILES",
    "CAVE_PIXEL_MODELS",
];

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_caveman-engine"))
}

/// A scratch directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let p = std::env::temp_dir().join(format!(
            "caveman-test-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
        TempDir(p)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asserts a finished command failed with exit 1 and exactly `msg` + newline.
/// The recovery handle in the report of a finished `compress` (it stored).
pub fn handle_in(out: &Output) -> String {
    let report: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap_or_else(|e| {
        panic!(
            "report is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["recovery_handle"]
        .as_str()
        .expect("stored")
        .to_string()
}

pub fn assert_fatal(out: &Output, msg: &str) {
    assert_eq!(
        out.status.code(),
        Some(1),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("{msg}\n"));
}

/// One configured invocation.
pub struct TestCommand {
    pub home: TempDir,
    envs: Vec<(String, String)>,
    /// A program (and its arguments) that runs the binary, e.g.
    /// `sh -c 'ulimit …; exec "$0" "$@"'` to impose a limit.
    wrapper: Vec<String>,
    /// Run as this uid and gid (with no supplementary groups).
    user: Option<u32>,
    /// The working directory, when not the test's.
    cwd: Option<std::path::PathBuf>,
}

/// What a run produced.
#[derive(Debug)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub code: i32,
}

impl Run {
    pub fn stderr_str(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// The compress report as a JSON value.
    pub fn report(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stderr)
            .unwrap_or_else(|e| panic!("report is not JSON ({e}): {}", self.stderr_str()))
    }

    pub fn handle(&self) -> Option<String> {
        self.report()["recovery_handle"]
            .as_str()
            .map(str::to_string)
    }
}

impl TestCommand {
    pub fn new() -> TestCommand {
        TestCommand {
            home: TempDir::new("home"),
            envs: Vec::new(),
            wrapper: Vec::new(),
            user: None,
            cwd: None,
        }
    }

    /// Runs the binary in `dir`.
    pub fn cwd(mut self, dir: &Path) -> TestCommand {
        self.cwd = Some(dir.to_path_buf());
        self
    }

    /// Runs the binary as `uid` (also its gid); needs root. The home
    /// directory is handed to that user.
    pub fn run_as(mut self, uid: u32) -> TestCommand {
        std::os::unix::fs::chown(self.home.path(), Some(uid), Some(uid)).unwrap();
        self.user = Some(uid);
        self
    }

    /// Runs the binary through `wrapper` (program, then its arguments).
    pub fn wrapped(mut self, wrapper: &[&str]) -> TestCommand {
        self.wrapper = wrapper.iter().map(|w| w.to_string()).collect();
        self
    }

    pub fn env(mut self, k: &str, v: &str) -> TestCommand {
        self.envs.push((k.to_string(), v.to_string()));
        self
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = match self.wrapper.split_first() {
            None => Command::new(bin()),
            Some((program, rest)) => {
                let mut c = Command::new(program);
                c.args(rest).arg(bin());
                c
            }
        };
        cmd.args(args);
        if let Some(u) = self.user {
            // As root, std also drops the supplementary groups.
            std::os::unix::process::CommandExt::uid(&mut cmd, u);
            std::os::unix::process::CommandExt::gid(&mut cmd, u);
        }
        for k in TOOL_ENV {
            cmd.env_remove(k);
        }
        if let Some(d) = &self.cwd {
            cmd.current_dir(d);
        }
        cmd.env("CAVEMAN_HOME", self.home.path());
        for (k, v) in &self.envs {
            cmd.env(k, v);
        }
        cmd
    }

    /// Starts the command and feeds `stdin` from a thread (so a child that
    /// stops reading, or is killed, cannot block the test).
    pub fn spawn_fed(
        &self,
        args: &[&str],
        stdin: &[u8],
        stdout: Stdio,
    ) -> (std::process::Child, std::thread::JoinHandle<()>) {
        let mut cmd = self.command(args);
        cmd.stdin(Stdio::piped())
            .stdout(stdout)
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn caveman-engine");
        let mut sin = child.stdin.take().expect("piped stdin");
        let data = stdin.to_vec();
        let feeder = std::thread::spawn(move || {
            let _ = sin.write_all(&data);
        });
        (child, feeder)
    }

    /// Runs with `stdin` and returns everything it printed.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Run {
        let mut cmd = self.command(args);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn caveman-engine");
        let mut sin = child.stdin.take().unwrap();
        let data = stdin.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = sin.write_all(&data);
        });
        let out: Output = child.wait_with_output().unwrap();
        let _ = writer.join();
        Run {
            stdout: out.stdout,
            stderr: out.stderr,
            code: out.status.code().unwrap_or(-1),
        }
    }

    /// What `retrieve HANDLE` prints (asserting exit 0).
    pub fn retrieved(&self, handle: &str) -> Vec<u8> {
        self.expect(&["retrieve", handle], b"", 0).stdout
    }

    /// Runs and asserts the exit code, printing everything on failure.
    pub fn expect(&self, args: &[&str], stdin: &[u8], code: i32) -> Run {
        let r = self.run(args, stdin);
        assert_eq!(
            r.code,
            code,
            "command {:?}\nstdout: {}\nstderr: {}",
            args,
            String::from_utf8_lossy(&r.stdout),
            r.stderr_str()
        );
        r
    }
}

/// Says that a test skipped, in the test run's normal output: written to
/// the process's stderr descriptor directly, which the harness does not
/// capture (it captures `print!`/`eprint!` of passing tests).
pub fn skipped(test: &str, why: &str) {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    // SAFETY: fd 2 stays open for the whole run; ManuallyDrop keeps this
    // File from closing it.
    let mut err = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(2) });
    let _ = err.write_all(format!("test {test}: SKIPPED: {why}\n").as_bytes());
}
