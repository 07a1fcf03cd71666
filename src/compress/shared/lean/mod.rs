//! Lean line rules, shared by the log and terminal compressors under
//! `--profile lean` (on the line skeleton of [`super::lines`]):
//!
//! - every error and warning line is kept verbatim, each distinct line
//!   once (an exact repeat is counted in a marker, a near-duplicate is a
//!   different line and stays), with the stack frames and diagnostic lines
//!   that follow it;
//! - lines group by template (timestamps, quoted text, UUIDs, hex runs and
//!   every word holding a digit are variables); each frequent template
//!   keeps its first line as the exemplar;
//! - the first and last lines, the first and last timestamped lines, the
//!   compressor's own lines (a terminal's summary lines) and query hits
//!   stay;
//! - every run of two or more dropped lines becomes a marker that counts
//!   them (a single line stays: its marker would cost as much), and a last
//!   marker states the total and the most frequent templates with their
//!   counts.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::ascii_first::{AsciiFirst, AsciiFirstSet};

use super::lines::{Lines, Pieces};

/// Lines that continue the record above them: stack frames, causes,
/// compiler locations and source snippets.
static CONTINUATION: AsciiFirst = AsciiFirst::new(
    r#"^(\s+at\s|\s+File "|\s*Caused by|\s*caused by|\s+\.\.\. \d+ (more|common frames)|\s*-->\s|\s*\d*\s*\|(\s|$)|\s*=\s(note|help):|\s*\^+|#\d+\s|\s+\w+(\.\w+)+\(.*\)$|\t|\s{4,}\S|Traceback|goroutine \d+|\s+[\w./-]+\.go:\d+)"#,
);

/// Timestamp formats, in the order they are tried.
const TS_FORMATS: [&str; 11] = [
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?",
    r"\d{1,2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?",
    r"\b[A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \d{4}",
    r"\b[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}",
    r"\b\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d+",
    r"\b\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}",
    r"\b\d{8}-\d{1,2}:\d{1,2}:\d{1,2}:\d+",
    r"^\d{6} \d{6}\b",
    r"^\d{2}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}",
    r"\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b",
    r"^\d{10}(?:\.\d+)?\b",
];

/// The format of a time of day without its date (the span needs dates).
const TIME_OF_DAY: &str = r"\b\d{2}:\d{2}:\d{2}(";

/// Each format on its own (each compiled when first used).
static TS_EACH: LazyLock<Vec<AsciiFirst>> =
    LazyLock::new(|| TS_FORMATS.iter().map(|p| AsciiFirst::new(p)).collect());

/// Which formats match somewhere, in one pass.
static TS_SET: AsciiFirstSet = AsciiFirstSet::new(&TS_FORMATS);

/// Any timestamp, anywhere in a line.
static TIMESTAMP: LazyLock<AsciiFirst> = LazyLock::new(|| AsciiFirst::owned(TS_FORMATS.join("|")));

static UUID: AsciiFirst =
    AsciiFirst::new(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

pub use super::signal::is_error;

/// Stands for a variable while a line is read.
const VAR: char = '\u{0}';

/// The line without a leading timestamp (the first format, in order,
/// whose first match has only ` [(<` before it).
///
/// A format's first match has only those before it when it starts within
/// the line's leading run of them, so each format is tried only at those
/// starts, the earliest first (the first that matches is where its first
/// match starts), not searched for along the whole line.
pub(super) fn strip_lead_ts(line: &str) -> &str {
    let run = line.bytes().take_while(|b| b" [(<".contains(b)).count();
    for r in TS_EACH.iter() {
        if let Some(m) = (0..=run).find_map(|at| r.find_at_start(line, at)) {
            return &line[m.end()..];
        }
    }
    line
}

/// Quoted strings' contents become variables (a JSON key, a quoted string
/// followed by `:`, stays).
fn unquote(s: &str) -> String {
    let b: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == VAR;
    while i < b.len() {
        let c = b[i];
        if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' && b[j] != '\n' {
                j += if b[j] == '\\' && j + 1 < b.len() {
                    2
                } else {
                    1
                };
            }
            if j < b.len() && b[j] == '"' {
                let key = b[j + 1..]
                    .iter()
                    .find(|c| !c.is_whitespace())
                    .is_some_and(|&c| c == ':');
                if key {
                    out.extend(&b[i..=j]);
                } else {
                    out.push('"');
                    out.push(VAR);
                    out.push('"');
                }
                i = j + 1;
                continue;
            }
        } else if c == '\'' && (i == 0 || !word(b[i - 1])) {
            if let Some(k) = b[i + 1..].iter().position(|&c| c == '\'' || c == '\n') {
                let j = i + 1 + k;
                if b[j] == '\'' && (j + 1 >= b.len() || !word(b[j + 1])) {
                    out.push('\'');
                    out.push(VAR);
                    out.push('\'');
                    i = j + 1;
                    continue;
                }
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Characters that end a template token.
fn token_sep(c: char) -> bool {
    c.is_whitespace() || ",;:=|/\\()[]{}<>\"'@&?\u{0}".contains(c)
}

/// True when a line is its own template: ASCII with no digit, quote, NUL
/// or run of six hex letters, single spaces between words only (no rule of
/// [`template`] can change it). Most lines of prose and many of a log's
/// are; they skip the template's passes and allocations.
pub fn is_own_template(line: &str) -> bool {
    let b = line.as_bytes();
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    let mut hex_run = 0;
    let mut prev_space = false;
    for &c in b {
        if !c.is_ascii()
            || c.is_ascii_digit()
            || c == b'"'
            || c == b'\''
            || c == 0
            || (c.is_ascii_whitespace() && c != b' ')
            || (c == b' ' && prev_space)
        {
            return false;
        }
        prev_space = c == b' ';
        hex_run = if c.is_ascii_hexdigit() {
            hex_run + 1
        } else {
            0
        };
        if hex_run >= 6 {
            return false;
        }
    }
    true
}

/// The shortest run of base64 characters read as an encoded blob.
const MIN_BLOB: usize = 40;

/// Every run of at least [`MIN_BLOB`] base64 characters (letters, digits,
/// `+`, `/`; the `=` padding after it) that reads as encoded data — it mixes digits, capitals
/// and small letters, changing between them at least every third
/// character, and one in twelve is a digit — as one variable: a payload,
/// a key or a token, not the words and slashes of a path
/// (`GLOBALROOT/Device/HarddiskVolumeShadowCopy2/Windows` changes seldom).
/// `None` when it holds none.
fn fold_blobs(s: &str) -> Option<String> {
    if s.len() < MIN_BLOB {
        return None;
    }
    let class = |b: u8| match b {
        b'0'..=b'9' => 1u8,
        b'A'..=b'Z' => 2,
        b'a'..=b'z' => 3,
        // `=` only pads the end (a `key=` before a blob is no part of it).
        b'+' | b'/' => 4,
        _ => 0,
    };
    let b = s.as_bytes();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if class(b[i]) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        let (mut seen, mut changes, mut digits) = (0u8, 0usize, 0usize);
        while i < b.len() && class(b[i]) != 0 {
            seen |= 1 << class(b[i]);
            digits += usize::from(class(b[i]) == 1);
            if i > start && class(b[i]) != class(b[i - 1]) {
                changes += 1;
            }
            i += 1;
        }
        let len = i - start;
        let mixed = seen & 0b1110 == 0b1110;
        if len >= MIN_BLOB && mixed && changes * 3 >= len && digits * 12 >= len {
            while i < b.len() && b[i] == b'=' {
                i += 1;
            }
            runs.push((start, i));
        }
    }
    if runs.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for (a, z) in runs {
        out.push_str(&s[at..a]);
        out.push(VAR);
        at = z;
    }
    out.push_str(&s[at..]);
    Some(out)
}

/// A line's template: a leading timestamp removed; every other timestamp,
/// quoted text, UUID, word holding a digit and run of 6+ hex digits a
/// variable `<*>`; adjacent or comma-separated variables merged;
/// whitespace collapsed.
pub fn template(line: &str) -> String {
    let norm: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
    // One pass of all formats first: most lines hold no timestamp, and
    // those skip the eleven formats' searches.
    let any = TIMESTAMP.is_match(&norm);
    let lead = if any { strip_lead_ts(&norm) } else { &norm };
    let var = lead.contains(VAR);
    let mut s = if var {
        lead.replace(VAR, "")
    } else {
        lead.to_owned()
    };
    // Without a timestamp and a NUL to remove, `s` is `norm`: none.
    let first = if any || var { TS_SET.first(&s) } else { None };
    if let Some(first) = first {
        // Formats before the first that matches cannot match; a later one
        // may only match after an earlier one's replacement, so each
        // later format is tried on the text as it is then.
        for r in &TS_EACH[first..] {
            if r.is_match(&s) {
                s = r.replace_all(&s, "\u{0}").into_owned();
            }
        }
    }
    let s = if s.contains(['"', '\'']) {
        unquote(&s)
    } else {
        s
    };
    let s = if s.contains('-') {
        UUID.replace_all(&s, "\u{0}")
    } else {
        Cow::Borrowed(s.as_str())
    };
    let s = match fold_blobs(&s) {
        Some(folded) => Cow::Owned(folded),
        None => s,
    };
    // Words holding a digit.
    let mut t = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, t: &mut String| {
        if word.bytes().any(|b| b.is_ascii_digit()) {
            t.push(VAR);
        } else {
            t.push_str(word);
        }
        word.clear();
    };
    for c in s.chars() {
        if token_sep(c) {
            flush(&mut word, &mut t);
            t.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut t);
    // Hex runs of 6+ not inside an alphanumeric run (bytes: a non-ASCII
    // character's bytes are neither hex digits nor ASCII alphanumerics).
    let b = t.as_bytes();
    let mut h: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_hexdigit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_hexdigit() {
                j += 1;
            }
            if j - i >= 6 && (j == b.len() || !b[j].is_ascii_alphanumeric()) {
                h.push(0);
                i = j;
                continue;
            }
        }
        h.push(c);
        i += 1;
    }
    let h = String::from_utf8(h).expect("hex runs are replaced whole");
    if !h.contains(VAR) {
        return h.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    // Variables in a row, or separated by commas, are one.
    let chars: Vec<char> = h.chars().collect();
    let mut m = String::with_capacity(h.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == VAR {
            m.push(VAR);
            let mut j = i + 1;
            loop {
                if j < chars.len() && chars[j] == VAR {
                    j += 1;
                    continue;
                }
                let mut k = j;
                while k < chars.len() && chars[k].is_whitespace() {
                    k += 1;
                }
                if k < chars.len() && chars[k] == ',' {
                    let mut l = k + 1;
                    while l < chars.len() && chars[l].is_whitespace() {
                        l += 1;
                    }
                    if l < chars.len() && chars[l] == VAR {
                        j = l + 1;
                        continue;
                    }
                }
                break;
            }
            i = j;
            continue;
        }
        m.push(chars[i]);
        i += 1;
    }
    let collapsed: Vec<&str> = m.split_whitespace().collect();
    collapsed.join(" ").replace(VAR, "<*>")
}

/// How a compressor tunes the lean line rules.
pub(crate) struct Rules {
    /// Non-blank lines kept at the end.
    pub tail: usize,
    /// Lines the compressor always keeps (a terminal's summary lines).
    pub extra: Option<fn(&str) -> bool>,
    /// What the units are called in markers (`lines`).
    pub unit: &'static str,
    /// Whether, under compat's size as a ceiling, [`Rules::extra`] lines
    /// keep one line of each kind (an strace's opens: routine lines kept
    /// for what they name), not every distinct one. A terminal's
    /// summaries and findings are answers and all stay.
    pub extra_by_kind: bool,
    /// A line that looks a name up (an strace's `openat(…,
    /// "/usr/lib/locale/C.UTF-8/LC_TIME", …) = -1 ENOENT`: a program
    /// trying the paths it searches, an error by its shape; or the open
    /// that found it, `= 3`), with its outcome (`ENOENT`, `opened`) and
    /// the name. Under compat's size as a ceiling such lines keep one of
    /// each kind, and the marker over the others names what they looked
    /// up, by outcome.
    pub probe: Option<Probe>,
}

/// What [`Rules::probe`] reads from a line: its outcome and its name.
pub(crate) type Probe = for<'a> fn(&'a str) -> Option<(&'a str, &'a str)>;

/// How hard the cut presses to stay within compat's view of the same
/// document (issue 40 §8: a lean view is never larger than compat's).
/// Each level adds one rule to the one before; none drops an error or a
/// warning line (but lookups of level 2: strace's failed lookups beyond
/// one of each kind, named by the marker), a kind's only line, the
/// closing marker or a count.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Squeeze(u8);

impl Squeeze {
    /// The levels, loosest first: 1 the closing marker lists three kinds
    /// (each shows a line); 2 [`Rules::extra`] lines one of each kind
    /// ([`Rules::extra_by_kind`]), so do lookups ([`Rules::probe`], their
    /// names in the markers), and a passing test's verdict is routine
    /// whatever its name; 3 a kind seen twice shows its first line only;
    /// 4–9 rare lines take a half, a quarter, … a 64th of their count and
    /// room in a document of more than 200 lines (where no kind of one or
    /// two lines is a hundredth of it). No level drops what a marker
    /// states of its lines.
    const MAX: u8 = 9;

    /// No pressure: the lean view as it is.
    pub(crate) const NONE: Squeeze = Squeeze(0);

    /// The closing marker lists fewer kinds.
    fn fewer_kinds(self) -> bool {
        self.0 >= 1
    }

    /// Extra lines one of each kind.
    fn extra_by_kind(self) -> bool {
        self.0 >= 2
    }

    /// A kind's first line stands for its others.
    fn one_per_kind(self) -> bool {
        self.0 >= 3
    }

    /// How many halvings rare lines' count and room take.
    fn rare_shift(self) -> u32 {
        u32::from(self.0.saturating_sub(3))
    }
}

/// Documents longer than this are held to no ceiling: each level of
/// [`Squeeze`] is a whole cut (as tables stop at theirs).
const CEILING_BYTES: usize = 1 << 20;

/// Whether a lean view holds no more tokens than compat's view of `body`
/// less the reserve of its retrieve line ([`crate::compress::compat_ceiling`],
/// made once, when first asked). When compat declines, or `body` is over
/// [`CEILING_BYTES`], any view fits: the engine's own test (fewer tokens
/// than the body) is the ceiling then.
pub(crate) fn compat_fits<'a>(body: &'a [u8], query: &'a str) -> impl Fn(&[u8]) -> bool + 'a {
    let room: std::cell::OnceCell<Option<usize>> = std::cell::OnceCell::new();
    move |view: &[u8]| {
        // A long document is not cut again (each level is a whole cut).
        if body.len() > CEILING_BYTES {
            return true;
        }
        match *room.get_or_init(|| crate::compress::compat_ceiling(body, query)) {
            None => true,
            // A view of no more bytes than the room has no more tokens
            // either.
            Some(room) => view.len() <= room || crate::tokens::count(view) <= room,
        }
    }
}

/// The lean view of a document's lines within `fits` (compat's size):
/// the view as it is when it fits, else the first [`Squeeze`] level's
/// that does, else the hardest level's. Under a budget the budget rules
/// and the view is the loosest level's.
pub(crate) fn cut_within(
    doc: &Lines<'_>,
    rules: &Rules,
    query: &str,
    budget: Option<usize>,
    fits: impl Fn(&[u8]) -> bool,
) -> Option<(Vec<u8>, super::lines::Trace)> {
    let mut level = Squeeze::NONE;
    loop {
        let (pieces, trace) = cut::cut_at(doc, rules, query, budget, level)?;
        let view = join(doc, &pieces);
        if budget.is_some() || level.0 >= Squeeze::MAX || fits(&view) {
            return Some((view, trace));
        }
        level = Squeeze(level.0 + 1);
    }
}

mod cut;
mod extremes;
mod kinds;
mod order;
mod rare;
mod testrun;
mod volatile;

pub(crate) use cut::cut;

/// Joins pieces for a document whose units are its lines.
pub(crate) fn join(doc: &Lines<'_>, pieces: &Pieces) -> Vec<u8> {
    super::lines::join_lines(doc, pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pattern compiles in both forms (the ASCII one first meets
    /// a payload otherwise).
    #[test]
    fn patterns_compile_in_both_forms() {
        for re in TS_EACH.iter().chain([&*TIMESTAMP, &CONTINUATION, &UUID]) {
            re.force();
        }
        assert_eq!(TS_SET.first("at 10:00:00"), Some(9));
        assert_eq!(TS_SET.first("\u{e9} 10:00:00"), Some(9));
    }

    /// An encoded payload is one variable; a path of words is not.
    #[test]
    fn base64_blobs_are_variables() {
        let a = template("DEBUG webhook payload=JwbRof2wj8T8HfyiJSc2D5P8NhKVHiy/ZkvN8Kj5EVEYyU2xcTb1etlzUTDgAHoEe9uq");
        let b = template("DEBUG webhook payload=teOEsA+2kW01GdE1PyBTDt8EVrttQxiO8yUE/UtKuxGoHWSU1nrlYdlBr+lPAUvkXmFlCE");
        assert_eq!(a, "DEBUG webhook payload=<*>");
        assert_eq!(a, b);
        let path = "loading org/springframework/boot/autoconfigure/SpringBootApplication";
        assert_eq!(template(path), path);
        let hive =
            "Unloading hive: GLOBALROOT/Device/HarddiskVolumeShadowCopy/Windows/System/config/SAM";
        assert_eq!(template(hive), hive);
    }

    /// The timestamp is stripped as a search of each format along the
    /// whole line strips it: the first format, in order, whose first
    /// match has only ` [(<` before it.
    #[test]
    fn strips_the_timestamp_a_search_finds() {
        let searched = |line: &str| -> usize {
            for r in TS_EACH.iter() {
                if let Some(m) = r.find(line) {
                    if line[..m.start()].chars().all(|c| " [(<".contains(c)) {
                        return m.end();
                    }
                }
            }
            0
        };
        let lines = [
            "2024-01-01 10:00:00,123 INFO a",
            "[2024-01-01T10:00:00Z] b",
            " ( <10:00:01.5> c",
            "[ [x 10:00:01 d",
            "10.0.0.1 - - [01/Jan/2024:10:00:00 +0000] \"GET /\"",
            "Jan  1 10:00:00 host sshd[1]: e",
            "Mon Jan  1 10:00:00.5 2024 f",
            "081109 203615 148 INFO g",
            "1700000000.5 h",
            "170000000 i",
            "[\u{e9}] 10:00:00 j",
            "\u{e9} 2024-01-01 10:00:00 k",
            " 10:00:00\u{e9} l",
            "01-02 10:00:00.123  1 2 I m",
            "20240101-10:0:0:1 n",
            "  ",
            "",
            "x 10:00:00",
            "[10:00:0 o 10:00:00",
        ];
        for l in lines {
            assert_eq!(strip_lead_ts(l), &l[searched(l)..], "{l:?}");
        }
    }

    #[test]
    fn a_plain_line_is_its_own_template() {
        for l in [
            "a",
            "hello world",
            "INFO request served path=/api/items status=ok",
            "fn main() {",
            "",
            "- [x] done: yes, (maybe) <tag> & more",
        ] {
            assert!(is_own_template(l), "{l}");
            assert_eq!(template(l), l);
        }
        for l in [
            "a  b",
            " a",
            "a\tb",
            "id 12",
            "say \"x\"",
            "it's",
            "abcdef",
            "caf\u{e9}",
            "a\u{0}b",
        ] {
            assert!(!is_own_template(l), "{l}");
        }
    }

    #[test]
    fn templates_mask_variables() {
        assert_eq!(
            template(
                "2024-01-02 03:04:05 INFO Received block blk_123 of size 67108864 from /10.0.0.1"
            ),
            "INFO Received block <*> of size <*> from /<*>"
        );
        assert_eq!(
            template("user \"bob\" logged in from 10.0.0.1:22"),
            "user \"<*>\" logged in from <*>:<*>"
        );
        assert_eq!(
            template("[  5.123] eth0: link up"),
            template("[ 17.001] eth0: link up")
        );
        assert_eq!(template("ids 1, 2, 3 and deadbeef00"), "ids <*> and <*>");
        assert_eq!(template("{\"k\": \"v\"}"), "{\"k\": \"<*>\"}");
    }

    /// The closing marker's span is the first and last timestamp; it is
    /// said to run "from" one "to" the other only when the timestamps run
    /// in time order (`git blame` lines do not).
    #[test]
    fn a_span_is_claimed_only_over_timestamps_in_order() {
        let rules = Rules {
            tail: 1,
            extra: None,
            unit: "lines",
            extra_by_kind: false,
            probe: None,
        };
        let view = |text: &str| {
            let doc = Lines::split(text);
            let (pieces, _) = cut(&doc, &rules, "", None).unwrap();
            String::from_utf8(join(&doc, &pieces)).unwrap()
        };
        let mut blame = String::new();
        let mut log = String::new();
        for i in 0..300u32 {
            let month = 1 + (i * 7) % 9;
            blame.push_str(&format!(
                "a1b2c3d{} (Carol White 2026-{month:02}-{:02} 10:00:00 +0000 {i:3}) let x{} = {};\n",
                i % 10,
                1 + i % 28,
                i % 13,
                i * 31 % 97
            ));
            log.push_str(&format!(
                "Mar {:2} {:02}:00:00 host app[{i}]: served request {}\n",
                1 + i / 24,
                i % 24,
                i % 13
            ));
        }
        let b = view(&blame);
        assert!(!b.contains(", from 2026-"), "{b}");
        assert!(
            b.contains(", first timestamp 2026-01-01 10:00:00, last 2026-"),
            "{b}"
        );
        assert!(b.contains("(not in time order)"), "{b}");
        let l = view(&log);
        assert!(
            l.contains(", from Mar  1 00:00:00 to Mar 13 11:00:00"),
            "{l}"
        );
    }

    #[test]
    fn errors_kept_counts_add_up() {
        let mut text = String::new();
        for i in 0..300 {
            text.push_str(&format!(
                "2024-01-01 00:00:{:02} INFO served request {i}\n",
                i % 60
            ));
            if i % 50 == 7 {
                text.push_str(&format!(
                    "2024-01-01 00:00:{:02} ERROR db timeout on shard {i}\n",
                    i % 60
                ));
            }
        }
        let doc = Lines::split(&text);
        let rules = Rules {
            tail: 1,
            extra: None,
            unit: "lines",
            extra_by_kind: false,
            probe: None,
        };
        let (pieces, _) = cut(&doc, &rules, "", None).unwrap();
        let out = String::from_utf8(join(&doc, &pieces)).unwrap();
        for l in text.lines().filter(|l| l.contains("ERROR")) {
            assert!(out.contains(l), "{l}");
        }
        let mut counted = 0;
        for l in out.lines() {
            if let Some(rest) = l.strip_prefix("\u{2026} ") {
                if let Some(n) = rest.split(' ').next().and_then(|x| x.parse::<usize>().ok()) {
                    counted += n;
                    continue;
                }
            }
            if !l.starts_with("\u{2026} caveman:") {
                counted += 1;
            }
        }
        assert_eq!(counted, text.lines().count());
        assert!(out.contains("306 lines in all"), "{out}");
    }
}
