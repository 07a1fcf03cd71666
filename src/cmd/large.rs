//! Payloads past the 64 MiB stdin limit (`compress`'s stdin, `run`'s
//! command output), streamed: whatever their size, the process holds the
//! first 64 MiB it already read and a few MiB more.
//!
//! * With a budget (`--budget N` or `CAVEMAN_ENGINE_BUDGET`, either
//!   profile) the original streams into the store (`Store::spool`) while
//!   a sample of its lines is kept — the first lines, the lines with error
//!   words or query terms, the last lines, markers counting the rest — and
//!   the view is the largest share of that sample that fits N tokens
//!   (else the smallest view). The stream is counted exactly, in parts cut
//!   where the tokenizer cuts anyway (`tokens::cut_point`).
//! * Without one it passes through as it comes, with `cave_input_too_large`
//!   in the report and its counts estimated at four bytes a token
//!   (`"tokens_estimated":true`). `compress` under compat refuses it
//!   instead, as the reference does.
//!
//! A store that cannot take the original (none, an object store, a full
//! disk, over its budget) means a pass-through: nothing is lost.

use std::collections::VecDeque;
use std::io::{Read, Write};

use super::compress::Extra;
use super::io::write_stderr_line;
use crate::content_type::{ContentType, Method};
use crate::engine::Options;
use crate::error::{Error, Result};
use crate::report::{Report, StoreFailure, Transformed};
use crate::store::{PutError, Spool, SpoolRecord};

/// Bytes read, sampled and counted at a time.
const CHUNK: usize = 1 << 20;
/// The longest line a sample keeps whole; a longer one is cut and says so.
const LINE_CAP: usize = 4096;
/// Bytes of a line searched for error words and query terms.
const SCAN_CAP: usize = 64 << 10;
/// Text is counted in parts of about this size.
const COUNT_PART: usize = 4 << 20;
/// A part that finds no cut point by this size is counted as it is, and
/// the count becomes an estimate.
const COUNT_PART_MAX: usize = 16 << 20;
/// Bytes of the first chunk detection looks at.
const DETECT_SAMPLE: usize = 64 << 10;

/// What the stream is, read from its first bytes.
fn detected(head: &[u8], opts: &Options) -> ContentType {
    if let Some(t) = &opts.forced_type {
        return t.clone();
    }
    let sample = &head[..head.len().min(DETECT_SAMPLE)];
    let sample = match sample.iter().rposition(|&b| b == b'\n') {
        Some(i) if i > 0 => &sample[..i],
        _ => sample,
    };
    let (body, _) = crate::unwrap::unwrap_as(sample, opts.profile);
    crate::detect::detect_as(&body, opts.profile, false, false).ct
}

/// Publishes a payload too large to hold: `head` (the first bytes read,
/// past [`super::MAX_STDIN`]) and the rest of `rest`. `refuse` is
/// `compress`'s compat rule: without a budget, the reference's error.
pub(super) fn publish(
    head: Vec<u8>,
    rest: &mut dyn Read,
    opts: &Options,
    extra: &Extra,
    refuse: bool,
) -> Result<()> {
    let ct = detected(&head, opts);
    let budget = opts.budget.filter(|_| extra.env_warning.is_none());
    let Some(budget) = budget else {
        if refuse && extra.env_warning.is_none() {
            return Err(super::io::too_large());
        }
        return pass_through(
            &head,
            rest,
            ct,
            opts,
            extra,
            StoreFailure::InputTooLarge,
            None,
        );
    };
    let unavailable = StoreFailure::Unavailable;
    let store = match super::open_store_or_why() {
        Ok(store) => store,
        Err(why) => return pass_through(&head, rest, ct, opts, extra, unavailable, Some(why)),
    };
    let mut spool = match store.spool() {
        Ok(spool) => spool,
        Err(e) => {
            let why = Some(e.to_string());
            return pass_through(&head, rest, ct, opts, extra, unavailable, why);
        }
    };
    let mut sampler = Sampler::new(budget, &opts.query);
    let mut counter = Counter::default();
    // The bytes already read, then the rest, a chunk at a time.
    let mut feed = |chunk: &[u8], spool: &mut Spool| -> std::io::Result<()> {
        spool.write(chunk)?;
        sampler.feed(chunk);
        counter.feed(chunk);
        Ok(())
    };
    let mut failed = None;
    for chunk in head.chunks(CHUNK) {
        if let Err(e) = feed(chunk, &mut spool) {
            failed = Some(e);
            break;
        }
    }
    drop(head);
    let mut buf = vec![0u8; CHUNK];
    while failed.is_none() {
        let n = match rest.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(Error::fatal(format!(
                    "read stdin: read /dev/stdin: {}",
                    crate::go::os::errno_text(&e)
                )))
            }
        };
        if let Err(e) = feed(&buf[..n], &mut spool) {
            failed = Some(e);
        }
    }
    if let Some(e) = failed {
        // The disk filled (or failed) under the spool: what it holds, then
        // the rest as it comes.
        let code = match PutError::from_io(&e) {
            PutError::Budget => StoreFailure::BudgetExceeded,
            PutError::Io(_) => StoreFailure::Unavailable,
        };
        let mut out = std::io::stdout().lock();
        let written = spool.copy_to(&mut out).map_err(write_error)?;
        return finish_pass_through(
            written,
            &mut out,
            rest,
            ct,
            opts,
            extra,
            code,
            Some(e.to_string()),
        );
    }
    let (tokens_before, estimated) = counter.finish();
    let view = sampler.view(budget, &ct, &spool.handle(), tokens_before);
    let tokens_after = crate::tokens::count(&view);
    let record = SpoolRecord {
        content_type: ct.as_str(),
        compressor: "budget",
        tokens_before: tokens_before as u64,
        tokens_after: tokens_after as u64,
    };
    let report =
        |transformed: Option<Transformed>, error: Option<StoreFailure>, after: usize| Report {
            content_type: ct.clone(),
            tokens_before,
            tokens_after: after,
            ratio: if transformed.is_some() && tokens_before > 0 {
                (tokens_before - after) as f64 / tokens_before as f64
            } else {
                0.0
            },
            transformed,
            error,
            profile: opts.profile,
            budget: opts.budget,
            over_budget: after > budget,
        };
    match spool.commit(&store, &record) {
        Ok(handle) if tokens_after < tokens_before => {
            super::io::write_stdout(&view)
                .map_err(|e| Error::fatal(format!("compress: write stdout: {e}")))?;
            let report = report(
                Some(Transformed {
                    recovery_handle: handle,
                    method: Method::Text,
                    lossless_to_model: false,
                }),
                None,
                tokens_after,
            );
            write_report(&report, estimated)
        }
        outcome => {
            let (error, why) = match outcome {
                Ok(_) => (None, None),
                Err(PutError::Budget) => (Some(StoreFailure::BudgetExceeded), None),
                Err(PutError::Io(why)) => (Some(StoreFailure::Unavailable), Some(why)),
            };
            let mut out = std::io::stdout().lock();
            spool.copy_to(&mut out).map_err(write_error)?;
            out.flush().map_err(write_error)?;
            drop(out);
            write_report(&report(None, error, tokens_before), estimated)?;
            note(why);
            Ok(())
        }
    }
}

fn write_error(e: std::io::Error) -> Error {
    match e.kind() {
        std::io::ErrorKind::BrokenPipe => Error::broken_pipe(),
        _ => Error::fatal(format!(
            "compress: write stdout: write /dev/stdout: {}",
            crate::go::os::errno_text(&e)
        )),
    }
}

fn write_report(report: &Report, estimated: bool) -> Result<()> {
    write_stderr_line(&report.to_json_with(estimated))
        .map_err(|e| Error::fatal(format!("compress: write report: {e}")))
}

/// Why the original could not be stored, when there is something to say.
fn note(why: Option<String>) {
    if let Some(why) = why {
        let line = format!("caveman-engine: {why}; the input passed through");
        let _ = write_stderr_line(line.as_bytes());
    }
}

/// `head` and the rest of `rest` to stdout as they come, then the report
/// (estimated counts) and, when there is one, why.
fn pass_through(
    head: &[u8],
    rest: &mut dyn Read,
    ct: ContentType,
    opts: &Options,
    extra: &Extra,
    code: StoreFailure,
    why: Option<String>,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(head).map_err(write_error)?;
    finish_pass_through(
        head.len() as u64,
        &mut out,
        rest,
        ct,
        opts,
        extra,
        code,
        why,
    )
}

#[allow(clippy::too_many_arguments)]
fn finish_pass_through(
    written: u64,
    out: &mut dyn Write,
    rest: &mut dyn Read,
    ct: ContentType,
    opts: &Options,
    extra: &Extra,
    code: StoreFailure,
    why: Option<String>,
) -> Result<()> {
    let copied = copy(rest, out)?;
    out.flush().map_err(write_error)?;
    let tokens = (written + copied).div_ceil(4) as usize;
    let report = Report {
        content_type: ct,
        tokens_before: tokens,
        tokens_after: tokens,
        ratio: 0.0,
        transformed: None,
        error: Some(code),
        profile: opts.profile,
        budget: opts.budget,
        over_budget: opts.budget.is_some_and(|b| tokens > b),
    };
    write_report(&report, true)?;
    note(why.or_else(|| extra.env_warning.clone()));
    Ok(())
}

/// Copies the rest of `rest` to `out`; the number of bytes.
fn copy(rest: &mut dyn Read, out: &mut dyn Write) -> Result<u64> {
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let n = match rest.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(Error::fatal(format!(
                    "read stdin: read /dev/stdin: {}",
                    crate::go::os::errno_text(&e)
                )))
            }
        };
        out.write_all(&buf[..n]).map_err(write_error)?;
        total += n as u64;
    }
}

/// An exact token count of a stream, counted in parts cut where the
/// tokenizer always starts a new piece.
#[derive(Default)]
struct Counter {
    pending: Vec<u8>,
    total: usize,
    estimated: bool,
}

impl Counter {
    fn feed(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
        if self.pending.len() < COUNT_PART {
            return;
        }
        let from = self.pending.len() - self.pending.len().min(SCAN_CAP);
        match crate::tokens::cut_point(&self.pending, from) {
            Some(cut) => {
                self.total += crate::tokens::count(&self.pending[..cut]);
                self.pending.drain(..cut);
            }
            None if self.pending.len() >= COUNT_PART_MAX => {
                // No cut point in 16 MiB (one giant token run): counted
                // as cut, a few tokens off at most.
                self.total += crate::tokens::count(&self.pending);
                self.pending.clear();
                self.estimated = true;
            }
            None => {}
        }
    }

    /// The count, and whether it is an estimate.
    fn finish(mut self) -> (usize, bool) {
        self.total += crate::tokens::count(&self.pending);
        self.pending.clear();
        (self.total, self.estimated)
    }
}

/// A line a sample keeps: its number (from 0), its first [`LINE_CAP`]
/// bytes and its whole length.
struct Kept {
    no: usize,
    text: Vec<u8>,
    len: usize,
}

impl Kept {
    fn new(no: usize, line: &[u8], len: usize) -> Kept {
        Kept {
            no,
            text: line[..line.len().min(LINE_CAP)].to_vec(),
            len,
        }
    }
}

/// The first lines, the lines with error words or query terms, and the
/// last bytes of a stream, each within a byte allowance the budget sets.
struct Sampler {
    /// Bytes each part of the sample may hold.
    room: usize,
    /// Complete lines seen.
    lines: usize,
    /// The line being read (its first [`SCAN_CAP`] bytes) and its length.
    partial: Vec<u8>,
    partial_len: usize,
    head: Vec<Kept>,
    head_bytes: usize,
    picks: Vec<Kept>,
    pick_bytes: usize,
    /// The stream's last bytes (at least `room`), and its length.
    tail: VecDeque<u8>,
    bytes: usize,
    /// Query terms, if any (any case).
    query: Option<regex::bytes::Regex>,
}

impl Sampler {
    fn new(budget: usize, query: &str) -> Sampler {
        let terms = crate::compress::shared::relevance::query_terms(query);
        let query = (!terms.is_empty()).then(|| {
            let escaped: Vec<String> = terms.iter().map(|t| regex::escape(t)).collect();
            regex::bytes::Regex::new(&format!("(?i){}", escaped.join("|"))).expect("query terms")
        });
        Sampler {
            // About four bytes a token, twice over so the fit can choose.
            room: (budget.saturating_mul(8)).clamp(4 << 10, 4 << 20),
            lines: 0,
            partial: Vec::new(),
            partial_len: 0,
            head: Vec::new(),
            head_bytes: 0,
            picks: Vec::new(),
            pick_bytes: 0,
            tail: VecDeque::new(),
            bytes: 0,
            query,
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len();
        self.tail.extend(chunk);
        let keep = self.room + LINE_CAP;
        if self.tail.len() > 2 * keep {
            self.tail.drain(..self.tail.len() - keep);
        }
        let mut at = 0;
        for end in memchr::memchr_iter(b'\n', chunk) {
            let piece = &chunk[at..end];
            at = end + 1;
            if self.partial_len > 0 {
                self.extend_partial(piece);
                let (line, len) = (std::mem::take(&mut self.partial), self.partial_len);
                self.partial_len = 0;
                self.line(&line, len);
            } else {
                self.line(piece, piece.len());
            }
        }
        self.extend_partial(&chunk[at..]);
    }

    /// Whether a line is an error (the classifier every lean rule and the
    /// budget share) or holds a query term.
    fn signal(&self, line: &[u8]) -> bool {
        self.query.as_ref().is_some_and(|q| q.is_match(line))
            || crate::compress::shared::signal::is_error(&String::from_utf8_lossy(line))
    }

    fn extend_partial(&mut self, piece: &[u8]) {
        let room = SCAN_CAP.saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&piece[..piece.len().min(room)]);
        self.partial_len += piece.len();
    }

    /// One complete line (`line`: its first bytes, `len`: its length).
    fn line(&mut self, line: &[u8], len: usize) {
        let no = self.lines;
        self.lines += 1;
        if self.head_bytes < self.room {
            self.head_bytes += len.min(LINE_CAP) + 1;
            self.head.push(Kept::new(no, line, len));
        } else if self.pick_bytes < self.room && self.signal(&line[..line.len().min(SCAN_CAP)]) {
            self.pick_bytes += len.min(LINE_CAP) + 1;
            self.picks.push(Kept::new(no, line, len));
        }
    }

    /// The view: the sample, markers for what it leaves out, fitted to
    /// `budget` tokens; else the smallest view.
    fn view(
        mut self,
        budget: usize,
        ct: &ContentType,
        handle: &crate::store::Handle,
        tokens: usize,
    ) -> Vec<u8> {
        // The unfinished last line is a line too.
        let ends_with_lf = self.partial_len == 0;
        if !ends_with_lf {
            let (line, len) = (std::mem::take(&mut self.partial), self.partial_len);
            self.line(&line, len);
        }
        let total = self.lines;
        // The tail's whole lines, numbered back from the last.
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        let tail = if ends_with_lf {
            &tail[..tail.len().saturating_sub(1)]
        } else {
            &tail[..]
        };
        let mut tail_lines: Vec<&[u8]> = tail.split(|&b| b == b'\n').collect();
        if self.bytes > self.tail.len() {
            // The first piece is the end of a line that began earlier.
            tail_lines.remove(0);
        }
        let mut budget_bytes = 0;
        let mut from_end: Vec<Kept> = Vec::new();
        for (k, l) in tail_lines.iter().rev().enumerate() {
            if budget_bytes >= self.room || k >= total {
                break;
            }
            budget_bytes += l.len().min(LINE_CAP) + 1;
            from_end.push(Kept::new(total - 1 - k, l, l.len()));
        }
        from_end.reverse();
        let (head, picks) = (self.head, self.picks);
        // A long line is cut shorter under a small budget.
        let cap = budget.saturating_mul(2).clamp(256, LINE_CAP);
        // The sample with the first `nh` head lines, the first `np` picks
        // and the last `nt` tail lines, markers counting the rest.
        let render = |nh: usize, np: usize, nt: usize| -> Vec<u8> {
            let mut chosen: Vec<&Kept> = head[..nh]
                .iter()
                .chain(&picks[..np])
                .chain(&from_end[from_end.len() - nt..])
                .collect();
            chosen.sort_by_key(|k| k.no);
            chosen.dedup_by_key(|k| k.no);
            let mut sample = String::new();
            let mut next = 0;
            let marker = |n: usize| format!("\u{2026} {n} lines elided (caveman) \u{2026}\n");
            for k in chosen {
                if k.no > next {
                    sample.push_str(&marker(k.no - next));
                }
                let text = &k.text[..k.text.len().min(cap)];
                sample.push_str(&String::from_utf8_lossy(text));
                if k.len > text.len() {
                    sample.push_str(&format!(
                        " \u{2026} (caveman: line cut, {} bytes in all) \u{2026}",
                        k.len
                    ));
                }
                sample.push('\n');
                next = k.no + 1;
            }
            if total > next {
                sample.push_str(&marker(total - next));
            }
            sample.into_bytes()
        };
        // The largest share of the sample that fits: head and tail shrink
        // together, error and query lines last (they get twice the share).
        const STEPS: usize = 1024;
        let at = |k: usize| {
            let share = |n: usize, w: usize| (n * (w * k).min(STEPS)).div_ceil(STEPS);
            render(
                share(head.len(), 1),
                share(picks.len(), 2),
                share(from_end.len(), 1),
            )
        };
        let fits = |v: &[u8]| crate::tokens::count(v) <= budget;
        let whole = at(STEPS);
        if fits(&whole) {
            return whole;
        }
        let (mut lo, mut hi) = (0, STEPS);
        let mut best = None;
        while lo < hi {
            let mid = (lo + hi) / 2;
            let v = at(mid);
            if fits(&v) {
                best = Some(v);
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        best.unwrap_or_else(|| {
            format!(
                "\u{2026} caveman: all {total} lines elided ({ct}, {tokens} tokens); caveman-engine retrieve {} gives them back \u{2026}\n",
                handle.as_str()
            )
            .into_bytes()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &[u8], budget: usize, query: &str) -> String {
        let mut s = Sampler::new(budget, query);
        for c in text.chunks(7) {
            s.feed(c);
        }
        let h = crate::store::Handle::of(text);
        String::from_utf8(s.view(budget, &ContentType::Log, &h, 0)).unwrap()
    }

    #[test]
    fn the_sample_keeps_head_errors_and_tail_and_counts_the_rest() {
        let mut text = String::new();
        for i in 0..20_000 {
            if i == 12_345 {
                text.push_str("2024 ERROR disk full on /data\n");
            }
            text.push_str(&format!("2024 INFO request {i} served\n"));
        }
        let view = sample(text.as_bytes(), 300, "");
        assert!(crate::tokens::count(view.as_bytes()) <= 300, "{view}");
        assert!(view.contains("ERROR disk full on /data"), "{view}");
        assert!(view.starts_with("2024 INFO request 0 served\n"), "{view}");
        assert!(view.ends_with("2024 INFO request 19999 served\n"), "{view}");
        let counted: usize = view
            .lines()
            .map(|l| {
                l.strip_prefix("\u{2026} ")
                    .and_then(|r| r.split(' ').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(1)
            })
            .sum();
        assert_eq!(counted, 20_001, "{view}");
    }

    #[test]
    fn a_query_term_is_picked_and_a_long_line_is_cut_with_a_note() {
        let mut text = String::new();
        for i in 0..5_000 {
            text.push_str(&format!("row {i} plain\n"));
        }
        text.push_str("row 5000 zebra\n");
        text.push_str(&"x".repeat(10_000));
        let view = sample(text.as_bytes(), 400, "zebra");
        assert!(view.contains("row 5000 zebra"), "{view}");
        assert!(view.contains("line cut, 10000 bytes in all"), "{view}");
    }

    #[test]
    fn counting_in_parts_is_counting_whole() {
        let mut text = String::new();
        for i in 0..400_000 {
            text.push_str(&format!("  word{i}, 12.5% done\n"));
        }
        let mut c = Counter::default();
        for chunk in text.as_bytes().chunks(CHUNK) {
            c.feed(chunk);
        }
        assert_eq!(c.finish(), (crate::tokens::count(text.as_bytes()), false));
    }
}
