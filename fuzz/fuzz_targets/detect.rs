//! `detect` never panics and always prints one of its words; the parsing
//! detection `compress` uses gives the same word, and its JSON value and
//! table compress to the same bytes as a from-scratch compress.
#![no_main]
use caveman_engine::detect;
use caveman_engine::testing::{self, Parsed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let word = detect::detect(data);
    assert!(detect::TYPES.contains(&word));
    let (body, _) = testing::unwrap(data);
    let (parsed_word, parsed) = testing::detect_parsed(&body);
    assert_eq!(parsed_word, word);
    match parsed {
        Parsed::Json(v) => assert_eq!(
            testing::compress_json_decoded(&body, v.root(), ""),
            testing::compress_json(&body, "")
        ),
        Parsed::Table(t) => assert_eq!(
            testing::compress_table_parsed(&body, &t, ""),
            testing::compress_table(&body, "")
        ),
        Parsed::Config(_) => assert_eq!(word, caveman_engine::ContentType::Config),
        Parsed::Code(_) => assert_eq!(word, caveman_engine::ContentType::Code),
        // Only lean detection is unsure; this is compat's.
        Parsed::Unsure | Parsed::Nothing => {}
    }
});
