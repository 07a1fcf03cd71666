//! Whitespace-aligned and box-drawn tables, as command-line tools print
//! them (`ls -l`, `ps`, `df`, `kubectl get`, `docker ps`, psql, tables
//! drawn with `│` or `|`): which lines are the table, which is the header,
//! and each row's cells.
//!
//! Columns of an aligned table are separated by gutters: character
//! positions that are blank in every row (a row shorter than the position
//! counts as blank). The last column runs to the end of the line, so a
//! free-text column there (`COMMAND`, file names) keeps its spaces.
//! A table needs a header row of words (no digits) or `ls -l`'s mode
//! column; logs with fixed-width fields have neither.

/// Rows needed before a block of lines is called a table.
pub const MIN_ROWS: usize = 4;
/// Columns needed.
const MIN_COLUMNS: usize = 3;

/// A table found among a text's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aligned {
    /// The header row's line, if the table has one.
    pub header: Option<usize>,
    /// The data rows' lines, in order (border lines excluded).
    pub rows: Vec<usize>,
    /// How rows split into cells.
    pub split: Split,
    /// Per column of [`Split::Columns`], how many whitespace-separated
    /// cells it holds (empty: one each).
    pub words: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// Character ranges of the columns; the last is open-ended.
    Columns(Vec<(usize, usize)>),
    /// Cells between this vertical bar character.
    Bars(char),
}

impl Aligned {
    /// The trimmed cells of `line`.
    pub fn cells<'l>(&self, line: &'l str) -> Vec<&'l str> {
        match &self.split {
            Split::Bars(bar) => {
                let t = line.trim();
                let t = t.strip_prefix(*bar).unwrap_or(t);
                let t = t.strip_suffix(*bar).unwrap_or(t);
                t.split(*bar).map(str::trim).collect()
            }
            Split::Columns(cols) => {
                let starts: Vec<usize> = line.char_indices().map(|(i, _)| i).collect();
                let byte = |c: usize| starts.get(c).copied().unwrap_or(line.len());
                let cells = cols.iter().enumerate().map(|(k, &(a, b))| {
                    let end = if k + 1 == cols.len() {
                        line.len()
                    } else {
                        byte(b)
                    };
                    line.get(byte(a)..end).unwrap_or("").trim()
                });
                if self.words.is_empty() {
                    return cells.collect();
                }
                let mut out = Vec::with_capacity(self.words.iter().sum());
                for (cell, &n) in cells.zip(&self.words) {
                    words_of(cell, n, &mut out);
                }
                out
            }
        }
    }
}

impl Aligned {
    /// The column names in the header row `line` ([`Aligned::header_cells`]),
    /// where a clock time that starts it (`sar`'s `12:00:01 AM`) is the
    /// `time` column and its `AM/PM` half.
    pub fn names<'l>(&self, line: &'l str) -> Vec<&'l str> {
        let mut cells = self.header_cells(line);
        let clock = cells.iter().take_while(|c| is_clock(c)).count();
        if clock < cells.len() {
            for (k, c) in cells.iter_mut().take(clock).enumerate() {
                *c = if k > 0 && (*c == "AM" || *c == "PM") {
                    "AM/PM"
                } else {
                    "time"
                };
            }
        }
        cells
    }

    /// The column names of the header line `line`: its cells, unless a
    /// cell holds a header gutter (two spaces or more: rows narrower or
    /// wider than their header shifted a column's start, as in
    /// `NOMINATED NODE   READINESS GATES` over ragged rows) and the
    /// header's own words, split at its gutters, are as many as the
    /// columns: those are the names.
    fn header_cells<'l>(&self, line: &'l str) -> Vec<&'l str> {
        let cells = self.cells(line);
        if matches!(self.split, Split::Bars(_)) || !cells.iter().any(|c| c.contains("  ")) {
            return cells;
        }
        let mut groups: Vec<&'l str> = Vec::new();
        let mut start: Option<usize> = None;
        let b = line.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            let gutter = c == b' ' && (b.get(i + 1) == Some(&b' ') || i > 0 && b[i - 1] == b' ');
            let space = c.is_ascii_whitespace() && (gutter || c != b' ');
            match (space, start) {
                (true, Some(s)) => {
                    groups.push(&line[s..i]);
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if let Some(s) = start {
            groups.push(line[s..].trim_end());
        }
        if groups.len() == cells.len() {
            groups
        } else {
            cells
        }
    }
}

/// `cell` as `n` cells: its first `n - 1` words, then the rest (cells
/// past its words are empty).
fn words_of<'l>(cell: &'l str, n: usize, out: &mut Vec<&'l str>) {
    let mut rest = cell;
    for _ in 1..n {
        let t = rest.trim_start();
        let end = t.find(char::is_whitespace).unwrap_or(t.len());
        out.push(&t[..end]);
        rest = &t[end..];
    }
    out.push(rest.trim());
}

/// A border line: rules of `-`, `=`, box-drawing characters, Markdown's
/// delimiter row.
pub fn is_border(l: &str) -> bool {
    let t = l.trim();
    !t.is_empty()
        && t.chars().any(|c| matches!(c, '─' | '━' | '═' | '-' | '='))
        && t.chars().all(|c| {
            matches!(
                c,
                '─' | '━'
                    | '═'
                    | '┼'
                    | '┬'
                    | '┴'
                    | '├'
                    | '┤'
                    | '┌'
                    | '┐'
                    | '└'
                    | '┘'
                    | '╭'
                    | '╮'
                    | '╰'
                    | '╯'
                    | '╪'
                    | '╞'
                    | '╡'
                    | '╤'
                    | '╧'
                    | '╔'
                    | '╗'
                    | '╚'
                    | '╝'
                    | '╠'
                    | '╣'
                    | '╦'
                    | '╩'
                    | '╬'
                    | '+'
                    | '-'
                    | '='
                    | '|'
                    | '│'
                    | '┃'
                    | ':'
                    | ' '
            )
        })
}

/// `ls -l`'s mode column.
fn is_mode(cell: &str) -> bool {
    let b = cell.as_bytes();
    b.len() >= 10 && b"-dlcbps".contains(&b[0]) && b[1..10].iter().all(|c| b"rwxsStT-".contains(c))
}

fn header_like(cells: &[&str], min_columns: usize) -> bool {
    cells.len() >= min_columns
        && cells.iter().all(|c| {
            !c.is_empty()
                && !c.bytes().any(|b| b.is_ascii_digit())
                && c.chars().any(char::is_alphabetic)
                && c.len() <= 40
        })
}

/// Cells a header row could hold where some are empty: the first and
/// every other non-empty one a capitalised name without digits.
fn header_words(cells: &[&str]) -> bool {
    !cells[0].is_empty()
        && cells.iter().filter(|c| !c.is_empty()).all(|c| {
            !c.bytes().any(|b| b.is_ascii_digit())
                && c.chars()
                    .find(|ch| ch.is_alphabetic())
                    .is_some_and(char::is_uppercase)
                && c.len() <= 40
        })
}

/// The table the lines hold, if they are mostly one.
pub fn parse(lines: &[&str]) -> Option<Aligned> {
    let content: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim().is_empty())
        .collect();
    if content.len() < MIN_ROWS + 1 {
        return None;
    }
    bars(lines, &content).or_else(|| columns(lines, &content))
}

/// False when [`parse`] certainly finds no table in `lines`, found in one
/// pass without holding anything per line: too few non-blank lines, no bar
/// character on enough of them, and too many short rows for columns (more
/// than a tenth of the rows under 8 characters). True means "try".
pub fn may_parse<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let (mut content, mut body, mut short) = (0usize, 0usize, 0usize);
    let mut barred = [0usize; 3];
    for l in lines {
        if l.trim().is_empty() {
            continue;
        }
        content += 1;
        for (k, b) in ['│', '┃', '|'].into_iter().enumerate() {
            if l.contains(b) {
                barred[k] += 1;
            }
        }
        // `columns` drops a leading `total N` line, then borders.
        if (content == 1 && l.starts_with("total ")) || is_border(l) {
            continue;
        }
        body += 1;
        if l.chars().nth(7).is_none() {
            short += 1;
        }
    }
    let rows = MIN_ROWS + 1;
    content >= rows && (barred.iter().any(|&b| b >= rows) || (body >= rows && short <= body / 10))
}

/// Lines without bars a barred table may have after it.
const MAX_FOOTER: usize = 2;

impl Aligned {
    /// Takes out of the rows the lines that print the header again (`vmstat`
    /// and `iostat` repeat it every screenful, `sar` with the time of the
    /// sample before it) or the line just above it (vmstat's column
    /// groups, `procs ---memory---`), and returns them.
    pub fn take_repeated_headers(&mut self, lines: &[&str]) -> Vec<usize> {
        let Some(h) = self.header else {
            return Vec::new();
        };
        // A line's words after the clock it may start with.
        let key = |l: &str| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let clock = words.iter().take_while(|w| is_clock(w)).count();
            words[clock..].join(" ")
        };
        let header = key(lines[h]);
        let above = (h > 0 && !lines[h - 1].trim().is_empty()).then(|| key(lines[h - 1]));
        let repeats = |l: &str| {
            let k = key(l);
            !k.is_empty() && (k == header || above.as_ref() == Some(&k))
        };
        let (taken, rows) = self.rows.iter().partition(|&&r| repeats(lines[r]));
        self.rows = rows;
        taken
    }
}

/// A clock time, or its AM/PM half, as `sar` prints in the first column
/// of its header row and of every row (`12:00:01 AM`, `00:10:01`).
fn is_clock(cell: &str) -> bool {
    let t = cell
        .strip_suffix(" AM")
        .or_else(|| cell.strip_suffix(" PM"))
        .unwrap_or(cell);
    if t == "AM" || t == "PM" {
        return true;
    }
    let parts: Vec<&str> = t.split(':').collect();
    (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// A table drawn with vertical bars (`│`, `┃` or `|`).
fn bars(lines: &[&str], content: &[usize]) -> Option<Aligned> {
    let bar = ['│', '┃', '|']
        .into_iter()
        .max_by_key(|&b| content.iter().filter(|&&i| lines[i].contains(b)).count())?;
    let mut rows: Vec<usize> = content
        .iter()
        .copied()
        .filter(|&i| !is_border(lines[i]))
        .collect();
    // A footer without bars (psql's `(300 rows)`) is text after the
    // table, not a row.
    for _ in 0..MAX_FOOTER {
        if rows.len() > 1 && rows.last().is_some_and(|&i| !lines[i].contains(bar)) {
            rows.pop();
        }
    }
    let barred = rows.iter().filter(|&&i| lines[i].contains(bar)).count();
    if barred < MIN_ROWS + 1 || barred * 10 < rows.len() * 9 {
        return None;
    }
    // Every row splits into the same number of cells.
    let width = |i: usize| lines[i].matches(bar).count();
    let w = width(rows[0]);
    if w < 2 || rows.iter().any(|&i| width(i) != w) {
        return None;
    }
    let t = Aligned {
        header: None,
        rows: Vec::new(),
        split: Split::Bars(bar),
        words: Vec::new(),
    };
    if t.cells(lines[rows[0]]).len() < 2 {
        return None;
    }
    let header = header_like(&t.cells(lines[rows[0]]), 2).then_some(rows[0]);
    let data = rows[usize::from(header.is_some())..].to_vec();
    Some(Aligned {
        header,
        rows: data,
        ..t
    })
}

/// Data rows the column tests read at most (the first ones): a table of
/// a million rows is not held cell by cell to decide its shape.
const SHAPE_ROWS: usize = 1000;

/// Columns of `t` (over the first [`SHAPE_ROWS`] of the data rows `data`)
/// whose non-empty cells are numbers or quantities (`2.1G`, `98%`,
/// `12ms`) in at least nine rows of ten.
fn numeric_columns(t: &Aligned, lines: &[&str], data: &[usize]) -> usize {
    let data = &data[..data.len().min(SHAPE_ROWS)];
    let rows: Vec<Vec<&str>> = data.iter().map(|&i| t.cells(lines[i])).collect();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..width)
        .filter(|&c| {
            let cells: Vec<&str> = rows
                .iter()
                .filter_map(|r| r.get(c).copied())
                .filter(|c| !c.is_empty())
                .collect();
            let numbers = cells
                .iter()
                .filter(|c| super::quantity::quantity(c).is_some())
                .count();
            !cells.is_empty() && numbers * 10 >= cells.len() * 9
        })
        .count()
}

/// Splits each column whose header cell holds `k >= 2` words, when at
/// least nine data rows in ten (of the first [`SHAPE_ROWS`]) hold exactly
/// `k` words there (the last column: at least `k`, its last word taking
/// the rest of the line), into `k` columns of one word each.
fn split_by_words(t: &mut Aligned, lines: &[&str], body: &[usize]) {
    let Split::Columns(cols) = &t.split else {
        return;
    };
    let head = t.cells(lines[body[0]]);
    if head.len() != cols.len() {
        return;
    }
    let data = &body[1..body.len().min(SHAPE_ROWS + 1)];
    let last = cols.len() - 1;
    let mut words = vec![1usize; cols.len()];
    for (k, h) in head.iter().enumerate() {
        let names = h.split_whitespace().count();
        if names < 2 || data.is_empty() {
            continue;
        }
        let fits = data
            .iter()
            .filter(|&&i| {
                let n = t
                    .cells(lines[i])
                    .get(k)
                    .map_or(0, |c| c.split_whitespace().count());
                n == names || (k == last && n > names)
            })
            .count();
        if fits * 10 >= data.len() * 9 {
            words[k] = names;
        }
    }
    if words.iter().all(|&w| w == 1) {
        return;
    }
    t.words = words;
}

/// A whitespace-aligned table.
fn columns(lines: &[&str], content: &[usize]) -> Option<Aligned> {
    // `ls -l` starts with `total N`.
    let mut body: Vec<usize> = content.to_vec();
    if lines[body[0]].starts_with("total ") {
        body.remove(0);
    }
    // A header ruled off with dashes (`pip list`, `psql`) is a table of
    // two columns already.
    let ruled = body.len() >= 2 && is_border(lines[body[1]]);
    let min_columns = if ruled { 2 } else { MIN_COLUMNS };
    body.retain(|&i| !is_border(lines[i]));
    if body.len() < MIN_ROWS + 1 {
        return None;
    }
    let mut lens: Vec<usize> = body.iter().map(|&i| lines[i].chars().count()).collect();
    lens.sort_unstable();
    // Gutters only where most rows still have text.
    let reach = lens[lens.len() / 10];
    drop(lens);
    if reach < 8 {
        return None;
    }
    // Only the first `reach` characters of a row are looked at.
    let chars: Vec<Vec<char>> = body
        .iter()
        .map(|&i| lines[i].chars().take(reach).collect())
        .collect();
    let blank = |p: usize| chars.iter().all(|c| c.get(p).is_none_or(|ch| *ch == ' '));
    let mut cols = Vec::new();
    let mut start = None;
    for p in 0..reach {
        match (blank(p), start) {
            (true, Some(s)) => {
                cols.push((s, p));
                start = None;
            }
            (false, None) => start = Some(p),
            _ => {}
        }
    }
    // The last column is open-ended.
    match start {
        Some(s) => cols.push((s, usize::MAX)),
        None => cols.push((reach, usize::MAX)),
    }
    let mut t = Aligned {
        header: None,
        rows: Vec::new(),
        split: Split::Columns(cols),
        words: Vec::new(),
    };
    // A gutter under no header word (inside a title every row starts
    // with, `Tidepool v2.29.2`) splits no column: it joins the one before.
    let head = t.cells(lines[body[0]]);
    if head.len() > 1 && head.iter().any(|c| c.is_empty()) && header_words(&head) {
        let keep: Vec<bool> = head.iter().map(|c| !c.is_empty()).collect();
        if let Split::Columns(cols) = &mut t.split {
            let mut merged: Vec<(usize, usize)> = Vec::with_capacity(cols.len());
            for (k, &(a, b)) in cols.iter().enumerate() {
                match merged.last_mut() {
                    Some(last) if !keep[k] => last.1 = b,
                    _ => merged.push((a, b)),
                }
            }
            *cols = merged;
        }
    }
    if matches!(&t.split, Split::Columns(c) if c.len() < min_columns) {
        return None;
    }
    // A row wider than its column (a 7-digit VSZ in `ps aux`, a long
    // device name) closes no gutter: a column whose header holds several
    // names, and whose cells hold as many words, is that many columns.
    split_by_words(&mut t, lines, &body);
    let first = t.cells(lines[body[0]]);
    // Tools print column names capitalised (NAME, Filesystem, PID); a log
    // line's words are not. Some print them in lower case after a
    // capitalised first one (`iostat -x`: Device r/s rkB/s %util) over
    // columns of numbers, which no log has.
    let capitalised = |c: &&str| {
        c.chars()
            .find(|ch| ch.is_alphabetic())
            .is_some_and(char::is_uppercase)
    };
    // Counted once, and only when a rule asks.
    let counted = std::cell::OnceCell::new();
    let numeric = || *counted.get_or_init(|| numeric_columns(&t, lines, &body[1..]));
    // `sar` starts its header row with the time of the first sample
    // (`12:00:01 AM  CPU  %user …`): the names follow it.
    let clock = first.iter().take_while(|c| is_clock(c)).count();
    let names = &first[clock..];
    let header = if clock > 0 {
        header_like(names, MIN_COLUMNS - 1)
            && names.first().is_some_and(capitalised)
            && numeric() >= 2
    } else {
        // `vmstat` names its columns in lower case (`r b swpd free …`)
        // over nothing but numbers, which no log's lines are.
        header_like(&first, min_columns)
            && (first.iter().all(capitalised)
                || first.first().is_some_and(capitalised) && numeric() >= 2
                || numeric() == first.len())
    };
    let ls = body
        .iter()
        .filter(|&&i| t.cells(lines[i]).first().is_some_and(|c| is_mode(c)))
        .count();
    if !header && ls * 10 < body.len() * 9 {
        return None;
    }
    // Most cells of the data rows are filled.
    let data = &body[usize::from(header)..];
    let n = t.cells(lines[body[0]]).len();
    let filled: usize = data
        .iter()
        .map(|&i| t.cells(lines[i]).iter().filter(|c| !c.is_empty()).count())
        .sum();
    if filled * 10 < data.len() * n * 7 {
        return None;
    }
    // A column every row shares (a log's program name or level) is not
    // a table's first column.
    let lead: Vec<&str> = data
        .iter()
        .map(|&i| t.cells(lines[i]).first().copied().unwrap_or(""))
        .collect();
    // (Under a header over columns of numbers it is a table's group, as
    // in `kafka-consumer-groups --describe`.)
    let same = lead.iter().filter(|c| **c == lead[0]).count();
    if ls * 10 < body.len() * 9 && same * 10 >= lead.len() * 9 && !(header && numeric() >= 2) {
        return None;
    }
    t.header = header.then_some(body[0]);
    t.rows = data.to_vec();
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<&str> {
        s.lines().collect()
    }

    #[test]
    fn vmstat_names_its_columns_in_lower_case_over_numbers() {
        let v = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n\
                 \x203  0      0 273981 69434 2915522    0    0    73    77  405 3692 20  2 78  0  0\n\
                 \x200  0      0 666385 78808 3778464    0    0    58   842 1000 1041 14  5 79  2  0\n\
                 \x202  9  56100 337481 77522 1723355 5234 7192    72    97  678 1992 19  4 14 63  0\n\
                 \x201  0      0 682332 24873 1270460    0    0    93   890  694  893 24  1 72  3  0\n\
                 \x202  0      0 341025 44199 3705568    0    0   186   256 1192 4170 23  5 71  1  0\n";
        let l = lines(v);
        let t = parse(&l).expect("vmstat table");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.rows, vec![1, 2, 3, 4, 5]);
        assert_eq!(t.names(l[0]).len(), 17);
        assert_eq!(t.cells(l[3])[15], "63");
        // Lower-case words over words are no header: a log's lines.
        let log = "ok  run  step  done\n\
                   ab  cdef  gh  ij\n\
                   kl  mnop  qr  st\n\
                   uv  wxyz  ab  cd\n\
                   ef  ghij  kl  mn\n";
        assert_eq!(parse(&lines(log)), None);
    }

    #[test]
    fn repeated_headers_are_no_rows() {
        let banner =
            "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----";
        let head =
            " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st";
        let mut v = String::new();
        for k in 0..80 {
            if k % 40 == 0 {
                v.push_str(&format!("{banner}\n{head}\n"));
            }
            v.push_str(&format!(
                "{:2} {:2} {:6} {:6} {:5} {:7} {:4} {:4} {:5} {:5} {:4} {:4} {:2} {:2} {:2} {:2} {:2}\n",
                k % 4, 0, 0, 273_981 + k * 7, 69_434, 2_915_522, 0, 0, 73 + k, 77, 405, 3692, 20, 2, 78, 0, 0
            ));
        }
        let l = lines(&v);
        let mut t = parse(&l[1..]).expect("vmstat table");
        t.header = t.header.map(|h| h + 1);
        t.rows.iter_mut().for_each(|r| *r += 1);
        assert_eq!(t.rows.len(), 82);
        assert_eq!(t.take_repeated_headers(&l), vec![42, 43]);
        assert_eq!(t.rows.len(), 80);
        // sar prints the time of the sample before its names.
        let mut sar = String::from("00:00:01  CPU  %user  %idle\n");
        for k in 1..=24 {
            if k == 13 {
                sar.push_str(&format!("{:02}:00:01  CPU  %user  %idle\n", k));
            }
            sar.push_str(&format!(
                "{:02}:10:01  all  {:5.2}  {:5.2}\n",
                k,
                2.0 + f64::from(k),
                97.0 - f64::from(k)
            ));
        }
        let l = lines(&sar);
        let mut t = parse(&l).expect("sar table");
        let taken = t.take_repeated_headers(&l);
        assert_eq!((taken, t.rows.len()), (vec![13], 24));
    }

    #[test]
    fn kubectl_and_ps() {
        let k = "NAME                     READY   STATUS    RESTARTS   AGE\n\
                 api-7d4b9c-abcde         1/1     Running   0          3d\n\
                 api-7d4b9c-fghij         1/1     Running   2          3d\n\
                 worker-5f6d7-klmno       0/1     Error     7          1h\n\
                 db-0                     1/1     Running   0          12d\n\
                 cache-66c-pqrst          1/1     Running   0          5h\n";
        let l = lines(k);
        let t = parse(&l).expect("kubectl table");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.rows, vec![1, 2, 3, 4, 5]);
        assert_eq!(
            t.cells(l[3]),
            vec!["worker-5f6d7-klmno", "0/1", "Error", "7", "1h"]
        );
        let ps = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n\
                  root           1  0.0  0.1 167744 11516 ?        Ss   Nov30   0:03 /sbin/init splash\n\
                  root           2  0.0  0.0      0     0 ?        S    Nov30   0:00 [kthreadd]\n\
                  alice       4242  1.5  2.0 912345 81234 pts/0    Sl+  10:01   1:20 node server.js --port 80\n\
                  alice       4250  0.0  0.0  12345  1234 pts/0    R+   10:02   0:00 ps aux\n\
                  bob         5000 99.0 10.0 999999 99999 ?        R    09:00  60:00 python train.py\n";
        let l = lines(ps);
        let t = parse(&l).expect("ps table");
        let c = t.cells(l[3]);
        assert_eq!(c.first(), Some(&"alice"));
        assert_eq!(c.last(), Some(&"node server.js --port 80"));
    }

    #[test]
    fn a_row_wider_than_its_column_closes_no_gutter() {
        // `ps aux` widens a row past its column (VSZ of 7 digits): the
        // header's names still split it. `df`'s last name has a space.
        let ps = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n\
                  root           1  0.0  0.1 167744 11516 ?        Ss   Nov30   0:03 /sbin/init splash\n\
                  root         812  0.1  1.2 8012576 763444 ?      Ssl  Nov30  80:27 /usr/bin/containerd\n\
                  dev        47562 398.7 61.2 9123456 4012345 pts/1 Rl+ 09:12 912:01 node webpack --watch\n\
                  alice       4250  0.0  0.0  12345  1234 pts/0    R+   10:02   0:00 ps aux\n\
                  bob         5000  9.0 10.0 999999 99999 ?        R    09:00  60:00 python train.py\n";
        let l = lines(ps);
        let t = parse(&l).expect("ps table");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.cells(l[0]).len(), 11, "{:?}", t.cells(l[0]));
        assert_eq!(
            t.cells(l[3]),
            vec![
                "dev",
                "47562",
                "398.7",
                "61.2",
                "9123456",
                "4012345",
                "pts/1",
                "Rl+",
                "09:12",
                "912:01",
                "node webpack --watch"
            ]
        );
        let df = "Filesystem      Size  Used Avail Use% Mounted on\n\
                  udev            7.7G     0  7.7G   0% /dev\n\
                  tmpfs           1.6G  2.1M  1.6G   1% /run\n\
                  /dev/nvme0n1p1   97G   95G  2.1G  98% /\n\
                  /dev/loop0       48M   48M     0 100% /snap/core/1507\n\
                  tmpfs           7.7G     0  7.7G   0% /dev/shm\n";
        let l = lines(df);
        let t = parse(&l).expect("df table");
        assert_eq!(
            t.cells(l[0]),
            vec!["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted on"]
        );
        assert_eq!(
            t.cells(l[3]),
            vec!["/dev/nvme0n1p1", "97G", "95G", "2.1G", "98%", "/"]
        );
    }

    #[test]
    fn lower_case_names_and_a_shared_first_column_over_numbers() {
        // `iostat -x` names its columns in lower case after `Device`.
        let io = "Device            r/s     rkB/s  %util\n\
                  nvme0n1         25.17    508.52   3.75\n\
                  nvme1n1         48.41    658.11  99.80\n\
                  loop2           30.18     92.08   6.63\n\
                  loop3           39.44    891.30   1.20\n\
                  loop4           26.96    242.44   4.64\n";
        let l = lines(io);
        let t = parse(&l).expect("iostat table");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.cells(l[2]), vec!["nvme1n1", "48.41", "658.11", "99.80"]);
        // `kafka-consumer-groups --describe`: one group on every row.
        let kafka = "GROUP        TOPIC      PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG\n\
                     orders-sink  orders.v2  0          9585865         9585874         9\n\
                     orders-sink  orders.v2  1          4361841         4361855         14\n\
                     orders-sink  orders.v2  2          8473134         9677465         1204331\n\
                     orders-sink  orders.v2  3          6104383         6104399         16\n\
                     orders-sink  orders.v2  4          9711861         9711876         15\n";
        let l = lines(kafka);
        let t = parse(&l).expect("kafka table");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.cells(l[3])[5], "1204331");
        // Lower-case words over words, or a shared first column over
        // text, stay a log.
        let log = "Server    started  listening\n\
                   worker    ready    queue-a\n\
                   worker    ready    queue-b\n\
                   worker    ready    queue-c\n\
                   worker    ready    queue-d\n\
                   worker    ready    queue-e\n";
        assert!(parse(&lines(log)).is_none());
    }

    #[test]
    fn two_ruled_columns_and_titles_with_spaces() {
        let pip = "Package                   Version\n\
                   ------------------------- -----------\n\
                   anyio                     4.4.0\n\
                   certifi                   2024.7.4\n\
                   httpx                     0.27.0\n\
                   idna                      3.7\n\
                   sniffio                   1.3.1\n";
        let l = lines(pip);
        let t = parse(&l).expect("pip list");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.cells(l[3]), vec!["certifi", "2024.7.4"]);
        let gh = "TITLE             TYPE         TAG NAME  PUBLISHED\n\
                  Tidepool v2.29.2  Pre-release  v2.29.2   about 1 months ago\n\
                  Tidepool v2.29.1  Latest       v2.29.1   about 2 months ago\n\
                  Tidepool v2.29.0               v2.29.0   about 3 months ago\n\
                  Tidepool v2.28.2               v2.28.2   about 4 months ago\n\
                  Tidepool v2.28.1               v2.28.1   about 5 months ago\n";
        let l = lines(gh);
        let t = parse(&l).expect("gh release list");
        assert_eq!(t.header, Some(0));
        assert_eq!(
            t.cells(l[3]),
            vec!["Tidepool v2.29.0", "", "v2.29.0", "about 3 months ago"]
        );
        // Two columns without a rule stay a list of words, not a table.
        let plain = "alpha 1\nbeta 2\ngamma 3\ndelta 4\nepsilon 5\nzeta 6\n";
        assert!(parse(&lines(plain)).is_none());
    }

    #[test]
    fn ls_without_header() {
        let s = "total 272\n\
                 drwxr-xr-x 57 root root  4096 Sep 22 04:51 .\n\
                 drwxr-xr-x 13 root root  4096 Dec  1 00:54 ..\n\
                 drwxr-xr-x  2 root root  4096 Aug 18  2021 X11\n\
                 lrwxrwxrwx  1 root root    21 Jan  8  2023 cpp -> /etc/alternatives/cpp\n\
                 -rw-r--r--  1 root root 12345 Jun 24  2025 my file.txt\n";
        let l = lines(s);
        let t = parse(&l).expect("ls table");
        assert_eq!(t.header, None);
        assert_eq!(t.rows.len(), 5);
        assert_eq!(t.cells(l[5]).last(), Some(&"my file.txt"));
    }

    #[test]
    fn box_drawn() {
        let s = "┌──────┬───────┐\n│ name │ count │\n├──────┼───────┤\n│ a    │ 1     │\n│ b    │ 2     │\n│ c    │ 3     │\n│ d    │ 4     │\n│ e    │ 5     │\n└──────┴───────┘\n";
        let l = lines(s);
        let t = parse(&l).expect("box table");
        assert_eq!(t.header, Some(1));
        assert_eq!(t.rows, vec![3, 4, 5, 6, 7]);
        assert_eq!(t.cells(l[4]), vec!["b", "2"]);
    }

    #[test]
    fn logs_and_prose_are_not_tables() {
        let log = "Jun 14 15:16:01 combo sshd(pam_unix)[19939]: check pass; user unknown\n\
                   Jun 14 15:16:02 combo sshd(pam_unix)[19937]: check pass; user unknown\n\
                   Jun 15 02:04:59 combo sshd(pam_unix)[20882]: authentication failure; logname=\n\
                   Jun 15 02:04:59 combo sshd(pam_unix)[20884]: authentication failure; logname=\n\
                   Jun 15 04:06:18 combo su(pam_unix)[21416]: session opened for user cyrus\n";
        assert!(parse(&lines(log)).is_none());
        let prose = "This is a paragraph of text that goes on for a while\n\
                     and then continues on the next line with more words\n\
                     until it reaches a third line which is also prose,\n\
                     and a fourth, and a fifth line that ends the text.\n\
                     Nothing here is a table, though lines are long.\n";
        assert!(parse(&lines(prose)).is_none());
    }

    #[test]
    fn sar_header_starts_with_a_time() {
        let sar = "12:00:01 AM     CPU     %user     %nice   %system   %iowait    %steal     %idle\n\
                   12:05:01 AM     all     21.81      0.00      1.01      0.90      0.00     76.28\n\
                   12:10:01 AM     all      7.56      0.00      1.86      0.98      0.00     89.60\n\
                   12:15:01 PM     all     13.85      0.00      2.45     71.33      0.00     12.37\n\
                   12:20:01 PM     all     13.85      0.00      2.45      2.47      0.00     81.24\n\
                   Average:        all     14.90      0.00      2.50      1.60      0.00     81.00\n";
        let l = lines(sar);
        let t = parse(&l).expect("sar table");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.rows, vec![1, 2, 3, 4, 5]);
        let names = t.names(l[0]);
        assert_eq!(&names[..3], &["time", "AM/PM", "CPU"]);
        assert_eq!(t.cells(l[3])[6], "71.33");
        // Without the names after it, a time is no header.
        assert!(!is_clock("12:00:01x") && is_clock("00:10:01") && is_clock("12:00:01 AM"));
    }

    #[test]
    fn psql_footer_is_no_row() {
        let psql = " id | name  | status\n\
                    ----+-------+---------\n\
                    1 | a     | active\n\
                    2 | b     | active\n\
                    3 | c     | past_due\n\
                    4 | d     | active\n\
                    5 | e     | active\n\
                    (5 rows)\n";
        let l = lines(psql);
        let t = parse(&l).expect("psql table");
        assert_eq!(t.header, Some(0));
        assert_eq!(t.rows, vec![2, 3, 4, 5, 6]);
    }
}
