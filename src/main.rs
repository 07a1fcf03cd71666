//! The `caveman-engine` binary: dispatch on the first argument and map the
//! outcome to an exit code in one place.

use caveman_engine::cmd;
use std::io::Write;

const HELP: &str = "caveman-engine compress | detect | retrieve <handle> | stats | registry | toon encode|decode | pixel render|simulate | evals run [--fixtures DIR]";

fn run(args: Vec<String>) -> i32 {
    let sub = args.get(1).map(String::as_str).unwrap_or("help");
    let rest = if args.len() > 2 { &args[2..] } else { &[] };
    match sub {
        "compress" => cmd::compress::run(rest),
        "detect" => cmd::detect::run(),
        "retrieve" => cmd::retrieve::run(rest),
        "stats" => cmd::stats::run(),
        "toon" => cmd::toon::run(rest),
        "help" | "--help" | "-h" => {
            let _ = writeln!(std::io::stderr(), "{HELP}");
            0
        }
        // cli.md §exit codes: `pixel` with no verb is a usage error (2).
        "pixel" if rest.is_empty() => {
            let _ = writeln!(
                std::io::stderr(),
                "usage: caveman-engine pixel render|simulate"
            );
            2
        }
        "registry" | "pixel" | "evals" => cmd::fatal(&format!(
            "caveman-engine: {sub} is not part of this build; see README.md"
        )),
        other => {
            let _ = writeln!(
                std::io::stderr(),
                "unknown caveman-engine subcommand: {other}"
            );
            2
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let code = std::thread::Builder::new()
        .stack_size(caveman_engine::STACK_BYTES)
        .spawn(move || run(args))
        .map(|h| h.join().unwrap_or(101))
        .unwrap_or(101);
    std::process::exit(code);
}

/// mimalloc: the JSON elider allocates ~1M small values per 30 MB and
/// glibc malloc spent a third of its time in arena locks and frees
/// (30 MB JSON compress 1.06 s -> 0.70 s, bench/run.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
