//! Phase timings on stderr when `CAVEMAN_TIMINGS` is set, for the
//! benchmark account in BENCHMARKS.md. Off (one cached env lookup) otherwise.

use std::sync::OnceLock;
use std::time::Instant;

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("CAVEMAN_TIMINGS").is_some())
}

/// Measures consecutive phases of one piece of work.
pub struct Clock {
    scope: &'static str,
    start: Option<Instant>,
    last: Option<Instant>,
}

impl Clock {
    pub fn new(scope: &'static str) -> Clock {
        let now = enabled().then(Instant::now);
        Clock {
            scope,
            start: now,
            last: now,
        }
    }

    /// Reports the time since the previous mark.
    pub fn mark(&mut self, phase: &str) {
        let (Some(start), Some(last)) = (self.start, self.last) else {
            return;
        };
        let now = Instant::now();
        eprintln!(
            "timings: {:<10} {phase:<16} {:>8.1} ms (at {:>8.1} ms) rss {:>5} MB",
            self.scope,
            (now - last).as_secs_f64() * 1e3,
            (now - start).as_secs_f64() * 1e3,
            resident_mb()
        );
        self.last = Some(now);
    }
}

/// Resident set size in MB (Linux; 0 elsewhere).
fn resident_mb() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .unwrap_or(0);
    pages * 4096 / (1 << 20)
}
