//! `compress` through the whole engine, every content type, with and
//! without a query: no panic, and a transformed output always has a stored
//! original that comes back byte for byte.
#![no_main]
use std::sync::OnceLock;

use caveman_engine::engine::{self, Options};
use caveman_engine::store::{Store, StoreEnv};
use libfuzzer_sys::fuzz_target;

static STORE: OnceLock<Store> = OnceLock::new();

const TYPES: [&str; 4] = ["json", "tabular", "toon", "text"];

fuzz_target!(|data: &[u8]| {
    let store = STORE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("caveman-fuzz-{}", std::process::id()));
        Store::open(&StoreEnv {
            ccr_dir: Some(dir.display().to_string()),
            ..StoreEnv::default()
        })
        .expect("store")
    });
    let (selector, body) = data.split_first().map_or((0, data), |(s, b)| (*s, b));
    let opts = Options {
        forced_type: (selector & 4 != 0).then(|| TYPES[(selector & 3) as usize].to_string()),
        query: if selector & 8 != 0 {
            "error shipped".into()
        } else {
            String::new()
        },
        toon_best_of: selector & 16 != 0,
    };
    let out = engine::compress(body, &opts, store);
    if let (Some(_), Some(t)) = (&out.output, &out.report.transformed) {
        assert_eq!(store.get(&t.recovery_handle).expect("stored"), body);
        assert!(out.report.tokens_after < out.report.tokens_before);
    }
});
