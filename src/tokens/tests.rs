//! Counting tests: against the definition, tiktoken-rs's own merge, the
//! `bpe` crate, and a backtracking regex running the quirked pattern.

use super::cache::*;
use super::long::*;
use super::merge::*;
use super::vocab::*;
use super::*;
use crate::go::utf8::go_lossy;

/// Number of tokens in the vocabulary.
fn vocab_size() -> usize {
    OFFSETS.len() / 4 - 1
}

/// One step of the xorshift generator the tests draw inputs from.
pub(super) fn xorshift(x: &mut u64) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
}

#[test]
fn quirks_from_the_spec() {
    assert_eq!(count(b""), 0);
    assert_eq!(count(b"\n \n"), 2);
    assert_eq!(count(b" \n \n"), 2);
    assert_eq!(count(b"a\n\t\nb"), 4);
}

/// DEL yields no token and no piece spans it (pixel-render.md §6, the
/// reference's counts); the other controls count as the pattern says.
#[test]
fn del_counts_no_token() {
    for (text, want) in [
        (&b"\x7f"[..], 0),
        (b"a\x7fb", 2),
        (b"hel\x7flo", 2),
        (b"a  \x7f", 3),
        (b"x\x7f\x7fy", 2),
        (b"\x7f\x7f\x7f", 0),
        (b"!\x7f?", 2),
        (b"12\x7f34", 2),
    ] {
        assert_eq!(count(text), want, "{text:?}");
    }
    // NUL and the other C0 controls are punctuation-class characters.
    assert_eq!(count(b"\x00"), 1);
    assert_eq!(count(b"\x01\x7f\x01"), 2);
}

#[test]
fn chunked_counts_equal_sequential_counts() {
    let json: String = (0..40_000)
        .map(|i| format!("  {{\n    \"id\": {i},\n    \"name\": \"user{i}\",\n    \"it's\": \"x/y\"\n  }},\n"))
        .collect();
    let log: String = (0..60_000)
        .map(|i| {
            format!(
                "2024-01-02 03:04:{:02} INFO worker-{i} done\n/path/{i}\n",
                i % 60
            )
        })
        .collect();
    // No ASCII punctuation, no newline: only letter boundaries split it.
    let cjk: String = (0..900_000)
        .map(|i: usize| {
            ["日本語", "😀", "한국어", "、", " ", "テキスト", "\u{301}"][i * 7 % 11 % 7]
        })
        .collect();
    for text in [json, log, cjk] {
        assert!(text.len() > PARALLEL_MIN);
        let one = count_in(&text, &mut PieceCache::for_text(text.len(), false));
        assert_eq!(one, count_str(&text));
        for parts in 2..6 {
            let t = text.as_bytes();
            let cuts = split_points(t, parts, |p| safe_split(t, p));
            assert!(cuts.len() > 2, "no split found");
            let sum: usize = cuts.windows(2).map(|w| count_str(&text[w[0]..w[1]])).sum();
            assert_eq!(sum, count_str(&text));
            // Every cut is a piece boundary of the whole text.
            let mut ends = std::collections::HashSet::new();
            let mut pos = 0;
            for p in split_pieces(&text) {
                pos += p.len();
                ends.insert(pos);
            }
            for c in &cuts[1..cuts.len() - 1] {
                assert!(ends.contains(c), "cut {c} splits a piece");
            }
        }
    }
}

#[test]
fn parallel_count_of_invalid_bytes_equals_sequential_count() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes: Vec<u8> = (0..PARALLEL_MIN + 12_345)
        .map(|_| {
            xorshift(&mut x);
            (x >> 24) as u8
        })
        .collect();
    assert!(std::str::from_utf8(&bytes).is_err());
    let whole = count_str(&go_lossy(&bytes));
    assert_eq!(count(&bytes), whole);
    // Converted and counted 64 KiB at a time.
    assert_eq!(count_lossy_by(&bytes, 1 << 16), whole);
    // Text without ASCII and a bad byte (a stray continuation, a cut
    // sequence, 0xFF) here and there: still cut, between letters and
    // symbols, into parts that count the same.
    let words = [
        "日本語",
        "😀",
        "한국어",
        "、",
        "テキスト",
        "\u{301}",
        "\u{FFFD}",
    ];
    let bad: [&[u8]; 4] = [b"\xBF", b"\xE6\x97", b"\xFF", b"\xF0\x9F\x98"];
    let mut text = Vec::new();
    for i in 0..400_000usize {
        text.extend_from_slice(words[i * 7 % 11 % 7].as_bytes());
        if i % 997 == 0 {
            text.extend_from_slice(bad[i % 4]);
        }
    }
    assert!(std::str::from_utf8(&text).is_err() && !text.iter().any(u8::is_ascii));
    let cuts = split_points(&text, 8, |p| safe_split(&text, p));
    assert!(cuts.len() > 8, "no cut found");
    let whole = count_str(&go_lossy(&text));
    let sum: usize = cuts
        .windows(2)
        .map(|w| count_str(&go_lossy(&text[w[0]..w[1]])))
        .sum();
    assert_eq!(sum, whole);
    assert_eq!(count(&text), whole);
    assert_eq!(count_lossy_by(&text, 1 << 16), whole);
}

#[test]
fn invalid_bytes_are_one_replacement_each() {
    assert_eq!(go_lossy(b"a\xE2\x82b"), "a\u{FFFD}\u{FFFD}b");
    assert_eq!(go_lossy(b"\xED\xA0\x80"), "\u{FFFD}\u{FFFD}\u{FFFD}");
    assert_eq!(go_lossy(b"ok"), "ok");
    // Against the byte-at-a-time definition, on random bytes.
    fn one_at_a_time(mut bytes: &[u8]) -> String {
        let mut out = String::new();
        loop {
            match std::str::from_utf8(bytes) {
                Ok(s) => return out + s,
                Err(e) => {
                    let good = e.valid_up_to();
                    out.push_str(std::str::from_utf8(&bytes[..good]).unwrap());
                    out.push('\u{FFFD}');
                    bytes = &bytes[good + 1..];
                }
            }
        }
    }
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..20_000 {
        let len = (x % 24) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                xorshift(&mut x);
                [
                    0x41, 0x80, 0xBF, 0xC2, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90,
                ][(x % 12) as usize]
            })
            .collect();
        assert_eq!(go_lossy(&bytes), one_at_a_time(&bytes), "{bytes:x?}");
    }
    // Every lead byte against every second byte, with tails that
    // complete, break or cut short a sequence.
    let tails: [&[u8]; 7] = [
        b"",
        b"\x80",
        b"\xBF\x80",
        b"A\x80",
        b"\x80A",
        b"\x8F\xBF\xBD",
        b"\xC0\xBF",
    ];
    for b0 in 0x80..=0xFFu8 {
        for b1 in 0..=0xFFu8 {
            for tail in tails {
                let bytes = [&[b0, b1][..], tail].concat();
                assert_eq!(go_lossy(&bytes), one_at_a_time(&bytes), "{bytes:x?}");
            }
        }
    }
}

#[test]
fn every_rank_is_found() {
    for r in (0..vocab_size()).step_by(97) {
        assert_eq!(rank_of(token_bytes(r)), Some(r as u32));
    }
}

#[test]
fn heap_merge_is_exact() {
    let enc = LONG_ENCODER.as_ref().expect("encoder");
    let samples = [
        "[".repeat(500),
        "=".repeat(333),
        " ".repeat(200),
        "a".repeat(300),
        "\u{1F600}".repeat(80),
        "日本語のテキストです".repeat(20),
        "abcabcabdabxyzzy".repeat(30),
        "-=-=*#*#".repeat(40),
    ];
    for s in &samples {
        assert_eq!(
            heap_merge_count(s.as_bytes(), &mut RankCache::default()),
            enc.count(s.as_bytes()),
            "{s}"
        );
    }
    // Pseudo-random bytes from a fixed seed.
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for len in [64usize, 65, 100, 257, 1000] {
        let mut v = Vec::with_capacity(len);
        for _ in 0..len {
            xorshift(&mut x);
            v.push(b"ab cd.,!?xyz\n\t"[(x % 14) as usize]);
        }
        assert_eq!(
            heap_merge_count(&v, &mut RankCache::default()),
            enc.count(&v)
        );
    }
}

/// The proof obligation of [`merge_count`]'s U+FFFD parts, against the
/// whole vocabulary: its own merges rank below every token that could
/// match a piece's bytes across part of a U+FFFD (starting inside one,
/// ending inside one) or a whole U+FFFD and more.
#[test]
fn replacement_merges_first() {
    let ff = rank_of(&REPLACEMENT[..2]);
    let fd = rank_of(&REPLACEMENT[1..]);
    let whole = rank_of(REPLACEMENT).expect("U+FFFD is a token");
    let first = [ff, fd].into_iter().flatten().min().expect("a first merge");
    let formed_by = first.max(whole);
    let vocab = vocab_size();
    let mut lowest_other = u32::MAX;
    for r in 0..vocab {
        let t = token_bytes(r);
        if t.len() < 2 || t == REPLACEMENT || t == &REPLACEMENT[..2] || t == &REPLACEMENT[1..] {
            continue;
        }
        let starts_inside = [&REPLACEMENT[1..], &REPLACEMENT[2..]]
            .iter()
            .any(|p| t.starts_with(p));
        let ends_inside = [&REPLACEMENT[..1], &REPLACEMENT[..2]]
            .iter()
            .any(|p| t.ends_with(p));
        let holds_one = t.windows(3).any(|w| w == REPLACEMENT);
        if starts_inside || ends_inside || holds_one {
            lowest_other = lowest_other.min(r as u32);
        }
    }
    assert!(
        lowest_other > formed_by,
        "token {lowest_other} could take part of a U+FFFD before rank {formed_by} forms it"
    );
}

/// Pieces of U+FFFD, ASCII symbols and letters counted by the rank merge
/// (U+FFFD as one part) equal the `bpe` crate's exact encoder.
#[test]
fn merge_with_replacement_parts_is_exact() {
    let enc = LONG_ENCODER.as_ref().expect("encoder");
    let alphabet = [
        "\u{FFFD}", "!", "?", "\n", "a", "s", "/", "\u{1}", "€", " ", "&",
    ];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        xorshift(&mut x);
        let chars = 1 + (x % 20) as usize;
        let mut piece = String::new();
        for k in 0..chars {
            piece.push_str(alphabet[((x >> (3 * k % 60)) % alphabet.len() as u64) as usize]);
        }
        let b = piece.as_bytes();
        if (2..MEDIUM_PIECE).contains(&b.len()) {
            assert_eq!(
                merge_count(b, &mut RankCache::default()),
                enc.count(b),
                "{piece:?}"
            );
        }
    }
}

/// Long pieces counted in windows equal the whole encoding, windows
/// encoded by the `bpe` crate or by the rank merge: random letters, a
/// DNA-like alphabet and punctuation (whose windows always meet), and
/// periodic runs, including a pattern whose period does not divide the
/// window (which may not meet, and then fall back).
#[test]
fn windowed_counts_equal_whole_counts() {
    let enc = LONG_ENCODER.as_ref().expect("encoder");
    let by_encoder = |w: &[u8]| encoded_lengths(enc, w);
    let by_merge = |w: &[u8]| heap_merge_lengths(w, &mut RankCache::default());
    let encoders: [&Encode; 2] = [&by_encoder, &by_merge];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut random = |alphabet: &[u8], len: usize| -> Vec<u8> {
        (0..len)
            .map(|_| {
                xorshift(&mut x);
                alphabet[(x % alphabet.len() as u64) as usize]
            })
            .collect()
    };
    let pieces = [
        random(b"abcdefghijklmnopqrstuvwxyz", 300_000),
        random(b"ACGT", 300_000),
        random(b"!#$%&()*+,-./:;<=>?@[]^_{|}~", 300_000),
        "a".repeat(300_000).into_bytes(),
        " ".repeat(300_000).into_bytes(),
        "abcdefg".repeat(40_000).into_bytes(),
    ];
    for (k, piece) in pieces.iter().enumerate() {
        let whole = enc.count(piece);
        assert_eq!(
            heap_merge_lengths(piece, &mut RankCache::default()).len(),
            whole
        );
        for (window, overlap) in [(4096, 256), (65_536, 4096), (100_003, 64)] {
            for encode in encoders {
                let met = windows_met(piece, window, overlap, encode);
                let what = String::from_utf8_lossy(&piece[..20]);
                if k < 3 {
                    assert_eq!(met, Some(whole), "{what:?}… in windows of {window}");
                } else {
                    assert!(met.is_none_or(|c| c == whole), "{what:?}…");
                }
            }
        }
        assert_eq!(long_count(piece), whole);
    }
    // Runs that repeat every window take the rank merge and meet there:
    // two windows encoded, whatever the length.
    for (piece, period) in [
        ("a".repeat(3 << 20), 1),
        (" ".repeat(3 << 20), 1),
        ("=-".repeat(3 << 19), 2),
        ("abcdefg".repeat(450_000), 7),
        ("qwertyuiopasdfghjklzxcvbnm".repeat(120_000) + "qwe", 26),
    ] {
        let p = piece.as_bytes();
        assert_eq!(short_period(p), Some(period));
        let window = REPEAT_WINDOW / period * period;
        let met = windows_met(p, window, WINDOW_OVERLAP, &by_merge);
        assert_eq!(met, Some(enc.count(p)), "{:?}…", &piece[..4]);
        assert_eq!(long_count(p), enc.count(p));
    }
    // A block repeated after a few other bytes (a JSON array of empty
    // arrays is one punctuation piece): windows start after the lead.
    for (piece, lead, period) in [
        (format!("[{}]]", "[],".repeat(1 << 20)), 1, 3),
        (format!("x{}", "-=".repeat(3 << 19)), 1, 2),
        (
            format!("{}{}", "#".repeat(40), "ab!".repeat(1 << 20)),
            40,
            3,
        ),
    ] {
        let p = piece.as_bytes();
        assert_eq!(lead_and_period(p), Some((lead, period)));
        assert_eq!(long_count(p), enc.count(p), "{:?}…", &piece[..8]);
    }
    // Not periodic: a run of one letter that changes at the very end,
    // random letters, a block longer than the longest period.
    let mut almost = "a".repeat(3 << 20);
    almost.push('b');
    assert_eq!(short_period(almost.as_bytes()), None);
    assert_eq!(short_period(&pieces[0]), None);
    assert_eq!(short_period(&pieces[0][..5000].repeat(200)), None);
}

/// Counts equal tiktoken's own rank merge (`byte_pair_split`, over the
/// same vocabulary) on the pieces of the split, for short and large
/// mixes of words, numbers, whitespace, CJK, emoji, U+FFFD and invalid
/// bytes: the caches, the prefetching, U+FFFD as one part, the parallel
/// and per-part cuts all count as the plain algorithm does.
#[test]
fn counts_equal_tiktoken_merge() {
    // tiktoken-rs's own map type (its rustc-hash), by inference.
    let ranks = (0..vocab_size())
        .map(|r| (token_bytes(r).to_vec(), r as u32))
        .collect();
    let reference = |bytes: &[u8]| -> usize {
        let text = go_lossy(bytes);
        split_pieces(&text)
            .iter()
            .map(|p| match p.len() {
                1 => 1,
                _ => tiktoken_rs::byte_pair_split(p.as_bytes(), &ranks).len(),
            })
            .sum()
    };
    let alphabet: [&[u8]; 24] = [
        b"a",
        b"The",
        b" ",
        b"\n",
        b"  ",
        b"\t",
        b"{\"id\": ",
        b"123",
        b"4567",
        b"'s",
        b"\xFF",
        b"\xE6\x97",
        b"\xBF",
        "日本語".as_bytes(),
        "😀".as_bytes(),
        "\u{FFFD}".as_bytes(),
        b"!",
        b"?!",
        b"==",
        b"\r\n",
        "é".as_bytes(),
        b"\x00",
        b"xyzzy",
        b"\xF0\x9F",
    ];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut mix = |parts: usize| -> Vec<u8> {
        let mut v = Vec::new();
        for _ in 0..parts {
            xorshift(&mut x);
            v.extend_from_slice(alphabet[(x % alphabet.len() as u64) as usize]);
        }
        v
    };
    for k in 0..3000 {
        let bytes = mix(1 + k % 200);
        assert_eq!(count(&bytes), reference(&bytes), "{bytes:x?}");
    }
    // Large: counted on every core, invalid UTF-8 in parts.
    let bytes = mix(1_200_000);
    assert!(bytes.len() > PARALLEL_MIN && std::str::from_utf8(&bytes).is_err());
    assert_eq!(count(&bytes), reference(&bytes));
}

#[test]
fn long_runs_are_linear_and_do_not_panic() {
    assert!(LONG_ENCODER.is_some());
    for unit in [" ", "a", "=", "\u{1F600}", "日"] {
        let long = unit.repeat((LONG_PIECE + 4096) / unit.len());
        let short = unit.repeat((LONG_PIECE - 4096) / unit.len());
        // Both encoders agree where they meet.
        let piece = &long.as_bytes()[..LONG_PIECE - 4096 - (LONG_PIECE - 4096) % unit.len()];
        assert_eq!(
            heap_merge_count(piece, &mut RankCache::default()),
            LONG_ENCODER.as_ref().unwrap().count(piece)
        );
        assert!(count(long.as_bytes()) > count(short.as_bytes()));
    }
}

#[cfg(test)]
mod differential {
    //! The hand-written splitter against a backtracking regex engine running
    //! the quirked o200k pattern of spec/engine.md §6, with DEL left out of
    //! the two negated classes as in the reference (the scan, like
    //! `find_iter`, steps over a character no alternative matches).
    use super::super::split_pieces;
    use super::xorshift;

    const QUIRKED: &str = r"[^\r\n\p{L}\p{N}\x7f]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}\x7f]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}\x7f]+[\r\n/]*|[^\S\r\n]*[\r\n]+|\s+(?!\S)|\s+";

    const ALPHABET: &[&str] = &[
        "a", "b", "Z", "Q", "x", "1", "2", "9", " ", " ", "  ", "\t", "\n", "\r", "\r\n", "'",
        "'s", "'LL", "'re", "\"", ",", ".", "/", "{", "}", ":", "-", "!", "é", "É", "日", "ǅ", "ʰ",
        "\u{301}", "\u{a0}", "\u{3000}", "\u{85}", "😀", "٣", "Ⅷ", "\u{b}", "\u{c}", "_", "#",
        "、", "。", "キ", "한", "\u{fffd}", "\u{200d}", "\x7f", "\x7f", "\x00", "\x1b", "\u{80}",
        "\u{9f}",
    ];

    #[test]
    fn splitter_matches_backtracking_regex() {
        let re = fancy_regex::Regex::new(QUIRKED).unwrap();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            xorshift(&mut x);
            x
        };
        let rounds: usize = std::env::var("DIFF_ROUNDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(50_000);
        for round in 0..rounds {
            let len = 1 + (next() % 40) as usize;
            let s: String = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect();
            let matches: Vec<(usize, usize)> = re
                .find_iter(&s)
                .map(|m| {
                    let m = m.unwrap();
                    (m.start(), m.end())
                })
                .collect();
            let want: Vec<&str> = matches.iter().map(|&(a, b)| &s[a..b]).collect();
            let got = split_pieces(&s);
            assert_eq!(got, want, "round {round}: {s:?}");
            for p in 1..s.len() {
                if s.is_char_boundary(p) && super::safe_split(s.as_bytes(), p) {
                    assert!(
                        !matches.iter().any(|&(a, b)| a < p && p < b),
                        "safe split {p} inside a piece: {s:?}"
                    );
                }
            }
        }
    }
}
