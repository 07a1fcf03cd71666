//! `detect` never panics and always prints one of its words; the parsing
//! detection `compress` uses gives the same word, and its JSON value and
//! table compress to the same bytes as a from-scratch compress.
#![no_main]
use caveman_engine::compress::{json, tabular};
use caveman_engine::detect::{self, Parsed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let word = detect::detect(data);
    assert!(detect::TYPES.contains(&word));
    let (body, _) = caveman_engine::unwrap::unwrap(data);
    let (parsed_word, parsed) = detect::detect_parsed(&body);
    assert_eq!(parsed_word, word);
    match parsed {
        Parsed::Json(v) => assert_eq!(json::compress_decoded(&body, v.root(), ""), json::compress(&body, "")),
        Parsed::Table(t) => {
            assert_eq!(tabular::compress_parsed(&body, &t, ""), tabular::compress(&body, ""))
        }
        Parsed::Nothing => {}
    }
});
