//! Issue 40 rule 8 for CSV, TSV and Markdown tables: a lean view is never
//! larger than compat's view of the same table, when the rules of issue 40 rule 5
//! allow it (every error row, every extreme row, every row of a state
//! other than the default and the whole summary stay).

use crate::compress::Compressed;
use crate::table::Table;

/// Issue 40 rule 8: a lean table's view is never larger than compat's cut
/// of the same table. `cut(budget)` is the lean view (`None`: the table
/// whole; `ceiling`: the budget is compat's size); without
/// a budget of its own, a view (or a whole table) larger than `compat()`
/// (the tokens compat's cut leaves the lean rules) is cut again by the
/// lean priorities within that many tokens (a reference table's other
/// rows filling them).
pub(super) fn within_compat(
    input: &[u8],
    budget: Option<usize>,
    cut: impl Fn(Option<usize>, bool) -> Option<Compressed>,
    compat: impl FnOnce() -> Option<usize>,
) -> Option<Compressed> {
    let view = cut(budget, false);
    if budget.is_some() || input.len() > CEILING_BYTES {
        return view;
    }
    let Some(room) = compat() else {
        return view;
    };
    let before = crate::tokens::count(view.as_ref().map_or(input, |v| &v.bytes));
    if before <= room {
        return view;
    }
    // A budget counts the rows a cut keeps, not what its gaps' markers
    // say, and a row as its cells (a CSV row's quotes and commas cost
    // more): a view still over, or no cut at all, is cut again within a
    // budget smaller by the excess. Every cut keeps the rows of rule 5
    // and the whole summary, so it may not get within compat's size: then
    // the smallest is taken if it is smaller than the view.
    let (mut b, mut best) = (room, None::<(usize, Compressed)>);
    // The least budget found over the ceiling.
    let mut over = usize::MAX;
    let mut fit = None;
    for _ in 0..REFITS {
        let t = match cut(Some(b), true) {
            Some(v) => {
                let t = crate::tokens::count(&v.bytes);
                if t <= room {
                    fit = Some((b, t, v));
                    break;
                }
                if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                    best = Some((t, v));
                }
                t
            }
            None => before,
        };
        over = over.min(b);
        // Smaller by the excess, or by half at most (an excess of held
        // rows' markers is not the rows' own).
        b = b.saturating_sub(t - room).max(b / 2);
        if b == 0 {
            break;
        }
    }
    let Some((mut b, mut t, mut v)) = fit else {
        return match best {
            Some((t, v)) if t < before => Some(v),
            _ => view,
        };
    };
    // A cut that leaves room under the ceiling grows back into it (a
    // group's rows, a gap's ranges): the room compat's size allows is
    // used, between the budget that fit and the least one that did not.
    for _ in 0..GROWS {
        if room - t <= room / GROW_SLACK {
            break;
        }
        let next = (b + (room - t)).min(b + over.saturating_sub(b) / 2);
        if next <= b {
            break;
        }
        match cut(Some(next), true) {
            Some(w) => {
                let wt = crate::tokens::count(&w.bytes);
                if wt <= room {
                    (b, t, v) = (next, wt, w);
                } else {
                    over = next;
                }
            }
            None => over = next,
        }
    }
    Some(v)
}

/// Cuts a fitting cut grows back by at most.
const GROWS: usize = 3;
/// A fitting cut within this share of the ceiling (1/N) does not grow.
const GROW_SLACK: usize = 20;

/// Bytes of a table held to compat's size at most: each cut within a
/// budget counts its rows' tokens, at most [`REFITS`] + [`GROWS`] times.
const CEILING_BYTES: usize = 1 << 20;

/// Cuts within a budget [`within_compat`] tries at most.
const REFITS: usize = 4;

/// The tokens of compat's cut of table `t` (`None` when compat keeps it
/// whole), less the room a lean view's retrieve line takes.
pub(super) fn compat_room(input: &[u8], t: &Table<'_>, query: &str) -> Option<usize> {
    let (view, _) = super::sample(input, t, query, crate::timings::Clock::new("tabular"))?;
    Some(crate::tokens::count(&view).saturating_sub(crate::engine::NOTE_RESERVE))
}

#[cfg(test)]
mod tests {
    use super::super::lean::lean_dsv;
    use super::*;
    use crate::compress::Input;
    use crate::table;

    /// The lean view of a CSV table as the registry runs it (the ceiling
    /// of compat's size applied), and compat's view of it.
    fn both(text: &str) -> (String, String) {
        let lean = Input {
            profile: crate::profile::Profile::Lean,
            ..Input::plain(text.as_bytes(), "")
        };
        let view = super::super::lean::run(&lean).map_or(text.as_bytes().to_vec(), |c| c.bytes);
        let t = table::parse(text.as_bytes()).unwrap();
        let (compat, _) = super::super::sample(
            text.as_bytes(),
            &t,
            "",
            crate::timings::Clock::new("tabular"),
        )
        .unwrap();
        (
            String::from_utf8(view).unwrap(),
            String::from_utf8(compat).unwrap(),
        )
    }

    /// Issue 40 rule 8: a short series (once read whole, under 2,000
    /// tokens) is cut within compat's size, and still holds or states its
    /// least and greatest price.
    #[test]
    fn a_short_table_is_no_larger_than_compats_cut() {
        let mut s = String::from("date,price\n");
        let mut prices = Vec::new();
        for i in 0..123 {
            let p = 1400.0 + f64::from((i * 37) % 23) * 31.7 - f64::from(i) * 2.5;
            let month = ["Jan", "Jul"][i as usize % 2];
            s.push_str(&format!("{month} 1 {},{p:.2}\n", 2000 + i / 2));
            prices.push(p);
        }
        let (lean, compat) = both(&s);
        let count = |v: &str| crate::tokens::count(v.as_bytes());
        assert!(count(&lean) < count(&compat), "{lean}\n{compat}");
        assert!(lean.contains("123 total rows"), "{lean}");
        let (lo, hi) = prices
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &p| (a.min(p), b.max(p)));
        for p in [lo, hi] {
            assert!(lean.contains(&format!("{p:.2}")), "{p:.2}: {lean}");
        }
    }

    /// Under the ceiling of compat's size, a reference table (templates
    /// keyed by an id) keeps its rows in order up to it, not only its
    /// ends (as the user's budget would), and names every key it hides.
    #[test]
    fn a_reference_table_fills_compats_size() {
        let mut s = String::from("EventId,EventTemplate\n");
        for i in 1..=160usize {
            s.push_str(&format!(
                "E{i},service <*> step {} reported state {} of <*>\n",
                i * 7 % 31,
                ["ready", "queued", "done"][i % 3]
            ));
        }
        let t = table::parse(s.as_bytes()).unwrap();
        let b = crate::tokens::count(s.as_bytes()) * 4 / 5;
        let view = |ceiling| {
            let v = lean_dsv(s.as_bytes(), &t, "", Some(b), ceiling).unwrap();
            String::from_utf8(v.bytes).unwrap()
        };
        let rows = |v: &str| v.lines().filter(|l| l.starts_with('E')).count();
        let (filled, budget) = (view(true), view(false));
        assert!(rows(&filled) >= 100, "{filled}");
        assert!(rows(&budget) < 20, "{budget}");
        for i in 1..=160 {
            let key = format!("E{i}");
            assert!(
                filled.split([' ', ',', '\n']).any(|w| w == key),
                "{key} neither shown nor named: {filled}"
            );
        }
    }

    /// A cut within a budget, as the ceiling asks it.
    fn held(text: &str, b: usize) -> String {
        let t = table::parse(text.as_bytes()).unwrap();
        let v = lean_dsv(text.as_bytes(), &t, "", Some(b), true).unwrap();
        String::from_utf8(v.bytes).unwrap()
    }

    /// Under compat's size, the first marker still states the table's
    /// total and every column's range, however small the ceiling.
    #[test]
    fn the_ceiling_keeps_the_summarys_ranges() {
        let mut s = String::from("host,cpu,mem\n");
        for i in 0..200 {
            s.push_str(&format!(
                "node-{i:03},{},{}\n",
                (i * 37) % 91 + 3,
                (i * 71) % 900 + 100
            ));
        }
        let view = held(&s, 60);
        let first = view.lines().nth(1).unwrap();
        assert!(first.contains("200 total rows"), "{first}");
        let range = |f: fn(usize) -> usize| {
            let v: Vec<usize> = (0..200).map(f).collect();
            format!("{}..{}", v.iter().min().unwrap(), v.iter().max().unwrap())
        };
        let cpu = range(|i| (i * 37) % 91 + 3);
        let mem = range(|i| (i * 71) % 900 + 100);
        assert!(
            first.contains(&format!("; cpu={cpu}; mem={mem}; ")),
            "{first}"
        );
    }

    /// Under compat's size, no error row and no extreme row is dropped,
    /// however small the ceiling (issue 40 rule 5).
    #[test]
    fn the_ceiling_drops_no_error_or_extreme_row() {
        let mut s = String::from("job,status,seconds\n");
        for i in 0..300 {
            let status = if i % 37 == 5 { "failed" } else { "ok" };
            // The longest job is the first row (kept first as the head).
            let secs = match i {
                0 => 9000,
                210 => 1,
                _ => 100 + (i * 13) % 50,
            };
            s.push_str(&format!("job-{i:03},{status},{secs}\n"));
        }
        let view = held(&s, 60);
        for i in (0..300).filter(|i| i % 37 == 5) {
            assert!(view.contains(&format!("job-{i:03},failed,")), "{i}: {view}");
        }
        assert!(view.contains("job-000,ok,9000"), "{view}");
        assert!(view.contains("job-210,ok,1\n"), "{view}");
    }

    /// When no cut gets within compat's size, the smallest is taken if it
    /// is smaller than the lean view; a view already within it stays.
    #[test]
    fn the_smallest_cut_over_the_ceiling_is_taken() {
        let words = |n: usize| Compressed::new("word ".repeat(n).into_bytes());
        let input = "word ".repeat(400);
        let cut = |b: Option<usize>, _| Some(words(if b.is_some() { 150 } else { 200 }));
        let v = within_compat(input.as_bytes(), None, cut, || Some(10)).unwrap();
        assert_eq!(v.bytes, words(150).bytes);
        let v = within_compat(input.as_bytes(), None, cut, || Some(300)).unwrap();
        assert_eq!(v.bytes, words(200).bytes);
    }

    /// Under compat's size, a gap's marker says what fits in its least
    /// room and does not count what it leaves out (`; (+1 more)`).
    #[test]
    fn the_ceilings_markers_count_nothing_left_out() {
        let mut s = String::from("LineId,Time,Level,Content\n");
        for i in 0..300 {
            let level = if i % 9 == 0 { "error" } else { "notice" };
            s.push_str(&format!(
                "{i},2021-03-01 10:{:02}:{:02},{level},worker {} found child {}\n",
                i / 60,
                i % 60,
                i % 5,
                6000 + i
            ));
        }
        let view = held(&s, 400);
        let gaps: Vec<&str> = view
            .lines()
            .filter(|l| l.starts_with("\u{2026} 8 rows elided"))
            .collect();
        assert!(!gaps.is_empty(), "{view}");
        for g in gaps {
            assert!(
                g.starts_with("\u{2026} 8 rows elided (caveman): all Level=notice; "),
                "{g}"
            );
            assert!(!g.contains(" more)"), "{g}");
        }
    }
    /// A cut that fits well under the ceiling grows back into the room
    /// compat's size leaves (never over it).
    #[test]
    fn a_cut_under_the_ceiling_grows_back_into_it() {
        let words = |n: usize| Compressed::new("word ".repeat(n).into_bytes());
        let input = "word ".repeat(400);
        let cut = |b: Option<usize>, _| Some(words(b.map_or(400, |b| b / 2)));
        let v = within_compat(input.as_bytes(), None, cut, || Some(100)).unwrap();
        let t = crate::tokens::count(&v.bytes);
        assert!((90..=100).contains(&t), "{t}");
    }
}
