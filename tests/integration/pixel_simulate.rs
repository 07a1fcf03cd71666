//! `pixel simulate` (pixel-simulate.md): the command line's messages and
//! exit codes beyond the golden cases, the deliberate difference from the
//! reference, and property tests of the cost models and the gate through
//! the library.

use caveman_engine::pixel::simulate::cost::{
    anthropic_tokens_for_rows, patch_tokens, with_margin, Vision,
};
use caveman_engine::pixel::simulate::price::{image_tokens, PagePrice, Pricing};
use caveman_engine::pixel::simulate::profile::{Level, Profile, Tier, CONSERVATIVE};
use caveman_engine::pixel::simulate::text::{measure, prepare, u16_len};
use caveman_engine::pixel::simulate::{simulate, Request};
use proptest::prelude::*;
use serde::Deserialize;

use crate::util::{TempDir, TestCommand};

const USAGE: &str = "usage: caveman-engine pixel simulate [--model MODEL] [--density conservative|balanced|max] <request.json>\n";

/// Mirror of the TransformInfo line: an unknown field is a failure.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, non_snake_case)]
struct Info {
    Compressed: bool,
    Reason: String,
    OrigChars: u64,
    CompressedChars: u64,
    ImageCount: u64,
    ImageBytes: u64,
    ImagePixels: u64,
    TextTokensEstimate: u64,
    ImageTokensEstimate: u64,
    StaticChars: u64,
    DynamicChars: u64,
    DynamicBlockCount: u64,
    unknownStaticTags: Option<Vec<String>>,
    ReminderImgs: u64,
    ToolResultImgs: u64,
    DroppedChars: u64,
    PassthroughReasons: Option<std::collections::BTreeMap<String, u64>>,
    KeptSharpBlocks: u64,
    TruncatedToolResults: u64,
    OmittedChars: u64,
    CollapsedTurns: u64,
    CollapsedChars: u64,
    CollapsedImages: u64,
    HistoryReason: String,
    Recoverable: Option<()>,
}

/// Runs `pixel simulate ARGS` in a directory holding `request.json`.
fn run(body: &str, args: &[&str]) -> crate::util::Run {
    let dir = TempDir::new("simulate");
    std::fs::write(dir.path().join("request.json"), body).unwrap();
    let mut all = vec!["pixel", "simulate"];
    all.extend_from_slice(args);
    TestCommand::new().cwd(dir.path()).run(&all, b"")
}

fn fails_with(body: &str, args: &[&str], stderr: &str) {
    let r = run(body, args);
    assert_eq!(
        (r.code, r.stderr_str().as_str(), r.stdout.len()),
        (1, stderr, 0),
        "{args:?}"
    );
}

#[test]
fn argument_errors_in_order() {
    let body = r#"{"messages":[]}"#;
    fails_with(body, &["--model"], USAGE);
    fails_with(body, &["--density"], USAGE);
    fails_with(body, &[], USAGE);
    fails_with(body, &["request.json", "request.json"], USAGE);
    fails_with(
        body,
        &["-", "request.json"],
        "unknown pixel simulate flag: -\n",
    );
    fails_with(
        body,
        &["--model=x", "request.json"],
        "unknown pixel simulate flag: --model=x\n",
    );
    // An error before --help wins; after it nothing is looked at.
    fails_with(
        body,
        &["--bogus", "--help"],
        "unknown pixel simulate flag: --bogus\n",
    );
    let help = run(body, &["--help", "--bogus"]);
    assert_eq!((help.code, help.stdout.len()), (0, 0));
    assert!(help.stderr_str().contains(USAGE.trim_end()));
    // The density is checked before the file is read, and quoted as Go's %q.
    fails_with(
        body,
        &["--density", "m\u{e9}x\"", "missing.json"],
        "--density must be one of conservative|balanced|max (got \"m\u{e9}x\\\"\")\n",
    );
    fails_with(
        body,
        &["missing.json"],
        "pixel simulate read: open missing.json: no such file or directory\n",
    );
    fails_with(
        body,
        &["."],
        "pixel simulate read: read .: is a directory\n",
    );
}

#[test]
fn body_errors() {
    fails_with(
        "{\"a\":1} x",
        &["request.json"],
        "pixel simulate parse: invalid character 'x' after top-level value\n",
    );
    fails_with("\"s\"", &["request.json"], "pixel simulate parse: json: cannot unmarshal string into Go value of type map[string]json.RawMessage\n");
    let sniff =
        "pixel simulate: cannot sniff request format (expected input, contents, or messages)\n";
    fails_with("{\"Messages\":[]}", &["request.json"], sniff);
    // The reference panics here (a null body with --model); this build
    // reports the body like any other null body.
    fails_with(
        "null",
        &["--model", "claude-opus-4-8", "request.json"],
        sniff,
    );
}

#[test]
fn transform_errors_still_print_the_counters() {
    for (body, reason, detail) in [
        (
            r#"{"messages":[{"role":7}]}"#,
            "parse_error: json: cannot unmarshal number into Go struct field Message.role of type string",
            "json: cannot unmarshal number into Go struct field Message.role of type string",
        ),
        (
            r#"{"messages":[],"tools":"x"}"#,
            "parse_error: json: cannot unmarshal string into Go value of type []map[string]interface {}",
            "json: cannot unmarshal string into Go value of type []map[string]interface {}",
        ),
        (
            r#"{"input":5}"#,
            "parse_error: input must be a string or array",
            "json: cannot unmarshal number into Go value of type []interface {}",
        ),
        (
            r#"{"contents":[{"parts":[{"text":1}]}]}"#,
            "parse_error: contents: text: json: cannot unmarshal number into Go value of type string",
            "contents: text: json: cannot unmarshal number into Go value of type string",
        ),
    ] {
        let r = run(body, &["request.json"]);
        assert_eq!(r.code, 1, "{body}");
        assert_eq!(r.stderr_str(), format!("pixel simulate transform: {detail}\n"));
        let info: Info = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(info.Reason, reason);
        assert!(!info.Compressed && info.PassthroughReasons == Some(Default::default()));
    }
}

#[test]
fn density_flag_beats_the_environment_and_empty_defers() {
    // A hi-res reader model, so the level shows in the slab's geometry.
    let system = "Use the tools carefully and report results. ".repeat(400);
    let body = format!(
        r#"{{"model":"claude-opus-4-8","system":"{system}","messages":[{{"role":"user","content":"hi"}}]}}"#
    );
    let pixels = |args: &[&str], env: &str| {
        let dir = TempDir::new("simulate");
        std::fs::write(dir.path().join("request.json"), &body).unwrap();
        let mut all = vec!["pixel", "simulate"];
        all.extend_from_slice(args);
        all.push("request.json");
        let r = TestCommand::new()
            .cwd(dir.path())
            .env("CAVE_PIXEL_DENSITY", env)
            .run(&all, b"");
        assert_eq!(r.code, 0, "{}", r.stderr_str());
        serde_json::from_slice::<Info>(&r.stdout)
            .unwrap()
            .ImagePixels
    };
    let conservative = pixels(&[], "off");
    let balanced = pixels(&[], "");
    assert_ne!(conservative, balanced);
    assert_eq!(pixels(&["--density", " Balanced "], "off"), balanced);
    assert_eq!(pixels(&["--density", ""], "off"), conservative);
    assert_eq!(pixels(&[], "turbo"), conservative);
}

/// Page sizes a transform draws: up to the hi-res canvas.
fn page() -> impl Strategy<Value = (usize, usize)> {
    (1usize..=2576, 1usize..=1932)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Anthropic patch tokens never exceed the tier's cap, at any size.
    #[test]
    fn patch_tokens_respect_tier_caps(w in 1usize..20_000, h in 1usize..20_000) {
        prop_assert!(patch_tokens(w, h, Tier::Standard) <= 1568);
        prop_assert!(patch_tokens(w, h, Tier::HiRes) <= 4784);
        prop_assert!(patch_tokens(w, h, Tier::Standard) >= 1);
    }

    /// Within a tier's canvas (no downscaling) a bigger page never costs
    /// fewer tokens, in either model that prices by area.
    #[test]
    fn cost_is_monotone_in_page_size((w, h) in page(), dw in 0usize..400, dh in 0usize..400) {
        let (w2, h2) = (w + dw, h + dh);
        for tier in [Tier::Standard, Tier::HiRes] {
            let max = tier.patch_limits().0;
            if w2 <= max && h2 <= max {
                prop_assert!(patch_tokens(w, h, tier) <= patch_tokens(w2, h2, tier));
            }
        }
        for patch in [Vision::Patch { multiplier: 1.62, cap: 1536 }, Vision::Patch { multiplier: 1.0, cap: 10_000 }] {
            prop_assert!(patch.tokens(w, h) <= patch.tokens(w2, h2));
        }
        // Tiles: monotone until a side is scaled (beyond 2048, or a short
        // side beyond 768, OpenAI shrinks the image first).
        let tile = Vision::Tile { base: 85, per_tile: 170 };
        if w2.max(h2) <= 2048 && w2.min(h2) <= 768 {
            prop_assert!(tile.tokens(w, h) <= tile.tokens(w2, h2));
        }
    }

    /// The OpenAI patch regime is capped: ⌈cap × multiplier⌉ at most.
    #[test]
    fn openai_patch_cap((w, h) in (1usize..50_000, 1usize..50_000), cap in 1i64..5000, m in 0.1f64..4.0) {
        let v = Vision::Patch { multiplier: m, cap };
        prop_assert!(v.tokens(w, h) <= (cap as f64 * m).ceil() as usize);
    }

    /// A text's image estimate never falls as its rows grow, and an image
    /// cap bounds it: at most `cap` full pages, margin included.
    #[test]
    fn row_pricing_is_monotone_and_capped(rows in 1usize..5000, more in 0usize..500, k in 1usize..700) {
        for level in [Level::Conservative, Level::Balanced, Level::Max] {
            for tier in [Tier::Standard, Tier::HiRes] {
                let p = Profile { level, tier };
                let (cols, budget) = (k.min(p.page_cols()), p.page_budget());
                let a = anthropic_tokens_for_rows(rows, cols, budget, p, None);
                let b = anthropic_tokens_for_rows(rows + more, cols, budget, p, None);
                prop_assert!(a <= b);
                let capped = anthropic_tokens_for_rows(rows + more, cols, budget, p, Some(10));
                prop_assert!(capped <= with_margin(10 * tier.patch_limits().1));
                prop_assert!(capped <= b);
            }
        }
    }
}

/// Gemini text of a given shape: many short lines (costly as images) or
/// long dense lines (cheap), ASCII or wide CJK.
fn gemini_part() -> impl Strategy<Value = String> {
    (1usize..120, 1usize..400, any::<bool>()).prop_map(|(width, lines, wide)| {
        let unit = if wide { "\u{4e2d}" } else { "x" };
        let line = unit.repeat(width);
        let mut s = String::new();
        for i in 0..lines {
            s.push_str(&line);
            s.push_str(&format!(" {i}\n"));
        }
        while s.len() < 6000 {
            s.push_str(&line);
            s.push('\n');
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The gate decides: a Gemini part is imaged exactly when its image
    /// estimate (flat 1232 a page, at most 10 pages) is strictly below
    /// its text estimate (UTF-16 units over 4), so an unprofitable image
    /// is never chosen.
    #[test]
    fn unprofitable_parts_are_never_imaged(text in gemini_part()) {
        let body = serde_json::json!({
            "contents": [{"role": "user", "parts": [{"text": text}]}]
        })
        .to_string();
        let out = simulate(&Request {
            body: body.as_bytes(),
            model: Some("gemini-3-flash"),
            density: Level::Balanced,
            gpt_profiles: None,
        })
        .unwrap();
        let p = prepare(&text);
        let pricing = Pricing::Pages {
            cell: CONSERVATIVE,
            height: 728,
            budget: 28080,
            cap: Some(10),
            per_page: PagePrice::gemini(),
        };
        let image = image_tokens(&p, measure(&p, 312), pricing);
        let profitable = (image as f64) < u16_len(&p) as f64 / 4.0;
        prop_assert_eq!(out.info.compressed, profitable);
        prop_assert_eq!(out.info.tool_result_imgs > 0, profitable);
        if !profitable {
            prop_assert_eq!(out.info.passthrough.get(caveman_engine::pixel::simulate::Passthrough::NotProfitable), 1);
        }
    }
}
