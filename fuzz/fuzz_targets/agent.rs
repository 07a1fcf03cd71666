//! The agent path's parsers never panic and keep their promises: the
//! shell reader (`hook::shell`), a whole Claude Code event
//! (`hook::claude_code`, with no settings and no rules in reach), the
//! ledger reader (every record it returns re-encodes to a line it reads
//! back the same), the rules file (errors name a line inside the file) and
//! the settings JSON (its pretty form parses back to the same value).
#![no_main]
use caveman_engine::{hook, ledger, rules};
use libfuzzer_sys::fuzz_target;

fn memchr_post(data: &[u8]) -> bool {
    data.windows(4).any(|w| w == b"Post")
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = hook::shell::must_not_rewrite(&text, false);
    let env = hook::Env {
        exe: "caveman-engine".into(),
        permission_files: Vec::new(),
        cwd: std::path::PathBuf::from("/nonexistent-fuzz-dir"),
    };
    // PostToolUse stores originals: not from a fuzzer.
    let post = memchr_post(data);
    if let Ok(d) = (!post).then(|| hook::claude_code(data, &env)).unwrap_or(Err(String::new())) {
        if let Some(a) = d.answer {
            assert!(serde_json::from_str::<serde_json::Value>(&a).is_ok());
        }
    }
    for r in ledger::parse(data).records {
        assert_eq!(ledger::parse(&r.encode()).records, vec![r]);
    }
    let mut rs = rules::Rules::default();
    if let Err(e) = rules::apply(&mut rs, std::path::Path::new("f.toml"), &text) {
        assert!(e.line >= 1 && e.line <= text.lines().count().max(1) + 1, "{e}");
    }
    if let Ok(v) = hook::settings::Json::parse(&text) {
        assert_eq!(hook::settings::Json::parse(&v.pretty()).ok(), Some(v));
    }
});
