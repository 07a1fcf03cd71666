//! The MCP server's framing and decoding on arbitrary bytes: it never
//! panics, answers every line with at most one line, and every line it
//! writes is one JSON value.
#![no_main]
use caveman_engine::mcp::Server;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut server = Server::in_memory();
    let mut out = Vec::new();
    server
        .serve(&mut &data[..], &mut out)
        .expect("in-memory I/O does not fail");
    for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        assert!(
            caveman_engine::testing::json_valid(line),
            "{}",
            String::from_utf8_lossy(line)
        );
    }
    let lines_in = data.split(|&b| b == b'\n').count();
    let lines_out = out.iter().filter(|&&b| b == b'\n').count();
    assert!(lines_out <= lines_in);
});
