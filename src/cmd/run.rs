//! `run [OPTIONS] -- CMD [ARGS…]`: runs a command with its stdout and
//! stderr on one pipe (so the output keeps the order it was written in),
//! compresses what it printed with `compress`'s options, prints the view
//! and the report, and exits with the command's status: its exit code, or
//! 128 + the signal that ended it. SIGINT, SIGTERM, SIGHUP and SIGQUIT
//! sent to caveman-engine go to the command. A command that cannot be
//! found exits 127, one that cannot be executed 126, as a shell does.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};

use super::compress::parse_all;
use crate::error::{Error, Result};

const USAGE: &str = "usage: caveman-engine run [--type T] [--query Q] [--profile compat|lean] [--budget N] [--explain] -- CMD [ARGS...]";

/// The running command's pid, for the signal handler (0: none).
static CHILD: AtomicI32 = AtomicI32::new(0);

extern "C" fn forward(sig: libc::c_int) {
    let pid = CHILD.load(Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: kill is async-signal-safe.
        unsafe {
            libc::kill(pid, sig);
        }
    }
}

/// One pipe, its write end twice (the command's stdout and stderr).
fn pipe() -> std::io::Result<(OwnedFd, OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fds has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned here.
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let w2 = w.try_clone()?;
    Ok((r, w, w2))
}

pub fn run(args: &[String]) -> Result<()> {
    let Some(dash) = args.iter().position(|a| a == "--") else {
        if args.iter().any(|a| a == "--help" || a == "-h") {
            return super::help(&["run"]);
        }
        return Err(Error::usage(format!(
            "run: no command (put it after --)\n{USAGE}"
        )));
    };
    let (flags, cmd) = (&args[..dash], &args[dash + 1..]);
    let (agent, flags) = super::agent::split_flags(flags);
    let (mut opts, mut extra) =
        parse_all(&flags).map_err(|e| Error::usage(format!("run: {e}\n{USAGE}")))?;
    if extra.help {
        return super::help(&["run"]);
    }
    let Some((program, rest)) = cmd.split_first() else {
        return Err(Error::usage(format!("run: no command after --\n{USAGE}")));
    };
    let plan = super::agent::apply_rules(&mut opts, &mut extra, cmd, agent);
    let (reader, w1, w2) = pipe().map_err(|e| Error::fatal(format!("run: pipe: {e}")))?;
    let mut command = Command::new(program);
    // SAFETY: the closure runs between fork and exec and only calls
    // signal(2), which is async-signal-safe.
    unsafe {
        // main ignores SIGXFSZ; the command gets the default back.
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
            Ok(())
        });
    }
    let spawned = command
        .args(rest)
        .stdin(Stdio::inherit())
        .stdout(Stdio::from(w1))
        .stderr(Stdio::from(w2))
        .spawn();
    // The builder holds the pipe's write ends: drop them, or the read
    // below never sees EOF.
    drop(command);
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            let (code, what) = match e.kind() {
                std::io::ErrorKind::NotFound => (127, "command not found".to_string()),
                std::io::ErrorKind::PermissionDenied => (126, "permission denied".to_string()),
                _ => (126, crate::go::os::errno_text(&e)),
            };
            eprintln!("caveman-engine: {program}: {what}");
            return Err(Error::exit(code));
        }
    };
    CHILD.store(child.id() as i32, Ordering::SeqCst);
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        // SAFETY: the handler only reads an atomic and calls kill.
        unsafe {
            libc::signal(sig, forward as *const () as libc::sighandler_t);
        }
    }
    // The write ends now live only in the child: EOF when it (and any
    // process it left holding them) is done. Output past the stdin limit
    // is streamed (a budget's view, else passed through), never held.
    let mut output = Vec::new();
    let mut file = std::fs::File::from(reader);
    let _ = (&mut file)
        .take(super::MAX_STDIN as u64 + 1)
        .read_to_end(&mut output);
    let large = (output.len() > super::MAX_STDIN)
        .then(|| super::large::publish(output.split_off(0), &mut file, &opts, &extra, false));
    let _ = file.as_raw_fd();
    let status = child
        .wait()
        .map_err(|e| Error::fatal(format!("run: wait: {e}")))?;
    CHILD.store(0, Ordering::SeqCst);
    let code = match (status.code(), status.signal()) {
        (Some(c), _) => c,
        (None, Some(sig)) => 128 + sig,
        _ => 1,
    };
    match large {
        Some(published) => published?,
        None => super::agent::publish(&output, &opts, &extra, &plan, agent)?,
    }
    if code == 0 {
        Ok(())
    } else {
        Err(Error::exit(code))
    }
}
