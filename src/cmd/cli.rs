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
  CAVEMAN_CCR_URL         s3://bucket/prefix: keep originals in S3-compatible storage instead
                          (credentials and endpoint: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
                          AWS_REGION, AWS_ENDPOINT_URL, AWS_ALLOW_HTTP=true for an http:// one)
  CAVEMAN_CCR_TIMEOUT_MS  with CAVEMAN_CCR_URL: how long the server may stay silent (default 2000)
  CAVEMAN_CCR_MAX_BYTES   store budget in bytes (default 536870912); a full store passes input through
  CAVE_ENGINE_TOON        best-of: JSON goes out as TOON or elided JSON, whichever is smaller
  CAVEMAN_ENGINE_PROFILE  compat (default) or lean, when no --profile is given
  CAVEMAN_ENGINE_BUDGET   a token budget, when no --budget is given
  CAVEMAN_MCP_EPHEMERAL   1: the MCP server keeps an in-memory store
  CAVEMAN_TIMINGS         set: phase timings on stderr
  CAVEMAN_LEDGER          off: no savings ledger (ledger.jsonl in the state directory)
  CAVE_PIXEL_DENSITY      pixel render/simulate: conservative, balanced (default) or max
  CAVE_PIXEL_GPT_PROFILES pixel simulate: OpenAI vision-cost overrides (a JSON object)

A bad value in the environment never loses a payload: compress and run pass
their input through and say why in one line on stderr.

Exit status: 0 done (a pass-through is done too); 1 an error, a bad flag or
argument included (a message on stderr; stdout empty unless said otherwise);
2 no such command. `run` exits with the command's status.

Example:
  curl -s https://api.example.com/orders | caveman-engine compress";

/// `--profile` of compress and detect.
fn profile_arg() -> Arg {
    Arg::new("profile")
        .long("profile")
        .value_name("PROFILE")
        .value_parser(["compat", "lean"])
        .help(
            "compat: the reference's views, byte for byte (default); lean: this project's own, \
             smaller views that state what they dropped",
        )
}

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
                .arg(profile_arg())
                .arg(
                    Arg::new("budget")
                        .long("budget")
                        .value_name("N")
                        .help(
                            "Print at most N tokens (o200k): errors first, then query hits, \
                             extremes, one of each kind, structure",
                        ),
                )
                .after_help(
                    "Exit status: 0 (a pass-through too), 1 on an error or a bad flag.\n\nExample:\n  kubectl get pods -o json | caveman-engine compress --profile lean --query crashloop",
                ),
        )
        .subcommand(
            Command::new("run")
                .about(
                    "Run a command, compress what it printed (stdout and stderr in order), exit \
                     with its status",
                )
                .disable_help_flag(true)
                .arg(help_flag())
                .arg(Arg::new("profile").long("profile").value_name("PROFILE").help("As for compress"))
                .arg(Arg::new("budget").long("budget").value_name("N").help("As for compress"))
                .arg(Arg::new("query").long("query").value_name("TEXT").help("As for compress"))
                .arg(Arg::new("type").long("type").value_name("CONTENT-TYPE").help("As for compress"))
                .arg(
                    Arg::new("command")
                        .value_name("CMD")
                        .num_args(1..)
                        .last(true)
                        .required(true)
                        .help("The command and its arguments, after --"),
                )
                .after_help(
                    "Exit status: the command's (128+N if signal N ended it), 127 when it is not \
                     found, 126 when it cannot run.\n\nExample:\n  caveman-engine run --profile lean -- cargo test",
                ),
        )
        .subcommand(
            Command::new("hook")
                .about("Answer one agent-host hook event on stdin (claude-code): rewrite Bash commands to run compressed, replace large MCP outputs")
                .arg(Arg::new("host").value_name("HOST").required(true).value_parser(["claude-code"]))
                .arg(
                    Arg::new("explain")
                        .long("explain")
                        .action(ArgAction::SetTrue)
                        .help("Say on stderr which rule decided"),
                )
                .after_help(
                    "Always exits 0 (a hook must never block the tool call); a failure prints nothing and is noted in the ledger.\n\nExample:\n  caveman-engine hook claude-code --explain < event.json",
                ),
        )
        .subcommand(
            Command::new("init")
                .about("Set up an agent host: merge the hooks into its settings (and the MCP server with --mcp)")
                .arg(Arg::new("host").value_name("HOST").value_parser(["claude-code"]))
                .arg(Arg::new("user").long("user").action(ArgAction::SetTrue).help("~/.claude/settings.json (default)"))
                .arg(Arg::new("project").long("project").action(ArgAction::SetTrue).help(".claude/settings.json here"))
                .arg(Arg::new("mcp").long("mcp").action(ArgAction::SetTrue).help("Also the MCP server (.mcp.json with --project)"))
                .arg(Arg::new("uninstall").long("uninstall").action(ArgAction::SetTrue).help("Remove what init added"))
                .after_help(
                    "Keeps every other key and hook, changes nothing when already set up, backs the file up first, and prints what it changed. `init` alone lists the hosts it can and cannot set up.\n\nExample:\n  caveman-engine init claude-code --project --mcp",
                ),
        )
        .subcommand(
            Command::new("gain")
                .about("Tokens saved, net of tokens retrieved, from the local ledger")
                .arg(Arg::new("since").long("since").value_name("WHEN").help("7d, 24h, 30m or YYYY-MM-DD (default: all)"))
                .arg(Arg::new("by").long("by").value_name("GROUP").value_parser(["type", "command", "day"]).help("Group the rows"))
                .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).help("One JSON object"))
                .after_help(
                    "Every compress, run, hook and MCP call appends a line to ledger.jsonl in the store's home; every retrieve the tokens it returned. Nothing leaves the machine; CAVEMAN_LEDGER=off turns it off.\n\nExample:\n  caveman-engine gain --since 7d --by command",
                ),
        )
        .subcommand(
            Command::new("config")
                .about("Print the effective per-project rules (.caveman.toml) and where each came from")
                .after_help("Example:\n  caveman-engine config"),
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
                .arg(profile_arg())
                .after_help("Exit status: 0.\n\nExample:\n  git diff | caveman-engine detect --profile lean --explain"),
        )
        .subcommand(
            Command::new("retrieve")
                .about("Print a stored original byte for byte (or, with QUERY, its matching parts)")
                .disable_help_flag(true)
                .arg(help_flag())
                .arg(
                    Arg::new("handle")
                        .value_name("HANDLE")
                        .required(true)
                        .help("The recovery_handle a compress report named (ccr_ and 32 hex digits)"),
                )
                .arg(
                    Arg::new("query")
                        .value_name("QUERY")
                        .help("Only the records, rows or paragraphs that match it best"),
                )
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
                             a size (and any damaged record)",
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
                             damaged (and not removed)",
                        )
                        .arg(
                            Arg::new("repair")
                                .long("repair")
                                .action(clap::ArgAction::SetTrue)
                                .help("Remove the damaged records (they hold nothing retrievable)"),
                        )
                        .after_help("Example:\n  caveman-engine store verify --repair"),
                )
                .subcommand(
                    Command::new("path")
                        .about("Print the store directory")
                        .after_help("Example:\n  du -sh \"$(caveman-engine store path)\""),
                )
                .after_help("Example:\n  caveman-engine store prune --older-than 30d"),
        )
        .subcommand(
            Command::new("registry")
                .about("Print the transform-capability manifest (one JSON line)")
                .after_help("Example:\n  caveman-engine registry | jq .registry_sha256"),
        )
        .subcommand(
            Command::new("evals")
                .about("Run the quality-eval harness on the built-in fixtures or your own")
                .subcommand(
                    Command::new("run")
                        .about("Compress every fixture, check its probes and graders, print the report")
                        .arg(
                            Arg::new("fixtures")
                                .long("fixtures")
                                .value_name("DIR")
                                .help("A directory with manifest.yaml and the payloads it names"),
                        )
                        .arg(Arg::new("profile").long("profile").value_name("PROFILE").help("compat or lean"))
                        .arg(Arg::new("budget").long("budget").value_name("N").help("A token budget for every fixture"))
                        .after_help(
                            "Exit status: 0 when every fixture passed, 1 otherwise or on an error.\n\nExample:\n  caveman-engine evals run --fixtures examples/evals --profile lean",
                        ),
                ),
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

/// The usage line of a command (`caveman-engine stats`).
pub fn usage(name: &str) -> String {
    let mut cmd = command();
    cmd.build();
    match cmd.find_subcommand_mut(name) {
        Some(c) => c
            .render_usage()
            .to_string()
            .trim_start_matches("Usage: ")
            .to_string(),
        None => format!("caveman-engine {name}"),
    }
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

/// Escapes text for roff.
fn roff(s: &str) -> String {
    s.replace('\\', "\\e")
        .replace('-', "\\-")
        .replace("\n.", "\n\\&.")
}

/// One command's entry of the COMMANDS section: its synopsis, what it
/// does, its options and arguments, its notes (examples, exit status).
fn command_entry(out: &mut String, path: &str, cmd: &Command) {
    let mut synopsis = format!("\\fBcaveman\\-engine {}\\fR", roff(path));
    for a in cmd.get_arguments().filter(|a| a.get_id() != "help") {
        let name = a
            .get_long()
            .map(|l| {
                format!(
                    " [\\-\\-{}{}]",
                    roff(l),
                    a.get_value_names()
                        .map_or(String::new(), |v| format!(" {}", v[0]))
                )
            })
            .unwrap_or_else(|| {
                format!(
                    " {}",
                    a.get_value_names()
                        .map_or(a.get_id().to_string(), |v| v[0].to_string())
                )
            });
        synopsis.push_str(&name);
    }
    out.push_str(&format!(".TP\n{synopsis}\n"));
    if let Some(about) = cmd.get_about() {
        out.push_str(&format!("{}\n", roff(&about.to_string())));
    }
    for a in cmd.get_arguments().filter(|a| a.get_id() != "help") {
        let Some(h) = a.get_help() else { continue };
        let name = match a.get_long() {
            Some(l) => format!("\\-\\-{}", roff(l)),
            None => a
                .get_value_names()
                .map_or(a.get_id().to_string(), |v| v[0].to_string()),
        };
        out.push_str(&format!(
            ".RS\n.TP\n\\fI{name}\\fR\n{}\n.RE\n",
            roff(&h.to_string())
        ));
    }
    if let Some(after) = cmd.get_after_help() {
        out.push_str(&format!(
            ".RS\n.PP\n.nf\n{}\n.fi\n.RE\n",
            roff(&after.to_string())
        ));
    }
    for sub in cmd.get_subcommands() {
        command_entry(out, &format!("{path} {}", sub.get_name()), sub);
    }
}

/// The man page, in roff: name, synopsis, description, options, every
/// command with its flags and exit status, the environment.
pub fn man_page() -> Vec<u8> {
    let cmd = command();
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    let _ = man.render_title(&mut out);
    let _ = man.render_name_section(&mut out);
    let _ = man.render_synopsis_section(&mut out);
    let _ = man.render_description_section(&mut out);
    let _ = man.render_options_section(&mut out);
    let mut s = String::from(".SH COMMANDS\n");
    for sub in cmd.get_subcommands() {
        command_entry(&mut s, sub.get_name(), sub);
    }
    s.push_str(&format!(
        ".SH ENVIRONMENT AND EXIT STATUS\n.nf\n{}\n.fi\n",
        roff(ENV_HELP)
    ));
    s.push_str(&format!(".SH VERSION\nv{}\n", env!("CARGO_PKG_VERSION")));
    out.extend_from_slice(s.as_bytes());
    out
}
