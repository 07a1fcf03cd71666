//! The command line described for people: help text, shell completions
//! and the man page are all rendered by clap from this one definition.
//! Arguments are still parsed by hand (the subcommand modules), because
//! the reference's exact error messages and exit codes are part of the
//! contract and clap's are not those.

use clap::{Arg, ArgAction, Command};

const ENV_HELP: &str = "\
Environment:
  CAVEMAN_HOME            state directory (default ~/.caveman); the store is <dir>/ccr
  CAVEMAN_CCR_DIR         the recovery store directory itself (overrides CAVEMAN_HOME)
  CAVEMAN_CCR_MAX_BYTES   store budget in bytes (default 536870912); a full store passes input through
  CAVE_ENGINE_TOON        best-of: JSON goes out as TOON or elided JSON, whichever is smaller
  CAVEMAN_MCP_EPHEMERAL   1: the MCP server keeps an in-memory store
  CAVEMAN_TIMINGS         set: phase timings on stderr

Example:
  curl -s https://api.example.com/orders | caveman-engine compress";

fn help_flag() -> Arg {
    Arg::new("help")
        .short('h')
        .long("help")
        .action(ArgAction::Help)
        .help("Print help")
}

/// The whole command line.
pub fn command() -> Command {
    Command::new("caveman-engine")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Compress tool output for LLM agents: fewer tokens, nothing lost")
        .long_about(
            "Reads one payload on stdin. `detect` names its content type; `compress` prints a \
             smaller view that keeps errors, extremes, anomalies and one of each kind, states \
             what it dropped, and stores the original first so that `retrieve` gives it back \
             byte for byte. Output is byte-compatible with the reference Go binary.",
        )
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true)
        .arg(help_flag())
        .arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::SetTrue)
                .help("Print the version (with --verbose: vocabulary checksum, store format)"),
        )
        .after_help(ENV_HELP)
        .subcommand(
            Command::new("compress")
                .about("Compress stdin: view on stdout, one-line JSON report on stderr")
                .disable_help_flag(true)
                .arg(help_flag())
                .arg(
                    Arg::new("type")
                        .long("type")
                        .value_name("CONTENT-TYPE")
                        .help("Skip detection and use this compressor (auto: detect)")
                        .value_parser([
                            "auto",
                            "json",
                            "tabular",
                            "log",
                            "terminal",
                            "search-result",
                            "text",
                            "html",
                            "diff",
                            "config",
                            "code",
                            "toolschema",
                            "toolschema-annotations",
                            "toon",
                            "a11y",
                            "repetition",
                        ]),
                )
                .arg(
                    Arg::new("query")
                        .long("query")
                        .value_name("TEXT")
                        .help("Also keep the units most relevant to TEXT"),
                )
                .arg(
                    Arg::new("explain")
                        .long("explain")
                        .action(ArgAction::SetTrue)
                        .help(
                            "After the report, explain on stderr what was detected, kept and \
                             dropped",
                        ),
                )
                .after_help(
                    "Example:\n  kubectl get pods -o json | caveman-engine compress --query crashloop",
                ),
        )
        .subcommand(
            Command::new("detect")
                .about("Print the content type of stdin")
                .disable_help_flag(true)
                .arg(help_flag())
                .arg(
                    Arg::new("explain")
                        .long("explain")
                        .action(ArgAction::SetTrue)
                        .help("Also say on stderr which rule decided"),
                )
                .after_help("Example:\n  git diff | caveman-engine detect"),
        )
        .subcommand(
            Command::new("retrieve")
                .about("Print a stored original byte for byte (or, with QUERY, its matching parts)")
                .disable_help_flag(true)
                .arg(help_flag())
                .arg(Arg::new("handle").value_name("HANDLE").required(true))
                .arg(Arg::new("query").value_name("QUERY"))
                .after_help(
                    "Example:\n  caveman-engine retrieve ccr_ca978112ca1bbdcafac231b39a23dc4d timeout",
                ),
        )
        .subcommand(
            Command::new("stats")
                .about("Print the recovery store's totals as JSON")
                .disable_help_flag(true)
                .arg(help_flag())
                .after_help("Example:\n  caveman-engine stats"),
        )
        .subcommand(
            Command::new("toon")
                .about("Convert JSON to TOON (encode) or back (decode), stdin to stdout")
                .disable_help_flag(true)
                .arg(help_flag())
                .arg(
                    Arg::new("verb")
                        .value_name("VERB")
                        .required(true)
                        .value_parser(["encode", "decode"]),
                )
                .after_help("Example:\n  caveman-engine toon encode < users.json"),
        )
        .subcommand(
            Command::new("store")
                .about("Manage the recovery store")
                .disable_help_flag(true)
                .arg(help_flag())
                .subcommand(
                    Command::new("list")
                        .about("One line per record: handle, created, type, bytes, tokens before/after")
                        .arg(
                            Arg::new("json")
                                .long("json")
                                .action(ArgAction::SetTrue)
                                .help("One JSON object per line"),
                        )
                        .after_help("Example:\n  caveman-engine store list --json | jq .bytes"),
                )
                .subcommand(
                    Command::new("rm")
                        .about("Remove records")
                        .arg(
                            Arg::new("handle")
                                .value_name("HANDLE")
                                .num_args(1..)
                                .required(true),
                        )
                        .after_help(
                            "Example:\n  caveman-engine store rm ccr_ca978112ca1bbdcafac231b39a23dc4d",
                        ),
                )
                .subcommand(
                    Command::new("prune")
                        .about(
                            "Remove records unused for a while, or the least recently used beyond \
                             a size",
                        )
                        .arg(
                            Arg::new("older-than")
                                .long("older-than")
                                .value_name("DURATION")
                                .help("e.g. 30d, 12h, 90m, 45s"),
                        )
                        .arg(
                            Arg::new("max-bytes")
                                .long("max-bytes")
                                .value_name("N")
                                .help("Keep at most N bytes of originals"),
                        )
                        .after_help("Example:\n  caveman-engine store prune --older-than 30d"),
                )
                .subcommand(
                    Command::new("verify")
                        .about(
                            "Check every record's lengths, checksum and handle; exit 1 if any is \
                             damaged",
                        )
                        .after_help("Example:\n  caveman-engine store verify"),
                )
                .subcommand(
                    Command::new("path")
                        .about("Print the store directory")
                        .after_help("Example:\n  du -sh \"$(caveman-engine store path)\""),
                )
                .after_help("Example:\n  caveman-engine store prune --older-than 30d"),
        )
        .subcommand(
            Command::new("mcp")
                .about("Run the MCP server on stdio (same as caveman-mcp)")
                .disable_help_flag(true)
                .arg(help_flag())
                .after_help(
                    "Example: in .mcp.json\n  {\"mcpServers\": {\"caveman\": {\"command\": \"caveman-mcp\"}}}",
                ),
        )
        .subcommand(
            Command::new("completions")
                .about("Print a shell completion script")
                .arg(
                    Arg::new("shell")
                        .value_name("SHELL")
                        .required(true)
                        .value_parser(["bash", "zsh", "fish"]),
                )
                .after_help(
                    "Example:\n  caveman-engine completions bash > ~/.local/share/bash-completion/completions/caveman-engine",
                ),
        )
        .subcommand(
            Command::new("man")
                .about("Print the man page (roff)")
                .after_help(
                    "Example:\n  caveman-engine man > ~/.local/share/man/man1/caveman-engine.1",
                ),
        )
        .subcommand(
            Command::new("version")
                .about("Print the version")
                .after_help("Example:\n  caveman-engine version --verbose"),
        )
        .subcommand(
            Command::new("help")
                .about("Print help for a command")
                .arg(Arg::new("command"))
                .after_help("Example:\n  caveman-engine help compress"),
        )
}

/// Help for the program or one of its commands (`None` when there is no
/// such command).
pub fn help(path: &[&str]) -> Option<String> {
    let mut cmd = command();
    cmd.build();
    let mut target = &mut cmd;
    for name in path {
        target = target.find_subcommand_mut(name)?;
    }
    Some(target.render_long_help().to_string())
}

/// A completion script for `shell`.
pub fn completions(shell: &str) -> Option<Vec<u8>> {
    use clap_complete::Shell;
    let shell = match shell {
        "bash" => Shell::Bash,
        "zsh" => Shell::Zsh,
        "fish" => Shell::Fish,
        _ => return None,
    };
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command(), "caveman-engine", &mut out);
    Some(out)
}

/// The man page, in roff.
pub fn man_page() -> Vec<u8> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command())
        .render(&mut out)
        .expect("writing to memory does not fail");
    out
}
