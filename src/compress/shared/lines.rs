//! The skeleton every line and section compressor shares (log,
//! search-result, terminal, diff, config, text):
//!
//! 1. units: the lines of a document (LF-split, one trailing LF remembered,
//!    CRs kept on their lines), or any other list of texts;
//! 2. keep rules, each compressor's own, setting flags that are never
//!    cleared;
//! 3. the query fill (relevance.md §3, the table rule: the first `limit`
//!    candidates, however many units are already kept);
//! 4. the kind guard (redundancy.md): one kept unit of every kind;
//! 5. runs of dropped units become markers (or stay, when the compressor's
//!    marker rule says a marker would not pay);
//! 6. the pieces are joined back, markers in the document's majority line
//!    ending.
//!
//! The compressors differ only in their rules and marker texts; the
//! mechanism is here once.

use std::borrow::Cow;
use std::ops::Range;

use super::{kinds, relevance};

/// A document cut into lines (log.md §3 step 1): one trailing LF removed
/// and remembered, the rest split on LF, each CR left on its line.
///
/// The lines are not a list of slices (16 bytes a line: 64 MiB of `a\n`
/// would hold 512 MiB of them) but an index into the text: the start of
/// every 2^`shift`-th line, `shift` the smallest that keeps the index
/// within a quarter of the text. A line is found from the mark before it;
/// [`Lines::iter`] walks them in order at the cost of one search a line.
#[derive(Debug)]
pub(crate) struct Lines<'a> {
    body: &'a str,
    /// Start of lines 0, 2^shift, 2·2^shift, …, then `body.len() + 1`.
    marks: Marks,
    shift: u32,
    n: usize,
    id: u64,
    /// The input ended with LF (re-appended by [`join_lines`]).
    pub trailing_lf: bool,
    /// `"\r"` when the input is majority-CRLF (tabular.md §3.5), else
    /// empty: appended to every synthesized line.
    pub cr: &'static str,
}

impl<'a> Lines<'a> {
    pub fn split(text: &'a str) -> Lines<'a> {
        let (body, trailing_lf) = match text.strip_suffix('\n') {
            Some(b) => (b, true),
            None => (text, false),
        };
        let cr = if crate::table::majority_crlf(text.as_bytes()) {
            "\r"
        } else {
            ""
        };
        Lines::of_body(body, trailing_lf, cr)
    }

    /// The lines of `body` (split on every LF), with the trailing LF and
    /// line ending the document had.
    pub fn of_body(body: &'a str, trailing_lf: bool, cr: &'static str) -> Lines<'a> {
        let b = body.as_bytes();
        let n = memchr::memchr_iter(b'\n', b).count() + 1;
        // Offsets of 4 bytes while the text allows: a mark per line then
        // costs no more than a quarter of a 16-byte line.
        let narrow = b.len() < u32::MAX as usize;
        let shift = sparse_shift(n, b.len(), if narrow { 4 } else { 8 });
        let mask = (1usize << shift) - 1;
        let starts = std::iter::once(0)
            .chain(
                memchr::memchr_iter(b'\n', b)
                    .enumerate()
                    .filter(|(k, _)| (k + 1) & mask == 0)
                    .map(|(_, at)| at + 1),
            )
            .chain(std::iter::once(b.len() + 1));
        let marks = if narrow {
            let mut v = Vec::with_capacity((n >> shift) + 2);
            v.extend(starts.map(|x| x as u32));
            Marks::Narrow(v)
        } else {
            Marks::Wide(starts.collect())
        };
        Lines {
            body,
            marks,
            shift,
            n,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            trailing_lf,
            cr,
        }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    /// The text the lines are cut from (without the trailing LF).
    pub fn body(&self) -> &'a str {
        self.body
    }

    /// Line `i` (without its LF). Where marks are sparse, each thread
    /// remembers the last line it found: reading the lines of a range in
    /// order costs one search a line.
    pub fn line(&self, i: usize) -> &'a str {
        debug_assert!(i < self.n);
        let k = i >> self.shift;
        if self.shift == 0 {
            return &self.body[self.marks.at(k)..self.marks.at(k + 1) - 1];
        }
        let b = self.body.as_bytes();
        let (mut at, mut start) = (k << self.shift, self.marks.at(k));
        let last = CURSOR.get();
        if last.0 == self.id && last.1 <= i && last.1 >= at {
            if last.1 == i {
                return &self.body[last.2..last.3];
            }
            (at, start) = (last.1 + 1, last.3 + 1);
        } else if last.0 == self.id && last.1 > i && last.1 - i <= BACK_STEPS {
            // A line or two before the last one (a rule that looked ahead):
            // back from there, each step one search over a line.
            let (mut s, mut e) = (last.2, last.3);
            for _ in i..last.1 {
                e = s - 1;
                s = memchr::memrchr(b'\n', &b[..e]).map_or(0, |p| p + 1);
            }
            CURSOR.set((self.id, i, s, e));
            return &self.body[s..e];
        }
        while at < i {
            start += memchr::memchr(b'\n', &b[start..]).map_or(b.len() - start, |p| p + 1);
            at += 1;
        }
        let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |p| start + p);
        CURSOR.set((self.id, i, start, end));
        &self.body[start..end]
    }

    /// The lines in order.
    pub fn iter(&self) -> std::str::Split<'a, char> {
        self.body.split('\n')
    }

    /// The lines of `r`, in order.
    pub fn range(&self, r: Range<usize>) -> impl Iterator<Item = &'a str> + Clone + 'a {
        let (rest, count) = if r.start < self.n {
            (&self.body[self.offset(self.line(r.start))..], r.len())
        } else {
            ("", 0)
        };
        rest.split('\n').take(count)
    }

    /// The text of the lines of `r` (not empty), LFs between them.
    pub fn span(&self, r: Range<usize>) -> &'a str {
        let z = self.line(r.end - 1);
        &self.body[self.offset(self.line(r.start))..self.offset(z) + z.len()]
    }

    /// Where `line`, a line of this document, starts in the body.
    fn offset(&self, line: &str) -> usize {
        line.as_ptr() as usize - self.body.as_ptr() as usize
    }

    /// The numbers of the lines `hit` holds for, in order, read on every
    /// core (a list of the few, not a flag for every line).
    pub fn matching(&self, hit: impl Fn(&str) -> bool + Sync) -> Vec<usize> {
        crate::par::map(crate::par::ranges(self.n, 8192), |r| {
            let at = r.start;
            self.range(r)
                .enumerate()
                .filter(|(_, l)| hit(l))
                .map(|(k, _)| at + k)
                .collect::<Vec<usize>>()
        })
        .concat()
    }

    /// Every line, as a list of slices: for the few compressors whose
    /// rules read lines as a slice (diff, config, text sections).
    pub fn to_vec(&self) -> Vec<&'a str> {
        self.iter().collect()
    }
}

/// How sparse an index of `n` units of a `len`-byte text is: a mark (of
/// `mark` bytes) every 2^shift units, the smallest shift that keeps the
/// marks within a quarter of the text.
pub(crate) fn sparse_shift(n: usize, len: usize, mark: usize) -> u32 {
    let mut shift = 0;
    while (n >> shift) * mark > len / 4 && (n >> shift) > 1 {
        shift += 1;
    }
    shift
}

/// Lines [`Lines::line`] walks back from the last one it found before it
/// starts again from a mark.
const BACK_STEPS: usize = 4;

/// Line starts: 4-byte offsets for a text under 4 GiB.
#[derive(Debug)]
enum Marks {
    Narrow(Vec<u32>),
    Wide(Vec<usize>),
}

impl Marks {
    #[inline]
    fn at(&self, k: usize) -> usize {
        match self {
            Marks::Narrow(v) => v[k] as usize,
            Marks::Wide(v) => v[k],
        }
    }
}

thread_local! {
    /// The last line [`Lines::line`] found on this thread: the document's
    /// id, the line's number, start and end.
    static CURSOR: std::cell::Cell<(u64, usize, usize, usize)> =
        const { std::cell::Cell::new((0, 0, 0, 0)) };
}

/// Documents' ids (0 is none): a thread's cursor names the document it
/// is in, never another that happens to sit at the same address.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// What the output holds at a place: a run of units as they were, or a
/// marker (runs rather than single units: a 64 MiB log has a million
/// lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    Units(Range<usize>),
    Marker(String),
}

/// The output as pieces, kept runs merged.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Pieces(pub Vec<Piece>);

impl Pieces {
    /// Every unit of `0..n`, in order.
    pub fn all(n: usize) -> Pieces {
        Pieces(vec![Piece::Units(0..n)])
    }

    fn units(&mut self, r: Range<usize>) {
        if r.is_empty() {
            return;
        }
        if let Some(Piece::Units(last)) = self.0.last_mut() {
            if last.end == r.start {
                last.end = r.end;
                return;
            }
        }
        self.0.push(Piece::Units(r));
    }

    pub fn marker(&mut self, m: String) {
        self.0.push(Piece::Marker(m));
    }

    /// Output lines (or sections): units plus markers.
    pub fn count(&self) -> usize {
        self.0
            .iter()
            .map(|p| match p {
                Piece::Units(r) => r.len(),
                Piece::Marker(_) => 1,
            })
            .sum()
    }

    /// Each output item in order: a unit's index or a marker's text.
    pub fn items(&self) -> impl Iterator<Item = Result<usize, &str>> + '_ {
        self.0
            .iter()
            .flat_map(|p| -> Box<dyn Iterator<Item = Result<usize, &str>>> {
                match p {
                    Piece::Units(r) => Box::new(r.clone().map(Ok)),
                    Piece::Marker(m) => Box::new(std::iter::once(Err(m.as_str()))),
                }
            })
    }
}

/// Why each unit is kept, for `--explain`: counts per reason, in the order
/// the rules ran, and the dropped units that markers replaced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Trace {
    pub kept: Vec<(&'static str, usize)>,
    pub dropped: usize,
    /// Every unit is in the view, only regrouped (a path written once
    /// over its lines, indentation gone): the retrieve line must not
    /// claim that parts were elided.
    pub regrouped: bool,
}

impl Trace {
    /// Counts `n` more units kept for `reason` (reasons in first-use
    /// order; zero counts are not listed).
    pub fn add(&mut self, reason: &'static str, n: usize) {
        if n == 0 {
            return;
        }
        match self.kept.iter_mut().find(|r| r.0 == reason) {
            Some(r) => r.1 += n,
            None => self.kept.push((reason, n)),
        }
    }
}

/// Keep flags with the reason each unit was first kept: one byte a unit.
#[derive(Debug)]
pub(crate) struct Keep {
    reasons: Vec<(&'static str, usize)>,
    /// Per unit, 1 + the index in `reasons` of why it was kept, or NONE.
    why: Vec<u8>,
}

const NONE: u8 = 0;
/// Reasons a Keep tells apart (a compressor has a dozen); a further one
/// is counted under the last.
const MAX_REASONS: usize = u8::MAX as usize;

/// The budget class of a keep reason (lower is kept first): errors,
/// then query hits, then anomalies, extremes and what follows an error,
/// then one of each kind, then the document's structure, then the rest.
pub(crate) fn priority(reason: &str) -> u8 {
    let r = reason;
    if r == "query" {
        1
    } else if r.contains("context") {
        6
    } else if r.contains("stack frame")
        || r.contains("warning")
        || r.contains("summary")
        || r.contains("timestamp")
        || r.contains("extreme")
        || r.contains("anomaly")
        || r.contains("minimum")
    {
        2
    } else if r.contains("error")
        || r.contains("failure")
        || r.contains("signal")
        || r.contains("diagnostic")
    {
        0
    } else if r.contains("kind") {
        3
    } else if r.contains("head")
        || r.contains("tail")
        || r.contains("heading")
        || r.contains("section")
        || r.contains("key")
        || r.contains("document")
        || r.contains("first")
        || r.contains("parent")
        || r.contains("top-level")
    {
        4
    } else {
        5
    }
}

/// What [`Keep::fit`] left out of the higher classes.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unfit {
    /// Error units the budget had no room for.
    pub errors: usize,
}

impl Unfit {
    /// The marker that says how many error units did not fit, if any.
    pub fn note(self, unit: &str) -> Option<String> {
        self.said(unit)
            .map(|s| format!("\u{2026} caveman: {s} \u{2026}"))
    }

    /// What [`Unfit::note`] says, for a marker of the compressor's own.
    pub fn said(self, unit: &str) -> Option<String> {
        (self.errors > 0).then(|| {
            format!(
                "{} error {unit} are among those elided: the budget had no room for them",
                self.errors
            )
        })
    }
}

impl Keep {
    pub fn new(n: usize) -> Keep {
        Keep {
            reasons: Vec::new(),
            why: vec![NONE; n],
        }
    }

    /// Under a token budget: keeps the kept units again in priority order
    /// (class, then document order), each while the estimate of the view
    /// (`overhead`, the units' `cost`, `marker` per run of dropped units)
    /// stays within `budget`; the others are dropped into markers. Error
    /// units are taken by `round(i)` first, then in document order: the
    /// first of each kind of error before the second of any.
    pub fn fit(
        &mut self,
        budget: usize,
        cost: impl Fn(usize) -> usize,
        marker: usize,
        overhead: usize,
        round: impl Fn(usize) -> usize,
    ) -> Unfit {
        let n = self.why.len();
        let mut order: Vec<(u8, usize, usize)> = (0..n)
            .filter(|&i| self.get(i))
            .map(|i| {
                let class = priority(self.reason(i));
                (class, if class == 0 { round(i) } else { 0 }, i)
            })
            .collect();
        order.sort_unstable();
        let mut flags = vec![false; n];
        let mut total = overhead + if n > 0 { marker } else { 0 };
        let mut unfit = Unfit::default();
        for (class, _, i) in order {
            let left = i > 0 && flags[i - 1];
            let right = i + 1 < n && flags[i + 1];
            let has_left_run = i > 0 && !left;
            let has_right_run = i + 1 < n && !right;
            // Markers after keeping i, minus before (i sat in one run).
            let delta: isize = (has_left_run as isize + has_right_run as isize) - 1;
            let c = cost(i) as isize + delta * marker as isize;
            if total as isize + c <= budget as isize {
                flags[i] = true;
                total = (total as isize + c) as usize;
            } else if class == 0 {
                unfit.errors += 1;
            }
        }
        for (i, f) in flags.iter().enumerate() {
            if !*f && self.get(i) {
                let r = self.why[i] as usize - 1;
                self.reasons[r].1 -= 1;
                self.why[i] = NONE;
            }
        }
        unfit
    }

    /// Why unit `i` is kept (it is).
    fn reason(&self, i: usize) -> &'static str {
        self.reasons[self.why[i] as usize - 1].0
    }

    pub fn len(&self) -> usize {
        self.why.len()
    }

    pub fn get(&self, i: usize) -> bool {
        self.why[i] != NONE
    }

    /// The flags, one bool a unit.
    pub fn flags(&self) -> Vec<bool> {
        self.why.iter().map(|&w| w != NONE).collect()
    }

    /// The number `why` holds for `reason`, added on first use.
    fn reason_id(&mut self, reason: &'static str) -> u8 {
        let k = match self.reasons.iter().position(|r| r.0 == reason) {
            Some(k) => k,
            None if self.reasons.len() < MAX_REASONS => {
                self.reasons.push((reason, 0));
                self.reasons.len() - 1
            }
            None => MAX_REASONS - 1,
        };
        (k + 1) as u8
    }

    /// Keeps unit `i` for `reason`; true if it was not kept before.
    pub fn set(&mut self, i: usize, reason: &'static str) -> bool {
        if self.get(i) {
            return false;
        }
        let w = self.reason_id(reason);
        self.reasons[w as usize - 1].1 += 1;
        self.why[i] = w;
        true
    }

    /// Runs a rule that only turns flags on (the kind guard) and credits
    /// what it turned on to `reason`.
    fn apply(&mut self, reason: &'static str, rule: impl FnOnce(&mut [bool])) {
        let mut flags = self.flags();
        rule(&mut flags);
        let mut added = 0;
        let w = self.reason_id(reason);
        for (i, now) in flags.iter().enumerate() {
            if *now && self.why[i] == NONE {
                added += 1;
                self.why[i] = w;
            }
        }
        self.reasons[w as usize - 1].1 += added;
    }

    /// [`Keep::fit`] for units that are texts, when a budget is given:
    /// each unit costs its tokens and a line break, each run a marker
    /// like `marker`; `overhead` is text the view adds anyway.
    pub fn fit_text<'u>(
        &mut self,
        budget: Option<usize>,
        unit: impl Fn(usize) -> &'u str,
        marker: &str,
        overhead: &str,
    ) -> Unfit {
        let Some(b) = budget else {
            return Unfit::default();
        };
        let m = crate::tokens::count(marker.as_bytes()) + 1;
        let o = if overhead.is_empty() {
            0
        } else {
            crate::tokens::count(overhead.as_bytes()) + 1
        };
        // Rarity is signal: the k-th error line of a template comes in
        // round k, so one of each kind of error fits before the hundredth
        // copy of the first.
        let mut seen: rustc_hash::FxHashMap<String, usize> = Default::default();
        let mut round = vec![0; self.why.len()];
        for (i, r) in round.iter_mut().enumerate() {
            if self.get(i) && priority(self.reason(i)) == 0 {
                let k = seen.entry(super::lean::template(unit(i))).or_insert(0);
                *r = *k;
                *k += 1;
            }
        }
        self.fit(
            b,
            |i| crate::tokens::count(unit(i).as_bytes()) + 1,
            m,
            o,
            |i| round[i],
        )
    }

    /// Adds the first `limit` query candidates (relevance.md §3, table
    /// rule) among `n` documents; nothing for an empty query.
    pub fn fill_query<'d>(
        &mut self,
        query: &str,
        limit: usize,
        doc: impl Fn(usize) -> Cow<'d, str> + Sync,
    ) {
        if query.is_empty() {
            return;
        }
        let scores = relevance::scores_of(query, self.len(), doc);
        for i in relevance::candidates(&scores, &self.flags())
            .into_iter()
            .take(limit)
        {
            self.set(i, "query");
        }
    }

    /// The kind guard (redundancy.md) over the units `unit(i)`.
    pub fn guard<'u>(&mut self, unit: impl Fn(usize) -> &'u str + Sync) {
        self.apply("one of each kind", |flags| {
            kinds::guard(|i| kinds::profile(unit(i)), flags)
        });
    }

    /// Replaces every maximal run of dropped units by the marker
    /// `marker(run)` returns with the bytes it replaces, or keeps the run's
    /// units when it returns `None` (a marker that would not pay). Markers
    /// are made on every core (summaries read every dropped unit). Returns
    /// the pieces, the bytes the markers replaced, and the trace.
    pub fn collapse(
        self,
        marker: impl Fn(Range<usize>) -> Option<(String, usize)> + Sync,
    ) -> (Pieces, usize, Trace) {
        let n = self.why.len();
        let runs = runs_where(&self.why, |w| w == NONE);
        let in_runs: usize = runs.iter().map(|r| r.len()).sum();
        let parts = crate::par::parts_for(in_runs, 4096);
        let markers = crate::par::map_each(&runs, parts, |r| marker(r.clone()));
        let mut pieces = Pieces::default();
        let (mut dropped, mut bytes) = (0, 0);
        let mut next = 0;
        for (run, m) in runs.into_iter().zip(markers) {
            pieces.units(next..run.start);
            next = run.end;
            match m {
                Some((m, b)) => {
                    dropped += run.len();
                    bytes += b;
                    pieces.marker(m);
                }
                None => pieces.units(run),
            }
        }
        pieces.units(next..n);
        let mut kept = self.reasons;
        kept.retain(|r| r.1 > 0);
        // Units a marker rule left in place count as kept too.
        let left = n - dropped - kept.iter().map(|r| r.1).sum::<usize>();
        if left > 0 {
            kept.push(("marker would not pay", left));
        }
        (
            pieces,
            bytes,
            Trace {
                kept,
                dropped,
                ..Trace::default()
            },
        )
    }
}

/// The maximal runs of units whose state satisfies `dropped`.
pub(crate) fn runs_where<T: Copy>(state: &[T], dropped: impl Fn(T) -> bool) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < state.len() {
        if !dropped(state[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < state.len() && dropped(state[i]) {
            i += 1;
        }
        runs.push(start..i);
    }
    runs
}

/// The pieces as lines joined with LF: units as they were, markers with
/// the document's `cr`, then the trailing LF if the input had one.
pub(crate) fn join_lines(doc: &Lines<'_>, pieces: &Pieces) -> Vec<u8> {
    let trailer = if doc.trailing_lf { "\n" } else { "" };
    let size: usize = pieces
        .0
        .iter()
        .map(|p| match p {
            Piece::Units(r) if r.is_empty() => 0,
            Piece::Units(r) => doc.span(r.clone()).len() + 1,
            Piece::Marker(m) => m.len() + doc.cr.len() + 1,
        })
        .sum();
    let mut out = Vec::with_capacity(size + trailer.len());
    let mut first = true;
    for p in &pieces.0 {
        match p {
            Piece::Units(r) => {
                if r.is_empty() {
                    continue;
                }
                if !first {
                    out.push(b'\n');
                }
                // A run of lines is one slice of the text.
                out.extend_from_slice(doc.span(r.clone()).as_bytes());
            }
            Piece::Marker(m) => {
                if !first {
                    out.push(b'\n');
                }
                out.extend_from_slice(m.as_bytes());
                out.extend_from_slice(doc.cr.as_bytes());
            }
        }
        first = false;
    }
    out.extend_from_slice(trailer.as_bytes());
    out
}

/// The pieces joined with `sep`: units as they were, each marker followed
/// by `marker_end`, and `trailer` at the end.
pub(crate) fn join<'u>(
    pieces: &Pieces,
    unit: impl Fn(usize) -> &'u str,
    sep: &str,
    marker_end: &str,
    trailer: &str,
) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, item) in pieces.items().enumerate() {
        if k > 0 {
            out.extend_from_slice(sep.as_bytes());
        }
        match item {
            Ok(i) => out.extend_from_slice(unit(i).as_bytes()),
            Err(m) => {
                out.extend_from_slice(m.as_bytes());
                out.extend_from_slice(marker_end.as_bytes());
            }
        }
    }
    out.extend_from_slice(trailer.as_bytes());
    out
}

#[cfg(test)]
mod tests;
