//! What the lean view reads off an element before choosing: whether it
//! carries an error, its key set, whether a collection is a table of rows,
//! a map of records, a list of tools, and which key identifies its members.

use std::sync::LazyLock;

use regex::Regex;

use super::{LONG_STRING, MAP_THRESHOLD, THRESHOLD};
use crate::go::json::{Json, Value};

/// Error words (whole words, any case), exception class names, the
/// failure states of processes and pods; a zero count beside one
/// (`0 errors`, `errors: 0`) is not an error.
static ERROR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i:\b(errors?|exceptions?|fail|failed|failures?|failing|fatal|panic|panicked|timeout|timed out",
        r"|denied|refused|rejected|traceback|critical|crash|crashed|abort|aborted|segmentation fault",
        r"|core dumped|out of memory|deadlock detected|unhandled)\b)",
        r"|\b(OOMKilled|CrashLoopBackOff|KeyboardInterrupt)\b|\bnpm ERR!"
    ))
    .expect("error words")
});

/// An exception class name (`KeyError`, `NullPointerException`,
/// `PageFault`); one inside a path or file name is checked apart.
static EXCEPTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Fault)\b").expect("exception names")
});

/// A zero just before an error word, or a zero value just after it.
static ZERO_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[^\w.,])0+[ \t]+$").expect("zero before"));
static ZERO_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^["']?[ \t]*[:=][ \t]*["']?0+(?:\.0+)?(?:[^\w.]|$)"#).expect("zero after")
});

/// Keys whose truthy value marks an element as an error.
const ERROR_KEYS: [&str; 6] = ["error", "errors", "exception", "failure", "err", "fatal"];
/// Keys naming a level or severity.
const LEVEL_KEYS: [&str; 6] = [
    "level",
    "severity",
    "levelname",
    "lvl",
    "loglevel",
    "log_level",
];
/// Levels that are errors.
const ERROR_LEVELS: [&str; 8] = [
    "error", "err", "fatal", "critical", "crit", "alert", "emerg", "panic",
];
/// Keys naming an HTTP status.
const STATUS_KEYS: [&str; 8] = [
    "status",
    "statuscode",
    "status_code",
    "http_status",
    "httpstatus",
    "response_status",
    "code",
    "http_code",
];
/// Keys naming a process's exit code.
const EXIT_KEYS: [&str; 6] = [
    "exitcode",
    "exit_code",
    "returncode",
    "return_code",
    "exit_status",
    "exitstatus",
];
/// Keys whose `false` reports a failure.
const SUCCESS_KEYS: [&str; 3] = ["ok", "success", "succeeded"];

/// The one error test of the lean JSON view: a string with an error word,
/// or an error by shape (a truthy error key, an error level, an HTTP
/// status of 400 or more, a non-zero exit code, `ok`/`success` false),
/// anywhere in the value.
pub(crate) fn is_error(v: Json<'_>) -> bool {
    match v.get() {
        Value::String(s) => text_is_error(s),
        Value::Array(items) => items.iter().any(is_error),
        Value::Object(m) => m.iter().any(|(k, x)| member_is_error(k, x) || is_error(x)),
        _ => false,
    }
}

/// A record that names a place in source code (`pricing_test.go:142`),
/// as a test's failure output or a frame does.
pub(super) fn names_location(v: Json<'_>) -> bool {
    match v.get() {
        Value::String(s) => has_location(s),
        Value::Object(m) => m.iter().any(|(_, x)| names_location(x)),
        Value::Array(items) => items.iter().any(names_location),
        _ => false,
    }
}

/// `file.ext:N` in `s`: a file name with an extension of 1–5 letters,
/// a colon, digits.
fn has_location(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        if c != b':' || !b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        let ext = b[..i]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        let dot = i - ext;
        (1..=5).contains(&ext)
            && dot >= 2
            && b[dot - 1] == b'.'
            && (b[dot - 2].is_ascii_alphanumeric() || b[dot - 2] == b'_')
    })
}

/// Two records of one event (a test's records in a `go test -json`
/// stream): objects that hold the same values in all but at most two of
/// the scalar fields both have (a time, an action, a message), sharing
/// at least two.
pub(super) fn same_event(a: Json<'_>, b: Json<'_>) -> bool {
    let (Value::Object(a), Value::Object(b)) = (a.get(), b.get()) else {
        return false;
    };
    fn scalar(x: Json<'_>) -> Option<&str> {
        match x.get() {
            Value::String(s) | Value::Number(s) => Some(s),
            _ => None,
        }
    }
    let (mut same, mut differ) = (0, 0);
    for (k, x) in a.iter() {
        let Some(u) = scalar(x) else { continue };
        let Some(v) = b.iter().find(|(l, _)| *l == k).and_then(|(_, y)| scalar(y)) else {
            continue;
        };
        if u == v {
            same += 1;
        } else {
            differ += 1;
        }
    }
    same >= 2 && differ <= 2
}

/// A text carries an error word that is not a zero count, or an
/// exception class name.
pub(crate) fn text_is_error(s: &str) -> bool {
    first_error(s).is_some()
}

/// Where the first error (word or exception name) of a text starts.
pub(super) fn first_error(s: &str) -> Option<usize> {
    let in_path = |start: usize, end: usize| {
        let before = s[..start].chars().next_back();
        let mut after = s[end..].chars();
        matches!(before, Some('/' | '\\'))
            || (matches!(after.next(), Some('.' | '/' | '\\'))
                && after
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_'))
    };
    let exception = EXCEPTION
        .find_iter(s)
        .find(|m| !in_path(m.start(), m.end()))
        .map(|m| m.start());
    let word = ERROR
        .find_iter(s)
        .find(|m| {
            let mut from = m.start().saturating_sub(32);
            while !s.is_char_boundary(from) {
                from += 1;
            }
            let before = &s[from..m.start()];
            !(ZERO_BEFORE.is_match(before) || ZERO_AFTER.is_match(&s[m.end()..]))
        })
        .map(|m| m.start());
    match (exception, word) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// One member's key and value say error by their shape.
fn member_is_error(k: &str, x: Json<'_>) -> bool {
    if k.len() > 20 {
        return false;
    }
    let k = k.to_ascii_lowercase();
    let k = k.as_str();
    if ERROR_KEYS.contains(&k) {
        return truthy(x);
    }
    match x.get() {
        Value::String(s) if LEVEL_KEYS.contains(&k) => {
            ERROR_LEVELS.contains(&s.to_ascii_lowercase().as_str())
        }
        Value::Number(n) if is_status_key(k) => {
            n.parse::<u32>().is_ok_and(|c| (400..600).contains(&c))
        }
        Value::String(s) if is_status_key(k) => {
            s.len() == 3 && s.parse::<u32>().is_ok_and(|c| (400..600).contains(&c))
        }
        Value::Number(n) if EXIT_KEYS.contains(&k) => n.parse::<f64>().is_ok_and(|c| c != 0.0),
        Value::Bool(false) => SUCCESS_KEYS.contains(&k),
        _ => false,
    }
}

/// A (lower-case) key naming an HTTP status: one of [`STATUS_KEYS`], or
/// one that ends so (`EdgeResponseStatus`, `upstream_status`,
/// `httpStatusCode`); an exit code's key is not.
fn is_status_key(k: &str) -> bool {
    if STATUS_KEYS.contains(&k) {
        return true;
    }
    if EXIT_KEYS.contains(&k) || k.starts_with("exit") {
        return false;
    }
    let plain: String = k
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | '.'))
        .collect();
    ["status", "statuscode", "responsecode"]
        .iter()
        .any(|end| plain.ends_with(end))
}

fn truthy(v: Json<'_>) -> bool {
    match v.get() {
        Value::Null => false,
        Value::Bool(b) => b,
        Value::Number(n) => n.parse::<f64>().is_ok_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// The sorted keys of an object element, as one string (its key set).
pub(super) fn key_set(v: Json<'_>) -> Option<String> {
    match v.get() {
        Value::Object(m) => {
            let mut ks: Vec<&str> = m.iter().map(|(k, _)| k).collect();
            ks.sort_unstable();
            ks.dedup();
            Some(ks.join("\u{1}"))
        }
        _ => None,
    }
}

/// The width of the rows when the items are rows of one table: at least
/// 90 % of them arrays of one length (2 or more).
pub(super) fn row_width(items: &[Json<'_>]) -> Option<usize> {
    let mut widths: Vec<(usize, usize)> = Vec::new();
    for it in items {
        if let Value::Array(a) = it.get() {
            let distinct = widths.len();
            match widths.iter_mut().find(|w| w.0 == a.len()) {
                Some(w) => w.1 += 1,
                None if distinct < 8 => widths.push((a.len(), 1)),
                None => return None,
            }
        }
    }
    let &(width, count) = widths.iter().max_by_key(|w| w.1)?;
    (width >= 2 && count * 10 >= items.len() * 9).then_some(width)
}

/// The column names when the items are rows of one table whose first row
/// names the columns: strings, and some later cell is not one.
pub(super) fn table_header<'v>(items: &[Json<'v>]) -> Option<Vec<&'v str>> {
    let width = row_width(items)?;
    let Value::Array(first) = items.first()?.get() else {
        return None;
    };
    if first.len() != width {
        return None;
    }
    let names: Vec<&str> = first
        .iter()
        .map(|x| match x.get() {
            Value::String(s) => Some(s),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let mut distinct = names.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let data = items[1..].iter().any(|it| match it.get() {
        Value::Array(a) => a.iter().any(|x| !matches!(x.get(), Value::String(_))),
        _ => false,
    });
    (distinct.len() == width && data).then_some(names)
}

/// A map whose members are mostly records (objects or arrays): a keyed
/// collection, not a record itself.
pub(super) fn record_map(v: Json<'_>) -> bool {
    let Value::Object(m) = v.get() else {
        return false;
    };
    let records = m.iter().filter(|(_, x)| x.is_container()).count();
    records * 10 >= m.len() * 9
}

/// Keys that identify a member of a list, in order of preference.
const ID_KEYS: [&str; 16] = [
    "name",
    "Name",
    "id",
    "title",
    "key",
    "slug",
    "tool",
    "uri",
    "path",
    "file",
    "filename",
    "login",
    "full_name",
    "ID",
    "number",
    "iid",
];

/// Keys whose numbers identify a record as people cite it (an issue's or
/// a merge request's `number`/`iid`); other numbers identify nothing an
/// agent asks for.
const NUMBER_IDS: [&str; 2] = ["number", "iid"];

/// Object fields that hold a record's identity (`metadata.name`,
/// `tags.name`), searched when no top-level key identifies the items; a
/// nested author or owner (`user.name`) is no identity of the record.
const ID_OWNERS: [&str; 6] = [
    "metadata",
    "tags",
    "labels",
    "attributes",
    "properties",
    "spec",
];

/// Fields that say what a member identified by an id is, beside it (an
/// event's `type`, `actor` and `repo`): listed with a bare identifier.
pub(super) const CONTEXT_KEYS: [&str; 3] = ["type", "actor", "repo"];

/// Keys naming an object-valued field (`actor`, `repo`).
const NAME_KEYS: [&str; 3] = ["login", "name", "id"];

/// The key that identifies the items: the first of [`ID_KEYS`] that at
/// least 90 % of them hold as a non-empty string, distinct in at least
/// 90 % of those (numbers identify nothing an agent asks for); then a
/// key of the first item named as an identifier ([`id_like`]: names
/// before keys); then the first of [`ID_KEYS`] one level down in an
/// [`ID_OWNERS`] field (`metadata.name`), in the order of the first
/// item's fields.
pub(super) fn id_key<'v>(items: &[Json<'v>]) -> Option<String> {
    let n = items.len();
    let identifies = |path: &str| {
        let mut vals: Vec<&str> = items.iter().filter_map(|it| id_of(*it, path)).collect();
        let held = vals.len();
        if held * 10 < n * 9 {
            return false;
        }
        vals.sort_unstable();
        vals.dedup();
        vals.len() * 10 >= held * 9
    };
    if let Some(k) = ID_KEYS.iter().find(|k| identifies(k)) {
        return Some(k.to_string());
    }
    let Value::Object(first) = items.first()?.get() else {
        return None;
    };
    for by_name in [true, false] {
        if let Some((k, _)) = first
            .iter()
            .find(|(k, _)| id_like(k, by_name) && identifies(k))
        {
            return Some(k.to_string());
        }
    }
    for (outer, x) in first.iter() {
        if !ID_OWNERS.contains(&outer) || !matches!(x.get(), Value::Object(_)) {
            continue;
        }
        for k in ID_KEYS {
            let path = format!("{outer}.{k}");
            if identifies(&path) {
                return Some(path);
            }
        }
    }
    None
}

/// A key whose last word says it names its record (`ParameterName`,
/// `DBInstanceIdentifier`, `job_name`; `by_name`) or keys it
/// (`InstanceId`, `pod_id`, `cacheKey`; not `by_name`).
fn id_like(k: &str, by_name: bool) -> bool {
    let l = k.to_ascii_lowercase();
    if l.len() <= 4 || k.contains('.') {
        return false;
    }
    if by_name {
        return l.ends_with("name") || l.ends_with("identifier");
    }
    k.ends_with("Id") || k.ends_with("ID") || l.ends_with("_id") || l.ends_with("key")
}

/// The identifier of an item under `path` (a key, or `outer.key`).
pub(super) fn id_of<'v>(item: Json<'v>, path: &str) -> Option<&'v str> {
    let mut v = item;
    for key in path.split('.') {
        let Value::Object(m) = v.get() else {
            return None;
        };
        v = m.iter().find(|(k, _)| *k == key)?.1;
    }
    match v.get() {
        Value::String(s) if !s.is_empty() => Some(s),
        Value::Number(s) if NUMBER_IDS.contains(&path) => Some(s),
        _ => None,
    }
}

/// What says what an identified item is, beside its identifier: the
/// values of its [`CONTEXT_KEYS`] (an object by its login or name), and
/// the label they are listed under (`id type actor repo`).
pub(super) fn context_of<'v>(item: Json<'v>, id: &str) -> Vec<(&'static str, &'v str)> {
    let Value::Object(m) = item.get() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ctx in CONTEXT_KEYS {
        if ctx == id {
            continue;
        }
        let Some((_, x)) = m.iter().find(|(k, _)| *k == ctx) else {
            continue;
        };
        let text = match x.get() {
            Value::String(s) if !s.is_empty() => Some(s),
            Value::Object(_) => NAME_KEYS.iter().find_map(|k| id_of(x, k)),
            _ => None,
        };
        if let Some(t) = text {
            out.push((ctx, t));
        }
    }
    out
}

/// The strings are names (license ids, file extensions, classifiers, the
/// addresses that label a matrix): the content itself, never sampled.
/// Fewer than [`SHORT_LIST`] strings of at most [`LABEL`] bytes; or
/// strings of at most [`NAME`] bytes, nearly all distinct, within
/// [`NAME_LIST_BYTES`].
pub(super) fn name_list(items: &[Json<'_>]) -> bool {
    let mut strs = Vec::with_capacity(items.len());
    for it in items {
        match it.get() {
            Value::String(s) if !s.contains('\n') => strs.push(s),
            _ => return false,
        }
    }
    if strs.len() < SHORT_LIST && strs.iter().all(|s| s.len() <= LABEL) {
        return true;
    }
    if strs.iter().any(|s| s.len() > NAME)
        || strs.iter().map(|s| s.len() + 3).sum::<usize>() > NAME_LIST_BYTES
    {
        return false;
    }
    let mut distinct = strs.clone();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() * 10 >= strs.len() * 9
}

/// A list of fewer strings than this, each short, is kept whole.
const SHORT_LIST: usize = 30;
const LABEL: usize = 200;
/// Names longer than this are not a list of names.
const NAME: usize = 64;
/// A list of names is kept whole up to this many bytes (about 3,000
/// tokens: a marker listing them would cost as much).
const NAME_LIST_BYTES: usize = 12 * 1024;

/// A tool definition: MCP (`name` + `inputSchema`), Anthropic
/// (`input_schema`), OpenAI (`parameters`, or `{"type":"function",
/// "function":{…}}`).
pub(super) fn is_tool(v: Json<'_>) -> bool {
    let Value::Object(m) = v.get() else {
        return false;
    };
    let has = |k: &str| m.iter().any(|(key, _)| key == k);
    let named = m
        .iter()
        .any(|(k, x)| k == "name" && matches!(x.get(), Value::String(_)));
    if named && (has("inputSchema") || has("input_schema") || has("parameters")) {
        return true;
    }
    m.iter()
        .any(|(k, x)| k == "function" && matches!(x.get(), Value::Object(_)) && is_tool(x))
}

/// The items are mostly tool definitions.
pub(super) fn tool_list(items: &[Json<'_>]) -> bool {
    let tools = items.iter().filter(|x| is_tool(**x)).count();
    tools > 0 && tools * 10 >= items.len() * 9
}

/// The array holds a marker of ours: a view compressed again stays as it is.
pub(super) fn holds_marker(v: Json<'_>) -> bool {
    match v.get() {
        Value::Array(items) => items.iter().any(|it| match it.get() {
            Value::Object(m) => m.iter().any(|(k, _)| k == super::super::ELIDED_KEY),
            _ => false,
        }),
        _ => false,
    }
}

/// The bytes of a value outside its long arrays (written compactly, long
/// arrays counted as `[]`): how much of an element is its own record
/// rather than a container of a long list.
pub(super) fn own_len(v: Json<'_>) -> usize {
    match v.get() {
        Value::Array(items) if items.len() > THRESHOLD => 2,
        Value::Array(items) => 2 + items.iter().map(|x| own_len(x) + 1).sum::<usize>(),
        Value::Object(m) => {
            2 + m
                .iter()
                .map(|(k, x)| k.len() + 4 + own_len(x))
                .sum::<usize>()
        }
        Value::String(s) => s.len() + 2,
        Value::Number(t) => t.len(),
        _ => 5,
    }
}

/// A row of a table (an array of scalars, however wide): one record,
/// never cut inside (an NDJSON line stays one line).
pub(super) fn flat_row(v: Json<'_>) -> bool {
    match v.get() {
        Value::Array(items) => items.iter().all(|x| !x.is_container()),
        _ => false,
    }
}

/// The element holds something the writer would cut.
pub(super) fn holds_long_array(v: Json<'_>) -> bool {
    match v.get() {
        Value::Array(items) => items.len() > THRESHOLD || items.iter().any(holds_long_array),
        Value::Object(m) => m.len() > MAP_THRESHOLD || m.iter().any(|(_, x)| holds_long_array(x)),
        Value::String(s) => s.len() > LONG_STRING,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::json as gojson;

    fn err(s: &str) -> bool {
        let t = gojson::decode_exact(s.as_bytes(), super::super::INPUT_ORDER).unwrap();
        is_error(t.root())
    }

    #[test]
    fn errors_by_word_and_by_shape() {
        for yes in [
            r#"{"msg":"java.lang.OutOfMemoryError: Java heap space"}"#,
            r#"{"reason":"OOMKilled"}"#,
            r#"{"state":"CrashLoopBackOff"}"#,
            r#"{"status":500,"path":"/pay"}"#,
            r#"{"statusCode":"503"}"#,
            r#"{"EdgeResponseStatus":403}"#,
            r#"{"upstream_status":"502"}"#,
            r#"{"exitStatus":1}"#,
            r#"{"level":"ERROR","msg":"x"}"#,
            r#"{"exitCode":137}"#,
            r#"{"ok":false}"#,
            r#"{"error":{"code":7}}"#,
            r#"["deadlock detected"]"#,
            r#"{"note":"3 errors found"}"#,
        ] {
            assert!(err(yes), "{yes}");
        }
        for no in [
            r#"{"status":200,"msg":"ok"}"#,
            r#"{"exitCode":0}"#,
            r#"{"EdgeResponseStatus":200}"#,
            r#"{"exitStatus":0}"#,
            r#"{"orderStatus":"pending"}"#,
            r#"{"error":null,"errors":[]}"#,
            r#"{"note":"0 errors"}"#,
            r#"{"errors":0}"#,
            r#"{"path":"gc/TestOnError.java"}"#,
            r#"{"level":"info"}"#,
            r#"{"ok":true}"#,
        ] {
            assert!(!err(no), "{no}");
        }
    }

    #[test]
    fn identifiers_and_tools() {
        let t = gojson::decode_exact(
            br#"[{"name":"a","x":1},{"name":"b"},{"name":"c"},{"id":"d"}]"#,
            super::super::INPUT_ORDER,
        )
        .unwrap();
        let Value::Array(items) = t.root().get() else {
            panic!()
        };
        let items: Vec<Json<'_>> = items.iter().collect();
        assert_eq!(id_key(&items[..3]).as_deref(), Some("name"));
        assert_eq!(id_key(&items), None);
        let tool = gojson::decode_exact(
            br#"{"type":"function","function":{"name":"f","parameters":{}}}"#,
            super::super::INPUT_ORDER,
        )
        .unwrap();
        assert!(is_tool(tool.root()));
    }
}
