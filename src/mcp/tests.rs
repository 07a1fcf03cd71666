//! Every example of spec/mcp.md §14 that needs no file store, replayed
//! line by line through the server and compared byte for byte; the
//! examples over a file store are in tests/integration/mcp.rs.

use super::tools::Tools;
use super::Server;
use crate::store::Store;

/// Runs `stdin` through a fresh server with an in-memory store.
fn replay(stdin: &str) -> String {
    let mut server = Server::new(Tools::new(Store::in_memory(), false));
    let mut out = Vec::new();
    server.serve(&mut stdin.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The `stdin:`/`stdout:` blocks of the spec's examples.
fn example(n: &str) -> (String, String) {
    let spec = include_str!("../../fixtures/mcp/examples.md");
    let start = spec
        .find(&format!("**{n} "))
        .unwrap_or_else(|| panic!("example {n}"));
    let rest = &spec[start..];
    let i = rest.find("stdin:\n").unwrap() + "stdin:\n".len();
    let j = i + rest[i..].find("stdout:\n").unwrap();
    let k = j + "stdout:\n".len();
    let end = k + rest[k..].find("```").unwrap();
    (rest[i..j].to_string(), rest[k..end].to_string())
}

#[test]
fn spec_examples_byte_for_byte() {
    for n in [
        "14.1", "14.3", "14.4", "14.5", "14.6", "14.7", "14.8", "14.11", "14.12",
    ] {
        let (stdin, stdout) = example(n);
        assert_eq!(replay(&stdin), stdout, "example {n}");
    }
}

#[test]
fn tools_list_is_the_exact_line() {
    let out = replay("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n");
    assert_eq!(out.len(), 3421);
    use sha2::Digest;
    let sum = sha2::Sha256::digest(out.as_bytes());
    let hex: String = sum.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        hex,
        "5ff7c7fb46964c8def171308695074a8c460b964c3218931ee048d4528bee115"
    );
}

#[test]
fn whitespace_only_input_is_a_pass_through() {
    let out = replay("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"caveman_compress\",\"arguments\":{\"input\":\" \"}}}\n");
    assert_eq!(out, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"compressed\\\":\\\" \\\",\\\"ratio\\\":0,\\\"tokens_before\\\":1,\\\"tokens_after\\\":1,\\\"basis\\\":\\\"inferred\\\",\\\"content_type\\\":\\\"text\\\",\\\"recovery_handle\\\":null}\"}],\"isError\":false}}\n");
}

#[test]
fn framing_edges() {
    // Blank and whitespace lines get nothing; a final line without LF is
    // answered; null and {} are notifications.
    let out = replay("\n \r\n\u{a0}\nnull\n{}\n{\"id\":1,\"method\":\"ping\"}");
    assert_eq!(out, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    // Nesting: 9,999 levels inside params are fine, 10,000 are not.
    let deep = |n: usize| {
        format!(
            "{{\"id\":1,\"method\":\"ping\",\"params\":{}{}}}\n",
            "[".repeat(n),
            "]".repeat(n)
        )
    };
    assert_eq!(
        replay(&deep(9_999)),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
    );
    assert_eq!(
        replay(&deep(10_000)),
        "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"parse error\"}}\n"
    );
    // Methods are case-sensitive; the method text is re-escaped.
    assert_eq!(
        replay("{\"id\":1,\"method\":\"a<b\"}\n"),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"method not found: a\\u003cb\"}}\n"
    );
}

#[test]
fn inbound_cap_counts_the_lf() {
    let line = |len: usize| {
        let head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":\"";
        let pad = len - head.len() - 3;
        format!("{head}{}\"}}\n", "x".repeat(pad))
    };
    // line(n) is n bytes, LF included.
    let max = super::MAX_INBOUND;
    assert_eq!(line(max + 1).len(), max + 1);
    let over = replay(&format!(
        "{}{{\"id\":3,\"method\":\"ping\"}}\n",
        line(max + 1)
    ));
    assert_eq!(over, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"cave_payload_too_large: message exceeds 16777216 bytes\"}}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n");
    let fits = replay(&line(max));
    assert_eq!(fits, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
}

#[test]
fn result_cap_and_retrieve_exemption() {
    let input = "<".repeat(3_000_000);
    let req = format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"caveman_toon_encode\",\"arguments\":{{\"input\":\"{input}\"}}}}}}\n");
    assert_eq!(
        replay(&req),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"error\\\":\\\"cave_payload_too_large\\\",\\\"message\\\":\\\"result 18000181 bytes exceeds cap 16777216; request a narrower slice\\\"}\"}],\"isError\":true}}\n"
    );
}

#[test]
fn notifications_are_not_executed() {
    let store = Store::in_memory();
    let mut server = Server::new(Tools::new(store, false));
    let body = format!(
        "[{}]",
        (0..40)
            .map(|i| format!("{{\"id\":{i},\"s\":\"ok\"}}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let call = format!("{{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{{\"name\":\"caveman_compress\",\"arguments\":{{\"input\":{}}}}}}}\n", crate::go::json::json_str(&body));
    let stats = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"caveman_stats\"}}\n";
    let mut out = Vec::new();
    server
        .serve(&mut format!("{call}{stats}").as_bytes(), &mut out)
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("\\\"requests\\\":0"), "{out}");
}
