//! The `caveman-engine` binary: runs the command named by the arguments on
//! a large stack and maps its outcome to the exit code, in one place.

fn main() {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    // A file-size limit (`ulimit -f`) makes a write fail with EFBIG, which
    // the store treats like a full disk (the input passes through), instead
    // of killing the process mid-pipeline with SIGXFSZ.
    // SAFETY: setting a signal's disposition to SIG_IGN has no preconditions.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let code = match caveman_engine::on_large_stack(move || caveman_engine::run(&args)) {
        Ok(()) => 0,
        Err(e) => {
            if let Some(m) = e.message() {
                let _ =
                    std::io::Write::write_all(&mut std::io::stderr(), format!("{m}\n").as_bytes());
            }
            e.code()
        }
    };
    std::process::exit(code);
}

/// mimalloc: the JSON elider allocates ~1M small values per 30 MB and
/// glibc malloc spent a third of its time in arena locks and frees.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
