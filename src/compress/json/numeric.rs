//! The compat elider's numeric rules (json.md §5.3, §5.4): per numeric leaf
//! path, the robust anomalies of its values, and the change points of the
//! full-coverage path with the highest variance (or of the elements'
//! canonical lengths).

use super::super::shared::robust;
use crate::go::json::{Indexed, Json, Value};

/// Interns numeric-leaf paths.
#[derive(Default)]
struct Paths {
    ids: rustc_hash::FxHashMap<String, u32>,
    names: Vec<String>,
    empty: Option<u32>,
}

impl Paths {
    fn id(&mut self, p: &str) -> u32 {
        // The path of an array of scalars, looked up once per element.
        if p.is_empty() {
            if let Some(i) = self.empty {
                return i;
            }
        }
        let i = self.intern(p);
        if p.is_empty() {
            self.empty = Some(i);
        }
        i
    }

    fn intern(&mut self, p: &str) -> u32 {
        if let Some(&i) = self.ids.get(p) {
            return i;
        }
        let i = self.names.len() as u32;
        self.ids.insert(p.to_string(), i);
        self.names.push(p.to_string());
        i
    }
}

/// Numeric leaves of one element, members in ascending key order, a later
/// write to the same path winning (json.md §5.3 step 1).
fn leaves(v: Json<'_>, path: &mut String, paths: &mut Paths, out: &mut Vec<(u32, f64)>) {
    match v.get() {
        Value::Number(n) => {
            if let Ok(x) = n.parse::<f64>() {
                if x.is_finite() {
                    let id = paths.id(path);
                    out.push((id, x));
                }
            }
        }
        Value::Object(m) => {
            for (k, val) in m {
                let keep = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                leaves(val, path, paths, out);
                path.truncate(keep);
            }
        }
        _ => {}
    }
}

/// What the numeric rules need of an array whose elements are all finite
/// numbers (the one path `""`, in every element).
enum Numbers {
    /// Some element is something else: every element's leaves are walked.
    Not,
    /// At most a few distinct values: their counts (no value is kept).
    Counted(Vec<(f64, usize)>),
    /// The values, parsed on every core straight into the result.
    Values(Vec<f64>),
}

/// The value of a number element, if it is a finite one.
fn number(item: Json<'_>) -> Option<f64> {
    match item.get() {
        Value::Number(t) => t.parse::<f64>().ok().filter(|v| v.is_finite()),
        _ => None,
    }
}

/// [`Numbers`] of an array: one pass on every core that checks and counts
/// its elements, a second that stores the values only when they are many.
fn numbers_only(items: &Indexed<'_>) -> Numbers {
    let n = items.len();
    if n == 0 || number(items.get(0)).is_none() {
        return Numbers::Not;
    }
    let tallies = crate::par::map(crate::par::ranges(n, 4096), |part| {
        let mut t = robust::Tally::default();
        for i in part {
            t.push(number(items.get(i))?);
        }
        Some(t)
    });
    let mut tally = robust::Tally::default();
    for t in tallies {
        let Some(t) = t else { return Numbers::Not };
        tally.merge(t);
    }
    if let Some(counts) = tally.finish() {
        return Numbers::Counted(counts);
    }
    let mut xs = vec![0.0f64; n];
    let size = n.div_ceil(crate::par::parts_for(n, 4096)).max(1);
    let parts: Vec<_> = xs.chunks_mut(size).enumerate().collect();
    crate::par::map(parts, |(k, xs)| {
        for (j, x) in xs.iter_mut().enumerate() {
            // Checked finite by the first pass.
            *x = number(items.get(k * size + j)).unwrap_or_default();
        }
    });
    Numbers::Values(xs)
}

/// Keeps the last value per path, in place, each path where it first
/// appeared.
fn last_wins(v: &mut Vec<(u32, f64)>) {
    let mut kept = 0;
    for j in 0..v.len() {
        let (id, x) = v[j];
        match v[..kept].iter_mut().find(|e| e.0 == id) {
            Some(e) => e.1 = x,
            None => {
                v[kept] = (id, x);
                kept += 1;
            }
        }
    }
    v.truncate(kept);
}

/// Anomalies (§5.3) and change-point seams (§5.4).
pub(super) fn rules(items: &Indexed<'_>, lens: &[u32], keep: &mut [bool]) {
    let n = items.len();
    let mut paths = Paths::default();
    // Per path: the elements that have it, and its values.
    let mut per_path: Vec<(Option<Vec<u32>>, Vec<f64>)> = Vec::new();
    let mut buf = Vec::new();
    let mut path = String::new();
    // A path first seen at element i has at most n - i values: give it
    // that room rather than doubling (each outgrown buffer's pages stay
    // with the allocator), as long as all the room given stays within
    // the number of numbers in the array. Untouched room costs nothing.
    let mut room = 0;
    let mut stats = robust::Robust::default();
    match numbers_only(items) {
        Numbers::Counted(counts) => {
            // The one path's anomalies from its counts, its values
            // parsed again only to find them; the change-point series
            // is the lengths (an unnamed path is never chosen).
            let (c, s) = robust::robust_counted(&counts, n);
            if n >= robust::MIN_VALUES && s > 0.0 {
                for (i, k) in keep.iter_mut().enumerate() {
                    if number(items.get(i)).is_some_and(|v| robust::is_anomaly(v, c, s)) {
                        *k = true;
                    }
                }
            }
        }
        Numbers::Values(xs) => {
            paths.id("");
            per_path.push((None, xs));
        }
        Numbers::Not => room = (0..n).map(|i| items.get(i).numbers()).sum::<usize>(),
    }
    let walk = room > 0;
    // Anything but an array of numbers: every element's leaves.
    let scan = if walk { 0..n } else { 0..0 };
    for i in scan {
        buf.clear();
        leaves(items.get(i), &mut path, &mut paths, &mut buf);
        last_wins(&mut buf);
        for &(id, x) in &buf {
            let id = id as usize;
            if per_path.len() <= id {
                per_path.resize(id + 1, Default::default());
                if room >= n - i {
                    room -= n - i;
                    per_path[id].1.reserve_exact(n - i);
                }
            }
            let (at, xs) = &mut per_path[id];
            // `at` stays `None` while the path is in every element so
            // far (element j holds value j): no index per element for
            // a full-coverage path.
            if at.is_none() && xs.len() != i {
                *at = Some((0..xs.len() as u32).collect());
            }
            if let Some(at) = at {
                at.push(i as u32);
            }
            xs.push(x);
        }
    }
    // Change-point series: the full-coverage path with the highest variance.
    let mut full: Vec<usize> = (0..per_path.len())
        .filter(|&p| per_path[p].1.len() == n)
        .collect();
    full.sort_by(|&a, &b| paths.names[a].as_bytes().cmp(paths.names[b].as_bytes()));
    let mut best = -1.0;
    let mut chosen: Option<usize> = None;
    for p in full {
        let vals = &per_path[p].1;
        let mut sum = 0.0;
        for &x in vals {
            sum += x;
        }
        let mean = sum / n as f64;
        let mut ss = 0.0;
        for &x in vals {
            ss += (x - mean) * (x - mean);
        }
        let var = ss / (n - 1) as f64;
        if var > best {
            best = var;
            chosen = Some(p);
        }
    }
    // Anomalies: every path, with the synthetic length path replacing
    // `__len__`; lengths are read as they are, not copied to floats.
    let len_id = paths.ids.get("__len__").copied();
    for (p, (at, xs)) in per_path.iter().enumerate() {
        if Some(p as u32) == len_id {
            continue;
        }
        for j in stats.anomalies(xs) {
            keep[at.as_ref().map_or(j, |at| at[j] as usize)] = true;
        }
    }
    for j in stats.anomalies(lens) {
        keep[j] = true;
    }
    let seams = match chosen {
        Some(p) if !paths.names[p].is_empty() => stats.change_points(&per_path[p].1),
        _ => stats.change_points(lens),
    };
    for s in seams {
        keep[s] = true;
    }
}
