//! `toon decode` never panics; what it accepts is JSON that encodes back.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(json) = caveman_engine::toon::decode(data) {
        assert!(caveman_engine::testing::json_valid(&json));
    }
});
