//! The lean cut of a document's lines (module doc of [`super`]): which
//! lines stay, and the markers that say what the others were.
//!
//! Kept, in the budget's priority order:
//! 1. every error line (each distinct line once; [`crate::compress::shared::signal`]
//!    decides by shape), with the record it heads: stack frames,
//!    diagnostics and source snippets (at most [`MAX_CONTINUATION`], then
//!    the block's last line: the outermost frame);
//! 2. query hits;
//! 3. warnings and the compressor's summary lines, the first and last
//!    timestamped lines, the lines of each frequent `k=v` field's largest
//!    and smallest value ([`super::extremes`]);
//! 4. rare lines: every line whose template occurs once or twice (an
//!    unexpected shutdown among thousands of requests), at most
//!    [`max_rare`] of them; and one line of every other template;
//! 5. the first and last lines.
//!
//! Every run of dropped lines becomes a marker that counts them and
//! states what they share ([`super::super::runsum`]); a last marker
//! counts all lines (blank ones included), their time span (first to last
//! timestamp of one format) and the most frequent templates.

use std::borrow::Cow;

use rustc_hash::{FxHashMap, FxHashSet};

use super::super::lines::{Keep, Lines, Pieces, Trace};
use super::super::signal::{self, Level};
use super::rare::{self, line_template, max_rare, variable_runs_folded};
use super::{
    extremes, testrun, volatile, Rules, Squeeze, CONTINUATION, TIMESTAMP, TIME_OF_DAY, TS_EACH,
    TS_FORMATS,
};
use crate::ascii_first::AsciiFirst;
use crate::compress::shared::secrets::holds_credential;

/// Lines a compressor with fewer lines leaves alone.
pub const MIN_LINES: usize = 8;
/// Query hits added at most.
const QUERY_FILL: usize = 16;
/// Continuation lines kept after one signal line, at most.
const MAX_CONTINUATION: usize = 40;
/// How far the end of a long continuation block is looked for.
const MAX_BLOCK: usize = 100_000;
/// Templates kept one exemplar each, at most.
const MAX_EXEMPLARS: usize = 200;

/// Templates seen twice that the rare lines' cap left out keep their
/// first line, at most this many (earliest first).
const MAX_TWICE_EXEMPLARS: usize = 8;

/// A kind of this many lines or more, all in one run, shows its last
/// line besides its first.
const MIN_RUN_LAST: usize = 3;

/// Copies of one error line kept after different lines.
const MAX_COPIES: usize = 8;
/// A run of at least this many lines states what its lines share.
const SUMMARY_RUN: usize = 4;
/// Bytes a run's summary takes at most.
const SUMMARY_ROOM: usize = 200;
/// A run's field summary is stated when it takes at most
/// 1/[`SUMMARY_SHARE`] of the bytes of the lines it stands for (a first
/// words' tally is short and always stated).
const SUMMARY_SHARE: usize = 8;
/// One dropped line becomes a marker when it costs this many times the
/// marker's tokens ([`marker_costs_more`]).
const SINGLE_LINE_COST: usize = 2;

/// A test runner's or a build's summary: counts of passed/failed/skipped
/// tests, errors or warnings, or a build's verdict.
static SUMMARY: AsciiFirst = AsciiFirst::new(
    r"(?i)\b\d[\d,]* (?:passed|failed|errors?|warnings?|skipped|tests? (?:passed|failed|run)|failures?)\b|\btest results?:|^\s*(?:tests?|test suites?):\s+\d|\bBUILD (?:SUCCESS(?:FUL)?|FAILURE|FAILED)\b|^\s*(?:Successfully installed|Finished|Ran \d+ tests?)\b|^(?:ok|FAIL)\s+\S+\s+[\d.]+s$",
);

/// Lines of one first word kept at most, and its tally: how many lines
/// begin with it, and the first [`VERB_LINES`] of them.
const VERB_LINES: usize = 64;
/// A template of a rare first word with at most this many lines keeps
/// them all (a log's session starts and ends, each removal).
const FEW_OF_A_KIND: usize = 16;
type Verbs = FxHashMap<String, (usize, Vec<usize>)>;

/// A template's first word (letters, digits, `-` and `_`, starting with a
/// letter), or "" when it has none.
fn verb(template: &str) -> &str {
    template
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .find(|w| w.starts_with(|c: char| c.is_alphabetic()))
        .unwrap_or("")
}

/// How a first words' tally begins.
const FIRST_WORDS: &str = "first words:";

/// First words listed in a run's marker, at most.
const MARKER_WORDS: usize = 4;

/// What a run of lines without fields holds: its lines' first words
/// (after a leading timestamp) with their counts, most frequent first
/// (`first words: status×40 install×8`); empty when a word holds a
/// credential or no line has a word. Names state their pattern instead.
fn first_words<'a>(lines: impl Iterator<Item = &'a str> + Clone) -> String {
    // A pattern lists which names exist (an index's versions): room for
    // three summaries.
    let names = super::super::names::pattern(lines.clone(), 3 * SUMMARY_ROOM);
    if !names.is_empty() {
        return names;
    }
    let mut words: Vec<(&str, usize)> = Vec::new();
    let mut wordless = 0;
    for l in lines {
        if l.trim().is_empty() {
            continue;
        }
        let w = verb(super::strip_lead_ts(l));
        if w.is_empty() {
            wordless += 1;
            continue;
        }
        match words.iter().position(|(x, _)| *x == w) {
            Some(k) => words[k].1 += 1,
            None if words.len() < 64 => words.push((w, 1)),
            // Past 64 distinct words the list would say little.
            None => return String::new(),
        }
    }
    if words.is_empty() || words.iter().any(|(w, _)| holds_credential(w)) {
        return String::new();
    }
    words.sort_by_key(|w| std::cmp::Reverse(w.1));
    let mut s = String::from(FIRST_WORDS);
    for (w, c) in words.iter().take(MARKER_WORDS) {
        s.push_str(&format!(" {w}\u{d7}{c}"));
    }
    let rest: usize = words
        .iter()
        .skip(MARKER_WORDS)
        .map(|(_, c)| c)
        .sum::<usize>()
        + wordless;
    if rest > 0 {
        s.push_str(&format!(" (+{rest} other)"));
    }
    s
}

/// A template's tally: how many lines, and the first two.
#[derive(Clone, Copy)]
struct Tally {
    count: usize,
    first: usize,
    second: usize,
    last: usize,
}

/// The lean view of a document's lines: the pieces and the account.
pub(crate) fn cut(
    doc: &Lines<'_>,
    rules: &Rules,
    query: &str,
    budget: Option<usize>,
) -> Option<(Pieces, Trace)> {
    cut_at(doc, rules, query, budget, Squeeze::NONE)
}

/// [`cut`] pressed to `squeeze`'s level.
pub(super) fn cut_at(
    doc: &Lines<'_>,
    rules: &Rules,
    query: &str,
    budget: Option<usize>,
    squeeze: Squeeze,
) -> Option<(Pieces, Trace)> {
    let n = doc.len();
    let mut clock = crate::timings::Clock::new("lean cut");
    let blank = |l: &str| l.trim().is_empty();
    // No list of the non-blank lines (8 bytes a line): their count, the
    // first, and the last ones from the end.
    let first_line = doc.iter().position(|l| !blank(l))?;
    let total = doc.iter().filter(|l| !blank(l)).count();
    if total < MIN_LINES {
        return None;
    }
    let from_end = |k: usize| n - 1 - k;
    let mut keep = Keep::new(n);
    // Errors first: each distinct line once, with the record it heads
    // (a passing test named for an error, `test error ... ok`, too: one
    // line, and a reader searching for "error" finds it).
    let signals =
        doc.matching(|l| signal::level(l) > Level::Other || rules.extra.is_some_and(|f| f(l)));
    clock.mark("signals");
    // A repeat is kept again where it follows another line (the same
    // assertion failing in a second test), up to a few copies; a repeat
    // after the same line is the same event again.
    let mut seen: FxHashSet<(&str, &str)> = FxHashSet::default();
    // Error lines left out as copies of one kept: counted in a note.
    let mut copied: Vec<usize> = Vec::new();
    let mut copies: FxHashMap<&str, (usize, usize)> = FxHashMap::default();
    // Under the ceiling an extra line that is no error or warning (an
    // strace's open) keeps one line of each kind: its kinds seen.
    let by_kind = rules.extra_by_kind && squeeze.extra_by_kind();
    // So does a lookup that found nothing (an strace's failed open).
    let probe = rules.probe.filter(|_| squeeze.extra_by_kind());
    let probing = |l: &str| probe.is_some_and(|p| p(l).is_some());
    let mut extra_kinds: FxHashSet<Cow<'_, str>> = FxHashSet::default();
    let record = |keep: &mut Keep, i: usize, reason: &'static str| {
        keep.set(i, reason);
        // The record it heads; an error line inside it is kept (and
        // fitted to a budget, and counted when it does not fit) as the
        // error it is.
        let mut j = i + 1;
        while j < n && j - i <= MAX_CONTINUATION && CONTINUATION.is_match(doc.line(j)) {
            let why = if signal::level(doc.line(j)) == Level::Error {
                "error inside a record"
            } else {
                "stack frame or diagnostic"
            };
            keep.set(j, why);
            j += 1;
        }
        // A longer block keeps its last line too (the outermost frame).
        if j < n && j - i > MAX_CONTINUATION && CONTINUATION.is_match(doc.line(j)) {
            let mut end = j;
            while end + 1 < n && end - i < MAX_BLOCK && CONTINUATION.is_match(doc.line(end + 1)) {
                end += 1;
            }
            keep.set(end, "stack frame or diagnostic");
        }
    };
    let reason = |level: Level, last: bool| match (level, last) {
        (Level::Error, false) => "error (each distinct line)",
        (Level::Error, true) => "error (last copy of a repeated line)",
        (Level::Warning, false) => "warning (each distinct line)",
        (Level::Warning, true) => "warning (last copy of a repeated line)",
        (Level::Other, false) => "summary line (each distinct line)",
        (Level::Other, true) => "summary line (last copy of a repeated line)",
    };
    for &i in &signals {
        let line = doc.line(i);
        // Told apart by their whole text: each timestamped copy of an
        // error is an event an agent may look for (when it happened, how
        // often); only a copy right after the same text goes.
        let k = line.trim_end();
        let before = (0..i)
            .rev()
            .take(8)
            .map(|k| doc.line(k))
            .find(|l| !l.trim().is_empty())
            .map_or("", str::trim_end);
        let level = signal::level(line);
        if ((by_kind && level == Level::Other) || probing(line))
            && !extra_kinds.insert(line_template(line))
        {
            continue;
        }
        // Under the ceiling a passing or skipped test's verdict is routine
        // whatever its name says (`--- PASS: TestNestedWithFailure/a`):
        // counted in its run's marker.
        if squeeze.extra_by_kind() && testrun::routine(line).is_some() {
            continue;
        }
        let c = copies.entry(k).or_insert((0, i));
        c.1 = i;
        // A copy right after a copy is the same event again.
        if c.0 >= MAX_COPIES || before == k || !seen.insert((k, before)) {
            if level == Level::Error {
                copied.push(i);
            }
            continue;
        }
        c.0 += 1;
        record(&mut keep, i, reason(level, false));
    }
    // The last copy of a repeated line: when it was seen last.
    let mut lasts: Vec<usize> = copies.into_values().map(|c| c.1).collect();
    lasts.sort_unstable();
    for i in lasts {
        let l = doc.line(i);
        // (Under the ceiling a line of one of each kind, a lookup or a
        // passing verdict has no last copy kept.)
        let one_of_a_kind = (by_kind && signal::level(l) == Level::Other)
            || probing(l)
            || (squeeze.extra_by_kind() && testrun::routine(l).is_some());
        if !keep.get(i) && !one_of_a_kind {
            record(&mut keep, i, reason(signal::level(doc.line(i)), true));
        }
    }
    drop(seen);
    drop(signals);
    drop(extra_kinds);
    // A failing test's evidence, whatever repeats across tests.
    testrun::evidence(doc, &mut keep);
    // The lines of each frequent field's largest and smallest value.
    extremes::keep_extremes(doc, &mut keep);
    // The first and last timestamps, of one format: the first line that
    // holds any, and the last line that holds one of that format.
    let first_ts = doc.iter().position(|l| TIMESTAMP.is_match(l));
    let format = first_ts.and_then(|i| {
        let l = doc.line(i);
        let at = TIMESTAMP.find(l)?.start();
        TS_EACH
            .iter()
            .position(|r| r.find(l).is_some_and(|m| m.start() == at))
    });
    let last_ts = format.and_then(|f| {
        doc.body()
            .rsplit('\n')
            .position(|l| TS_EACH[f].is_match(l))
            .map(from_end)
    });
    for i in first_ts.into_iter().chain(last_ts) {
        keep.set(i, "first/last timestamp");
    }
    // A runner's or a build's summary line answers "did it pass".
    // (The first few and the last ones: a line that merely holds a count
    // may repeat all through a log.)
    let summaries = doc.matching(|l| SUMMARY.is_match(l));
    for &i in summaries
        .iter()
        .take(5)
        .chain(summaries.iter().rev().take(20))
    {
        keep.set(i, "summary line");
    }
    drop(summaries);
    // A span needs dates: times of day alone may run over midnight, and a
    // line's own date may sit apart from the time the pattern found.
    let span = match (first_ts, last_ts, format) {
        (Some(a), Some(b), Some(f)) if b > a => {
            let ts = |i: usize| TS_EACH[f].find(doc.line(i)).map_or("", |m| m.as_str());
            if TS_FORMATS[f].starts_with(TIME_OF_DAY) {
                String::new()
            } else if super::order::in_time_order(doc, f, a, b) {
                format!(", from {} to {}", ts(a), ts(b))
            } else {
                // `git blame`, a merged or sorted-by-other-key file: the
                // first and last are not the earliest and latest.
                format!(
                    ", first timestamp {}, last {} (not in time order)",
                    ts(a),
                    ts(b)
                )
            }
        }
        _ => String::new(),
    };
    clock.mark("timestamps");
    // Templates: every part counts its non-blank lines' templates (how
    // many, the first two); no template is held per line.
    // The templates of the lines kept so far are named too.
    type Tallies = FxHashMap<String, Tally>;
    let parts: Vec<(Tallies, FxHashSet<String>, Verbs)> =
        crate::par::map(crate::par::ranges(n, 4096), |r| {
            let mut tally: Tallies = FxHashMap::default();
            let mut shown: FxHashSet<String> = FxHashSet::default();
            let mut verbs: Verbs = FxHashMap::default();
            for (i, line) in r.clone().zip(doc.range(r)) {
                if blank(line) {
                    continue;
                }
                // A plain line is its own template: no copy to look it up.
                let t = line_template(line);
                if keep.get(i) {
                    shown.insert(t.to_string());
                }
                let v = verbs.entry(verb(&t).to_owned()).or_default();
                v.0 += 1;
                if v.1.len() < VERB_LINES {
                    v.1.push(i);
                }
                match tally.get_mut(&*t) {
                    Some(e) => {
                        if e.count == 1 {
                            e.second = i;
                        }
                        e.count += 1;
                        e.last = i;
                    }
                    None => {
                        tally.insert(
                            t.into_owned(),
                            Tally {
                                count: 1,
                                first: i,
                                second: i,
                                last: i,
                            },
                        );
                    }
                }
            }
            (tally, shown, verbs)
        });
    clock.mark("templates");
    let mut tally: Tallies = FxHashMap::default();
    let mut shown: FxHashSet<String> = FxHashSet::default();
    let mut verbs: Verbs = FxHashMap::default();
    for (part, part_shown, part_verbs) in parts {
        shown.extend(part_shown);
        // Parts are in document order.
        for (v, (c, at)) in part_verbs {
            let e = verbs.entry(v).or_default();
            e.0 += c;
            e.1.extend(at.into_iter().take(VERB_LINES - e.1.len().min(VERB_LINES)));
        }
        for (t, p) in part {
            match tally.get_mut(&t) {
                None => {
                    tally.insert(t, p);
                }
                Some(e) => {
                    // Parts are in document order: an earlier part's lines
                    // come first.
                    let (a, b) = if p.first < e.first { (p, *e) } else { (*e, p) };
                    let second = if a.count >= 2 { a.second } else { b.first };
                    *e = Tally {
                        count: a.count + b.count,
                        first: a.first,
                        second,
                        last: b.last,
                    };
                }
            }
        }
    }
    let mut by_count: Vec<(&str, Tally)> = tally.iter().map(|(t, &c)| (t.as_str(), c)).collect();
    by_count.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.1.first.cmp(&b.1.first)));
    // Kinds that differ only in how many variables stand in a row are
    // one kind for rarity (`ask <*> to delete <*>` and `… <*> <*> <*>`:
    // the same event naming more blocks).
    // Each template's kind, folded once.
    let kinds: Vec<Cow<'_, str>> = by_count
        .iter()
        .map(|(t, _)| variable_runs_folded(t))
        .collect();
    let mut kind_lines: FxHashMap<&str, usize> = FxHashMap::default();
    for (k, (_, c)) in kinds.iter().zip(&by_count) {
        *kind_lines.entry(k).or_default() += c.count;
    }
    let kind_rare: Vec<bool> = kinds.iter().map(|k| kind_lines[k.as_ref()] <= 2).collect();
    drop(kind_lines);
    // Rare lines (a template seen once or twice): each kind once before
    // any twice (under the cap a line that stands for two covers more),
    // a kind seen twice before one seen once, earliest first.
    // (Each with its template's first line.)
    let mut rare: Vec<(usize, usize, usize, usize)> = by_count
        .iter()
        .zip(&kind_rare)
        .filter(|((_, c), &rare_kind)| c.count <= 2 && rare_kind)
        .flat_map(|((_, c), _)| {
            let both = (c.count == 2).then_some((1, 0, c.second, c.first));
            std::iter::once((0, 2 - c.count, c.first, c.first)).chain(both)
        })
        .collect();
    rare.sort_unstable();
    // Under the ceiling, in a longer document (where no kind of one or
    // two lines is a hundredth of it), rare lines take less.
    let shift = if total > rare::RARE_SHARE_FROM {
        squeeze.rare_shift()
    } else {
        0
    };
    let cap = max_rare(total) >> shift;
    // Rarity is signal at the coarser grain too: the lines whose first
    // word is rare among frequent ones (a session's `Log started`, a
    // package `remove` among thousands of `status` lines), rarest first,
    // every one of such a word up to the cap.
    let rare_verb = (total / 50).max(3);
    // A rare line again in the same context (the same text after its
    // timestamp, after the same line) is the same event again: its
    // first copy shows it.
    let mut again = rare::Again::default();
    let most = verbs.values().map(|v| v.0).max().unwrap_or(0);
    if most > 4 * rare_verb {
        let mut few: Vec<(usize, &str, &[usize])> = verbs
            .iter()
            .filter(|(w, v)| v.0 <= rare_verb && !w.is_empty())
            .map(|(w, v)| (v.0, w.as_str(), v.1.as_slice()))
            .collect();
        few.sort_unstable();
        // Each template of such a word shows its first two lines when it
        // has more than [`FEW_OF_A_KIND`] (the rest are the same kind again:
        // `flush sensor data` ×16); a few lines (a session's start, each
        // removal) all stay.
        let first_two = |i: usize| {
            tally
                .get(&*line_template(doc.line(i)))
                .is_none_or(|c| c.count <= FEW_OF_A_KIND || c.first == i || c.second == i)
        };
        for &i in few
            .iter()
            .flat_map(|f| f.2)
            .filter(|&&i| testrun::routine(doc.line(i)).is_none() && first_two(i))
            // (A rare word's lines are events, a cycle's each start: the
            // ceiling leaves their count alone.)
            .take(max_rare(total))
        {
            if !rare::inside_burst(doc, i) && !again.seen(doc, i) {
                keep.set(i, "rare kind (a first word rare among the lines)");
            }
        }
    }
    drop(verbs);
    // In a longer document rare lines take at most a share of its bytes
    // (a scanner's hundred distinct 404s are not a hundred signals), a
    // larger one where most lines are of a kind of their own (rarity
    // then tells little); in a short one they are much of what there
    // is, and stay to the cap.
    let room = rare::room(total, by_count.len(), doc.body().len()) >> shift;
    let mut used = 0;
    let mut taken = 0;
    // The rare lines past the cap: counted once every rule has kept what
    // it keeps (some of them are errors, exemplars or the tail).
    let mut beyond: Vec<usize> = Vec::new();
    for &(_, _, i, first) in &rare {
        // A second copy that is its first again but for timestamps and
        // ids (`acpid[509]: starting up`, later `acpid[809]: …`) is the
        // same event again: elided and counted with the rare lines
        // elided. It counts against the cap and the room as if it stayed
        // (which other lines stay does not change with it).
        if taken >= cap || used > room {
            beyond.push(i);
        } else if testrun::routine(doc.line(i)).is_none() {
            used += doc.line(i).len() + 1;
            taken += 1;
            // Under the ceiling a kind's first line shown stands for its
            // second.
            if i != first
                && ((squeeze.one_per_kind() && keep.get(first))
                    || volatile::same_event(doc, first, i))
            {
                beyond.push(i);
            } else {
                keep.set(i, "rare line (its kind occurs once or twice)");
            }
        }
    }
    drop(rare);
    // One line of every other kind not shown yet: a frequent template,
    // a template seen twice whose lines the rare lines' cap left out,
    // and a kind of few lines each (not rare as a kind) once.
    let mut kinds_shown: FxHashSet<&str> = FxHashSet::default();
    let mut twice = 0;
    for (k, (t, c)) in by_count.iter().enumerate().take(MAX_EXEMPLARS) {
        let kind = kinds[k].as_ref();
        let left_out = c.count == 2 && !keep.get(c.first) && !keep.get(c.second);
        twice += usize::from(left_out);
        let wanted = c.count > 2
            || (left_out && twice <= MAX_TWICE_EXEMPLARS)
            || (!kind_rare[k] && !kinds_shown.contains(kind));
        let seen = shown.contains(*t) || keep.get(c.first) || keep.get(c.second);
        if wanted && !seen && testrun::routine(doc.line(c.first)).is_none() {
            keep.set(c.first, "one line of each kind");
            // A kind whose lines are one unbroken run (a progress bar's
            // lines, a training run's epochs) shows its last line too:
            // where the run ended (not when it only repeats the first
            // with other timestamps and ids: its marker says so).
            if c.count >= MIN_RUN_LAST
                && c.last + 1 - c.first == c.count
                && !volatile::same_event(doc, c.first, c.last)
            {
                keep.set(c.last, "one line of each kind (the last of its run)");
            }
        }
        if wanted || seen {
            kinds_shown.insert(kind);
        }
    }
    drop(kinds_shown);
    drop(kind_rare);
    clock.mark("exemplars");
    keep.fill_query(query, QUERY_FILL, |i| doc.line(i).into());
    // The first line and the last ones.
    keep.set(first_line, "head/tail");
    for (k, _) in doc
        .body()
        .rsplit('\n')
        .enumerate()
        .filter(|(_, l)| !blank(l))
        .take(rules.tail.max(1))
    {
        keep.set(from_end(k), "head/tail");
    }
    parent_heads(doc, &mut keep);
    let unit = rules.unit;
    // Under a budget more go; the note of what did not fit says so.
    let rare_left = if budget.is_none() {
        beyond.iter().filter(|&&i| !keep.get(i)).count()
    } else {
        0
    };
    drop(beyond);
    // The closing marker states the total and the most frequent kinds;
    // under a budget it takes at most a quarter of it.
    let close = (total > 100 || budget.is_some())
        .then(|| {
            let counts: Vec<(&str, usize)> = by_count.iter().map(|(t, c)| (*t, c.count)).collect();
            let folded = super::kinds::frequent(&counts, 20);
            let mut kinds = super::kinds::recount(doc, &folded);
            if by_count.len() * 10 > total * 3 {
                kinds.retain(|&(_, c)| c * 100 >= total);
            }
            let facts = Closing {
                kinds: &kinds,
                all_kinds: by_count.len(),
                span: &span,
                lines: n,
                blank: n - total,
                unit,
                rare_left,
            };
            let mut listed = (total / 400).clamp(3, 8);
            // Past ~30 % distinct kinds the template list is noise: fewer,
            // and only kinds over 1 % of the lines.
            // (Under the ceiling too: every frequent kind shows a line.)
            if by_count.len() * 10 > total * 3 || squeeze.fewer_kinds() {
                listed = listed.min(3);
            }
            let mut c = facts.render(listed);
            if let Some(b) = budget {
                listed = by_count.len().min(20);
                c = facts.render(listed);
                while listed > 0 && crate::tokens::count(c.as_bytes()) * 4 > b {
                    listed -= 1;
                    c = facts.render(listed);
                }
            }
            c
        })
        // A budget too small for even the shortest closing marker keeps lines
        // (an error first) rather than the summary.
        .filter(|c| budget.is_none_or(|b| crate::tokens::count(c.as_bytes()) * 4 <= b));
    // Error lines elided as copies of shown ones are counted, as the
    // budget's are: a reader knows how often the error happened.
    let copies = copied.iter().filter(|&&i| !keep.get(i)).count();
    drop(copied);
    let copies_note = (copies > 0).then(|| {
        format!("\u{2026} caveman: {copies} error {unit} are among those elided: copies of error {unit} shown \u{2026}")
    });
    let overhead = [close.as_deref(), copies_note.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("\n");
    let unfit = keep.fit_text(
        budget,
        |i| doc.line(i),
        "\u{2026} 9999 lines elided (caveman) \u{2026}",
        &overhead,
    );
    let fitted = budget.is_some();
    // A line dropped alone between kept ones goes only when a kept line
    // shows its kind (shown before the exemplars, or its template's
    // first or second line kept): no kind leaves the view with it.
    let lone_shown: FxHashSet<usize> = if fitted {
        FxHashSet::default()
    } else {
        (0..n)
            .filter(|&i| {
                !keep.get(i) && (i == 0 || keep.get(i - 1)) && (i + 1 == n || keep.get(i + 1))
            })
            .filter(|&i| {
                let t = line_template(doc.line(i));
                shown.contains(&*t)
                    || tally.get(&*t).is_some_and(|c| {
                        (c.first != i && keep.get(c.first)) || (c.second != i && keep.get(c.second))
                    })
            })
            .collect()
    };
    drop(shown);
    let (mut pieces, _, trace) = keep.collapse(|run| {
        let count = run.len();
        if !fitted && count < 2 && !lone_shown.contains(&run.start) {
            return None;
        }
        if let Some(m) = volatile::repeat_marker(doc, run.clone(), unit) {
            if !fitted && marker_costs_more(doc.span(run.clone()), &m, count) {
                return None;
            }
            return Some((m, 0));
        }
        let facts = if fitted {
            String::new()
        } else if let Some(t) = testrun::tally(doc.range(run.clone())) {
            t
        } else if count >= SUMMARY_RUN {
            let f = super::super::runsum::summary(doc.range(run.clone()), SUMMARY_ROOM);
            let f = if f.is_empty() {
                first_words(doc.range(run.clone()))
            } else {
                f
            };
            // What a few lines share is worth stating only when it is
            // short beside them: a reader of a long marker over four
            // lines might as well read the lines. (A first words' tally
            // is short: always stated.)
            let share = if f.starts_with(FIRST_WORDS) {
                None
            } else {
                Some(SUMMARY_SHARE)
            };
            if share.is_some_and(|k| f.len() * k > doc.span(run.clone()).len()) {
                String::new()
            } else {
                f
            }
        } else {
            String::new()
        };
        let facts = match probe.filter(|_| !fitted) {
            Some(p) => with_probes(facts, doc.range(run.clone()).filter_map(p)),
            None => facts,
        };
        let marker = if facts.is_empty() {
            format!("\u{2026} {count} {unit} elided (caveman) \u{2026}")
        } else {
            format!("\u{2026} {count} {unit} elided (caveman): {facts} \u{2026}")
        };
        // A marker that costs as much as the lines it hides is not
        // worth it: the lines stay (one line, unless it costs twice its
        // marker).
        if !fitted && marker_costs_more(doc.span(run.clone()), &marker, count) {
            return None;
        }
        Some((marker, 0))
    });
    if let Some(note) = unfit.note(unit) {
        pieces.marker(note);
    }
    if let Some(note) = copies_note {
        pieces.marker(note);
    }
    if let Some(c) = close {
        pieces.marker(c);
    }
    clock.mark("markers");
    Some((pieces, trace))
}

/// Bytes a marker names failed lookups in, at most.
const FAILED_ROOM: usize = 4 * SUMMARY_ROOM;

/// A run's facts with the lookups among its lines that found nothing
/// ([`Rules::probe`]), by outcome in order of first appearance: how many
/// and the names they looked up, as one pattern when the names share one
/// (`3 ENOENT: /usr/lib/locale/C.UTF-8/LC_{TIME|NAME|PAPER}`), else listed.
fn with_probes<'a>(facts: String, probes: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut by_outcome: Vec<(&str, Vec<&str>)> = Vec::new();
    for (outcome, name) in probes {
        match by_outcome.iter_mut().find(|(o, _)| *o == outcome) {
            Some((_, names)) => names.push(name),
            None => by_outcome.push((outcome, vec![name])),
        }
    }
    let mut s = facts;
    for (outcome, names) in by_outcome {
        // A lookup that failed may be the one that mattered (an app's own
        // missing file among a loader's probes): failures get room to be
        // named; files opened, a summary's.
        let room = if outcome == "opened" {
            SUMMARY_ROOM
        } else {
            FAILED_ROOM
        };
        let pattern = super::super::names::pattern(names.iter().copied(), room);
        let pattern = pattern
            .strip_prefix("names ")
            .unwrap_or(&pattern)
            .to_owned();
        let named = if pattern.is_empty() {
            let mut l = String::new();
            for (k, n) in names.iter().enumerate() {
                if l.len() + n.len() > room {
                    l.push_str(&format!(" (+{} more)", names.len() - k));
                    break;
                }
                if k > 0 {
                    l.push_str(", ");
                }
                l.push_str(n);
            }
            l
        } else {
            pattern
        };
        if named.is_empty() || holds_credential(&named) {
            continue;
        }
        if !s.is_empty() {
            s.push_str("; ");
        }
        s.push_str(&format!("{} {outcome}: {named}", names.len()));
    }
    s
}

/// Whether `marker` costs at least as many tokens as the `hidden` text
/// (its `lines` and their line feeds). Only short runs are counted: a run
/// over four times the marker's bytes is always worth its marker. One
/// line is worth a marker only when it costs at least
/// [`SINGLE_LINE_COST`] times as much: a routine line between kept ones
/// (an INFO line among warnings) costs four times its marker; a short
/// one reads as easily as the marker would.
fn marker_costs_more(hidden: &str, marker: &str, lines: usize) -> bool {
    let m = crate::tokens::count(marker.as_bytes());
    if lines < 2 {
        // (A token is at least a byte.)
        return hidden.len() < SINGLE_LINE_COST * m
            || crate::tokens::count(hidden.as_bytes()) < SINGLE_LINE_COST * m;
    }
    hidden.len() <= 4 * marker.len() && crate::tokens::count(hidden.as_bytes()) <= m
}

/// What the closing marker states.
struct Closing<'a> {
    /// The most frequent kinds (folded, [`super::kinds::frequent`]).
    kinds: &'a [(String, usize)],
    /// How many kinds in all.
    all_kinds: usize,
    span: &'a str,
    lines: usize,
    blank: usize,
    unit: &'a str,
    rare_left: usize,
}

impl Closing<'_> {
    /// The closing marker with the `listed` most frequent kinds; a kind
    /// whose text holds a credential is counted, not written.
    fn render(&self, listed: usize) -> String {
        let (n, unit, span) = (self.lines, self.unit, self.span);
        let blank = if self.blank > 0 {
            format!(" ({} blank)", self.blank)
        } else {
            String::new()
        };
        let mut s = format!(
            "\u{2026} caveman: {n} {unit} in all{blank}{span}, {} kinds",
            self.all_kinds
        );
        if self.rare_left > 0 {
            s.push_str(&format!(
                "; {} more lines of rare kinds are among the elided",
                self.rare_left
            ));
        }
        // Kinds of one or two lines are in the view (rare lines stay).
        let frequent = &self.kinds[..listed.min(self.kinds.len())];
        if !frequent.is_empty() {
            s.push_str("; most frequent (lines matching, <*> = any text):");
        }
        for (k, (t, count)) in frequent.iter().enumerate() {
            if k > 0 {
                s.push(';');
            }
            if holds_credential(t) {
                s.push_str(&format!(" {count}\u{00d7} (a kind holding a credential)"));
            } else {
                s.push_str(&format!(" {count}\u{00d7} {t}"));
            }
        }
        s.push_str(" \u{2026}");
        s
    }
}

/// Blocks whose first lines share their first two words (at least this
/// many) are headed by those lines.
const HEAD_REPEATS: usize = 3;

/// A kept line keeps the head of its block, as a config's key keeps its
/// section: the first line of a blank-separated block that ends with `:`
/// (gdb's `Thread 2 (Thread 0x7f… (LWP 4412)):` over its frames, a
/// `Traceback (most recent call last):`), or whose first two words start
/// at least [`HEAD_REPEATS`] blocks (nmap's `Nmap scan report for host-23
/// (10.0.5.23)` over its ports), so a kept line never floats under the
/// wrong header.
fn parent_heads(doc: &Lines<'_>, keep: &mut Keep) {
    fn lead(t: &str) -> (&str, &str) {
        let mut w = t.split_whitespace();
        (w.next().unwrap_or(""), w.next().unwrap_or(""))
    }
    let mut starts: rustc_hash::FxHashMap<(&str, &str), usize> = Default::default();
    let mut after_blank = true;
    for l in doc.iter() {
        let t = l.trim();
        if t.is_empty() {
            after_blank = true;
        } else if after_blank {
            *starts.entry(lead(t)).or_default() += 1;
            after_blank = false;
        }
    }
    let mut head: Option<usize> = None;
    let mut after_blank = true;
    for (i, l) in doc.iter().enumerate() {
        let t = l.trim_end();
        if t.trim_start().is_empty() {
            after_blank = true;
            head = None;
            continue;
        }
        if after_blank {
            // (`::endgroup::`, a workflow command, heads nothing.)
            let colon = t.ends_with(':') && !t.ends_with("::");
            // (A rule of `─` or `=` that opens every block heads nothing.)
            let repeated = starts.get(&lead(t)).is_some_and(|&n| n >= HEAD_REPEATS)
                && t.chars().any(char::is_alphanumeric);
            head = (colon || repeated).then_some(i);
            after_blank = false;
        } else if let Some(h) = head {
            if keep.get(i) {
                keep.set(h, "head of a kept line's block");
                head = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_probes;

    /// Failed lookups are named in a failure's room (an app's own missing
    /// file after a loader's probes); files opened in a summary's.
    #[test]
    fn failed_lookups_are_named_past_a_summarys_room() {
        let mut probes: Vec<(&str, String)> = (0..12)
            .map(|k| {
                (
                    "ENOENT",
                    format!("/usr/lib/x86_64-linux-gnu/libprobe{k}.so.6"),
                )
            })
            .collect();
        probes.push(("ENOENT", "/etc/app/config.yml".to_string()));
        let s = with_probes(String::new(), probes.iter().map(|(o, n)| (*o, n.as_str())));
        assert!(s.starts_with("13 ENOENT: "), "{s}");
        assert!(s.contains("/etc/app/config.yml"), "{s}");
        assert!(!s.contains("more)"), "{s}");
    }
}
