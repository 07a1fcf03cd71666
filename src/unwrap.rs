//! Presentation wrappers (spec/engine.md §2): a line-number gutter
//! ("listing") and a `<file …>…</file>` wrapper, peeled up to four layers
//! before detection and compression, and re-applied to the output. Under
//! lean also CR-only line endings (classic Mac files, some serial logs):
//! read as lines, not as one line of terminal redraws, and the view written
//! back with CRs.

use crate::go::unicode::{is_blank, leading_space, trailing_space};

/// At most this many wrapper layers are peeled.
pub const MAX_LAYERS: usize = 4;

/// A listing needs at least this many (numbered) lines.
const MIN_LISTING_LINES: usize = 8;

/// Gutter numbers have at most this many digits.
const MAX_GUTTER_DIGITS: usize = 12;

/// One peeled layer.
#[derive(Debug, Clone)]
pub enum Wrapper {
    /// Line-number gutter: the unwrapped source and one number per line;
    /// under lean also the gutter's own form, which the view keeps.
    Gutter {
        source: Vec<u8>,
        numbers: Vec<u64>,
        form: Option<GutterForm>,
    },
    /// `<file …>` wrapper: bytes before and after the inner body; under
    /// lean, `lines` when the body stood on lines of its own (the opening
    /// line's break is then part of the prefix, and the view ends its last
    /// line before the closing tag).
    File {
        prefix: Vec<u8>,
        suffix: Vec<u8>,
        lines: bool,
    },
    /// Lines ended by a lone CR (lean): the body is read with LFs.
    CrLines,
}

impl Wrapper {
    /// What the layer is, for `--explain`.
    pub fn name(&self) -> &'static str {
        match self {
            Wrapper::Gutter { .. } => "line-number gutter",
            Wrapper::File { .. } => "<file> wrapper",
            Wrapper::CrLines => "CR-only line endings",
        }
    }
}

/// How a gutter was written (lean): the separator after its numbers
/// (numbers are written without their padding, which costs tokens).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GutterForm {
    sep: Vec<u8>,
}

/// Peels up to `MAX_LAYERS` wrappers, outermost first. The body borrows
/// the input when nothing was peeled.
pub fn unwrap(input: &[u8]) -> (std::borrow::Cow<'_, [u8]>, Vec<Wrapper>) {
    peel(input, false)
}

/// [`unwrap`]; `lean` keeps each gutter's form for [`rewrap`].
fn peel(input: &[u8], lean: bool) -> (std::borrow::Cow<'_, [u8]>, Vec<Wrapper>) {
    use std::borrow::Cow;
    let mut body: Cow<'_, [u8]> = Cow::Borrowed(input);
    let mut layers = Vec::new();
    for _ in 0..MAX_LAYERS {
        if let Some((source, numbers)) = parse_listing(&body) {
            let form = lean.then(|| gutter_form(&body)).flatten();
            layers.push(Wrapper::Gutter {
                source: source.clone(),
                numbers,
                form,
            });
            body = Cow::Owned(source);
        } else if let Some((prefix, inner, suffix)) = parse_file_wrapper(&body) {
            // Lean keeps the tag on its own line: the line break after it
            // goes with the prefix, not with the body a compressor rewrites.
            let brk = if !lean {
                0
            } else if inner.starts_with(b"\r\n") {
                2
            } else {
                usize::from(inner.starts_with(b"\n"))
            };
            let lines = brk > 0 && inner.ends_with(b"\n");
            let brk = if lines { brk } else { 0 };
            let mut prefix = prefix.to_vec();
            prefix.extend_from_slice(&inner[..brk]);
            let inner = inner[brk..].to_vec();
            layers.push(Wrapper::File {
                prefix,
                suffix: suffix.to_vec(),
                lines,
            });
            body = Cow::Owned(inner);
        } else {
            break;
        }
    }
    (body, layers)
}

/// A body needs this many CRs (and no LF) to be read as CR-ended lines.
const MIN_CR_LINES: usize = 2;

/// [`unwrap`] under `profile`: lean also reads a body whose lines end in a
/// lone CR (no LF anywhere, at least [`MIN_CR_LINES`] CRs) as lines. The
/// reference reads it as one line of terminal redraws and keeps the last,
/// so compat does too.
pub fn unwrap_as(
    input: &[u8],
    profile: crate::profile::Profile,
) -> (std::borrow::Cow<'_, [u8]>, Vec<Wrapper>) {
    let (body, mut layers) = peel(input, profile.is_lean());
    if !profile.is_lean() || !cr_only(&body) {
        return (body, layers);
    }
    let lines: Vec<u8> = body
        .iter()
        .map(|&b| if b == b'\r' { b'\n' } else { b })
        .collect();
    layers.push(Wrapper::CrLines);
    (std::borrow::Cow::Owned(lines), layers)
}

/// Whether every line of `body` ends in a lone CR: no LF at all and at
/// least [`MIN_CR_LINES`] CRs.
fn cr_only(body: &[u8]) -> bool {
    memchr::memchr(b'\n', body).is_none()
        && memchr::memchr_iter(b'\r', body).take(MIN_CR_LINES).count() == MIN_CR_LINES
}

/// Re-applies the wrappers, innermost first.
pub fn rewrap(mut out: Vec<u8>, layers: &[Wrapper]) -> Vec<u8> {
    for w in layers.iter().rev() {
        out = match w {
            Wrapper::Gutter {
                source,
                numbers,
                form: None,
            } => restore_gutter(&out, source, numbers),
            Wrapper::Gutter {
                source,
                numbers,
                form: Some(form),
            } => restore_lean_gutter(&out, source, numbers, form),
            Wrapper::File {
                prefix,
                suffix,
                lines,
            } => {
                let mut v = Vec::with_capacity(prefix.len() + out.len() + suffix.len() + 1);
                v.extend_from_slice(prefix);
                v.extend_from_slice(&out);
                if *lines && !out.is_empty() && !out.ends_with(b"\n") {
                    v.push(b'\n');
                }
                v.extend_from_slice(suffix);
                v
            }
            Wrapper::CrLines => {
                for b in out.iter_mut().filter(|b| **b == b'\n') {
                    *b = b'\r';
                }
                out
            }
        };
    }
    out
}

/// Splits on `\n`, dropping the final empty element when there are more
/// than one; returns the lines and whether that happened.
fn split_lines(s: &[u8]) -> (Vec<&[u8]>, bool) {
    let mut lines: Vec<&[u8]> = s.split(|&b| b == b'\n').collect();
    let mut trailing = false;
    if lines.len() > 1 && lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
        trailing = true;
    }
    (lines, trailing)
}

/// Where each source line occurs, by content: a view line is looked up
/// once, not searched for through the rest of the source (a scan per
/// line made a view of lines the source does not hold quadratic).
struct LineIndex<'a>(rustc_hash::FxHashMap<&'a [u8], Vec<usize>>);

impl<'a> LineIndex<'a> {
    fn new(lines: &[&'a [u8]]) -> Self {
        let mut at: rustc_hash::FxHashMap<&[u8], Vec<usize>> = Default::default();
        for (i, l) in lines.iter().enumerate() {
            at.entry(*l).or_default().push(i);
        }
        LineIndex(at)
    }

    /// The first position at or after `from` that holds `line`.
    fn find(&self, line: &[u8], from: usize) -> Option<usize> {
        let at = self.0.get(line)?;
        at.get(at.partition_point(|&p| p < from)).copied()
    }

    /// The last position that holds `line`.
    fn last(&self, line: &[u8]) -> Option<usize> {
        self.0.get(line).and_then(|at| at.last().copied())
    }
}

/// Gutter of one line: its number and content.
fn gutter(line: &[u8]) -> Option<(u64, &[u8])> {
    let mut i = 0;
    while i < line.len() && line[i] == b' ' {
        i += 1;
    }
    let d0 = i;
    while i < line.len() && line[i].is_ascii_digit() {
        i += 1;
    }
    let digits = i - d0;
    if digits == 0 || digits > MAX_GUTTER_DIGITS {
        return None;
    }
    let n: u64 = std::str::from_utf8(&line[d0..i]).ok()?.parse().ok()?;
    let rest = &line[i..];
    if rest.is_empty() {
        Some((n, rest))
    } else if rest[0] == b'\t' {
        Some((n, &rest[1..]))
    } else if rest.starts_with(b" | ") {
        Some((n, &rest[3..]))
    } else if rest.starts_with(b": ") {
        Some((n, &rest[2..]))
    } else {
        None
    }
}

/// Parses a numbered listing (engine.md §2.1).
fn parse_listing(body: &[u8]) -> Option<(Vec<u8>, Vec<u64>)> {
    if body.is_empty() {
        return None;
    }
    // Cheap rejection: the first line must already be a gutter or blank.
    let first = body.split(|&b| b == b'\n').next().unwrap_or(body);
    if gutter(first).is_none() && !is_blank(first) {
        return None;
    }
    let (lines, trailing) = split_lines(body);
    if lines.len() < MIN_LISTING_LINES {
        return None;
    }
    let mut previous = 0u64;
    let mut numbered = 0usize;
    let mut numbers = Vec::with_capacity(lines.len());
    let mut source = Vec::with_capacity(body.len());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            source.push(b'\n');
        }
        if let Some((n, content)) = gutter(line) {
            if n <= previous {
                return None;
            }
            previous = n;
            numbered += 1;
            numbers.push(n);
            source.extend_from_slice(content);
        } else if is_blank(line) {
            numbers.push(previous);
        } else {
            return None;
        }
    }
    if numbered < MIN_LISTING_LINES {
        return None;
    }
    if trailing {
        source.push(b'\n');
    }
    Some((source, numbers))
}

/// Puts a `N\t` gutter back on compressed output (engine.md §2.1 Restore).
fn restore_gutter(out: &[u8], source: &[u8], numbers: &[u64]) -> Vec<u8> {
    let (src_lines, _) = split_lines(source);
    if src_lines.len() > numbers.len() || numbers.is_empty() {
        return out.to_vec();
    }
    let index = LineIndex::new(&src_lines);
    let (out_lines, trailing) = split_lines(out);
    let mut cursor = 0usize;
    let (mut tracked, mut traced) = (0usize, 0usize);
    let mut result = Vec::with_capacity(out.len() + out_lines.len() * 6);
    for (i, line) in out_lines.iter().enumerate() {
        let mut number = numbers[cursor.min(numbers.len() - 1)];
        if !is_blank(line) {
            tracked += 1;
            if let Some(pos) = index.find(line, cursor) {
                number = numbers[pos];
                cursor = pos + 1;
                traced += 1;
            }
        }
        if i > 0 {
            result.push(b'\n');
        }
        result.extend_from_slice(number.to_string().as_bytes());
        result.push(b'\t');
        result.extend_from_slice(line);
    }
    if trailing {
        result.push(b'\n');
    }
    if tracked > 0 && 2 * traced < tracked {
        return out.to_vec();
    }
    result
}

/// The form of the first numbered line's gutter.
fn gutter_form(body: &[u8]) -> Option<GutterForm> {
    let line = body.split(|&b| b == b'\n').find(|l| gutter(l).is_some())?;
    let rest = {
        let t = line.trim_ascii_start();
        &t[t.iter().take_while(|b| b.is_ascii_digit()).count()..]
    };
    let sep: &[u8] = if rest.starts_with(b" | ") {
        b" | "
    } else if rest.starts_with(b": ") {
        b": "
    } else {
        b"\t"
    };
    Some(GutterForm { sep: sep.to_vec() })
}

/// A line starts a run of source lines when this many lines of the view,
/// it among them, follow one another in the source.
const RUN_ANCHOR: usize = 3;

/// Puts the gutter back on a lean view in its own form: a line the view
/// kept from the source gets its number, any other line (a marker, a
/// rewritten line) a blank gutter, so no number points at a line it is
/// not. A line is the source's line when it follows a traced line
/// directly, occurs only once in the rest of the source, or starts a run
/// of [`RUN_ANCHOR`] lines that follow one another there. When fewer than
/// half the lines trace, the view goes without a gutter.
fn restore_lean_gutter(out: &[u8], source: &[u8], numbers: &[u64], form: &GutterForm) -> Vec<u8> {
    let (src_lines, _) = split_lines(source);
    if src_lines.len() > numbers.len() || numbers.is_empty() {
        return out.to_vec();
    }
    let index = LineIndex::new(&src_lines);
    // Whether the source line had a number of its own (blank lines
    // without a gutter carry the number before them).
    let numbered = |pos: usize| numbers[pos] != if pos == 0 { 0 } else { numbers[pos - 1] };
    let (out_lines, trailing) = split_lines(out);
    let (mut cursor, mut follows) = (0usize, false);
    let (mut tracked, mut traced) = (0usize, 0usize);
    let mut result = Vec::with_capacity(out.len() + out_lines.len() * 8);
    for (i, line) in out_lines.iter().enumerate() {
        let mut number = None;
        if let Some(pos) = index.find(line, cursor) {
            let unique = index.last(line) == Some(pos);
            // A run of lines the same as the source's from `pos` on.
            let run = (1..RUN_ANCHOR).all(|k| {
                out_lines.get(i + k).is_some() && out_lines.get(i + k) == src_lines.get(pos + k)
            });
            if (pos == cursor && follows) || unique || run {
                cursor = pos + 1;
                number = numbered(pos).then_some(numbers[pos]);
                follows = true;
            } else {
                follows = false;
            }
        } else {
            follows = false;
        }
        if !is_blank(line) {
            tracked += 1;
            traced += usize::from(follows);
        }
        if i > 0 {
            result.push(b'\n');
        }
        if let Some(n) = number {
            result.extend_from_slice(n.to_string().as_bytes());
        }
        result.extend_from_slice(&form.sep);
        result.extend_from_slice(line);
    }
    if trailing {
        result.push(b'\n');
    }
    if tracked > 0 && 2 * traced < tracked {
        return out.to_vec();
    }
    result
}

fn count_occurrences(hay: &[u8], needle: &[u8]) -> usize {
    memchr::memmem::find_iter(hay, needle).count()
}

/// Parses a `<file …>` wrapper (engine.md §2.2): prefix, inner, suffix.
fn parse_file_wrapper(body: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let lead = leading_space(body);
    if lead == body.len() {
        return None;
    }
    let trail = trailing_space(body, lead);
    let t = &body[lead..body.len() - trail];
    if t.len() < 9 {
        return None;
    }
    if !t.starts_with(b"<file") || !matches!(t[5], b' ' | b'\t' | b'>') {
        return None;
    }
    if !t.ends_with(b"</file>") {
        return None;
    }
    if count_occurrences(t, b"<file") != 1 || count_occurrences(t, b"</file>") != 1 {
        return None;
    }
    let close = t.len() - 7;
    let mut quote = 0u8;
    let mut gt = None;
    for (i, &b) in t.iter().enumerate().skip(5) {
        if quote != 0 {
            if b == quote {
                quote = 0;
            }
        } else if b == b'"' || b == b'\'' {
            quote = b;
        } else if b == b'>' {
            gt = Some(i);
            break;
        }
    }
    let gt = gt?;
    if gt >= close {
        return None;
    }
    let inner = &t[gt + 1..close];
    if is_blank(inner) {
        return None;
    }
    let prefix = &body[..lead + gt + 1];
    let suffix = &body[lead + close..];
    Some((prefix, inner, suffix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lean_reads_cr_only_lines_and_writes_them_back() {
        use crate::profile::Profile;
        let input = b"a 1\rb 2\rc 3\r";
        let (body, layers) = unwrap_as(input, Profile::Lean);
        assert_eq!(&body[..], b"a 1\nb 2\nc 3\n");
        assert_eq!(layers.len(), 1);
        assert_eq!(layers[0].name(), "CR-only line endings");
        assert_eq!(
            rewrap("a 1\n\u{2026}\n".as_bytes().to_vec(), &layers),
            "a 1\r\u{2026}\r".as_bytes()
        );
        // Compat reads them as the reference does; one CR, or any LF, is
        // not a CR-only document.
        assert!(unwrap_as(input, Profile::Compat).1.is_empty());
        assert!(unwrap_as(b"50%\rdone", Profile::Lean).1.is_empty());
        assert!(unwrap_as(b"a\rb\rc\n", Profile::Lean).1.is_empty());
        assert!(unwrap_as(b"a\r\nb\r\n", Profile::Lean).1.is_empty());
    }

    #[test]
    fn listing_needs_eight_lines() {
        let seven: String = (1..=7).map(|i| format!("{i} | x{i}\n")).collect();
        assert!(parse_listing(seven.as_bytes()).is_none());
        let eight: String = (1..=8).map(|i| format!("{i} | x{i}\n")).collect();
        let (src, nums) = parse_listing(eight.as_bytes()).unwrap();
        assert_eq!(src, b"x1\nx2\nx3\nx4\nx5\nx6\nx7\nx8\n");
        assert_eq!(nums, (1..=8).collect::<Vec<u64>>());
    }

    #[test]
    fn gutter_forms() {
        assert_eq!(gutter(b"  007\tx"), Some((7, &b"x"[..])));
        assert_eq!(gutter(b"5: x"), Some((5, &b"x"[..])));
        assert_eq!(gutter(b"5"), Some((5, &b""[..])));
        assert!(gutter(b"5|x").is_none());
        assert!(gutter(b"5 |").is_none());
        assert!(gutter(b"5:").is_none());
        assert!(gutter(b"12\r").is_none());
        assert!(gutter(b"1234567890123\tx").is_none());
    }

    #[test]
    fn restore_example_from_spec() {
        let source = b"alpha\nbeta\ngamma\ndelta\n\nzeta\neta\ntheta\n";
        let numbers: Vec<u64> = (10..=17).collect();
        let out = "alpha\n… 3 elided …\n\nzeta\ntheta\n";
        let got = restore_gutter(out.as_bytes(), source, &numbers);
        assert_eq!(
            String::from_utf8(got).unwrap(),
            "10\talpha\n11\t… 3 elided …\n11\t\n15\tzeta\n17\ttheta\n"
        );
        let bare = restore_gutter(b"alpha\nX\nY\nZ", source, &numbers);
        assert_eq!(bare, b"alpha\nX\nY\nZ");
    }

    #[test]
    fn gutters_trace_a_long_view_of_lines_the_source_lacks() {
        // 40,000 source lines, each twice in the view: once as the source
        // has it, once rewritten (a line the source does not hold, which
        // a scan per line searched for through the whole rest).
        let n = 40_000usize;
        let source: String = (0..n).map(|i| format!("line {i}\n")).collect();
        let numbers: Vec<u64> = (1..=n as u64).map(|i| i * 2).collect();
        let view: String = (0..n)
            .map(|i| format!("line {i}\nline {i}, rewritten\n"))
            .collect();
        let lean = restore_lean_gutter(
            view.as_bytes(),
            source.as_bytes(),
            &numbers,
            &GutterForm {
                sep: b"\t".to_vec(),
            },
        );
        let want: String = (0..n)
            .map(|i| format!("{}\tline {i}\n\tline {i}, rewritten\n", 2 * (i + 1)))
            .collect();
        assert_eq!(String::from_utf8(lean).unwrap(), want);
        let compat = restore_gutter(view.as_bytes(), source.as_bytes(), &numbers);
        // Compat numbers a line it cannot trace as the next source line.
        let want: String = (0..n)
            .map(|i| {
                let (kept, next) = (2 * (i + 1), 2 * (i + 2).min(n));
                format!("{kept}\tline {i}\n{next}\tline {i}, rewritten\n")
            })
            .collect();
        assert_eq!(String::from_utf8(compat).unwrap(), want);
    }

    proptest::proptest! {
        /// The index finds what a scan of the rest of the source finds.
        #[test]
        fn line_index_finds_what_a_scan_finds(
            src in proptest::collection::vec(0u8..4, 0..40),
            line in 0u8..5,
            from in 0usize..45,
        ) {
            let lines: Vec<Vec<u8>> = src.iter().map(|b| vec![b'a' + b]).collect();
            let refs: Vec<&[u8]> = lines.iter().map(|l| l.as_slice()).collect();
            let index = LineIndex::new(&refs);
            let line = [b'a' + line];
            let scan = refs
                .get(from..)
                .and_then(|rest| rest.iter().position(|s| *s == line))
                .map(|off| from + off);
            proptest::prop_assert_eq!(index.find(&line, from), scan);
            let last = refs.iter().rposition(|s| *s == line);
            proptest::prop_assert_eq!(index.last(&line), last);
        }
    }

    #[test]
    fn lean_gutter_numbers_only_the_lines_it_kept() {
        use crate::profile::Profile;
        let input: String = [
            "diff --git a/x b/x",
            "--- a/x",
            "+++ b/x",
            "@@ -1,9 +1,9 @@",
            " a",
            " b",
            " c",
            "-d",
            "+D",
            " e",
            " f",
            " g",
        ]
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>4} | {l}\n", i + 1))
        .collect();
        let (body, layers) = unwrap_as(input.as_bytes(), Profile::Lean);
        assert!(body.starts_with(b"diff --git"));
        let view =
            "… note …\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n";
        let got = String::from_utf8(rewrap(view.as_bytes().to_vec(), &layers)).unwrap();
        assert_eq!(
            got,
            " | … note …\n1 | diff --git a/x b/x\n2 | --- a/x\n3 | +++ b/x\n | @@ -3,3 +3,3 @@\n7 |  c\n8 | -d\n9 | +D\n10 |  e\n"
        );
    }

    #[test]
    fn file_wrapper_example_from_spec() {
        let input = b" \n<file name=\"C:\\x\\a>b.go\">\nbody\n</file>\n\t";
        let (body, layers) = unwrap(input);
        assert_eq!(&body[..], b"\nbody\n");
        assert_eq!(
            rewrap(b"compressed".to_vec(), &layers),
            b" \n<file name=\"C:\\x\\a>b.go\">compressed</file>\n\t"
        );
    }

    #[test]
    fn lean_keeps_the_file_tag_on_its_own_line() {
        let input = b"<file path=\"t.csv\">\na,b\n1,2\n</file>\n";
        let (body, layers) = unwrap_as(input, crate::profile::Profile::Lean);
        assert_eq!(&body[..], b"a,b\n1,2\n");
        assert_eq!(
            rewrap(b"a,b\n1,2".to_vec(), &layers),
            b"<file path=\"t.csv\">\na,b\n1,2\n</file>\n"
        );
    }

    #[test]
    fn whitespace_only_body_is_not_a_wrapper() {
        let nine: String = (1..=9).map(|i| format!("{i} | \n")).collect();
        let (body, layers) = unwrap(nine.as_bytes());
        assert_eq!(layers.len(), 1);
        assert_eq!(&body[..], b"\n\n\n\n\n\n\n\n\n");
    }
}
