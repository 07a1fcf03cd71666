//! Decoder and writer tests against Go's behaviour.

use super::*;

#[test]
fn spec_example_duplicates_and_escapes() {
    let v = decode_go(br#"{"b":"x\/y","a":"<&>","a":1.50}"#).unwrap();
    assert_eq!(to_vec(v.root()), br#"{"a":1.50,"b":"x/y"}"#);
    let v = decode_go(br#"["<&>"]"#).unwrap();
    assert_eq!(to_vec(v.root()), br#"["\u003c\u0026\u003e"]"#);
}

#[test]
fn surrogates_and_invalid_bytes() {
    let v =
        decode_go(b"[\"\\ud800\\u0041\", \"\\udc00\", \"\\ud83d\\ude00\", \"a\xffb\"]").unwrap();
    assert_eq!(
        String::from_utf8(to_vec(v.root())).unwrap(),
        "[\"\u{FFFD}A\",\"\u{FFFD}\",\"\u{1F600}\",\"a\u{FFFD}b\"]"
    );
}

#[test]
fn trailing_data_rule() {
    assert!(decode_go(b"{\"a\":1}}").is_ok());
    assert!(decode_go(b"[1]]garbage").is_ok());
    assert!(decode_go(b"[1] [2]").is_err());
    assert!(decode_go(b"[1] x").is_err());
    assert!(decode_go(b"  ").is_err());
}

/// Random objects with repeated keys, small and larger than
/// [`MOVABLE`] nodes, nested: written as `serde_json` writes a map
/// sorted by key where a repeated key keeps its last value.
#[test]
fn members_sorted_last_wins_moved_or_aside() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    fn gen(next: &mut dyn FnMut(u64) -> u64, depth: u32, out: &mut String) {
        match if depth > 3 { 0 } else { next(4) } {
            0 => out.push_str(&next(1000).to_string()),
            1 => out.push_str(&format!("\"s{}\"", next(50))),
            2 => {
                // A long array (of scalars) makes its parent object
                // too large to move.
                let long = next(4) == 0;
                let n = if long { 1000 + next(600) } else { next(6) };
                out.push('[');
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    gen(next, if long { 9 } else { depth + 1 }, out);
                }
                out.push(']');
            }
            _ => {
                let n = next(12);
                out.push('{');
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&format!("\"k{}\":", next(8)));
                    gen(next, depth + 1, out);
                }
                out.push('}');
            }
        }
    }
    let mut reordered = 0;
    for _ in 0..300 {
        let mut s = String::new();
        gen(&mut next, 0, &mut s);
        let tape = decode_go(s.as_bytes()).unwrap();
        reordered += tape.orders.len();
        let want: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(
            String::from_utf8(to_vec(tape.root())).unwrap(),
            serde_json::to_string(&want).unwrap(),
            "{s}"
        );
    }
    assert!(reordered > 0, "no object took the aside path");
}

#[test]
fn depth_limit() {
    crate::with_big_stack(depth_limit_body);
}

fn depth_limit_body() {
    let ok = "[".repeat(10_000) + &"]".repeat(10_000);
    assert!(is_valid(ok.as_bytes()));
    assert!(decode_go(ok.as_bytes()).is_ok());
    let bad = "[".repeat(10_001) + &"]".repeat(10_001);
    assert!(!is_valid(bad.as_bytes()));
    assert!(decode_go(bad.as_bytes()).is_err());
}

#[test]
fn validity() {
    for good in [
        "{}",
        " [1, -0.5e+3, \"x\", true, null] ",
        "\"\\u00e9\"",
        "0",
    ] {
        assert!(is_valid(good.as_bytes()), "{good}");
    }
    for bad in [
        "",
        "[1,]",
        "{\"a\"}",
        "01",
        "[1",
        "\u{feff}{}",
        "\"\u{1}\"",
        "{} {}",
        "1.",
        "-",
    ] {
        assert!(!is_valid(bad.as_bytes()), "{bad}");
    }
    assert!(is_valid(b"\"\xff\""));
}

#[test]
fn json_strings_like_go() {
    assert_eq!(json_str("<&>"), "\"\\u003c\\u0026\\u003e\"");
    assert_eq!(json_str("a\u{2028}b"), "\"a\\u2028b\"");
    assert_eq!(json_str("\u{1}\n"), "\"\\u0001\\n\"");
    let mut v = Vec::new();
    write_json_str(&mut v, b"a\xffb");
    assert_eq!(v, b"\"a\\ufffdb\"");
}

#[test]
fn a_small_tape_holds_no_room_it_does_not_use() {
    // NDJSON keeps one tape per line: the decoder's room (a node per two
    // input bytes) was five times the nodes of a typical record.
    let line = br#"{"id":7,"ts":"2024-05-01T10:00:07Z","user":"u7","status":"ok","ms":17,"path":"/api/v1/items/7"}"#;
    let t = decode_exact(line, Options::GO).unwrap();
    assert_eq!(t.nodes.len(), 13);
    assert!(
        t.nodes.capacity() <= 13 + 13 / 4 + 4,
        "{}",
        t.nodes.capacity()
    );
    // A large document keeps its room: its untouched pages cost nothing.
    let big = format!("[{}1]", "1,".repeat(1 << 20));
    let t = decode_exact(big.as_bytes(), Options::GO).unwrap();
    assert!(t.nodes.capacity() >= big.len() / 2);
}
