//! The Go port (scanner, parser, printer, tabwriter, import sorting) on
//! arbitrary bytes: no panic, and whatever it prints formats again to the
//! same bytes (gofmt is idempotent on its own output) in reprint mode.
//! Seed it with Go files: `cargo fuzz run gofmt corpus/gofmt
//! $(go env GOROOT)/src/go/printer/testdata`.
#![no_main]
use caveman_engine::testing::{gofmt_code, gofmt_reprint};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = gofmt_code(data);
    if let Ok(once) = gofmt_reprint(data) {
        let twice = gofmt_reprint(&once).expect("gofmt output parses");
        assert_eq!(once, twice, "gofmt is not idempotent here");
    }
});
