//! `pixel`: the dispatcher of the pixel verbs and the `render` verb
//! (spec/pixel-render.md §1): the argument scan with the reference's
//! messages, density resolution, reading the file, writing the pages and
//! the JSON lines. The renderer itself is `crate::pixel`.

use std::io::{Read, Write};

use crate::error::{Error, Result};
use crate::pixel::{render, Density, Options, Page};

/// `pixel render`'s lines of the usage block (spec §1.1), byte for byte.
const RENDER_USAGE: &str = "usage: caveman-engine pixel render [--cols N] [--multicol N] [--density conservative|balanced|max] [--dense] [--no-reflow] <file>\n  render reflows by default to match pxpipe export; --no-reflow preserves hard line layout.\n  --density picks the pack geometry (default balanced; falsey CAVE_PIXEL_DENSITY \u{2192} conservative): conservative uses the standard mono grid; balanced uses a denser zebra grid; max adds a 2-layer red/blue overlay. An invalid --density is a usage error; the flag wins over CAVE_PIXEL_DENSITY.\n  --density and --dense compose: --dense is the pxpipe content-shrink + multi-column packing, --density is the per-cell geometry it draws with (the 2-layer max overlay applies to single-column output only).\n";

/// `pixel simulate`'s lines of the usage block.
const SIMULATE_USAGE: &str = "usage: caveman-engine pixel simulate [--model MODEL] [--density conservative|balanced|max] <request.json>\n  simulate sniffs request JSON without network: input -> OpenAI Responses, contents -> Gemini, messages -> Anthropic Messages. --model overrides or fills the body model. --density overrides CAVE_PIXEL_DENSITY for the simulated transform (still reader-model gated).\n";

/// A verb's command: the words after the verb.
type Verb = fn(&[String]) -> Result<()>;

/// `pixel simulate` (issue 42), once it is built: `Some(its run)`. Until
/// then the usage block and the unknown-verb line name only `render`, and
/// `pixel simulate` says it is not built. With it, both are the
/// reference's texts (pinned by the `pixel-render-help-*`,
/// `-usage-pixel-alone` and `-unknown-verb` conformance cases).
const SIMULATE: Option<Verb> = Some(super::pixel_simulate::run);

/// The usage block: the lines of each verb this build has.
fn usage_block(simulate: bool) -> String {
    let mut s = RENDER_USAGE.to_string();
    if simulate {
        s.push_str(SIMULATE_USAGE);
    }
    s
}

/// The one-line usage of an unknown verb.
fn verbs_line(simulate: bool) -> &'static str {
    if simulate {
        "usage: caveman-engine pixel render|simulate"
    } else {
        "usage: caveman-engine pixel render"
    }
}

pub(super) fn print_usage() {
    let block = usage_block(SIMULATE.is_some());
    super::io::print_stderr_line(block.trim_end_matches('\n'));
}

/// Runs `pixel ARGS…`.
pub fn run(args: &[String]) -> Result<()> {
    let Some(verb) = args.first() else {
        let block = usage_block(SIMULATE.is_some());
        return Err(Error::unknown_command(block.trim_end_matches('\n')));
    };
    match verb.as_str() {
        "help" | "--help" | "-h" => {
            print_usage();
            Ok(())
        }
        "render" => render_cmd(&args[1..]),
        "simulate" => match SIMULATE {
            Some(run) => run(&args[1..]),
            None => Err(Error::fatal(
                "caveman-engine: pixel simulate is not built yet (only pixel render is); see README.md",
            )),
        },
        _ => Err(Error::fatal(verbs_line(SIMULATE.is_some()))),
    }
}

/// The first line of the usage block: the error for a missing value or file.
fn render_usage_error() -> Error {
    Error::fatal(RENDER_USAGE.lines().next().unwrap_or_default())
}

/// What the argument scan found.
struct RenderArgs {
    file: String,
    cols: Option<usize>,
    multicol: usize,
    density: Option<String>,
    dense: bool,
    reflow: bool,
}

/// `--cols`/`--multicol` values: an optional sign, digits, fits i64, ≥ 1.
fn positive(v: &str) -> Option<usize> {
    crate::go::strconv::parse_int(v)
        .filter(|&n| n >= 1)
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// The scan of spec §1.2: left to right, the error at the word causing it;
/// `Ok(None)` when `--help` ended it.
fn scan(args: &[String]) -> Result<Option<RenderArgs>> {
    let mut out = RenderArgs {
        file: String::new(),
        cols: None,
        multicol: 1,
        density: None,
        dense: false,
        reflow: true,
    };
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        let w = args[i].as_str();
        match w {
            "--cols" | "--multicol" | "--density" => {
                let v = args.get(i + 1).ok_or_else(render_usage_error)?;
                match w {
                    "--cols" => {
                        out.cols = Some(
                            positive(v)
                                .ok_or_else(|| Error::fatal("--cols must be a positive integer"))?,
                        )
                    }
                    "--multicol" => {
                        out.multicol = positive(v)
                            .ok_or_else(|| Error::fatal("--multicol must be a positive integer"))?
                    }
                    _ => out.density = Some(v.clone()),
                }
                i += 2;
                continue;
            }
            "--dense" => out.dense = true,
            "--no-reflow" => out.reflow = false,
            "--help" | "-h" => {
                print_usage();
                return Ok(None);
            }
            _ if w.starts_with('-') => {
                return Err(Error::fatal(format!("unknown pixel render flag: {w}")));
            }
            "" if file.is_none() => {}
            _ if file.is_some() => return Err(render_usage_error()),
            _ => file = Some(w.to_string()),
        }
        i += 1;
    }
    out.file = file.ok_or_else(render_usage_error)?;
    Ok(Some(out))
}

/// A level name, trimmed and lowercased the Go way (spec §2.2).
fn level_named(v: &str) -> Option<Density> {
    match crate::go::unicode::lower(v.trim()).as_str() {
        "conservative" => Some(Density::Conservative),
        "balanced" => Some(Density::Balanced),
        "max" => Some(Density::Max),
        _ => None,
    }
}

/// Density resolution (spec §2.1 steps 1–2): the flag when non-empty,
/// else `CAVE_PIXEL_DENSITY`.
fn resolve_density(flag: Option<&str>, env: Option<&str>) -> Result<Density> {
    if let Some(v) = flag.filter(|v| !v.is_empty()) {
        return level_named(v).ok_or_else(|| {
            Error::fatal(format!(
                "--density must be one of conservative|balanced|max (got {})",
                crate::go::strconv::quote(v)
            ))
        });
    }
    let Some(env) = env.filter(|e| !e.trim().is_empty()) else {
        return Ok(Density::Balanced);
    };
    Ok(level_named(env).unwrap_or(Density::Conservative))
}

/// Reads the whole file, with Go's `open …`/`read …` error texts.
fn read_file(path: &str) -> std::result::Result<Vec<u8>, String> {
    let p = std::path::Path::new(path);
    let mut f = std::fs::File::open(p).map_err(|e| crate::go::os::path_error("open", p, &e))?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)
        .map_err(|e| crate::go::os::path_error("read", p, &e))?;
    Ok(buf)
}

/// Writes one page file: write-only, created 0644, truncated.
fn write_page(path: &str, png: &[u8]) -> std::result::Result<(), String> {
    use std::os::unix::fs::OpenOptionsExt;
    let p = std::path::Path::new(path);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o644)
        .open(p)
        .map_err(|e| crate::go::os::path_error("open", p, &e))?;
    f.write_all(png)
        .map_err(|e| crate::go::os::path_error("write", p, &e))
}

/// A page's JSON line (spec §6).
fn page_line(page: &Page, level: Density) -> String {
    let layers = if page.layers == 2 {
        ",\"layers\":2"
    } else {
        ""
    };
    format!(
        "{{\"width\":{},\"height\":{},\"charsRendered\":{},\"droppedChars\":{},\"estTokens\":{},\"density\":\"{}\"{layers}}}\n",
        page.width,
        page.height,
        page.chars_rendered,
        page.dropped_chars,
        page.est_tokens(),
        level.name()
    )
}

fn stdout_line(line: &str) -> Result<()> {
    super::io::write_stdout(line.as_bytes()).map_err(Error::fatal)
}

/// `pixel render …` (spec §1.2–§1.4, §6).
fn render_cmd(args: &[String]) -> Result<()> {
    let Some(a) = scan(args)? else {
        return Ok(());
    };
    let bytes = read_file(&a.file).map_err(|e| Error::fatal(format!("pixel render read: {e}")))?;
    let env = std::env::var("CAVE_PIXEL_DENSITY").ok();
    let density = resolve_density(a.density.as_deref(), env.as_deref())?;
    let opts = Options {
        density,
        cols: a.cols,
        multicol: a.multicol,
        dense: a.dense,
        reflow: a.reflow,
    };
    let level = opts.level();
    let text = crate::pixel::text::decode(&bytes);
    let text_tokens = crate::tokens::count(&bytes);
    let pages = render(&text, &opts).map_err(|e| Error::fatal(e.to_string()))?;
    for (k, page) in pages.iter().enumerate() {
        let path = format!("{}.px{}.png", a.file, k + 1);
        write_page(&path, &page.png)
            .map_err(|e| Error::fatal(format!("pixel render write {path}: {e}")))?;
        stdout_line(&page_line(page, level))?;
    }
    let image_tokens: usize = pages.iter().map(Page::est_tokens).sum();
    let layers = if pages.iter().any(|p| p.layers == 2) {
        ",\"layers\":2"
    } else {
        ""
    };
    stdout_line(&format!(
        "{{\"summary\":true,\"pages\":{},\"textEstTokens\":{text_tokens},\"imageEstTokens\":{image_tokens},\"density\":\"{}\"{layers}}}\n",
        pages.len(),
        level.name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With simulate built, the texts are the reference's, byte for byte
    /// (the conformance cases `pixel-render-help-pixel` and
    /// `pixel-render-unknown-verb`).
    #[test]
    fn full_usage_is_the_references() {
        let want = include_str!("../../fixtures/pixel/reference-usage.txt");
        assert_eq!(usage_block(true), want);
        assert_eq!(
            verbs_line(true),
            "usage: caveman-engine pixel render|simulate"
        );
        assert!(!usage_block(false).contains("simulate"));
    }

    #[test]
    fn density_resolution() {
        let d = |f: Option<&str>, e: Option<&str>| resolve_density(f, e).ok();
        assert_eq!(d(None, None), Some(Density::Balanced));
        assert_eq!(d(None, Some(" NONE")), Some(Density::Conservative));
        assert_eq!(d(None, Some("bogus")), Some(Density::Conservative));
        assert_eq!(d(None, Some(" \t")), Some(Density::Balanced));
        assert_eq!(d(Some(""), Some("max")), Some(Density::Max));
        assert_eq!(d(Some(" CONSERVATİVE "), None), Some(Density::Conservative));
        assert_eq!(d(Some("Max"), Some("0")), Some(Density::Max));
        assert_eq!(d(Some(" "), None), None);
        assert_eq!(
            resolve_density(Some("max\"é"), None).unwrap_err().message(),
            Some("--density must be one of conservative|balanced|max (got \"max\\\"é\")")
        );
    }

    #[test]
    fn integer_values() {
        for ok in ["1", "+5", "007"] {
            assert!(positive(ok).is_some(), "{ok}");
        }
        for bad in [
            "0",
            "-3",
            "0x10",
            " 5",
            "5.0",
            "1_000",
            "",
            "99999999999999999999",
        ] {
            assert!(positive(bad).is_none(), "{bad}");
        }
    }
}
