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
        // An allocation the allocator cannot serve ends in abort(): exit 1
        // (its one-line message is already printed), never a signal.
        libc::signal(libc::SIGABRT, on_abort as *const () as libc::sighandler_t);
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
/// glibc malloc spent a third of its time in arena locks and frees. Under a
/// limited address space (`ulimit -v`) the system allocator instead:
/// mimalloc reserves its arenas in 1 GiB and 32 MiB steps, and fails where
/// glibc still finds room.
#[global_allocator]
static GLOBAL: Adaptive = Adaptive;

struct Adaptive;

/// 0: not decided yet, 1: mimalloc, 2: the system allocator. Decided by
/// the first allocation (before any thread exists) and never changed, so
/// every block is freed by the allocator that gave it.
static CHOICE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

impl Adaptive {
    #[inline]
    fn system(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        match CHOICE.load(Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let limited = caveman_engine::par::address_space_limited();
                if limited {
                    // One arena for every thread: glibc reserves 64 MiB for
                    // each thread's own, and without room for one serves
                    // every small block from a page of its own.
                    // SAFETY: mallopt has no preconditions; no thread exists yet.
                    unsafe {
                        libc::mallopt(libc::M_ARENA_MAX, 1);
                    }
                }
                CHOICE.store(if limited { 2 } else { 1 }, Relaxed);
                limited
            }
        }
    }

    /// `p`, unless it is a failed allocation under 1 MiB: the process is
    /// then out of address space, and says so in one line and exits 1
    /// rather than aborting. A larger failure is returned (Rust's
    /// allocation-error handler reports it).
    #[inline]
    fn checked(p: *mut u8, size: usize) -> *mut u8 {
        if p.is_null() && size < 1 << 20 {
            Self::out_of_memory();
        }
        p
    }

    #[cold]
    fn out_of_memory() -> ! {
        let msg = b"caveman-engine: out of memory (is the address space limited by ulimit -v?)\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe and need no
        // allocation.
        unsafe {
            libc::write(2, msg.as_ptr().cast(), msg.len());
            libc::_exit(1);
        }
    }
}

// SAFETY: every call is forwarded to one of two allocators, the same one
// for a block's whole life (CHOICE never changes once set).
unsafe impl std::alloc::GlobalAlloc for Adaptive {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = if self.system() {
            std::alloc::System.alloc(layout)
        } else {
            mimalloc::MiMalloc.alloc(layout)
        };
        Self::checked(p, layout.size())
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = if self.system() {
            std::alloc::System.alloc_zeroed(layout)
        } else {
            mimalloc::MiMalloc.alloc_zeroed(layout)
        };
        Self::checked(p, layout.size())
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        if self.system() {
            std::alloc::System.dealloc(ptr, layout)
        } else {
            mimalloc::MiMalloc.dealloc(ptr, layout)
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let p = if self.system() {
            std::alloc::System.realloc(ptr, layout, new_size)
        } else {
            mimalloc::MiMalloc.realloc(ptr, layout, new_size)
        };
        Self::checked(p, new_size)
    }
}

extern "C" fn on_abort(_: libc::c_int) {
    // SAFETY: _exit is async-signal-safe.
    unsafe { libc::_exit(1) }
}
