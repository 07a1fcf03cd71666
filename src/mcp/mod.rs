//! `caveman-mcp`: the MCP stdio server (spec/mcp.md), wire-compatible
//! with the reference, over this project's engine and store. One
//! line-delimited JSON-RPC message (or batch) in, one answer line out,
//! strictly in order, flushed before the next line is read; nothing but
//! answers on stdout, diagnostics on stderr. Only EOF, an I/O error or a
//! store that cannot be opened end it.

mod tools;
mod wire;

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::go::json::write_json_str;
use crate::profile::Profile;
use crate::store::{Store, StoreEnv};
use tools::Tools;

/// Longest request line, LF included (`maxInboundBytes`).
pub const MAX_INBOUND: usize = 16 << 20;
/// Largest tool result text (`maxResultBytes`); retrieve is exempt.
pub const MAX_RESULT: usize = 16 << 20;

const TOOLS_LIST: &str = include_str!("tools.json");
/// Under `--profile lean`: the compress tool takes `query` and `budget`
/// and has an `outputSchema` (the report is structured content).
const TOOLS_LIST_LEAN: &str = include_str!("tools_lean.json");
const VERSION: &str = "dev";

/// The protocol version compat always answers (the reference's).
pub(crate) const PROTOCOL_2024: &str = "2024-11-05";

/// Versions after 2024-11-05 a lean server agrees to when the client asks
/// for them (<https://modelcontextprotocol.io/specification/2025-03-26>,
/// <https://modelcontextprotocol.io/specification/2025-06-18>,
/// <https://modelcontextprotocol.io/specification/2025-11-25>). The spec's
/// lifecycle: "If the server supports the requested protocol version, it
/// MUST respond with the same version"
/// (<https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#version-negotiation>).
const NEWER: [&str; 3] = ["2025-03-26", "2025-06-18", "2025-11-25"];

/// Whether `version` has tool `outputSchema` and `structuredContent`
/// (added in 2025-06-18:
/// <https://modelcontextprotocol.io/specification/2025-06-18/server/tools#structured-content>).
pub(crate) fn has_structured_content(version: &str) -> bool {
    version >= "2025-06-18"
}

/// The lean tool list without `outputSchema` (for 2025-03-26, which has
/// none).
fn tools_list_without_output_schema() -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_str(TOOLS_LIST_LEAN).unwrap_or_default();
    if let Some(tools) = v["tools"].as_array_mut() {
        for t in tools {
            if let Some(o) = t.as_object_mut() {
                o.remove("outputSchema");
            }
        }
    }
    serde_json::to_vec(&v).unwrap_or_default()
}

/// The version the server states: the reference's build stamp (`dev`)
/// under compat, the crate's version under lean.
fn version(lean: bool) -> &'static str {
    if lean {
        env!("CARGO_PKG_VERSION")
    } else {
        VERSION
    }
}
const USAGE: &str = "usage: caveman-mcp [version --json]";

const HELP: &str = "caveman-mcp: the caveman-engine MCP server on stdio (line-delimited JSON-RPC).

usage: caveman-mcp [--profile compat|lean]
       caveman-mcp version --json
       caveman-mcp --help | --version

Tools: caveman_compress {input, content_type?, query?, budget?},
       caveman_retrieve {recovery_handle, query?}, caveman_stats {},
       caveman_toon_encode {json}, caveman_toon_decode {toon}.
Environment: CAVEMAN_ENGINE_PROFILE (compat|lean), CAVEMAN_MCP_EPHEMERAL=1
(in-memory store), CAVEMAN_HOME / CAVEMAN_CCR_DIR (the store, shared with the CLI).

Example: in .mcp.json
  {\"mcpServers\": {\"caveman\": {\"command\": \"caveman-mcp\", \"args\": [\"--profile\", \"lean\"]}}}
";

/// A tool's answer: its text and whether it is a tool error.
#[derive(Debug)]
pub struct Reply {
    pub text: Vec<u8>,
    pub is_error: bool,
    /// A JSON object sent as `structuredContent` (lean compress).
    pub structured: Option<Vec<u8>>,
}

/// One diagnostic line on stderr, in the reference's `key=value` shape.
pub(crate) fn log(level: &str, msg: &str, attrs: &[(&str, &str)]) {
    let mut line = format!("level={level} msg={}", crate::go::strconv::quote(msg));
    for (k, v) in attrs {
        line.push_str(&format!(" {k}={}", crate::go::strconv::quote(v)));
    }
    eprintln!("{line}");
}

/// The `caveman-mcp` program: arguments, store, serve. Returns the exit
/// status.
pub fn main(args: &[String]) -> i32 {
    let (profile, args) = match take_profile(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}\nusage: caveman-mcp [--profile compat|lean] [version --json]");
            return 2;
        }
    };
    match args.as_slice() {
        [] => {}
        [h] if h == "--help" || h == "-h" || h == "help" => {
            let _ = io::stdout().write_all(HELP.as_bytes());
            return 0;
        }
        [v] if v == "--version" || v == "-V" => {
            let _ = io::stdout()
                .write_all(format!("caveman-mcp {}\n", env!("CARGO_PKG_VERSION")).as_bytes());
            return 0;
        }
        [v, j] if v == "version" && j == "--json" => {
            let line = format!(
                "{{\"capabilities\":[\"mcp_recovery\",\"build_stamped_version\"],\"schema\":\"caveman.mcp.version.v1\",\"version\":\"{}\"}}\n",
                version(profile.is_lean())
            );
            let _ = io::stdout().write_all(line.as_bytes());
            return 0;
        }
        _ => {
            eprintln!("{USAGE}");
            return 2;
        }
    }
    let store = match open_store() {
        Ok(s) => s,
        Err(e) => {
            log("ERROR", "open recovery store", &[("err", &e)]);
            return 1;
        }
    };
    let best_of = std::env::var("CAVE_ENGINE_TOON")
        .is_ok_and(|v| crate::go::unicode::equal_fold_ascii(&v, "best-of"));
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut tools = Tools::new(store, best_of);
    tools.profile = profile;
    let mut server = Server::new(tools);
    match server.serve(&mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => 0,
        Err(e) => {
            log("ERROR", "serve", &[("err", &e)]);
            1
        }
    }
}

/// The `--profile NAME` / `--profile=NAME` among the arguments (else
/// `CAVEMAN_ENGINE_PROFILE`, else compat) and the other arguments.
fn take_profile(args: &[String]) -> Result<(Profile, Vec<String>), String> {
    let mut profile = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let name = if a == "--profile" {
            i += 1;
            Some(
                args.get(i)
                    .ok_or("--profile: missing profile name")?
                    .as_str(),
            )
        } else {
            a.strip_prefix("--profile=")
        };
        match name {
            Some(n) => {
                profile = Some(
                    Profile::from_name(n).ok_or_else(|| crate::profile::unknown("--profile", n))?,
                )
            }
            None => rest.push(a.clone()),
        }
        i += 1;
    }
    let profile = match profile {
        Some(p) => p,
        None => Profile::from_env()?,
    };
    Ok((profile, rest))
}

/// The store the server uses (§2): in memory when asked, or when no home
/// directory can be found; else the CLI's store.
fn open_store() -> Result<Store, String> {
    if std::env::var_os("CAVEMAN_MCP_EPHEMERAL").is_some_and(|v| v == "1") {
        return Ok(Store::in_memory());
    }
    let env = StoreEnv::from_process();
    if env.ccr_dir.is_none() && env.caveman_home.is_none() && env.home.is_none() {
        return Ok(Store::in_memory());
    }
    Store::open(&env).map_err(|e| match e {
        crate::store::OpenError::Home(m) | crate::store::OpenError::Store(m) => m,
    })
}

/// The read loop and the dispatcher.
pub struct Server {
    tools: Tools,
}

/// One line as read: its bytes, or that it went over the cap.
enum Line {
    Message(Vec<u8>),
    TooLarge,
}

/// Reads the next line (LF-terminated, or the rest at EOF); `None` at
/// EOF. An over-cap line is drained without being held.
fn read_line(r: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut total = 0usize;
    let mut over = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.raw_os_error() == Some(libc::EBADF) => &[][..],
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        total += take;
        if !over && total > MAX_INBOUND {
            over = true;
            line = Vec::new();
        }
        if !over {
            line.extend_from_slice(&buf[..take]);
        }
        r.consume(take);
        if done {
            break;
        }
    }
    Ok(match (total, over) {
        (0, _) => None,
        (_, true) => Some(Line::TooLarge),
        (_, false) => Some(Line::Message(line)),
    })
}

fn error_answer(id: Option<&[u8]>, code: i32, message: &str) -> Vec<u8> {
    let mut out = b"{\"jsonrpc\":\"2.0\"".to_vec();
    if let Some(id) = id {
        out.extend_from_slice(b",\"id\":");
        wire::write_compact(&mut out, id);
    }
    out.extend_from_slice(format!(",\"error\":{{\"code\":{code},\"message\":").as_bytes());
    write_json_str(&mut out, message.as_bytes());
    out.extend_from_slice(b"}}");
    out
}

fn result_answer(id: &[u8], result: &[u8]) -> Vec<u8> {
    let mut out = b"{\"jsonrpc\":\"2.0\",\"id\":".to_vec();
    wire::write_compact(&mut out, id);
    out.extend_from_slice(b",\"result\":");
    out.extend_from_slice(result);
    out.push(b'}');
    out
}

/// The answer to a `tools/call`, built in one buffer: a large retrieved
/// original is held once as the reply and once escaped, never more.
fn tool_answer(id: &[u8], r: Reply) -> Vec<u8> {
    let quotes = memchr::memchr_iter(b'"', &r.text).count();
    let mut out = Vec::with_capacity(r.text.len() + quotes + r.text.len() / 16 + 128);
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    wire::write_compact(&mut out, id);
    out.extend_from_slice(b",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    write_json_str(&mut out, &r.text);
    out.extend_from_slice(b"}]");
    if let Some(s) = &r.structured {
        out.extend_from_slice(b",\"structuredContent\":");
        out.extend_from_slice(s);
    }
    out.extend_from_slice(b",\"isError\":");
    out.extend_from_slice(if r.is_error { b"true}}" } else { b"false}}" });
    out
}

impl Server {
    pub(crate) fn new(tools: Tools) -> Server {
        Server { tools }
    }

    /// A server over a fresh in-memory store (tests, fuzzing).
    pub fn in_memory() -> Server {
        Server::new(Tools::new(Store::in_memory(), false))
    }

    /// Answers every line of `input` on `output` until EOF.
    pub fn serve(
        &mut self,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> Result<(), String> {
        while let Some(line) = read_line(input)
            .map_err(|e| format!("read /dev/stdin: {}", crate::go::os::errno_text(&e)))?
        {
            let answer = match line {
                Line::TooLarge => {
                    log(
                        "WARN",
                        "inbound message exceeds cap",
                        &[("cap", &MAX_INBOUND.to_string())],
                    );
                    Some(error_answer(
                        None,
                        -32600,
                        &format!("cave_payload_too_large: message exceeds {MAX_INBOUND} bytes"),
                    ))
                }
                Line::Message(bytes) => self.handle_line(&bytes),
            };
            if let Some(a) = answer {
                match output
                    .write_all(&a)
                    .and_then(|_| output.write_all(b"\n"))
                    .and_then(|_| output.flush())
                {
                    Ok(()) => {}
                    // A host that went away ends the session quietly; a
                    // closed stdout discards answers (§1).
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
                    Err(e) if e.raw_os_error() == Some(libc::EBADF) => {}
                    Err(e) => {
                        return Err(format!(
                            "write /dev/stdout: {}",
                            crate::go::os::errno_text(&e)
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// The answer to one line, if it gets one.
    pub fn handle_line(&mut self, raw: &[u8]) -> Option<Vec<u8>> {
        let line = crate::go::unicode::trim_space(raw);
        if line.is_empty() {
            return None;
        }
        if line[0] == b'[' {
            return self.batch(line);
        }
        match wire::decode(line, &["jsonrpc", "method"], &["id", "params"]) {
            Ok(env) => self.dispatch_guarded(&env),
            Err(_) => {
                log(
                    "WARN",
                    "decode request",
                    &[("err", "invalid JSON-RPC message")],
                );
                Some(error_answer(None, -32700, "parse error"))
            }
        }
    }

    fn batch(&mut self, line: &[u8]) -> Option<Vec<u8>> {
        let opts = crate::go::json::Options {
            keys: crate::go::json::Keys::InputOrder,
            max_depth: crate::go::json::MAX_DEPTH,
        };
        let valid = crate::go::json::decode_exact(line, opts)
            .ok()
            .filter(|t| matches!(t.root().get(), crate::go::json::Value::Array(_)));
        let Some(tape) = valid else {
            log("WARN", "decode batch", &[("err", "invalid JSON array")]);
            return Some(error_answer(None, -32700, "parse error"));
        };
        let crate::go::json::Value::Array(items) = tape.root().get() else {
            return Some(error_answer(None, -32700, "parse error"));
        };
        if items.is_empty() {
            return Some(error_answer(None, -32600, "empty batch"));
        }
        let spans = crate::go::json::raw::elements(line);
        let mut answers: Vec<Vec<u8>> = Vec::new();
        for span in spans {
            match wire::decode(span, &["jsonrpc", "method"], &["id", "params"]) {
                Ok(env) => answers.extend(self.dispatch_guarded(&env)),
                Err(_) => answers.push(error_answer(None, -32600, "invalid request in batch")),
            }
        }
        if answers.is_empty() {
            return None;
        }
        let mut out = vec![b'['];
        for (i, a) in answers.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(a);
        }
        out.push(b']');
        Some(out)
    }

    /// [`Server::dispatch`] with any panic contained (§6.3).
    fn dispatch_guarded(&mut self, env: &wire::Fields<'_>) -> Option<Vec<u8>> {
        let method = env.strings[1].clone();
        let id = env.raws[0];
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(env))) {
            Ok(a) => a,
            Err(_) => {
                log("ERROR", "dispatch panicked", &[("method", &method)]);
                (!wire::is_null(id)).then(|| error_answer(id, -32603, "cave_internal_error"))
            }
        }
    }

    fn dispatch(&mut self, env: &wire::Fields<'_>) -> Option<Vec<u8>> {
        let method = env.strings[1].as_str();
        let (id, params) = (env.raws[0], env.raws[1]);
        if method == "notifications/initialized" || method == "notifications/cancelled" {
            return None;
        }
        let id = id.filter(|i| !wire::is_null(Some(i)))?;
        let lean = self.tools.profile.is_lean();
        let result: Vec<u8> = match method {
            "initialize" => {
                // Compat answers 2024-11-05 whatever is asked (the
                // reference's bytes); lean agrees to a newer version it
                // knows, else answers 2024-11-05 as before.
                let asked = params
                    .and_then(|p| wire::decode(p, &["protocolVersion"], &[]).ok())
                    .map(|f| f.strings[0].clone())
                    .unwrap_or_default();
                self.tools.protocol = match NEWER.iter().find(|v| **v == asked) {
                    Some(v) if lean => *v,
                    _ => PROTOCOL_2024,
                };
                format!(
                    "{{\"capabilities\":{{\"tools\":{{}}}},\"protocolVersion\":\"{}\",\"serverInfo\":{{\"name\":\"caveman\",\"version\":\"{}\"}}}}",
                    self.tools.protocol,
                    version(lean)
                )
                .into_bytes()
            }
            "ping" => b"{}".to_vec(),
            "tools/list" if lean && self.tools.protocol == NEWER[0] => {
                tools_list_without_output_schema()
            }
            "tools/list" if lean => TOOLS_LIST_LEAN.as_bytes().to_vec(),
            "tools/list" => TOOLS_LIST.as_bytes().to_vec(),
            "tools/call" => {
                return Some(match self.call(params) {
                    Ok(r) => tool_answer(id, r),
                    Err(()) => error_answer(Some(id), -32602, "invalid tool-call params"),
                })
            }
            other => {
                return Some(error_answer(
                    Some(id),
                    -32601,
                    &format!("method not found: {other}"),
                ))
            }
        };
        Some(result_answer(id, &result))
    }

    /// `tools/call` (§6): params, the handler with its panic contained,
    /// the result cap.
    fn call(&mut self, params: Option<&[u8]>) -> Result<Reply, ()> {
        let p = params.ok_or(())?;
        let f = wire::decode(p, &["name"], &["arguments"]).map_err(|_| ())?;
        let name = f.strings[0].clone();
        let args = f.raws[0];
        let tools = &mut self.tools;
        let reply = match catch_unwind(AssertUnwindSafe(|| tools.call(&name, args))) {
            Ok(Some(r)) => r,
            Ok(None) => tools::unknown_tool(&name),
            Err(_) => {
                log("ERROR", "tool handler panicked", &[("tool", &name)]);
                tools::panicked()
            }
        };
        if name != "caveman_retrieve" && reply.text.len() > MAX_RESULT {
            log(
                "WARN",
                "tool result exceeds cap",
                &[("tool", &name), ("bytes", &reply.text.len().to_string())],
            );
            return Ok(tools::too_large(reply.text.len(), MAX_RESULT));
        }
        Ok(reply)
    }
}

#[cfg(test)]
mod tests;
