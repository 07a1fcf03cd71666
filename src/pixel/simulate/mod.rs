//! The "pixel" request transform, priced offline (pixel-simulate.md): an
//! LLM API request body in, the counters of the rewrite the proxy would
//! apply out. Long static context, system reminders, long tool results and
//! old turns become PNG pages where an image-token estimate says they cost
//! less than their text; the rewritten request itself is not kept.
//!
//! The flow is data through small functions:
//!
//! * [`simulate`] checks the body as Go's decoder would, applies `--model`
//!   (which re-encodes the body), and sniffs the provider;
//! * each provider ([`anthropic`], [`openai`], [`gemini`]) picks its
//!   candidates and history, and hands every candidate to the shared
//!   machinery: [`text`] prepares it, [`price`] quotes it against a cost
//!   model from [`cost`] and gates it, [`truncate`] cuts it to the image
//!   cap, [`pages`] lays out, draws and encodes its pages;
//! * the counters accumulate in a [`TransformInfo`].
//!
//! The library needs no process state: the density level and the OpenAI
//! profile overrides come in the [`Request`], not from the environment.

pub mod anthropic;
pub mod cost;
mod facts;
pub mod gemini;
mod history;
pub mod info;
pub mod openai;
pub mod pages;
pub mod price;
pub mod profile;
mod schema;
mod strings;
pub mod text;
mod truncate;

use std::borrow::Cow;

use crate::go::json::lazy::{marshal_raw_map, Kind, Lazy};
use crate::go::json::scan::check_valid;

pub use info::{Passthrough, PassthroughMap, TransformInfo};
pub use profile::Level;

/// One request to price.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The request body (JSON).
    pub body: &'a [u8],
    /// `--model`: replaces the body's `model` (and re-encodes the body).
    pub model: Option<&'a str>,
    /// The requested density level (before the reader model gates it).
    pub density: Level,
    /// OpenAI vision-profile overrides (`CAVE_PIXEL_GPT_PROFILES`).
    pub gpt_profiles: Option<&'a str>,
}

/// Why a body could not be priced at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Not one JSON value, or not an object: Go's decoder message.
    Parse(String),
    /// None of `input`, `contents` or `messages` (or the body `null`).
    Sniff,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Parse(m) => f.write_str(m),
            Error::Sniff => {
                f.write_str("cannot sniff request format (expected input, contents, or messages)")
            }
        }
    }
}

impl std::error::Error for Error {}

/// What a transform reports: its counters, and the error that stopped it
/// (the counters are still reported then, §13).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub info: TransformInfo,
    /// Go's error text of a malformed member (`json: cannot unmarshal …`).
    pub error: Option<String>,
}

/// The provider formats, as sniffed (§1 step 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `input`: OpenAI Responses, or Chat Completions when `messages` is
    /// there too.
    OpenAi,
    /// `contents`: Gemini generateContent.
    Gemini,
    /// `messages`: Anthropic Messages (and Chat Completions bodies).
    Anthropic,
}

/// What every provider is given besides the body.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The reader model (`--model`, else the body's string `model`, else "").
    pub model: &'a str,
    pub density: Level,
    pub gpt_profiles: Option<&'a str>,
}

/// Prices `req` (§1 steps 4–8).
pub fn simulate(req: &Request<'_>) -> Result<Outcome, Error> {
    check_valid(req.body).map_err(|e| Error::Parse(e.msg))?;
    let top = Lazy::new(req.body);
    match top.kind() {
        Kind::Object => {}
        // The reference panics on `null` with `--model`; here it is the
        // same sniff error as without.
        Kind::Null => return Err(Error::Sniff),
        k => {
            return Err(Error::Parse(format!(
                "json: cannot unmarshal {} into Go value of type map[string]json.RawMessage",
                k.go_name()
            )))
        }
    }
    let model: Cow<'_, str> = match req.model {
        Some(m) => Cow::Borrowed(m),
        None => top.get("model").and_then(Lazy::str).unwrap_or_default(),
    };
    let format = sniff(top).ok_or(Error::Sniff)?;
    let reencoded;
    let top = match req.model {
        Some(m) => {
            reencoded = with_model(top, m);
            Lazy::new(&reencoded)
        }
        None => top,
    };
    let cx = Context {
        model: &model,
        density: req.density,
        gpt_profiles: req.gpt_profiles,
    };
    Ok(match format {
        Format::Anthropic => anthropic::transform(top, &cx),
        Format::OpenAi => openai::transform(top, &cx),
        Format::Gemini => gemini::transform(top, &cx),
    })
}

/// The provider of a body object: key presence only, `input` first.
pub fn sniff(top: Lazy<'_>) -> Option<Format> {
    let (mut input, mut contents, mut messages) = (false, false, false);
    for (k, _) in top.members() {
        match k.as_ref() {
            "input" => input = true,
            "contents" => contents = true,
            "messages" => messages = true,
            _ => {}
        }
    }
    if input {
        Some(Format::OpenAi)
    } else if contents {
        Some(Format::Gemini)
    } else if messages {
        Some(Format::Anthropic)
    } else {
        None
    }
}

/// The body with `"model"` set to `model`, re-encoded as Go marshals a
/// `map[string]json.RawMessage` (§1 step 6): keys sorted, no whitespace,
/// `<>&` and U+2028/U+2029 escaped inside strings.
fn with_model(top: Lazy<'_>, model: &str) -> Vec<u8> {
    let mut quoted = Vec::with_capacity(model.len() + 2);
    crate::go::json::write_json_str(&mut quoted, model.as_bytes());
    let members = top
        .members()
        .filter(|(k, _)| k != "model")
        .chain(std::iter::once((
            Cow::Borrowed("model"),
            Lazy::new(&quoted),
        )));
    let mut out = Vec::with_capacity(top.text().len());
    marshal_raw_map(&mut out, members);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str, model: Option<&str>) -> Result<Outcome, Error> {
        simulate(&Request {
            body: body.as_bytes(),
            model,
            density: Level::Balanced,
            gpt_profiles: None,
        })
    }

    #[test]
    fn parse_and_sniff_errors() {
        assert_eq!(
            run("{", None),
            Err(Error::Parse("unexpected end of JSON input".into()))
        );
        assert_eq!(
            run("[]", None),
            Err(Error::Parse(
                "json: cannot unmarshal array into Go value of type map[string]json.RawMessage"
                    .into()
            ))
        );
        assert_eq!(run("null", None), Err(Error::Sniff));
        assert_eq!(run("null", Some("m")), Err(Error::Sniff));
        assert_eq!(run(r#"{"Messages":[]}"#, None), Err(Error::Sniff));
    }

    #[test]
    fn sniff_order() {
        let f = |s: &str| sniff(Lazy::new(s.as_bytes()));
        assert_eq!(f(r#"{"messages":1,"input":null}"#), Some(Format::OpenAi));
        assert_eq!(f(r#"{"messages":1,"contents":2}"#), Some(Format::Gemini));
        assert_eq!(f(r#"{"messages":null}"#), Some(Format::Anthropic));
        assert_eq!(f(r#"{"model":"x"}"#), None);
    }

    #[test]
    fn model_flag_reencodes() {
        let top = Lazy::new(br#"{ "z": {"a" : "<b>"}, "model": "x", "a": [1, 2] }"#);
        assert_eq!(
            String::from_utf8(with_model(top, "m&m")).unwrap(),
            r#"{"a":[1,2],"model":"m\u0026m","z":{"a":"\u003cb\u003e"}}"#
        );
    }
}
