//! `pixel simulate` never panics on any request body, under each provider
//! and with `--model`: it prices the body or says why not, and the
//! counters always print as one JSON line.
#![no_main]
use caveman_engine::pixel::simulate::{simulate, Level, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the options; the rest is the body.
    let Some((&opts, body)) = data.split_first() else {
        return;
    };
    let model = match opts & 3 {
        0 => None,
        1 => Some("claude-opus-4-8"),
        2 => Some("gpt-5.6"),
        _ => Some("gemini-3-flash"),
    };
    let density = match (opts >> 2) & 3 {
        0 => Level::Conservative,
        1 => Level::Max,
        _ => Level::Balanced,
    };
    let req = Request {
        body,
        model,
        density,
        gpt_profiles: None,
    };
    if let Ok(out) = simulate(&req) {
        let line = out.info.to_json();
        assert!(line.ends_with(b"\n"));
        assert!(caveman_engine::testing::json_valid(&line[..line.len() - 1]));
    }
});
