//! Data-parallel phases on every core: one small helper for the token
//! counter, the JSON elider and the table sampler, so each spawns its
//! workers the same way and a worker's panic is never turned into a
//! silently wrong (default) result.

/// Threads a data-parallel phase uses: every core, at most 8; one where
/// the address space is limited (each thread's stack and allocator arena
/// would take a share of it).
/// Asked once: `available_parallelism` reads cgroup files on every call.
pub fn workers() -> usize {
    static WORKERS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *WORKERS.get_or_init(|| {
        if address_space_limited() {
            return 1;
        }
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(8)
    })
}

/// The address-space limit (`ulimit -v`, RLIMIT_AS) in bytes, if any.
pub fn address_space_limit() -> Option<usize> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY)
        .then(|| usize::try_from(r.rlim_cur).unwrap_or(usize::MAX))
}

/// Whether `ulimit -v` limits this process's address space.
pub fn address_space_limited() -> bool {
    address_space_limit().is_some()
}

/// A task started beside the calling thread, or, when no thread can be
/// started (a limited address space), run by [`Task::join`] instead.
pub enum Task<'s, T> {
    Thread(std::thread::ScopedJoinHandle<'s, T>),
    Later(Box<dyn FnOnce() -> T + Send + 's>),
}

impl<T> Task<'_, T> {
    /// The task's result; a thread's panic as `Err`.
    pub fn join(self) -> std::thread::Result<T> {
        match self {
            Task::Thread(h) => h.join(),
            Task::Later(f) => Ok(f()),
        }
    }
}

/// Starts `f` on a scoped thread when one can be started (and threads are
/// used at all), else defers it to [`Task::join`].
pub fn spawn<'s, 'e, T: Send + 's>(
    scope: &'s std::thread::Scope<'s, 'e>,
    f: impl FnOnce() -> T + Send + 's,
) -> Task<'s, T> {
    if workers() == 1 {
        return Task::Later(Box::new(f));
    }
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Some(f)));
    let shared = std::sync::Arc::clone(&slot);
    let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
        let f = shared.lock().unwrap_or_else(|p| p.into_inner()).take();
        f.map(|f| f()).expect("a task runs once")
    });
    match spawned {
        Ok(h) => Task::Thread(h),
        Err(_) => {
            let f = slot.lock().unwrap_or_else(|p| p.into_inner()).take();
            Task::Later(Box::new(f.expect("the task never started")))
        }
    }
}

/// Parts for `len` items when each part should get at least `min_part`
/// items: 1 (run on the calling thread) for small inputs.
pub fn parts_for(len: usize, min_part: usize) -> usize {
    let parts = len / min_part.max(1);
    if parts <= 1 {
        return 1;
    }
    parts.min(workers())
}

/// `0..len` cut into [`parts_for`]`(len, min_part)` consecutive ranges.
pub fn ranges(len: usize, min_part: usize) -> Vec<std::ops::Range<usize>> {
    let size = len.div_ceil(parts_for(len, min_part)).max(1);
    (0..len)
        .step_by(size)
        .map(|s| s..len.min(s + size))
        .collect()
}

/// `f` of each part, in order; the calling thread takes the first part and
/// one scoped thread takes each other. A worker's panic is re-raised here.
pub fn map<I: Send, R: Send>(parts: Vec<I>, f: impl Fn(I) -> R + Sync) -> Vec<R> {
    let mut parts = parts.into_iter();
    let Some(first) = parts.next() else {
        return Vec::new();
    };
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts.map(|p| spawn(scope, move || f(p))).collect();
        let mut out = Vec::with_capacity(handles.len() + 1);
        out.push(f(first));
        for h in handles {
            match h.join() {
                Ok(r) => out.push(r),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

/// `f` of each of `parts` consecutive chunks of `items` (fewer when
/// `items` is short), in order.
pub fn map_chunks<T: Sync, R: Send>(
    items: &[T],
    parts: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let size = items.len().div_ceil(parts.max(1)).max(1);
    map(items.chunks(size).collect(), f)
}

/// `f` of each element of `items`, in order, split into `parts` chunks.
pub fn map_each<T: Sync, R: Send>(items: &[T], parts: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if parts <= 1 || items.len() < 2 {
        return items.iter().map(f).collect();
    }
    let f = &f;
    map_chunks(items, parts, |c| c.iter().map(f).collect::<Vec<R>>())
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_reraises_panics() {
        let v: Vec<u32> = (0..10_000).collect();
        assert_eq!(
            map_each(&v, 4, |x| x * 2),
            v.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
        assert_eq!(map(vec![3, 1, 2], |x| x + 1), vec![4, 2, 3]);
        let r = std::panic::catch_unwind(|| map(vec![1, 2, 3], |x| assert_ne!(x, 3)));
        assert!(r.is_err());
        assert!(map(Vec::<u8>::new(), |x| x).is_empty());
        assert_eq!(ranges(0, 10), Vec::<std::ops::Range<usize>>::new());
        assert_eq!(ranges(5, 10), vec![0..5]);
        let r = ranges(10_001, 10);
        assert_eq!((r[0].start, r[r.len() - 1].end), (0, 10_001));
        assert!(r.windows(2).all(|w| w[0].end == w[1].start));
    }
}
