//! In-process token-counting throughput, one core and all cores.
//!
//! usage: cargo run --release --features count-speed --example count_speed -- FILE...
//! Prints the median of 7 runs for each file.

use std::time::Instant;

fn median_secs(mut f: impl FnMut() -> usize) -> (f64, usize) {
    let mut times = Vec::new();
    let mut n = 0;
    for _ in 0..7 {
        let t = Instant::now();
        n = f();
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], n)
}

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("read input");
        let text = caveman_engine::testing::go_lossy(&bytes).into_owned();
        let mb = bytes.len() as f64 / 1e6;
        let (one, n) = median_secs(|| caveman_engine::tokens::count_str(&text));
        let (all, m) = median_secs(|| caveman_engine::tokens::count_parallel(&text));
        assert_eq!(n, m, "chunked count must equal the sequential count");
        println!(
            "{:<28} {:>7.1} MB {:>10} tokens  one core {:>6.1} MB/s  all cores {:>6.1} MB/s",
            path.rsplit('/').next().unwrap_or(&path),
            mb,
            n,
            mb / one,
            mb / all
        );
    }
}
