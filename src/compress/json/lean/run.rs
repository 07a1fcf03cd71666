//! The lean `json` registry row: the cut view at the first level that fits
//! the budget; a lossless view (TOON, or the JSON minified in input order)
//! when it costs about as few tokens; and a floor: when the view is larger
//! than compat's view of the same body, a harder level is taken.

use super::{minified, ndjson, view, view_ndjson, Level, INPUT_ORDER};
use crate::compress::json::compat;
use crate::compress::{Compressed, Decline, Input, Trace};
use crate::content_type::Method;
use crate::detect::Parsed;
use crate::go::json::{self as gojson, Json};
use crate::tokens;

/// A lossless view wins over the cut view when it costs at most this much
/// more (in tokens): nothing is lost.
const LOSSLESS_SLACK: f64 = 1.10;
/// TOON is tried on bodies up to this size.
const TOON_MAX: usize = 8 << 20;
/// Views of at most this fraction of the body are not held to the floor.
const FLOOR_FRACTION: usize = 8;
/// A fitted view under 1/this of its budget leaves it idle.
const IDLE_FRACTION: usize = 4;
/// A view this many times the bytes of another is taken to hold more
/// tokens too (its tokens are not counted).
const BYTES_MARGIN: usize = 2;

/// A candidate view and its token count.
struct Counted {
    bytes: Vec<u8>,
    tokens: usize,
}

impl Counted {
    fn of(bytes: Vec<u8>) -> Counted {
        let tokens = tokens::count(&bytes);
        Counted { bytes, tokens }
    }
}

/// The lean `json` registry row.
pub(in super::super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let mut clock = crate::timings::Clock::new("lean json");
    let decoded;
    let root = match &input.parsed {
        Parsed::Json(v) => Some(v.root()),
        _ => {
            decoded =
                gojson::decode_exact(crate::go::unicode::trim_space(input.body), INPUT_ORDER).ok();
            decoded.as_ref().map(|t| t.root())
        }
    };
    // An accessibility tree is read as its outline, never sampled.
    // Its header says what the outline dropped of the raw nodes (when
    // the budget leaves room for it).
    if input.profile.is_lean() && root.is_some_and(crate::compress::a11y::is_tree) {
        if let Ok(mut c) = crate::compress::a11y::run(input) {
            let fits = |c: &Compressed| input.budget.is_none_or(|b| tokens::count(&c.bytes) <= b);
            if let Some((path, items)) = root.and_then(super::outline::outlined) {
                let mut bytes = super::outline::header(path, &items).into_bytes();
                bytes.push(b'\n');
                bytes.extend_from_slice(&c.bytes);
                let plain = std::mem::replace(&mut c.bytes, bytes);
                if fits(&c) {
                    return Ok(c);
                }
                c.bytes = plain;
            }
            if fits(&c) {
                return Ok(c);
            }
        }
    }
    let text = std::str::from_utf8(input.body).ok();
    if root.is_none() && text.is_none() {
        return Err(Decline("not valid UTF-8"));
    }
    let view_at = |level: Level| match root {
        Some(r) => view(r, input.query, level),
        None => text.and_then(|t| view_ndjson(t, input.query, level)),
    };
    let counted = |level: Level| view_at(level).map(|(b, t)| (Counted::of(b), t));
    let floor = CompatFloor::new(input);
    let levels = Level::ALL;
    let mut cut = counted(levels[0]);
    if let Some(b) = input.budget {
        cut = fit_budget(cut, b, &counted);
        // A level that fits by keeping no error of a body that has some
        // (each error element larger than the budget), or next to nothing
        // (its elements larger than what a level leaves them): the
        // budget's own fit keeps errors first, cut inside an element when
        // it must, then whole elements while they fit.
        let lost = |v: &[u8]| crate::budget::json::holds_error(v) == Some(false);
        let mut noted = false;
        let errors_lost = cut.as_ref().is_some_and(|(c, _)| lost(&c.bytes))
            && crate::budget::json::holds_error(input.body) == Some(true);
        // A level that keeps some errors and drops others says nothing of
        // those it dropped: the budget's own fit, which counts them, when
        // it keeps as many.
        let count = crate::budget::json::error_count;
        // (The body decoded once more: counted once.)
        let all_errors = count(input.body);
        let kept_errors = cut.as_ref().and_then(|(c, _)| count(&c.bytes));
        let some_lost =
            !errors_lost && kept_errors.is_some_and(|k| all_errors.is_some_and(|all| k < all));
        let idle = cut
            .as_ref()
            .is_none_or(|(c, _)| c.tokens.saturating_mul(IDLE_FRACTION) < b);
        if errors_lost || idle || some_lost {
            let better = crate::budget::json::fit(input.body, b, input.query)
                .map(Counted::of)
                .filter(|v| {
                    let bigger = cut.as_ref().is_none_or(|(c, _)| v.tokens > c.tokens);
                    let as_many = || count(&v.bytes) >= kept_errors;
                    errors_lost && !lost(&v.bytes) || idle && bigger || some_lost && as_many()
                });
            if let Some(v) = better {
                let mut trace = Trace::default();
                trace.add("budget fit: errors first (cut to their error fields when too large), query hits, the first and the last", 1);
                cut = Some((v, trace));
                noted = true;
            }
        }
        // A level kept: it says how many error values it left out, in
        // room the level leaves (a harder level when it must).
        if let (false, Some(all)) = (noted, all_errors) {
            cut = cut.map(|(c, t)| {
                let v = Counted::of(crate::budget::json::noted(&c.bytes, all));
                if v.tokens <= b {
                    return (v, t);
                }
                let room = b.saturating_sub(v.tokens - c.tokens);
                fit_budget(counted(levels[0]), room, &counted)
                    .map(|(c2, t2)| (Counted::of(crate::budget::json::noted(&c2.bytes, all)), t2))
                    .filter(|(v2, _)| v2.tokens <= b)
                    .unwrap_or((c, t))
            });
        }
    }
    clock.mark("cut");
    // The lossless views: TOON, the minified JSON.
    let toon_room = input
        .budget
        .map_or(TOON_MAX, |b| TOON_MAX.min(b.saturating_mul(8)));
    let bound = cut.as_ref().map(|(c, _)| c.bytes.len());
    let near = |len: usize| bound.is_none_or(|b| len <= b.saturating_mul(BYTES_MARGIN));
    let mut lossless: Vec<(Counted, Method)> = Vec::new();
    if root.is_some() && input.body.len() <= toon_room {
        if let Ok(t) = crate::toon::encode(input.body) {
            if near(t.len()) {
                lossless.push((Counted::of(t), Method::Toon));
            }
        }
    }
    // The minified JSON holds at least a quarter of the body's bytes: not
    // written when the cut is far smaller.
    let worth_minifying =
        bound.is_none_or(|b| b.saturating_mul(4 * BYTES_MARGIN) >= input.body.len());
    if let Some(m) = worth_minifying
        .then(|| minify(root, text, input.body))
        .flatten()
    {
        if near(m.len()) && m.len() < input.body.len() {
            lossless.push((Counted::of(m), Method::Elision));
        }
    }
    lossless.sort_by_key(|(c, _)| c.tokens);
    clock.mark("lossless views");
    if let Some((best, method)) = lossless.into_iter().next() {
        let wins = cut
            .as_ref()
            .is_none_or(|(c, _)| best.tokens as f64 <= c.tokens as f64 * LOSSLESS_SLACK)
            && input.budget.is_none_or(|b| best.tokens <= b);
        if wins && (cut.is_none() || floor.admits(best.tokens, best.bytes.len())) {
            let mut trace = Trace::default();
            let what = match method {
                Method::Toon => "every element (lossless TOON table)",
                _ => "every element (JSON minified)",
            };
            trace.add(what, 1);
            return Ok(Compressed {
                reported: Some((method, true)),
                tokens: Some(best.tokens),
                ..Compressed::traced(best.bytes, trace)
            });
        }
    }
    let Some((mut view, mut trace)) = cut else {
        return Err(Decline("no array, map or string long enough to cut"));
    };
    if input.budget.is_none() && !floor.admits(view.tokens, view.bytes.len()) {
        // A harder level that keeps the lean view's promises. Compat's
        // own view is never taken: it would cut what lean keeps (errors
        // beyond its sample, contracts, tool lists, members' names).
        let harder = Level::FLOOR
            .iter()
            .filter_map(|&l| counted(l))
            .find(|(c, _)| floor.admits(c.tokens, c.bytes.len()));
        if let Some((c, t)) = harder {
            view = c;
            trace = t;
        }
    }
    clock.mark("compat floor");
    Ok(Compressed {
        reported: Some((Method::Elision, false)),
        tokens: Some(view.tokens),
        ..Compressed::traced(view.bytes, trace)
    })
}

/// Under a budget, the first level whose view fits (views shrink level
/// by level: a binary search), else the hardest.
fn fit_budget<F>(
    cut: Option<(Counted, Trace)>,
    budget: usize,
    counted: &F,
) -> Option<(Counted, Trace)>
where
    F: Fn(Level) -> Option<(Counted, Trace)>,
{
    let levels = Level::ALL;
    if cut.as_ref().is_none_or(|(c, _)| c.tokens <= budget) {
        return cut;
    }
    let (mut lo, mut hi) = (1, levels.len() - 1);
    let mut best = None;
    while lo <= hi {
        let mid = (lo + hi) / 2;
        let v = counted(levels[mid]);
        if v.as_ref().is_some_and(|(c, _)| c.tokens <= budget) {
            best = v;
            hi = mid - 1;
        } else {
            lo = mid + 1;
        }
    }
    best.or_else(|| counted(levels[levels.len() - 1]))
}

/// The body minified in input order (NDJSON line by line), when that is
/// lossless: no escaped surrogate the decoder would replace.
fn minify(root: Option<Json<'_>>, text: Option<&str>, body: &[u8]) -> Option<Vec<u8>> {
    if memchr::memmem::find(body, b"\\ud").is_some()
        || memchr::memmem::find(body, b"\\uD").is_some()
    {
        return None;
    }
    match root {
        Some(r) => Some(minified(r)),
        None => {
            let (_, tapes) = ndjson(text?)?;
            let mut out = Vec::new();
            for t in &tapes {
                out.extend_from_slice(&minified(t.root()));
                out.push(b'\n');
            }
            Some(out)
        }
    }
}

/// Compat's view of a body, computed once and only when asked: its bytes,
/// and its tokens once they are needed.
struct CompatFloor<'i> {
    input: &'i Input<'i>,
    view: std::cell::OnceCell<Option<(Vec<u8>, std::cell::OnceCell<usize>)>>,
}

impl<'i> CompatFloor<'i> {
    fn new(input: &'i Input<'i>) -> CompatFloor<'i> {
        CompatFloor {
            input,
            view: std::cell::OnceCell::new(),
        }
    }

    /// A view of `tokens` tokens and `len` bytes holds no more tokens than
    /// compat's view of the body (or the body, when compat declines). A
    /// compat view more than [`BYTES_MARGIN`] times longer is not counted.
    fn admits(&self, tokens: usize, len: usize) -> bool {
        // Under a budget the budget rules; a view of an eighth of the body
        // or less is not the waste the floor is for (compat keeps more of
        // every long array), and compat's view is not worth computing.
        if self.input.budget.is_some()
            || len.saturating_mul(FLOOR_FRACTION) <= self.input.body.len()
        {
            return true;
        }
        let v = self.view.get_or_init(|| {
            compat::compress(self.input.body, self.input.query)
                .map(|b| (b, std::cell::OnceCell::new()))
        });
        match v {
            Some((b, _)) if b.len() > len.saturating_mul(BYTES_MARGIN) => true,
            Some((b, t)) => tokens <= *t.get_or_init(|| tokens::count(b)),
            None => true,
        }
    }
}
