//! `detect` never panics and always prints one of its words.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let word = caveman_engine::detect::detect(data);
    assert!(caveman_engine::detect::TYPES.contains(&word));
});
