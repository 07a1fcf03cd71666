//! Which members of a long collection (the elements of an array, the
//! members of a map, the lines of NDJSON) the lean view shows, and what
//! its markers say of the rest: errors always; the first and the last;
//! the holders of what the summary cannot state; rows by value (the
//! holders of each numeric field's extremes and of each rare value of a
//! field with a default, within a byte budget); one of each key set;
//! query hits. Every dropped member's identifier is listed in its marker
//! when the collection is short enough for its members to be the answer.

use super::super::super::shared::secrets::holds_credential;
use super::super::super::shared::stats::{Field, Mode, Scalar, Stats};
use super::super::super::shared::{dropped_runs, relevance};
use super::shape::{self, context_of, id_key, id_of, key_set, row_width, table_header};
use super::status::{failing, Status};
use super::{doc_of, plain_len, Level};
use crate::compress::Trace;
use crate::go::json::{Json, Value};

/// Query hits kept per collection at most.
const QUERY_FILL: usize = 16;
/// Elements up to this size are rows: kept for their values (extremes,
/// rare values) within a budget.
const ROW_BYTES: usize = 2048;
/// Key sets kept one member each, when there are at most this many.
const MAX_SHAPES: usize = 4;
/// Key sets of the records inside members' lists kept one member each,
/// when there are at most this many (path and key set).
const MAX_NESTED_SHAPES: usize = 32;
/// A dropped run of fewer bytes than this stays (a marker would not pay).
const MARKER_COST: usize = 32;
/// Leaf paths tracked per collection.
const MAX_FIELDS: usize = 1024;
/// Nesting followed for leaf paths.
const MAX_LEAF_DEPTH: usize = 6;
/// Every dropped member is named in its marker when the collection has at
/// most this many members, or when the names take at most
/// [`ID_LIST_BYTES`], or at most 1/[`ID_LIST_SHARE`] of the collection's
/// bytes (up to [`ID_MAP_BYTES`]): a list of records with long bodies
/// (database parameters, functions, instances) is answered by its names.
const ID_LIST_MAX: usize = 64;
const ID_LIST_BYTES: usize = 2048;
const ID_LIST_SHARE: usize = 12;
/// Names of the members with a failing status, when not every member is
/// named, listed in their markers up to 1/[`STATUS_NAMES_SHARE`] of the
/// collection's bytes, at least 4 × [`ID_LIST_BYTES`], at most
/// [`STATUS_NAMES_MAX`]; those of other statuses than the default (the
/// rarest first) up to [`ID_LIST_BYTES`].
const STATUS_NAMES_SHARE: usize = 12;
const STATUS_NAMES_MAX: usize = 16 * 1024;
/// Elements up to this size are kept for holding a numeric field's
/// extremes (a node's metrics are a larger record than a table's row).
const EXTREME_BYTES: usize = 4096;
/// The keys of a map (a lockfile's packages, an update center's
/// plugins) are its content: listed up to this many bytes.
const ID_MAP_BYTES: usize = 16 * 1024;
/// Longest identifier a marker lists.
const MAX_ID: usize = 128;
/// A cut that saves less than this fraction of a collection's bytes is
/// not made: the members stay (cut inside).
const MIN_SAVING: f64 = 0.25;

/// Records before an error that may stay as its evidence.
const EVIDENCE: usize = 4;

/// What the view shows of a collection.
pub(super) struct Cut {
    pub keep: Vec<bool>,
    /// The summary of every member, for the first marker.
    pub summary: String,
    /// The members' identifiers, when markers name dropped members.
    pub ids: Option<Ids>,
    /// The members' status, when they have one.
    pub status: Option<Status>,
}

/// What identifies the members of a collection.
pub(super) struct Ids {
    /// What the identifiers are (`name`, `keys`, `id type actor`).
    pub label: String,
    /// Each member's identifier; empty when a marker cannot list it.
    pub names: Vec<String>,
    /// Every dropped member is named in its marker (else only those with
    /// a status other than the default, as [`Status::named`] says).
    pub all: bool,
}

/// The members of a collection: values, and the keys of a map's members.
pub(super) struct Members<'a, 'v> {
    pub items: &'a [Json<'v>],
    pub keys: Option<&'a [&'v str]>,
    /// `elements`, `members`, `lines`.
    pub what: &'static str,
}

/// Chooses what the view shows of `m` at `level`.
pub(super) fn choose(m: &Members<'_, '_>, level: Level, query: &str, trace: &mut Trace) -> Cut {
    let items = m.items;
    let n = items.len();
    let lens: Vec<usize> = (0..n)
        .map(|i| plain_len(items[i]) + m.keys.map_or(0, |k| k[i].len() + 3))
        .collect();
    let total: usize = lens.iter().sum();
    let mut keep = vec![false; n];
    let mut counted = 0;
    let mut account = |trace: &mut Trace, keep: &[bool], reason| {
        let now = keep.iter().filter(|&&k| k).count();
        trace.add(reason, now - counted);
        counted = now;
    };
    // Errors (at most `level.errors`, in document order).
    let mut errors = 0;
    let mut unshown_errors = 0;
    for i in 0..n {
        let key_error = m.keys.is_some_and(|k| shape::text_is_error(k[i]));
        if key_error || shape::is_error(items[i]) {
            if errors < level.errors {
                keep[i] = true;
                errors += 1;
                // Its evidence: the records of the same event just
                // before it that name a place in the code (a test's
                // `file_test.go:142: got 1, want 2` before its failure).
                if m.keys.is_none() {
                    for j in (i.saturating_sub(EVIDENCE)..i).rev() {
                        if !shape::same_event(items[j], items[i]) {
                            break;
                        }
                        keep[j] |= shape::names_location(items[j]);
                    }
                }
            } else {
                unshown_errors += 1;
            }
        }
    }
    account(trace, &keep, "error");
    for k in keep.iter_mut().take(level.head) {
        *k = true;
    }
    for k in keep.iter_mut().skip(n - level.tail.min(n)) {
        *k = true;
    }
    account(trace, &keep, "head/tail");
    // What every member holds.
    let mut st = Stats::new(MAX_FIELDS);
    let mut path = String::new();
    let mut shapes: Vec<(String, usize, usize)> = Vec::new();
    let header = if m.keys.is_none() {
        table_header(items)
    } else {
        None
    };
    let rows = header
        .is_none()
        .then(|| m.keys.is_none().then(|| row_width(items)).flatten())
        .flatten();
    if header.is_some() && level.holders {
        keep[0] = true;
    }
    let mut pools = Pools::default();
    if header.is_none() && rows.is_none() {
        for it in items {
            pools.add(*it, &mut path, 0);
        }
        path.clear();
    }
    for (i, it) in items.iter().enumerate() {
        st.unit();
        match &header {
            Some(names) if i > 0 => row_leaves(*it, i, Some(names), None, &mut st),
            Some(_) => {}
            None if rows.is_some() => row_leaves(*it, i, None, rows, &mut st),
            None => leaves(*it, i, &mut path, 0, false, &pools, &mut st),
        }
        if let Some(ks) = key_set(*it) {
            let len = shapes.len();
            match shapes.iter_mut().find(|s| s.0 == ks) {
                Some(s) => s.1 += 1,
                None if len <= MAX_SHAPES => shapes.push((ks, 1, i)),
                None => {}
            }
        }
    }
    let row = |units: &[usize]| units.iter().all(|&u| lens[u] <= ROW_BYTES);
    if level.rare {
        // Rows by value (small elements: rows, not documents), within a
        // budget of bytes: the holders of each rare value of a field
        // with a default.
        let mut room = (total / 32).clamp(1024, 8192);
        for (_, units) in st.rare() {
            if row(&units) {
                admit(&mut keep, &units, &lens, &mut room);
            }
        }
        account(trace, &keep, "rare value of a field with a default");
    }
    // The members whose status is not the default, as rows while they fit
    // (failing ones first, then the rarest).
    let mut status = if level.rare {
        Status::find(&st, items)
    } else {
        None
    };
    if let Some(s) = &status {
        let mut room = (total / 32).clamp(1024, 8192);
        for (_, units) in s.others() {
            if row(&units) {
                admit(&mut keep, &units, &lens, &mut room);
            }
        }
        account(trace, &keep, "status other than the default");
    }
    if level.holders {
        for h in st.holders() {
            keep[h] = true;
        }
        account(trace, &keep, "extreme or value the summary cannot state");
        // And the holders of each field's extremes (within budgets): the
        // greatest values of every field (the largest consumers), then
        // the least.
        let (greatest, next, rest) = extremes(&st);
        let mut room = (total / 8).clamp(4096, 16384);
        for unit in greatest {
            if lens[unit] <= EXTREME_BYTES {
                admit(&mut keep, &[unit], &lens, &mut room);
            }
        }
        let mut room = (total / 64).clamp(1024, 4096);
        for unit in next {
            if lens[unit] <= EXTREME_BYTES {
                admit(&mut keep, &[unit], &lens, &mut room);
            }
        }
        let mut room = (total / 32).clamp(1024, 8192);
        for unit in rest {
            if row(&[unit]) {
                admit(&mut keep, &[unit], &lens, &mut room);
            }
        }
        account(trace, &keep, "least or greatest value of a field");
        if shapes.len() > 1 && shapes.len() <= MAX_SHAPES {
            for s in &shapes {
                keep[s.2] = true;
            }
        }
        // And of the key sets of the records in their lists, when few.
        let mut nested: Vec<(String, String, usize)> = Vec::new();
        let mut found = Vec::new();
        'members: for (i, it) in items.iter().enumerate() {
            found.clear();
            nested_shapes(*it, &mut String::new(), 0, &mut found);
            for (p, ks) in found.drain(..) {
                if !nested.iter().any(|(q, ls, _)| *q == p && *ls == ks) {
                    nested.push((p, ks, i));
                    if nested.len() > MAX_NESTED_SHAPES {
                        break 'members;
                    }
                }
            }
        }
        if nested.len() <= MAX_NESTED_SHAPES {
            let mut budget = (total / 16).clamp(2048, 32768);
            for (_, _, i) in &nested {
                admit(&mut keep, &[*i], &lens, &mut budget);
            }
        }
        account(trace, &keep, "one of each key set");
    }
    if !query.is_empty() {
        let scores = relevance::scores_of(query, n, |i| match m.keys {
            Some(k) => format!("{} {}", k[i], doc_of(items[i])).into(),
            None => doc_of(items[i]).into(),
        });
        for i in relevance::candidates(&scores, &keep)
            .into_iter()
            .take(QUERY_FILL)
        {
            keep[i] = true;
        }
        account(trace, &keep, "query");
    }
    // Identifiers of the members, when the markers name them: all, or
    // those whose status is not the default.
    let ids = if level.ids {
        identifiers(m, total)
    } else {
        None
    };
    if let Some(ids) = &ids {
        if let Some(s) = status.as_mut() {
            let mut room = (total / STATUS_NAMES_SHARE).clamp(4 * ID_LIST_BYTES, STATUS_NAMES_MAX);
            let mut other_room = ID_LIST_BYTES;
            for (v, units) in s.others() {
                // A status that is no failure is named within a smaller room.
                let room = if failing(&s.values[v]) {
                    &mut room
                } else {
                    &mut other_room
                };
                let cost: usize = units
                    .iter()
                    .filter(|&&u| !keep[u])
                    .map(|&u| ids.names[u].len() + 2)
                    .sum();
                let unlisted = units.iter().filter(|&&u| ids.names[u].is_empty()).count();
                if (ids.all || cost <= *room) && unlisted * 10 <= units.len() {
                    *room -= cost.min(*room);
                    s.named[v] = true;
                    for u in units {
                        keep[u] |= ids.names[u].is_empty();
                    }
                }
            }
        }
        if ids.all {
            for (k, name) in keep.iter_mut().zip(&ids.names) {
                if name.is_empty() {
                    *k = true;
                }
            }
        }
        account(trace, &keep, "identifier a marker cannot list");
    }
    // A run too short to pay for its marker stays.
    for run in dropped_runs(&keep) {
        let bytes: usize = lens[run.clone()].iter().map(|l| l + 2).sum();
        if bytes < MARKER_COST {
            keep[run].iter_mut().for_each(|k| *k = true);
        }
    }
    account(trace, &keep, "marker would not pay");
    let dropped_bytes: usize = (0..n).filter(|&i| !keep[i]).map(|i| lens[i]).sum();
    let listed: usize = ids.as_ref().map_or(0, |ids| {
        (0..n)
            .filter(|&i| !keep[i])
            .filter(|&i| {
                ids.all
                    || status
                        .as_ref()
                        .is_some_and(|s| s.named[s.of[i]] && s.of[i] != s.default)
            })
            .map(|i| ids.names[i].len() + 2)
            .sum()
    });
    if level.holders
        && ((dropped_bytes - listed.min(dropped_bytes)) as f64) < total as f64 * MIN_SAVING
    {
        keep.iter_mut().for_each(|k| *k = true);
        account(trace, &keep, "cut would not pay");
    }
    let dropped = keep.iter().filter(|&&k| !k).count();
    let room = level.room.unwrap_or((dropped_bytes / 4).max(1200));
    let summary = if dropped > 0 && room > 0 {
        let mut first = Vec::new();
        if unshown_errors > 0 {
            first.push(format!(
                "{unshown_errors} error {} among those elided",
                m.what
            ));
        }
        first.extend(fields_of(items));
        // A field whose every holder stays whole (nothing cut inside it)
        // is shown by them.
        let whole: Vec<std::cell::Cell<Option<bool>>> = vec![std::cell::Cell::new(None); n];
        let shown_whole = |u: usize| {
            keep[u]
                && match whole[u].get() {
                    Some(w) => w,
                    None => {
                        let w = !shape::holds_long_array(items[u]);
                        whole[u].set(Some(w));
                        w
                    }
                }
        };
        let shown = |f: &Field<'_>| match f.known_units() {
            Some(us) if us.iter().all(|&u| shown_whole(u)) => Mode::Skip,
            _ => Mode::Normal,
        };
        let (text, shed) = st.render_after(format!("{n} total {}", m.what), &first, room, shown);
        if level.holders {
            // What the summary had no room for: its holders stay.
            let mut budget = (total / 16).clamp(2048, 65536);
            for f in shed {
                admit(&mut keep, &st.units_of(f), &lens, &mut budget);
            }
            account(trace, &keep, "value the summary had no room for");
        }
        text
    } else {
        String::new()
    };
    Cut {
        keep,
        summary,
        ids,
        status,
    }
}

/// `fields: a, b, c×n`: the keys of the object members, in order of first
/// appearance, `×n` on a key only some hold; `None` when no member is an
/// object.
pub(super) fn fields_of(items: &[Json<'_>]) -> Option<String> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    let mut index: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for it in items {
        let Value::Object(obj) = it.get() else {
            continue;
        };
        for (k, _) in obj.iter() {
            match index.get(k) {
                Some(&at) => seen[at].1 += 1,
                None if seen.len() < MAX_FIELDS => {
                    index.insert(k, seen.len());
                    seen.push((k, 1));
                }
                None => {}
            }
        }
    }
    let n = items.len();
    let list: Vec<String> = seen
        .iter()
        .map(|&(k, c)| {
            if c == n {
                k.to_string()
            } else {
                format!("{k}×{c}")
            }
        })
        .collect();
    (!list.is_empty()).then(|| format!("fields: {}", list.join(", ")))
}

/// The units holding the extremes of each numeric field most units hold
/// (one value a unit: not a field pooled from longer lists): the greatest
/// of every field; the second greatest of every field, and so on to the
/// [`TOP`](super::super::super::shared::stats::TOP)th; the least of every
/// field.
fn extremes(st: &Stats<'_>) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let fields: Vec<_> = st
        .fields
        .iter()
        .filter(|f| f.numeric() && 2 * f.numbers >= st.units && f.numbers <= st.units)
        .filter(|f| !f.pooled || f.present <= st.units)
        .collect();
    let greatest = fields
        .iter()
        .filter_map(|f| f.max.map(|e| e.unit))
        .collect();
    let mut next = Vec::new();
    for k in 1..super::super::super::shared::stats::TOP {
        next.extend(fields.iter().filter_map(|f| f.top.get(k).map(|e| e.unit)));
    }
    let least = fields
        .iter()
        .filter_map(|f| f.min.map(|e| e.unit))
        .collect();
    (greatest, next, least)
}

/// Keeps `units` if they still fit in `room` bytes (those already kept
/// cost nothing).
fn admit(keep: &mut [bool], units: &[usize], lens: &[usize], room: &mut usize) {
    let cost: usize = units.iter().filter(|&&u| !keep[u]).map(|&u| lens[u]).sum();
    if cost <= *room {
        *room -= cost;
        for &u in units {
            keep[u] = true;
        }
    }
}

/// What a marker lists of the members it replaces: the map's keys (with
/// the members' `version`, `name@1.2.3`, when they hold one), or the
/// elements' identifier (with what says what they are, [`context_of`]);
/// an identifier a marker cannot list is empty (its member stays).
/// `None` when the members have no identifier; not `all` when the
/// collection is too long for all its members' names to be the answer.
fn identifiers(m: &Members<'_, '_>, total: usize) -> Option<Ids> {
    let n = m.items.len();
    let (label, names, cap): (String, Vec<String>, usize) = match m.keys {
        Some(keys) => {
            let versions: Vec<Option<&str>> =
                m.items.iter().map(|x| id_of(*x, "version")).collect();
            let versioned = versions.iter().filter(|v| v.is_some()).count() * 10 >= n * 9;
            let names = keys
                .iter()
                .zip(&versions)
                .map(|(k, v)| match v {
                    Some(v) if versioned && listable(k) && listable(v) => format!("{k}@{v}"),
                    _ => k.to_string(),
                })
                .collect();
            let label = if versioned { "keys@version" } else { "keys" };
            (label.to_string(), names, ID_MAP_BYTES)
        }
        None => {
            let k = id_key(m.items)?;
            let ids: Vec<Option<&str>> = m
                .items
                .iter()
                .map(|x| id_of(*x, &k).filter(|s| listable(s)))
                .collect();
            let bytes: usize = ids.iter().map(|s| s.map_or(0, str::len) + 2).sum();
            let cap = (total / ID_LIST_SHARE).clamp(ID_LIST_BYTES, ID_MAP_BYTES);
            if n > ID_LIST_MAX && bytes > cap {
                // Not all are named: the identifiers alone, for the
                // members a status singles out.
                let names = ids.iter().map(|s| s.unwrap_or("").to_string()).collect();
                (k, names, 0)
            } else {
                let mut label = k.clone();
                let mut labelled: Vec<&str> = Vec::new();
                let names = m
                    .items
                    .iter()
                    .zip(&ids)
                    .map(|(x, id)| {
                        let Some(id) = id else {
                            return String::new();
                        };
                        let mut name = id.to_string();
                        for (ctx, t) in context_of(*x, &k) {
                            if !listable(t) {
                                continue;
                            }
                            if !labelled.contains(&ctx) {
                                labelled.push(ctx);
                            }
                            name.push(' ');
                            name.push_str(t);
                        }
                        name
                    })
                    .collect();
                for ctx in shape::CONTEXT_KEYS {
                    if labelled.contains(&ctx) {
                        label.push(' ');
                        label.push_str(ctx);
                    }
                }
                (label, names, usize::MAX)
            }
        }
    };
    let bytes: usize = names.iter().map(|s| s.len() + 2).sum();
    let names: Vec<String> = names
        .into_iter()
        .map(|s| if listable(&s) { s } else { String::new() })
        .collect();
    // Members whose name a marker cannot list stay: when they are many,
    // the names are no list of the members.
    let unlisted = names.iter().filter(|s| s.is_empty()).count();
    (unlisted * 10 <= n).then_some(Ids {
        label,
        names,
        all: n <= ID_LIST_MAX || bytes <= cap,
    })
}

/// An identifier a marker can list as it is: short, on one line, without
/// the list's separators, no credential.
fn listable(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_ID
        && !s.contains(", ")
        && !s.contains("; ")
        && !s.contains('×')
        && !s.contains("caveman")
        && s.trim() == s
        && !s.chars().any(|c| c.is_control() || c == '\u{2026}')
        && !holds_credential(s)
}

/// The lists pooled at each leaf path (as [`leaves`] writes it) over
/// every member of a collection: their widths. A pool is read as rows of
/// a table (columns `a[]#i`) only when the lists pooled from all members
/// are rows of one width; positions in ragged lists (TopoJSON arcs, the
/// rings of polygons) are no column, and a claim of one would be false of
/// the collection.
#[derive(Default)]
pub(super) struct Pools {
    at: rustc_hash::FxHashMap<String, Pool>,
}

/// The elements pooled at a path, and how many of them are lists of each
/// width (`None` past eight distinct widths).
type Pool = (usize, Option<Vec<(usize, usize)>>);

impl Pools {
    /// Records the arrays inside `v`, followed as [`leaves`] follows them.
    pub(super) fn add(&mut self, v: Json<'_>, path: &mut String, depth: usize) {
        if depth >= MAX_LEAF_DEPTH {
            return;
        }
        match v.get() {
            Value::Object(m) => {
                for (k, x) in m.iter() {
                    if !x.is_container() {
                        continue;
                    }
                    let keep = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                    self.add(x, path, depth + 1);
                    path.truncate(keep);
                }
            }
            Value::Array(items) => {
                let entry = self
                    .at
                    .entry(path.clone())
                    .or_insert_with(|| (0, Some(Vec::new())));
                entry.0 += items.len();
                for x in items.iter() {
                    let (Value::Array(a), Some(widths)) = (x.get(), entry.1.as_mut()) else {
                        continue;
                    };
                    match widths.iter().position(|w| w.0 == a.len()) {
                        Some(w) => widths[w].1 += 1,
                        None if widths.len() < 8 => widths.push((a.len(), 1)),
                        None => entry.1 = None,
                    }
                }
                let keep = path.len();
                path.push_str("[]");
                for x in items.iter() {
                    if x.is_container() {
                        self.add(x, path, depth + 1);
                    }
                }
                path.truncate(keep);
            }
            _ => {}
        }
    }

    /// The width of the rows pooled at `path`, when they are a table's:
    /// at least 90 % of the pooled elements are lists of that width (2 or
    /// more), as for one array ([`row_width`]).
    fn row_width(&self, path: &str) -> Option<usize> {
        let (items, widths) = self.at.get(path)?;
        let &(width, count) = widths.as_ref()?.iter().max_by_key(|w| w.1)?;
        (width >= 2 && count * 10 >= items * 9).then_some(width)
    }
}

/// The scalar leaves of a member into `stats` (objects followed; arrays
/// pooled as `a[].b`, rows of a table as `a[]#i` when the lists pooled
/// there from every member are rows of one width: [`Pools`]), with `unit`
/// as the member's index.
pub(super) fn leaves<'v>(
    v: Json<'v>,
    unit: usize,
    path: &mut String,
    depth: usize,
    pooled: bool,
    pools: &Pools,
    stats: &mut Stats<'v>,
) {
    let add = |stats: &mut Stats<'v>, path: &str, s: Scalar<'v>| {
        if pooled {
            stats.add_pooled(unit, path, s)
        } else {
            stats.add(unit, path, s)
        }
    };
    if v.is_container() && !path.is_empty() {
        stats.add_container(path, matches!(v.get(), Value::Array(_)));
    }
    match v.get() {
        Value::Object(m) => {
            if depth >= MAX_LEAF_DEPTH {
                return;
            }
            for (k, x) in m.iter() {
                let keep = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                leaves(x, unit, path, depth + 1, pooled, pools, stats);
                path.truncate(keep);
            }
        }
        Value::Array(items) => {
            if depth >= MAX_LEAF_DEPTH {
                return;
            }
            let keep = path.len();
            if let Some(width) = pools.row_width(path) {
                // Rows of a table: one field per column.
                for row in items.iter() {
                    let Value::Array(cells) = row.get() else {
                        continue;
                    };
                    for (c, x) in cells.iter().enumerate().take(width) {
                        path.truncate(keep);
                        path.push_str(&format!("[]#{c}"));
                        if let Some(s) = scalar(x) {
                            stats.add_pooled(unit, path, s);
                        }
                    }
                }
            } else {
                path.push_str("[]");
                for x in items.iter() {
                    leaves(x, unit, path, depth + 1, true, pools, stats);
                }
            }
            path.truncate(keep);
        }
        _ => {
            if let Some(s) = scalar(v) {
                add(stats, path, s);
            }
        }
    }
}

/// The key sets of the objects in the arrays inside `v`, with the path of
/// their array (`a.b[]`), a few levels deep.
fn nested_shapes(v: Json<'_>, path: &mut String, depth: usize, out: &mut Vec<(String, String)>) {
    if depth >= 4 {
        return;
    }
    match v.get() {
        Value::Object(m) => {
            for (k, x) in m.iter() {
                if x.is_container() {
                    let keep = path.len();
                    path.push('.');
                    path.push_str(k);
                    nested_shapes(x, path, depth + 1, out);
                    path.truncate(keep);
                }
            }
        }
        Value::Array(items) => {
            let keep = path.len();
            path.push_str("[]");
            for x in items.iter() {
                if let Some(ks) = key_set(x) {
                    if !out.iter().any(|(p, k)| p == path && *k == ks) {
                        out.push((path.clone(), ks));
                    }
                }
                nested_shapes(x, path, depth + 1, out);
            }
            path.truncate(keep);
        }
        _ => {}
    }
}

/// A scalar as the summary reads it (non-finite numbers are not numbers).
fn scalar(v: Json<'_>) -> Option<Scalar<'_>> {
    Some(match v.get() {
        Value::Number(t) => {
            let x = t.parse::<f64>().ok().filter(|x| x.is_finite())?;
            Scalar::Num(t, x)
        }
        Value::String(s) => Scalar::Str(s),
        Value::Bool(b) => Scalar::Bool(b),
        Value::Null => Scalar::Null,
        _ => return None,
    })
}

/// A table row's cells into `stats` under the column names (`#i` for the
/// table's `width` columns when it has none: the cells of a longer row
/// past them are no column).
fn row_leaves<'v>(
    v: Json<'v>,
    unit: usize,
    names: Option<&[&str]>,
    width: Option<usize>,
    stats: &mut Stats<'v>,
) {
    let Value::Array(cells) = v.get() else { return };
    for (c, x) in cells.iter().enumerate().take(width.unwrap_or(usize::MAX)) {
        let Some(s) = scalar(x) else { continue };
        match names {
            Some(names) => match names.get(c) {
                Some(name) => stats.add(unit, name, s),
                None => continue,
            },
            None => stats.add(unit, &format!("#{c}"), s),
        }
    }
}
