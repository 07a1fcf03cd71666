//! `retrieve HANDLE QUERY` narrowing never panics and never grows the output.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (q, body) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b"error"[..], data),
    };
    let query = String::from_utf8_lossy(q);
    let view = caveman_engine::testing::narrow(body.to_vec(), &query);
    assert!(view.len() <= body.len());
});
