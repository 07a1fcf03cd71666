//! The terminal compressor (content type `terminal`, method `terminal`;
//! spec/terminal.md): every line's carriage-return redraws resolve to the
//! last non-empty frame, then ANSI/VT escape sequences are deleted; with 4
//! or more lines, 3 head lines, 3 tail lines, signal lines and one line per
//! kind stay, and every other run (even a single line) becomes a marker.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use super::shared::lines::{join_lines, Keep, Lines, Pieces};
use super::{Compressed, Decline, Input, Trace};
use crate::go::regexp;

pub(crate) mod terraform;

/// Lines kept at the start and at the end.
const HEAD: usize = 3;
const TAIL: usize = 3;
/// Elision applies from this many lines.
const MIN_LINES: usize = 4;
const MARKER_TEXT: &str = "lines elided (caveman)";

/// Lines that are always kept (terminal.md §3 step 4.1).
static SIGNAL: LazyLock<Regex> = LazyLock::new(|| {
    regexp::compile(
        r#"(?i)(\b(ERROR|ERR|FATAL|PANIC|EXCEPTION|TRACEBACK|FAIL|FAILED|FAILURE|WARN|WARNING)\b|[A-Za-z]+Error\b|[A-Za-z]+Exception\b|^\s+at\s|^\s+File "|\.go:\d+|:\d+:\d+:|^\s*--->|caused by|\bexit status [1-9])"#,
    )
});

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    if input.body.is_empty() {
        return Err(Decline("empty input"));
    }
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    if input.profile.is_lean() {
        if matches!(input.parsed, crate::detect::Parsed::Unsure) {
            return super::text::unsure(text);
        }
        return lean(text, input.query, input.budget);
    }
    compress(text)
}

/// Lines a terminal summary ends with: test and build totals.
static SUMMARY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\d+ (passed|failed|errors?|warnings?|skipped|ignored|pending|failing|passing)\b|\bBUILD (SUCCESS|FAILURE|SUCCESSFUL|FAILED)\b|^\s*Finished\b|error\[E\d+\]|^(Tests|Test Suites|Test Files):|^test result:|^(ok|FAIL)\s+\S+\s|^(PASS|FAIL)$|^=+ .* =+$|^_{3,} .* _{3,}$|--- FAIL|^Successfully (installed|built|tagged)|^(added|removed|changed|audited) \d+ packages?",
    )
    .expect("summary pattern")
});

/// A compiler's or linter's finding: `path/file.ext:12:5: message`
/// (gcc, go vet, golangci-lint, ruff, flake8, mypy, shellcheck -f gcc),
/// `file.ts(12,5): message` (tsc, MSBuild). Each one is an answer of
/// the run, whatever its words.
static DIAGNOSTIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\w.@~/\\+-]*[\w-]\.[A-Za-z0-9]{1,10}(:\d+(:\d+)?:|\(\d+,\d+\):) *\S")
        .expect("diagnostic pattern")
});

/// Lines the lean terminal view keeps as signals: summaries and
/// findings.
fn summary_line(l: &str) -> bool {
    SUMMARY.is_match(l) || DIAGNOSTIC.is_match(l)
}

/// The lean terminal view: redraws and escapes cleaned away, then an
/// aligned table read as a table, anything else by the lean line rules
/// with the tool's summary lines and the last three lines kept.
fn lean(text: &str, query: &str, budget: Option<usize>) -> Result<Compressed, Decline> {
    use super::shared::lean;
    let mut clock = crate::timings::Clock::new("terminal");
    let (body, trailing_lf, cr) = cleaned(text, true);
    if let Some(c) = terraform::view(&body, trailing_lf, cr, budget) {
        return Ok(c);
    }
    let doc = Lines::of_body(&body, trailing_lf, cr);
    clock.mark("clean");
    let whole = || lean::join(&doc, &Pieces::all(doc.len()));
    if may_be_aligned(doc.iter()) {
        clock.mark("may be aligned");
        if let Ok(t) = std::str::from_utf8(&whole()) {
            if let Some(c) = super::tabular::lean_aligned(t, query, TAIL, budget) {
                return Ok(c);
            }
        }
        clock.mark("aligned");
    }
    let rules = lean::Rules {
        tail: 3,
        extra: Some(summary_line),
        unit: "lines",
        extra_by_kind: false,
        probe: None,
    };
    let fits = lean::compat_fits(text.as_bytes(), query);
    let cut = lean::cut_within(&doc, &rules, query, budget, fits);
    clock.mark("cut");
    match cut {
        Some((view, trace)) => Ok(Compressed::traced(view, trace)),
        // Short output: the cleaned lines.
        None => Ok(Compressed::new(whole())),
    }
}

/// The text with every line cleaned ([`clean`]; under lean
/// [`clean_lean`]), without its trailing LF, with whether it had one and
/// the document's line ending: borrowed when no line holds a CR or an
/// escape, else built on every core.
fn cleaned(text: &str, lean: bool) -> (Cow<'_, str>, bool, &'static str) {
    let raw = Lines::split(text);
    let (trailing_lf, cr) = (raw.trailing_lf, raw.cr);
    let body = raw.body();
    if memchr::memchr2(b'\r', 0x1b, body.as_bytes()).is_none() {
        return (Cow::Borrowed(body), trailing_lf, cr);
    }
    let parts: Vec<String> = crate::par::map(crate::par::ranges(raw.len(), 8192), |r| {
        let mut out = String::new();
        for (k, l) in raw.range(r).enumerate() {
            if k > 0 {
                out.push('\n');
            }
            if lean {
                out.push_str(&clean_lean(l));
            } else {
                out.push_str(&clean(l));
            }
        }
        out
    });
    (Cow::Owned(parts.join("\n")), trailing_lf, cr)
}

/// Whether the lines can be an aligned table at all (cheap, no
/// allocation): some lines drawn with bars, or most lines (80 %) long
/// enough for columns. Spares building the table parser's per-line state
/// for output that is plainly not one.
fn may_be_aligned<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let (mut content, mut long, mut barred) = (0usize, 0usize, 0usize);
    for l in lines {
        if l.trim().is_empty() {
            continue;
        }
        content += 1;
        if l.len() >= 8 && l.chars().nth(7).is_some() {
            long += 1;
        }
        if l.contains(['│', '┃', '|']) {
            barred += 1;
        }
    }
    barred > crate::table::aligned::MIN_ROWS || long * 10 >= content * 8
}

/// The terminal view of `text` (terminal.md §3).
pub(crate) fn compress(text: &str) -> Result<Compressed, Decline> {
    let (body, trailing_lf, cr) = cleaned(text, false);
    let doc = Lines::of_body(&body, trailing_lf, cr);
    let n = doc.len();
    let mut trace = Trace::default();
    let out = if n < MIN_LINES {
        join_lines(&doc, &Pieces::all(n))
    } else {
        // The signal lines' numbers (none held for the others).
        let signals = doc.matching(|l| l.contains(MARKER_TEXT) || SIGNAL.is_match(l));
        let mut keep = Keep::new(n);
        // Head, tail and signals in document order (reasons are listed
        // in the order first used).
        let mut signal = signals.into_iter().peekable();
        for i in (0..HEAD).chain(HEAD.max(n - TAIL)..n) {
            while let Some(&j) = signal.peek() {
                if j >= i {
                    break;
                }
                if j >= HEAD && j < n - TAIL {
                    keep.set(j, "error, warning or stack frame");
                }
                signal.next();
            }
            keep.set(i, if i < HEAD { "head" } else { "tail" });
        }
        keep.guard(|i| doc.line(i));
        let (pieces, _, t) = keep.collapse(|run| {
            Some((
                format!("\u{2026} {} lines elided (caveman) \u{2026}", run.len()),
                0,
            ))
        });
        trace = t;
        join_lines(&doc, &pieces)
    };
    if out.is_empty() {
        return Err(Decline("nothing left once cleaned"));
    }
    if out == text.as_bytes() {
        return Err(Decline("nothing to clean or drop"));
    }
    Ok(Compressed::traced(out, trace))
}

/// One line cleaned (terminal.md §3 step 2): its final CR set aside, the
/// last non-empty carriage-return frame kept, escape sequences deleted,
/// the CR put back.
pub(crate) fn clean(line: &str) -> Cow<'_, str> {
    let (body, cr) = match line.strip_suffix('\r') {
        Some(b) => (b, true),
        None => (line, false),
    };
    let frame = if body.contains('\r') {
        body.rsplit('\r').find(|s| !s.is_empty()).unwrap_or("")
    } else {
        body
    };
    if frame.len() == body.len() && !frame.contains('\x1b') {
        return Cow::Borrowed(line);
    }
    let mut out = strip_escapes(frame);
    if cr {
        out.push('\r');
    }
    Cow::Owned(out)
}

/// One line cleaned as [`clean`] does, except that a frame a later one
/// drew over is not lost when it is a signal line (an error, a warning, a
/// failure): such frames stay, each a line of its own (with the line's CR
/// ending, if any), before the last one.
fn clean_lean(line: &str) -> Cow<'_, str> {
    let (body, cr) = match line.strip_suffix('\r') {
        Some(b) => (b, "\r"),
        None => (line, ""),
    };
    if !body.contains('\r') {
        return clean(line);
    }
    let Some(last) = body.rsplit('\r').find(|s| !s.is_empty()) else {
        return clean(line);
    };
    let last_at = last.as_ptr() as usize - body.as_ptr() as usize;
    let last = strip_escapes(last);
    let mut out = String::new();
    let mut previous = String::new();
    for frame in body[..last_at].split('\r').filter(|f| !f.is_empty()) {
        let cleaned = strip_escapes(frame);
        if cleaned != previous && cleaned != last && SIGNAL.is_match(&cleaned) {
            out.push_str(&cleaned);
            out.push_str(cr);
            out.push('\n');
            previous = cleaned;
        }
    }
    if out.is_empty() {
        return clean(line);
    }
    out.push_str(&last);
    out.push_str(cr);
    Cow::Owned(out)
}

/// Deletes every non-overlapping match, left to right, of
/// `\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\x5c-_]`
/// in one forward scan: a CSI sequence, an OSC string ended by BEL or
/// ESC `\`, or a two-byte escape (ESC and a byte in 0x40–0x5A or
/// 0x5C–0x5F: `]` is in, `[` is not). An unterminated OSC loses only its
/// `ESC ]`; a lone ESC stays.
pub(crate) fn strip_escapes(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr(0x1b, &b[i..]) {
        let esc = i + off;
        match escape_len(b, esc) {
            Some(len) => {
                out.push_str(&s[copied..esc]);
                i = esc + len;
                copied = i;
            }
            None => i = esc + 1,
        }
    }
    out.push_str(&s[copied..]);
    out
}

/// Length of the escape sequence starting with the ESC at `at`, if one
/// matches there (the pattern's alternatives in order).
fn escape_len(b: &[u8], at: usize) -> Option<usize> {
    let next = *b.get(at + 1)?;
    if next == b'[' {
        let mut j = at + 2;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b';' || b[j] == b'?') {
            j += 1;
        }
        while j < b.len() && (0x20..=0x2f).contains(&b[j]) {
            j += 1;
        }
        if j < b.len() && (0x40..=0x7e).contains(&b[j]) {
            return Some(j + 1 - at);
        }
        // `[` is not a two-byte escape: no match at this ESC.
        return None;
    }
    if next == b']' {
        if let Some(k) = memchr::memchr2(0x07, 0x1b, &b[at + 2..]) {
            let t = at + 2 + k;
            if b[t] == 0x07 {
                return Some(t + 1 - at);
            }
            if b.get(t + 1) == Some(&b'\\') {
                return Some(t + 2 - at);
            }
        }
    }
    matches!(next, 0x40..=0x5a | 0x5c..=0x5f).then_some(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(s: &str) -> Option<String> {
        compress(s)
            .ok()
            .map(|c| String::from_utf8(c.bytes).unwrap())
    }

    #[test]
    fn examples_of_the_spec() {
        assert_eq!(
            view("\x1b[32mPASS\x1b[0m build ok\n").unwrap(),
            "PASS build ok\n"
        );
        assert_eq!(
            view("Downloading\rDownloading 50%\rDownloading 100% done\n").unwrap(),
            "Downloading 100% done\n"
        );
        assert_eq!(
            view("one\rtwo\r\nx\r\r\ny 10%\r20%\r").unwrap(),
            "two\r\nx\r\n20%\r"
        );
        assert_eq!(clean("a 50%\r\x1b[2K"), "");
        assert_eq!(
            strip_escapes("b\x1b]0;title\x07c\x1b]0;unterminated"),
            "bc0;unterminated"
        );
        assert_eq!(
            strip_escapes("d\x1b[38:5:1me\x1b[>cf\x1b(Bg\x1bMh"),
            "d\x1b[38:5:1me\x1b[>cf\x1b(Bgh"
        );
        assert_eq!(strip_escapes("x\x1b]a\x1b\\y\x1b"), "xy\x1b");
        assert_eq!(view("plain\nshort\n"), None);
        assert_eq!(view("\x1b[0m"), None);
        assert_eq!(view("\x1b[0m\n").unwrap(), "\n");
    }

    #[test]
    fn every_dropped_run_is_a_marker() {
        let s: String = (1..=7).map(|k| format!("step {k} ok\n")).collect();
        assert_eq!(
            view(&s).unwrap(),
            "step 1 ok\nstep 2 ok\nstep 3 ok\n… 1 lines elided (caveman) …\nstep 5 ok\nstep 6 ok\nstep 7 ok\n"
        );
    }

    #[test]
    fn lean_keeps_a_signal_frame_drawn_over() {
        assert_eq!(
            clean_lean("fetch 10%\rERROR: connection reset\rfetch 100% done\r"),
            "ERROR: connection reset\r\nfetch 100% done\r"
        );
        assert_eq!(clean_lean("a 50%\r\x1b[2K"), "");
        assert_eq!(clean_lean("10%\r20%\rdone"), "done");
        assert_eq!(
            clean_lean("\x1b[31mFAILED\x1b[0m x\rFAILED x\rFAILED x\rok"),
            "FAILED x\nok"
        );
        // Compat keeps the reference's last frame.
        assert_eq!(
            clean("fetch 10%\rERROR: connection reset\rfetch 100% done"),
            "fetch 100% done"
        );
    }

    #[test]
    fn a_long_redraw_line_is_linear() {
        let s = "x".repeat(10) + &"\r12%".repeat(100_000) + "\rdone\n";
        assert_eq!(view(&s).unwrap(), "done\n");
    }
}
