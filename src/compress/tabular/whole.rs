//! When a lean table is read whole: its rows are the content (an alias
//! list, an option table, a data dictionary, an API catalogue), or it is
//! short. Savings then come from lossless work only (a Markdown table's
//! alignment padding); a reference table beyond its budget is cut, and its
//! markers list the keys of the rows they hide.

use crate::table::quantity;

/// A table of at most this many tokens is read whole, whatever it holds
/// (a sample and its markers would cost about what the rows do), unless
/// compat's cut of it is smaller (issue 40 rule 8: `lean::within_compat`
/// cuts it within that size).
pub(super) const SMALL_TOKENS: usize = 2000;
/// A table of at most this many data rows (a benchmark's results, a
/// short report) is read whole within [`SHORT_TOKENS`].
pub(super) const SHORT_ROWS: usize = 30;
pub(super) const SHORT_TOKENS: usize = 2000;
/// A reference table (text rows keyed by an identifier) is read whole
/// within this many tokens.
pub(super) const REFERENCE_TOKENS: usize = 6000;
/// A table of more data rows is never a reference table.
pub(super) const REFERENCE_ROWS: usize = 20_000;
/// Bytes of hidden keys one marker lists at most (the rest are counted).
const KEYS_ROOM: usize = 4096;

/// Non-empty cells of column `c`, trimmed.
fn column<'a>(cells: &'a [Vec<&'a str>], c: usize) -> impl Iterator<Item = &'a str> + 'a {
    cells
        .iter()
        .filter_map(move |r| r.get(c).map(|x| x.trim()))
        .filter(|x| !x.is_empty())
}

/// Distinct values and non-empty cells of column `c`.
fn distinct(cells: &[Vec<&str>], c: usize) -> (usize, usize) {
    let mut v: Vec<&str> = column(cells, c).collect();
    let n = v.len();
    v.sort_unstable();
    v.dedup();
    (v.len(), n)
}

/// The key column of a reference table: a table whose rows are text keyed
/// by an identifier (key → description, a catalogue, an index). Every
/// column but the key is text (no numeric column besides it), one column
/// is an identifier (at least 95 % of its cells distinct, in at least
/// half the rows) and one other column is free text (at least half its
/// cells distinct); the key is the leftmost column with at least half its
/// cells distinct.
fn reference_key(width: usize, cells: &[Vec<&str>]) -> Option<usize> {
    let rows = cells.len();
    if width < 2 || rows == 0 {
        return None;
    }
    let stats: Vec<(usize, usize)> = (0..width).map(|c| distinct(cells, c)).collect();
    let spread = |c: usize, ratio: f64| {
        let (d, n) = stats[c];
        n * 2 >= rows && d as f64 >= ratio * n as f64
    };
    let key = (0..width).find(|&c| spread(c, 0.5))?;
    let numeric = |c: usize| quantity::column(column(cells, c)).is_some();
    if (0..width).any(|c| c != key && numeric(c)) {
        return None;
    }
    let id = (0..width).any(|c| spread(c, 0.95));
    let text = (0..width).any(|c| c != key && spread(c, 0.5) && !numeric(c));
    (id && text).then_some(key)
}

/// Bytes of a table whose tokens are counted: a larger table exceeds
/// every threshold of reading whole (its count would be spent for
/// nothing).
pub(super) const COUNTED_BYTES: usize = 64 * 1024;

/// The tokens of a table's text, or `usize::MAX` past [`COUNTED_BYTES`].
pub(super) fn tokens(text: &[u8]) -> usize {
    if text.len() <= COUNTED_BYTES {
        crate::tokens::count(text)
    } else {
        usize::MAX
    }
}

/// What is decided of a lean table before any row is cut: whether it is
/// read whole, its key column when it is a reference table, and the data
/// rows' cells it was read from (empty past [`REFERENCE_ROWS`]).
pub(super) struct Plan<'a> {
    pub whole: bool,
    pub key: Option<usize>,
    pub rows: Vec<Vec<&'a str>>,
}

/// The one decision of every lean table, CSV to `kubectl get`: its `n`
/// data rows (`row(i)` the cells of row `i`, gathered only for a table
/// of at most [`REFERENCE_ROWS`]), its key column ([`reference_key`]),
/// then [`read_whole`] on its `tokens`.
pub(super) fn plan<'a>(
    tokens: usize,
    width: usize,
    n: usize,
    row: impl Fn(usize) -> Vec<&'a str>,
    budget: Option<usize>,
) -> Plan<'a> {
    // A reference table is a document's (an alias list, a catalogue):
    // past this many rows a table is a data set, and its cells are not
    // gathered to look for a key (33 million one-cell rows held 650 MB).
    let rows: Vec<Vec<&'a str>> = if n <= REFERENCE_ROWS {
        (0..n).map(row).collect()
    } else {
        Vec::new()
    };
    let key = reference_key(width, &rows);
    Plan {
        whole: read_whole(tokens, n, key, budget),
        key,
        rows,
    }
}

/// Whether a table is read whole: within the budget when there is one;
/// else when it is small, short, or a reference table within its own.
fn read_whole(tokens: usize, rows: usize, key: Option<usize>, budget: Option<usize>) -> bool {
    match budget {
        Some(b) => tokens <= b,
        None => {
            tokens <= SMALL_TOKENS
                || (rows <= SHORT_ROWS && tokens <= SHORT_TOKENS)
                || (key.is_some() && tokens <= REFERENCE_TOKENS)
        }
    }
}

/// The keys of the hidden rows `run` of a reference table, for its marker:
/// `Alias: dcls dclsa dcprune` (repeats in a row once; joined with `, `
/// when a key has a space; beyond [`KEYS_ROOM`] bytes, the rest counted).
/// `None` when the keys are numbers (row ids say nothing of a row).
pub(super) fn keys_note(
    name: &str,
    cells: &[Vec<&str>],
    run: std::ops::Range<usize>,
    key: usize,
) -> Option<String> {
    let mut keys: Vec<&str> = Vec::new();
    for i in run {
        let k = cells[i].get(key).map_or("", |k| k.trim());
        if !k.is_empty() && keys.last() != Some(&k) {
            keys.push(k);
        }
    }
    if quantity::column(keys.iter().copied()).is_some() {
        return None;
    }
    let sep = if keys.iter().any(|k| k.contains(' ')) {
        ", "
    } else {
        " "
    };
    let mut out = String::new();
    let mut shown = 0;
    for k in &keys {
        let k = if crate::compress::shared::secrets::holds_credential(k) {
            "[secret]"
        } else {
            k
        };
        if out.len() + k.len() > KEYS_ROOM {
            break;
        }
        if shown > 0 {
            out.push_str(sep);
        }
        out.push_str(k);
        shown += 1;
    }
    if shown < keys.len() {
        out.push_str(&format!("{sep}+{} more", keys.len() - shown));
    }
    let name = if name.is_empty() {
        "keys".to_string()
    } else if name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"_.-#".contains(&b) || b >= 0x80)
    {
        name.to_string()
    } else {
        format!("\"{name}\"")
    };
    Some(format!("{name}: {out}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&[&'static str]]) -> Vec<Vec<&'static str>> {
        rows.iter().map(|r| r.to_vec()).collect()
    }

    #[test]
    fn an_alias_list_is_a_reference_table() {
        let cells = grid(&[
            &["dbl", "`docker build`", "Build an image"],
            &["dcin", "`docker container inspect`", "Display details"],
            &["dcls", "`docker container ls`", "List containers"],
        ]);
        assert_eq!(reference_key(3, &cells), Some(0));
        assert_eq!(
            keys_note("Alias", &cells, 1..3, 0),
            Some("Alias: dcin dcls".to_string())
        );
        let ids = grid(&[&["7065", "a tweet"], &["7066", "another"]]);
        assert_eq!(keys_note("id", &ids, 0..2, 0), None);
    }

    #[test]
    fn a_two_column_lookup_is_a_reference_table() {
        let cells = grid(&[
            &["AD", "Europe"],
            &["AE", "Asia"],
            &["AF", "Asia"],
            &["AG", "North America"],
        ]);
        assert_eq!(reference_key(2, &cells), Some(0));
        let series = grid(&[&["1880", "-0.17"], &["1881", "-0.09"], &["1882", "-0.11"]]);
        assert_eq!(reference_key(2, &series), None);
    }

    #[test]
    fn tables_of_two_thousand_tokens_are_read_whole() {
        assert!(read_whole(1999, 150, None, None));
        assert!(!read_whole(2001, 150, None, None));
        assert!(read_whole(5000, 300, Some(0), None));
        assert!(!read_whole(1999, 150, None, Some(1000)));
    }

    #[test]
    fn a_data_table_is_not() {
        let cells = grid(&[
            &["JFK", "New York", "40.6", "-73.7"],
            &["LAX", "Los Angeles", "33.9", "-118.4"],
            &["ORD", "Chicago", "41.9", "-87.9"],
        ]);
        assert_eq!(reference_key(4, &cells), None);
    }
}
