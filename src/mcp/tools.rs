//! The five tools (spec/mcp.md §7–§11) on this project's engine and store:
//! argument decoding with Go's struct rules, the payloads with their key
//! orders, the retrieve handle normalisation and the session ledger.

use std::collections::HashSet;

use super::wire::{self, Undecodable};
use super::{log, Reply};
use crate::content_type::ContentType;
use crate::engine::{self, Options};
use crate::go::json::write_json_str;
use crate::go::strconv::format_float;
use crate::go::unicode::trim_space;
use crate::profile::Profile;
use crate::store::Store;

/// What a tool answers: its text and whether it is a tool error.
pub type ToolResult = Reply;

fn tool_error(code: &str, message: &str) -> ToolResult {
    let mut t = Vec::new();
    t.extend_from_slice(b"{\"error\":");
    write_json_str(&mut t, code.as_bytes());
    t.extend_from_slice(b",\"message\":");
    write_json_str(&mut t, message.as_bytes());
    t.push(b'}');
    Reply {
        text: t,
        is_error: true,
        structured: None,
    }
}

fn text(t: Vec<u8>) -> ToolResult {
    Reply {
        text: t,
        is_error: false,
        structured: None,
    }
}

/// A JSON payload under construction, members in the order added.
struct Payload(Vec<u8>);

impl Payload {
    fn new() -> Payload {
        Payload(vec![b'{'])
    }

    fn key(&mut self, k: &str) -> &mut Vec<u8> {
        if self.0.len() > 1 {
            self.0.push(b',');
        }
        write_json_str(&mut self.0, k.as_bytes());
        self.0.push(b':');
        &mut self.0
    }

    fn str(mut self, k: &str, v: &[u8]) -> Payload {
        write_json_str(self.key(k), v);
        self
    }

    fn raw(mut self, k: &str, v: &str) -> Payload {
        self.key(k).extend_from_slice(v.as_bytes());
        self
    }

    fn done(mut self) -> ToolResult {
        self.0.push(b'}');
        text(self.0)
    }
}

/// The server's state across calls: the store, the best-of switch and
/// the retrieve ledger (one process is one session).
pub struct Tools {
    pub store: Store,
    pub toon_best_of: bool,
    /// `--profile` / `CAVEMAN_ENGINE_PROFILE` of the server.
    pub profile: Profile,
    ledger: HashSet<Vec<u8>>,
    /// This session's compress totals: (tokens before, after, calls).
    session: (u64, u64, u64),
    /// The protocol version `initialize` agreed on (lean may agree on a
    /// newer one than 2024-11-05; compat never does).
    pub protocol: &'static str,
}

/// Ledger keys before a request is answered in full (§8 step 3.2).
const STORM_KEYS: usize = 5;

const REPEAT_NOTE: &str = "\u{2026} caveman: this exact recovery_handle and query were already answered earlier in this session \u{2014} the content is verbatim above in this conversation. Re-read it there; issuing the same query again returns nothing new.";

const PAYOUT_NOTE: &str = "\u{2026} caveman: this session has now made several recoveries, so here is the COMPLETE stored original for this handle rather than a query-narrowed view. Everything recoverable for this handle is below \u{2014} read it once and answer from it; further queries against it cannot return anything this does not already contain.";

const TOON_NOTE: &str = "not encoded: not losslessly TOON-encodable (invalid JSON, or nested/non-uniform shape); keep JSON";

/// Trims Unicode whitespace (Go `strings.TrimSpace`).
fn trim(s: &str) -> &str {
    std::str::from_utf8(trim_space(s.as_bytes())).unwrap_or(s)
}

/// The handle a retrieve names (§8 step 2), or `None` when empty.
pub fn normalize_handle(raw: &str) -> Option<String> {
    let mut s = trim(raw);
    if s.len() >= 4 && s.starts_with("<<") && s.ends_with(">>") {
        s = trim(&s[2..s.len() - 2]);
    }
    let h = if let Some(rest) = s.strip_prefix("ccr://") {
        trim(rest).trim_matches('/')
    } else if let Some(rest) = s.strip_prefix("ccr:") {
        trim(rest)
    } else {
        s
    };
    (!h.is_empty()).then(|| h.to_string())
}

impl Tools {
    pub fn new(store: Store, toon_best_of: bool) -> Tools {
        Tools {
            store,
            toon_best_of,
            profile: Profile::Compat,
            ledger: HashSet::new(),
            session: (0, 0, 0),
            protocol: super::PROTOCOL_2024,
        }
    }

    /// Runs the tool `name` on its raw arguments (`None`: absent).
    pub fn call(&mut self, name: &str, args: Option<&[u8]>) -> Option<ToolResult> {
        Some(match name {
            "caveman_compress" => self.compress(args),
            "caveman_retrieve" => {
                let r = self.retrieve(args);
                let handle = args
                    .and_then(|a| wire::decode(a, &["recovery_handle"], &[]).ok())
                    .and_then(|f| normalize_handle(&f.strings[0]));
                if let (false, Some(h)) = (r.is_error, handle) {
                    crate::ledger::retrieved(&h, crate::tokens::count(&r.text));
                }
                r
            }
            "caveman_stats" => self.stats(),
            "caveman_toon_encode" => toon_encode(args),
            "caveman_toon_decode" => toon_decode(args),
            _ => return None,
        })
    }

    fn compress(&mut self, args: Option<&[u8]>) -> ToolResult {
        if self.profile.is_lean() {
            return self.compress_lean(args);
        }
        let Ok(f) = args
            .ok_or(Undecodable)
            .and_then(|a| wire::decode(a, &["input", "content_type", "type"], &["budget"]))
        else {
            return tool_error("cave_invalid_arguments", "compress: invalid arguments");
        };
        let [input, content_type, ty] = [&f.strings[0], &f.strings[1], &f.strings[2]];
        let forced = [content_type, ty]
            .into_iter()
            .find(|t| !t.is_empty())
            .map(|t| ContentType::from_name(t));
        // Not in the reference's schema: a positive integer `budget` is
        // honoured, anything else ignored as Go ignores unknown members.
        let budget = f.raws[0]
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|b| b.trim().parse::<usize>().ok())
            .filter(|&b| b > 0);
        let opts = Options {
            forced_type: forced,
            query: String::new(),
            toon_best_of: self.toon_best_of,
            profile: self.profile,
            budget,
            explain: false,
        };
        let outcome = engine::compress(input.as_bytes(), &opts, &self.store);
        self.count(&outcome.report);
        let r = &outcome.report;
        if let Some(failure) = r.error {
            log(
                "WARN",
                "compress fell back to pass-through",
                &[("err", failure.code())],
            );
        }
        let out = outcome.output.as_deref().unwrap_or(input.as_bytes());
        let pure_pass = outcome.output.is_none()
            && r.transformed.is_none()
            && r.tokens_after == r.tokens_before
            && (r.tokens_before > 0 || input.is_empty());
        if r.transformed.is_none() && !pure_pass {
            return tool_error(
                "cave_compress_failed",
                "compress: recovery persistence failed",
            );
        }
        let mut p = Payload::new()
            .str("compressed", out)
            .raw("ratio", &format_float(r.ratio))
            .raw("tokens_before", &r.tokens_before.to_string())
            .raw("tokens_after", &r.tokens_after.to_string())
            .str("basis", b"inferred")
            .str("content_type", r.content_type.as_str().as_bytes());
        match &r.transformed {
            Some(t) => {
                p = p
                    .str("recovery_handle", t.recovery_handle.as_str().as_bytes())
                    .str("method", t.method.as_str().as_bytes())
                    .raw(
                        "lossless_to_model",
                        if t.lossless_to_model { "true" } else { "false" },
                    )
            }
            None => p = p.raw("recovery_handle", "null"),
        }
        p.done()
    }

    fn count(&mut self, r: &crate::report::Report) {
        crate::ledger::append(&crate::ledger::Record::of_report(
            crate::ledger::Source::Mcp,
            r,
            "",
        ));
        self.session.0 += r.tokens_before as u64;
        self.session.1 += r.tokens_after as u64;
        self.session.2 += 1;
    }

    /// Lean `caveman_compress`: the arguments checked (an unknown or
    /// missing one is an error that names it), the view as the text
    /// content and the report as structured content.
    fn compress_lean(&mut self, args: Option<&[u8]>) -> ToolResult {
        const KNOWN: [&str; 5] = ["input", "content_type", "type", "query", "budget"];
        let bad = |m: String| tool_error("cave_invalid_arguments", &m);
        let obj: serde_json::Map<String, serde_json::Value> =
            match args.map(serde_json::from_slice::<serde_json::Value>) {
                Some(Ok(serde_json::Value::Object(m))) => m,
                None | Some(Ok(serde_json::Value::Null)) => Default::default(),
                _ => return bad("compress: arguments must be a JSON object".into()),
            };
        let unknown: Vec<&str> = obj
            .keys()
            .map(String::as_str)
            .filter(|k| !KNOWN.contains(k))
            .collect();
        if !unknown.is_empty() {
            return bad(format!(
                "compress: unknown argument {} (arguments: input, content_type, query, budget)",
                unknown.join(", ")
            ));
        }
        let string = |k: &str| -> Result<String, String> {
            match obj.get(k) {
                None | Some(serde_json::Value::Null) => Ok(String::new()),
                Some(serde_json::Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(format!("compress: {k} must be a string")),
            }
        };
        let input = match obj.get("input") {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(_) => return bad("compress: input must be a string".into()),
            None => {
                return bad(
                    "compress: missing required argument input (the payload to compress)".into(),
                )
            }
        };
        let (ct, ty, query) = match (string("content_type"), string("type"), string("query")) {
            (Ok(a), Ok(b), Ok(c)) => (a, b, c),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return bad(e),
        };
        let forced = match [ct, ty].into_iter().find(|t| !t.is_empty()) {
            None => None,
            Some(t) if t == "auto" => None,
            Some(t) => match ContentType::from_name(&t) {
                ContentType::Other(name) => {
                    let names: Vec<&str> =
                        ContentType::REGISTERED.iter().map(|c| c.as_str()).collect();
                    return bad(format!(
                        "compress: unknown content_type {name:?} (one of: auto, {})",
                        names.join(", ")
                    ));
                }
                c => Some(c),
            },
        };
        let budget = match obj.get("budget") {
            None | Some(serde_json::Value::Null) => None,
            Some(b) => match b.as_u64().filter(|&b| b > 0) {
                Some(b) => Some(b as usize),
                None => {
                    return bad("compress: budget must be a whole number of tokens above 0".into())
                }
            },
        };
        let opts = Options {
            forced_type: forced,
            query,
            toon_best_of: self.toon_best_of,
            profile: self.profile,
            budget,
            explain: false,
        };
        let outcome = engine::compress(input.as_bytes(), &opts, &self.store);
        self.count(&outcome.report);
        let mut out = outcome.output.unwrap_or_else(|| input.into_bytes());
        if self.protocol == super::PROTOCOL_2024 {
            // The bytes this server has always sent under 2024-11-05.
            return Reply {
                text: out,
                is_error: false,
                structured: Some(outcome.report.to_json()),
            };
        }
        // A negotiated newer version: the handle in the text content too
        // (a host may show only the text), structured content only where
        // the version has it.
        if let Some(t) = &outcome.report.transformed {
            if !out.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.extend_from_slice(
                format!(
                    "\u{2026} caveman: {} \u{2192} {} tokens ({}); the whole input: caveman_retrieve {{\"recovery_handle\": \"{}\"}} \u{2026}\n",
                    outcome.report.tokens_before,
                    outcome.report.tokens_after,
                    outcome.report.content_type.as_str(),
                    t.recovery_handle.as_str()
                )
                .as_bytes(),
            );
        }
        Reply {
            text: out,
            is_error: false,
            structured: super::has_structured_content(self.protocol)
                .then(|| outcome.report.to_json()),
        }
    }

    fn retrieve(&mut self, args: Option<&[u8]>) -> ToolResult {
        let missing = || {
            tool_error(
                "cave_invalid_arguments",
                "retrieve: missing recovery_handle",
            )
        };
        let Ok(f) = args
            .ok_or(Undecodable)
            .and_then(|a| wire::decode(a, &["recovery_handle", "query"], &[]))
        else {
            return missing();
        };
        let Some(handle) = normalize_handle(&f.strings[0]) else {
            return missing();
        };
        let query = trim(&f.strings[1]);
        let key = |q: &str| {
            let mut k = handle.as_bytes().to_vec();
            k.push(0);
            k.extend_from_slice(q.as_bytes());
            k
        };
        let lean = self.profile.is_lean();
        // Lean answers every call with the bytes.
        if !lean && self.ledger.contains(&key(query)) {
            return text(REPEAT_NOTE.as_bytes().to_vec());
        }
        let unknown = || tool_error("cave_unknown_handle", "no original found for handle");
        let Ok(original) = self.store.get(&handle) else {
            return unknown();
        };
        if lean {
            if query.is_empty() {
                return text(original);
            }
            if crate::narrow::matches_nothing(&original, query) {
                return text(
                    format!(
                        "\u{2026} caveman: nothing in {handle} matches {}; call caveman_retrieve without a query for the whole original \u{2026}",
                        crate::go::strconv::quote(query)
                    )
                    .into_bytes(),
                );
            }
            return text(crate::narrow::narrow_as(original, query, self.profile));
        }
        if self.ledger.len() >= STORM_KEYS {
            self.ledger.insert(key(query));
            self.ledger.insert(key(""));
            let mut t = Vec::with_capacity(PAYOUT_NOTE.len() + 2 + original.len());
            t.extend_from_slice(PAYOUT_NOTE.as_bytes());
            t.extend_from_slice(b"\n\n");
            t.extend_from_slice(&original);
            return text(t);
        }
        self.ledger.insert(key(query));
        if query.is_empty() {
            text(original)
        } else {
            text(crate::narrow::narrow(original, &f.strings[1]))
        }
    }

    fn stats(&self) -> ToolResult {
        let Ok(st) = self.store.stats() else {
            return tool_error("cave_stats_unavailable", "stats unavailable");
        };
        let (mut before, mut after, mut count) = (0u64, 0u64, 0u64);
        for b in st.by_content_type.values() {
            before += b.tokens_before;
            after += b.tokens_after;
            count += b.count;
        }
        let ratio = if before == 0 {
            0.0
        } else {
            (before as f64 - after as f64) / before as f64
        };
        if self.profile.is_lean() {
            let r = |b: u64, a: u64| {
                if b == 0 {
                    0.0
                } else {
                    (b as f64 - a as f64) / b as f64
                }
            };
            let (sb, sa, sn) = self.session;
            let totals = |b: u64, a: u64, n: u64, what: &str| {
                format!(
                    "{{\"tokens_before\":{b},\"tokens_after\":{a},\"{what}\":{n},\"ratio\":{}}}",
                    format_float(r(b, a))
                )
            };
            return Payload::new()
                .raw("session", &totals(sb, sa, sn, "requests"))
                .raw("store", &totals(before, after, count, "records"))
                .str("basis", b"inferred")
                .done();
        }
        Payload::new()
            .raw("tokens_before", &before.to_string())
            .raw("tokens_after", &after.to_string())
            .raw("requests", &count.to_string())
            .raw("ratio", &format_float(ratio))
            .str("basis", b"inferred")
            .str("scope", b"session")
            .done()
    }
}

/// The `input` argument of the TOON tools, when present and non-empty.
fn toon_input(args: Option<&[u8]>) -> Option<String> {
    let f = wire::decode(args?, &["input"], &[]).ok()?;
    let input = f.strings.into_iter().next()?;
    (!input.is_empty()).then_some(input)
}

fn toon_encode(args: Option<&[u8]>) -> ToolResult {
    let Some(input) = toon_input(args) else {
        return tool_error("cave_invalid_arguments", "toon_encode: missing input");
    };
    let n = input.len().to_string();
    match crate::toon::encode(input.as_bytes()) {
        Ok(t) => Payload::new()
            .str("output", &t)
            .raw("encoded", "true")
            .raw("input_bytes", &n)
            .raw("output_bytes", &t.len().to_string())
            .done(),
        Err(e) => {
            log(
                "WARN",
                "toon encode fell back to pass-through",
                &[("err", &e.to_string())],
            );
            Payload::new()
                .str("output", input.as_bytes())
                .raw("encoded", "false")
                .raw("input_bytes", &n)
                .raw("output_bytes", &n)
                .str(
                    "note",
                    match e {
                        crate::toon::EncodeError::NotEncodable => TOON_NOTE.to_string(),
                        too_large => too_large.to_string(),
                    }
                    .as_bytes(),
                )
                .done()
        }
    }
}

fn toon_decode(args: Option<&[u8]>) -> ToolResult {
    let Some(input) = toon_input(args) else {
        return tool_error("cave_invalid_arguments", "toon_decode: missing input");
    };
    match crate::toon::decode(input.as_bytes()) {
        Ok(json) => text(json),
        Err(_) => tool_error(
            "cave_invalid_toon",
            "toon_decode: input is not valid TOON; no JSON emitted",
        ),
    }
}

/// The answer to an unknown tool, a panicking handler, or a result over
/// the cap.
pub fn unknown_tool(name: &str) -> ToolResult {
    tool_error("cave_unknown_tool", &format!("unknown tool: {name}"))
}

pub fn panicked() -> ToolResult {
    tool_error("cave_tool_panicked", "tool handler panicked")
}

pub fn too_large(n: usize, cap: usize) -> ToolResult {
    tool_error(
        "cave_payload_too_large",
        &format!("result {n} bytes exceeds cap {cap}; request a narrower slice"),
    )
}

#[cfg(test)]
mod tests {
    use super::normalize_handle;

    #[test]
    fn handle_forms() {
        let x = "ccr_178b72135586f06e2cff66fc0db3f0fe";
        for form in [
            x.to_string(),
            format!("ccr:{x}"),
            format!("<<ccr:{x}>>"),
            format!("<< ccr: {x} >>"),
            format!("<<{x}>>"),
            format!(" ccr://{x}/ "),
            format!("\u{a0}{x}\u{3000}"),
        ] {
            assert_eq!(normalize_handle(&form).as_deref(), Some(x), "{form:?}");
        }
        assert_eq!(
            normalize_handle(&format!("ccr:ccr:{x}")).unwrap(),
            format!("ccr:{x}")
        );
        assert_eq!(
            normalize_handle(&format!("ccr:// {x} //")).unwrap(),
            format!("{x} ")
        );
        for empty in ["", "  ", "ccr:", "ccr://", "<<>>"] {
            assert_eq!(normalize_handle(empty), None, "{empty:?}");
        }
    }
}
