//! The lean diff (content type `diff` under `--profile lean`): every
//! changed line and every header stays; what goes is context and
//! boilerplate.
//!
//! - Unified hunks are re-cut to one line of context around their changes
//!   with recomputed line numbers (a hunk is split only where the context
//!   it drops costs more than the new header), so the view still applies
//!   as a patch; a header after a cut names the function git named only
//!   when no line in between could have changed that name.
//! - Combined hunks (`diff --cc`, merges of any number of parents) and
//!   hunks whose line counts do not add up keep one line of context around
//!   their changes, the rest in markers in place (such hunks are not
//!   applied by `git apply` anyway).
//! - `git log -p` and `git format-patch` mail: each commit's hash, author
//!   and date on one line (as the lean `git log` view), the subject, the body's first sentence; the rest of a long
//!   message, mail headers other than From/Date/Subject and a diffstat
//!   whose files all follow as diffs go to markers (the diffstat's summary
//!   line stays). DEP-3 and quilt headers are kept as fields; a quilt
//!   `====` rule and git's `index` lines go (counted in the first line).
//! - Binary patch data goes to a marker.
//! - Terminal escapes (`git diff --color`) are removed first.
//!
//! Issue 40 rule 8: a view with commit message bodies that is larger than
//! compat's view (less the retrieve line lean adds) is made again with
//! each message cut to its subject; every change and header stays.
//!
//! A first line states what was cut; under `--budget` headers come first,
//! then changes with error words, query hits, changes, messages, context.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use self::fit::{fit, reason};
use crate::compress::shared::commits::{COMMIT, SHORT_HASH, STAT_FILE};
use crate::compress::shared::dropped_runs;
use crate::compress::shared::lines::{Lines, Trace};
use crate::compress::{Compressed, Decline};

/// Shorter diffs are left alone.
const MIN_LINES: usize = 12;
/// Context lines a lean hunk keeps on each side of a change.
const CONTEXT: usize = 1;
/// A commit message body of at most this many bytes stays whole: the why
/// of a change is worth its tokens (a long one keeps its first sentence).
const MESSAGE_KEEP: usize = 1200;
/// Query hits kept among context lines.
const QUERY_FILL: usize = 16;

static MAIL_FROM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^From [0-9a-f]{40} ").expect("mail pattern"));
/// DEP-3 and quilt header fields that open a patch.
static DEP3: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(Description|Subject|Author|From|Origin|Bug(-[A-Za-z]+)?|Forwarded|Applied-Upstream|Last-Update|Reviewed-by|Acked-by|Signed-off-by|Index):")
        .expect("dep3 pattern")
});
/// A diffstat's summary line or mode line.
static STAT_OTHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^ (\d+ files? changed|(create|delete) mode \d+ |rename |mode change |copy )")
        .expect("stat other pattern")
});
/// Headers of a file's diff kept as they are.
const FILE_HEADERS: [&str; 14] = [
    "diff ",
    "--- ",
    "+++ ",
    "old mode ",
    "new mode ",
    "new file mode ",
    "deleted file mode ",
    "similarity index ",
    "dissimilarity index ",
    "rename from ",
    "rename to ",
    "copy from ",
    "copy to ",
    "Binary files ",
];

/// What a part of the view is, in the order a budget keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// Commit, mail, file and hunk headers.
    Heading,
    Error,
    Query,
    Change,
    /// Messages, fields and other lines outside hunks.
    Text,
    Context,
    /// A marker of ours.
    Marker,
}

#[derive(Debug)]
enum Body {
    Lines(Range<usize>),
    Text(String),
}

/// A part of the view and what it stands for.
#[derive(Debug)]
struct Part {
    body: Body,
    class: Class,
    /// Input lines the part stands for (a new hunk header: none).
    covers: usize,
    /// The part holding the file header and the hunk header this part
    /// belongs under (a budget never keeps it without them).
    file: Option<usize>,
    hunk: Option<usize>,
}

/// What was cut, for the first line.
#[derive(Debug, Default)]
struct Account {
    context: usize,
    recut: usize,
    marked: usize,
    index: usize,
    other: usize,
    /// Commit headers written on one line.
    commits: usize,
    /// Message body lines kept (besides subjects).
    body: usize,
}

struct Cut<'d, 'a> {
    doc: &'d Lines<'a>,
    hits: Vec<usize>,
    /// Under a budget: parts are not merged across classes.
    fine: bool,
    /// Within compat's size: a commit message keeps its subject only.
    subjects: bool,
    parts: Vec<Part>,
    file: Option<usize>,
    hunk: Option<usize>,
    account: Account,
}

/// `@@ -a[,b] +c[,d] @@ tail`: (a, b, c, d, tail).
fn hunk_header(l: &str) -> Option<(usize, usize, usize, usize, &str)> {
    let rest = l.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, tail) = rest.split_once(" @@")?;
    let (a, b) = range(old)?;
    let (c, d) = range(new)?;
    Some((a, b, c, d, tail))
}

/// `a,b` or `a` (count 1).
fn range(r: &str) -> Option<(usize, usize)> {
    match r.split_once(',') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => Some((r.parse().ok()?, 1)),
    }
}

/// `@@@ -a,b -c,d +e,f @@@`: the line counts of each parent, then of
/// the result.
fn combined_header(l: &str) -> Option<(Vec<usize>, usize)> {
    let ats = l.bytes().take_while(|&b| b == b'@').count();
    if ats < 3 {
        return None;
    }
    let fence = &l[..ats];
    let inner = l[ats..].split(fence).next()?;
    let mut parents = Vec::new();
    let mut result = None;
    for t in inner.split_whitespace() {
        if let Some(r) = t.strip_prefix('-') {
            parents.push(range(r)?.1);
        } else if let Some(r) = t.strip_prefix('+') {
            result = Some(range(r)?.1);
        }
    }
    (parents.len() == ats - 1).then_some(())?;
    Some((parents, result?))
}

/// A line git's default function-name rule could pick as a hunk's
/// heading, or a declaration a language's rule would.
fn may_name_function(l: &str) -> bool {
    l.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$') || declares(l)
}

/// A line that opens a declaration: a function, type, module or class,
/// after any visibility and qualifier words (`pub(crate) async fn`).
fn declares(l: &str) -> bool {
    const QUALIFIERS: [&str; 10] = [
        "pub ",
        "pub(crate) ",
        "pub(super) ",
        "export ",
        "async ",
        "unsafe ",
        "static ",
        "public ",
        "private ",
        "protected ",
    ];
    const WORDS: [&str; 15] = [
        "def ",
        "class ",
        "fn ",
        "func ",
        "function ",
        "impl ",
        "impl<",
        "struct ",
        "interface ",
        "module ",
        "mod ",
        "enum ",
        "trait ",
        "sub ",
        "macro_rules!",
    ];
    let mut t = l.trim_start();
    while let Some(rest) = QUALIFIERS.iter().find_map(|q| t.strip_prefix(q)) {
        t = rest.trim_start();
    }
    WORDS.iter().any(|w| t.starts_with(w))
}

/// The heading a pre-image body line (context or removed, with its
/// prefix) gives the hunks below it: the line without its prefix and
/// trailing whitespace, cut to git's 80 bytes, when it declares a
/// function or type, or (`git_rule`: the diff's own headers name lines
/// so) when git's default rule would pick it.
fn function_name(line: &str, git_rule: bool) -> Option<&str> {
    let l = line.get(1..).unwrap_or("").trim_end();
    if l.is_empty() || !(declares(l) || git_rule && may_name_function(l)) {
        return None;
    }
    let mut end = l.len().min(80);
    while !l.is_char_boundary(end) {
        end -= 1;
    }
    Some(&l[..end])
}

impl<'d, 'a> Cut<'d, 'a> {
    fn line(&self, i: usize) -> &'a str {
        self.doc.line(i)
    }

    fn push(&mut self, body: Body, class: Class, covers: usize) {
        if let (Body::Lines(r), Some(last)) = (&body, self.parts.last_mut()) {
            if let Body::Lines(lr) = &mut last.body {
                let same = last.class == class || !self.fine;
                if lr.end == r.start && same && last.hunk == self.hunk && last.file == self.file {
                    lr.end = r.end;
                    last.covers += covers;
                    return;
                }
            }
        }
        self.parts.push(Part {
            body,
            class,
            covers,
            file: self.file,
            hunk: self.hunk,
        });
    }

    fn keep(&mut self, r: Range<usize>, class: Class) {
        if !r.is_empty() {
            let n = r.len();
            self.push(Body::Lines(r), class, n);
        }
    }

    /// Lines `r` dropped behind a marker `… N {what} elided (caveman) …`
    /// (indented by `indent`), unless the marker costs as much as they do.
    fn drop(&mut self, r: Range<usize>, indent: &str, what: &str) -> usize {
        if r.is_empty() {
            return 0;
        }
        let text = format!(
            "{indent}\u{2026} {} {what} elided (caveman) \u{2026}",
            r.len()
        );
        let bytes: usize = self.doc.range(r.clone()).map(|l| l.len() + 1).sum();
        if bytes <= text.len() + 1 {
            let class = if what.contains("context") {
                Class::Context
            } else {
                Class::Text
            };
            self.keep(r, class);
            return 0;
        }
        let n = r.len();
        self.push(Body::Text(text), Class::Marker, n);
        n
    }

    fn class_of_change(&self, i: usize) -> Class {
        if crate::compress::shared::lean::is_error(self.line(i)) {
            Class::Error
        } else if self.hits.binary_search(&i).is_ok() {
            Class::Query
        } else {
            Class::Change
        }
    }

    fn blank(&self, i: usize) -> bool {
        self.line(i).trim().is_empty()
    }

    /// A unified hunk: re-cut when its counts add up, else shortened with
    /// markers.
    fn unified(&mut self, i: usize) -> usize {
        let n = self.doc.len();
        let header = self.line(i).trim_end_matches('\r');
        let Some((a, b, c, d, tail)) = hunk_header(header) else {
            self.keep(i..i + 1, Class::Text);
            return i + 1;
        };
        let (mut olds, mut news) = (0, 0);
        let mut j = i + 1;
        while j < n && (olds < b || news < d || self.line(j).starts_with('\\')) {
            match self.line(j).as_bytes().first() {
                Some(b' ') => {
                    olds += 1;
                    news += 1;
                }
                Some(b'-') => olds += 1,
                Some(b'+') => news += 1,
                Some(b'\\') => {}
                // A bare empty line is a context line some tools strip.
                None => {
                    olds += 1;
                    news += 1;
                }
                _ => break,
            }
            j += 1;
        }
        if olds != b || news != d {
            return self.marked(i, i + 1..j, 1);
        }
        let body = i + 1..j;
        let doc = self.doc;
        let is_change = |k: usize| matches!(doc.line(k).as_bytes().first(), Some(b'+' | b'-'));
        let is_note = |k: usize| doc.line(k).starts_with('\\');
        let m = body.len();
        let mut keep = self.around_changes(body.clone(), &is_change);
        // A run of context is cut only where it costs more than the new
        // hunk header it needs.
        let header_bytes = header.len() + 4;
        for run in dropped_runs(&keep) {
            let bytes: usize = self
                .doc
                .range(body.start + run.start..body.start + run.end)
                .map(|l| l.len() + 1)
                .sum();
            if run.start > 0 && run.end < m && bytes <= header_bytes {
                keep[run].fill(true);
            }
        }
        for p in 1..m {
            if is_note(body.start + p) && keep[p - 1] {
                keep[p] = true;
            }
        }
        if keep.iter().all(|&k| k) {
            self.hunk = Some(self.parts.len());
            self.keep(i..i + 1, Class::Heading);
            self.body_lines(body);
            return j;
        }
        // Sub-hunks: maximal kept runs, with their line numbers.
        let (mut old_no, mut new_no) = (a, c);
        // A line that may name a function between the hunk's start and a
        // sub-hunk is that sub-hunk's heading, as git picks it: the
        // nearest such pre-image line above.
        let mut named: Option<&str> = None;
        let mut first_sub = true;
        let mut p = 0;
        while p < m {
            let k = body.start + p;
            if !keep[p] {
                if !is_note(k) {
                    self.account.context += 1;
                    old_no += 1;
                    new_no += 1;
                    named = function_name(self.line(k), !tail.trim().is_empty()).or(named);
                }
                p += 1;
                continue;
            }
            let (start_old, start_new) = (old_no, new_no);
            let mut q = p;
            let (mut oc, mut nc) = (0, 0);
            while q < m && keep[q] {
                let l = self.line(body.start + q);
                match l.as_bytes().first() {
                    Some(b'-') => oc += 1,
                    Some(b'+') => nc += 1,
                    Some(b'\\') => {}
                    _ => {
                        oc += 1;
                        nc += 1;
                    }
                }
                q += 1;
            }
            // Unified diffs name the line before an empty range.
            let so = if b == 0 && oc == 0 {
                a
            } else if oc == 0 {
                start_old.saturating_sub(1)
            } else {
                start_old
            };
            let sn = if d == 0 && nc == 0 {
                c
            } else if nc == 0 {
                start_new.saturating_sub(1)
            } else {
                start_new
            };
            let t = named.map_or(Cow::Borrowed(tail), |l| Cow::Owned(format!(" {l}")));
            self.hunk = Some(self.parts.len());
            // The first new header stands for the original one.
            let covers = usize::from(first_sub);
            first_sub = false;
            self.push(
                Body::Text(format!("@@ -{so},{oc} +{sn},{nc} @@{t}")),
                Class::Heading,
                covers,
            );
            self.body_lines(body.start + p..body.start + q);
            // Pre-image lines of this sub-hunk may name a function for the
            // next one.
            for k in body.start + p..body.start + q {
                let l = self.line(k);
                if !l.starts_with('+') && !l.starts_with('\\') {
                    named = function_name(l, !tail.trim().is_empty()).or(named);
                }
            }
            old_no = start_old + oc;
            new_no = start_new + nc;
            p = q;
        }
        self.account.recut += 1;
        j
    }

    /// Lines `r` of a hunk body kept: changes by class, the rest context.
    fn body_lines(&mut self, r: Range<usize>) {
        for k in r {
            let class = match self.line(k).as_bytes().first() {
                Some(b'+' | b'-') => self.class_of_change(k),
                Some(b'\\') => Class::Change,
                _ if self.hits.binary_search(&k).is_ok() => Class::Query,
                _ => Class::Context,
            };
            self.keep(k..k + 1, class);
        }
    }

    /// Which lines of `body` sit within [`CONTEXT`] lines of a change (or
    /// are query hits).
    fn around_changes(&self, body: Range<usize>, is_change: &dyn Fn(usize) -> bool) -> Vec<bool> {
        let m = body.len();
        let mut keep = vec![false; m];
        for p in 0..m {
            let k = body.start + p;
            if is_change(k) {
                let lo = p.saturating_sub(CONTEXT);
                let hi = (p + CONTEXT).min(m - 1);
                keep[lo..=hi].iter_mut().for_each(|x| *x = true);
            } else if self.hits.binary_search(&k).is_ok() {
                keep[p] = true;
            }
        }
        keep
    }

    /// A hunk kept with its header, its changes and one line of context
    /// around them; other context in markers in place (`prefix` is the
    /// width of the line prefix: 1 for unified, the parents for combined).
    fn marked(&mut self, i: usize, body: Range<usize>, prefix: usize) -> usize {
        self.hunk = Some(self.parts.len());
        self.keep(i..i + 1, Class::Heading);
        let end = body.end;
        let doc = self.doc;
        let is_change = |k: usize| {
            let l = doc.line(k).as_bytes();
            l.iter().take(prefix).any(|&c| c == b'+' || c == b'-')
        };
        let keep = self.around_changes(body.clone(), &is_change);
        let mut p = 0;
        let mut shortened = false;
        while p < keep.len() {
            let mut q = p;
            while q < keep.len() && keep[q] == keep[p] {
                q += 1;
            }
            let r = body.start + p..body.start + q;
            if keep[p] {
                self.body_lines_prefixed(r, prefix);
            } else {
                let dropped = self.drop(r, "", "context lines");
                self.account.context += dropped;
                shortened |= dropped > 0;
            }
            p = q;
        }
        if shortened {
            self.account.marked += 1;
        }
        end
    }

    fn body_lines_prefixed(&mut self, r: Range<usize>, prefix: usize) {
        for k in r {
            let l = self.line(k).as_bytes();
            let change = l.iter().take(prefix).any(|&c| c == b'+' || c == b'-');
            let class = if change {
                self.class_of_change(k)
            } else if self.hits.binary_search(&k).is_ok() {
                Class::Query
            } else {
                Class::Context
            };
            self.keep(k..k + 1, class);
        }
    }

    /// A combined hunk (`@@@`): its body is the lines whose prefix, one
    /// column a parent, is made of spaces, `+` and `-`, up to the counts
    /// of its header.
    fn combined(&mut self, i: usize) -> usize {
        let n = self.doc.len();
        let header = self.line(i).trim_end_matches('\r');
        let Some((parents, result)) = combined_header(header) else {
            self.keep(i..i + 1, Class::Text);
            return i + 1;
        };
        let w = parents.len();
        let mut counts = vec![0usize; w];
        let mut results = 0usize;
        let done = |counts: &[usize], results: usize| {
            results >= result && counts.iter().zip(&parents).all(|(c, p)| c >= p)
        };
        let mut j = i + 1;
        while j < n {
            let l = self.line(j).as_bytes();
            if l.first() == Some(&b'\\') {
                j += 1;
                continue;
            }
            if done(&counts, results) || l.len() < w {
                break;
            }
            let pre = &l[..w];
            if !pre.iter().all(|&c| matches!(c, b' ' | b'+' | b'-')) {
                break;
            }
            let lost = pre.contains(&b'-');
            results += usize::from(!lost);
            for (p, &c) in pre.iter().enumerate() {
                let here = if lost { c == b'-' } else { c == b' ' };
                counts[p] += usize::from(here);
            }
            j += 1;
        }
        self.marked(i, i + 1..j, w)
    }
}

/// The text with terminal escapes removed from every line (`git diff
/// --color`); borrowed when it has none.
fn cleaned(text: &str) -> Cow<'_, str> {
    if memchr::memchr(0x1b, text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (k, l) in text.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(&crate::compress::terminal::clean(l));
    }
    Cow::Owned(out)
}

/// The query's hit lines, in order.
fn query_hits(doc: &Lines<'_>, query: &str) -> Vec<usize> {
    use crate::compress::shared::relevance;
    if query.is_empty() {
        return Vec::new();
    }
    let n = doc.len();
    let scores = relevance::scores_of(query, n, |i| doc.line(i).into());
    let mut hits = relevance::candidates(&scores, &vec![false; n]);
    hits.truncate(QUERY_FILL);
    hits.sort_unstable();
    hits
}

pub(super) fn run(text: &str, query: &str, budget: Option<usize>) -> Result<Compressed, Decline> {
    let (view, body) = cut(text, query, budget, false)?;
    if budget.is_some() || !query.is_empty() || body == 0 {
        return Ok(view);
    }
    // Issue 40 rule 8: a view larger than compat's (less the retrieve line
    // lean adds) is made again with each message cut to its subject.
    let Ok(compat) = super::compress(text) else {
        return Ok(view);
    };
    let room = crate::tokens::count(&compat.bytes).saturating_sub(crate::engine::NOTE_RESERVE);
    let before = crate::tokens::count(&view.bytes);
    if before <= room {
        return Ok(view);
    }
    match cut(text, query, budget, true) {
        Ok((v, _)) if crate::tokens::count(&v.bytes) < before => Ok(v),
        _ => Ok(view),
    }
}

/// The lean view and the message body lines it keeps; `subjects`: each
/// commit message cut to its subject.
fn cut(
    text: &str,
    query: &str,
    budget: Option<usize>,
    subjects: bool,
) -> Result<(Compressed, usize), Decline> {
    let clean = cleaned(text);
    let was_cleaned = clean.len() != text.len();
    let doc = Lines::split(&clean);
    let n = doc.len();
    if n < MIN_LINES {
        return Err(Decline("fewer than 12 lines"));
    }
    let mut cut = Cut {
        doc: &doc,
        hits: query_hits(&doc, query),
        fine: budget.is_some(),
        subjects,
        parts: Vec::new(),
        file: None,
        hunk: None,
        account: Account::default(),
    };
    let mut i = 0;
    // Between a file's `diff` (or `Index:`) line and its first hunk.
    let mut in_header = false;
    while i < n {
        let l = doc.line(i).trim_end_matches('\r');
        let next = if COMMIT.is_match(l) {
            in_header = false;
            cut.commit(i)
        } else if MAIL_FROM.is_match(l) {
            in_header = false;
            cut.mail(i)
        } else if i == 0 && DEP3.is_match(l) && !l.starts_with("Index:") {
            cut.dep3(i)
        } else if l.starts_with("@@@") {
            in_header = false;
            cut.combined(i)
        } else if l.starts_with("@@ ") {
            in_header = false;
            cut.unified(i)
        } else if in_header && l.starts_with("index ") {
            cut.account.index += 1;
            i + 1
        } else if l.starts_with("Index: ") {
            in_header = true;
            cut.file = Some(cut.parts.len());
            cut.hunk = None;
            cut.keep(i..i + 1, Class::Heading);
            let rule = i + 1 < n && {
                let x = doc.line(i + 1).trim_end_matches('\r');
                x.len() >= 8 && x.bytes().all(|c| c == b'=')
            };
            cut.account.index += usize::from(rule);
            i + 1 + usize::from(rule)
        } else if FILE_HEADERS.iter().any(|h| l.starts_with(h)) {
            // `diff …` opens a file; a plain `--- a` does when no `diff`
            // line came first.
            if l.starts_with("diff ") || (l.starts_with("--- ") && !in_header) {
                cut.file = Some(cut.parts.len());
                cut.hunk = None;
            }
            in_header = true;
            cut.keep(i..i + 1, Class::Heading);
            i + 1
        } else if l.starts_with("GIT binary patch") {
            cut.binary(i)
        } else if STAT_FILE.is_match(l) {
            cut.stat(i)
        } else {
            cut.keep(i..i + 1, Class::Text);
            i + 1
        };
        i = next;
    }
    let Cut { parts, account, .. } = cut;
    let dropped = account.context + account.index + account.other;
    if dropped == 0 && account.commits == 0 && !was_cleaned {
        return Err(Decline("no context to trim"));
    }
    let mut said = Vec::new();
    if account.context > 0 {
        said.push(format!("{} context lines elided", account.context));
    }
    if account.index > 0 {
        said.push(format!("{} index lines elided", account.index));
    }
    if account.commits > 0 {
        let s = if account.commits == 1 { "" } else { "s" };
        said.push(format!(
            "{} commit header{s} on one line (hashes cut to {SHORT_HASH} characters)",
            account.commits
        ));
    }
    if account.recut > 0 {
        said.push("hunks re-cut with their line numbers recomputed".to_string());
    }
    if account.marked > 0 {
        said.push(format!(
            "{} hunks shortened with markers in place",
            account.marked
        ));
    } else if account.recut > 0 {
        said.push("the patch still applies".to_string());
    }
    if account.other > 0 {
        said.push(format!(
            "{} lines of messages, mail headers or diffstats elided in place",
            account.other
        ));
    }
    if was_cleaned {
        said.push("colour codes removed".to_string());
    }
    let mut note = format!("\u{2026} caveman: {}", said.join("; "));
    note.push_str(" \u{2026}");
    let (parts, unfit) = match budget {
        Some(b) => fit(&doc, parts, b, &mut note),
        None => (parts, 0),
    };
    let mut trace = Trace::default();
    let mut out = String::with_capacity(clean.len());
    out.push_str(&note);
    out.push_str(doc.cr);
    out.push('\n');
    if unfit > 0 {
        out.push_str(&format!(
            "\u{2026} caveman: {unfit} changed lines with error words are among those elided: the budget had no room for them \u{2026}{}\n",
            doc.cr
        ));
    }
    for (k, p) in parts.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        match &p.body {
            Body::Lines(r) => {
                out.push_str(doc.span(r.clone()));
                trace.add(reason(p.class), r.len());
            }
            Body::Text(t) => {
                out.push_str(t);
                out.push_str(doc.cr);
                if p.class != Class::Marker {
                    trace.add(reason(p.class), p.covers);
                }
            }
        }
    }
    let kept: usize = trace.kept.iter().map(|r| r.1).sum();
    trace.dropped = n - kept;
    if doc.trailing_lf {
        out.push('\n');
    }
    Ok((Compressed::traced(out.into_bytes(), trace), account.body))
}

mod fit;
mod message;
#[cfg(test)]
mod tests;
