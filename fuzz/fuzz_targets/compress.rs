//! `compress` through the whole engine, every registered content type (and
//! an unregistered one), with and without a query: no panic, and a
//! transformed output always has a stored original that comes back byte
//! for byte, and fewer tokens than the input; in both profiles, with and
//! without a budget.
#![no_main]
use std::sync::OnceLock;

use caveman_engine::engine::{self, Options};
use caveman_engine::profile::Profile;
use caveman_engine::store::{Store, StoreEnv};
use caveman_engine::ContentType;
use libfuzzer_sys::fuzz_target;

static STORE: OnceLock<Store> = OnceLock::new();

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
    // Low nibble: 0 detects, 1..=15 forces a registered type; bit 4 asks
    // for a query, bit 5 for best-of (an unregistered type when both are),
    // bit 6 for the lean profile, bit 7 for a 200-token budget.
    let forced = match selector & 15 {
        0 => None,
        k => Some(ContentType::REGISTERED[k as usize - 1].clone()),
    };
    let opts = Options {
        forced_type: if selector & 48 == 48 {
            Some(ContentType::from_name("foo"))
        } else {
            forced
        },
        query: if selector & 16 != 0 {
            "error shipped".into()
        } else {
            String::new()
        },
        toon_best_of: selector & 32 != 0,
        profile: if selector & 64 != 0 {
            Profile::Lean
        } else {
            Profile::Compat
        },
        budget: (selector & 128 != 0).then_some(200),
        explain: false,
    };
    let out = engine::compress(body, &opts, store);
    if let (Some(_), Some(t)) = (&out.output, &out.report.transformed) {
        assert_eq!(store.get(t.recovery_handle.as_str()).expect("stored"), body);
        assert!(out.report.tokens_after < out.report.tokens_before);
    }
});
