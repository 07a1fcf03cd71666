//! Output that moves the cursor up to redraw what it printed (`docker
//! push` and `docker pull` progress, buildah's blob bars, Playwright's
//! test list): replayed on a screen of rows, so the view shows what the
//! terminal showed at the end rather than every stale frame.
//!
//! The screen has as many rows as the output made with line feeds; the
//! cursor moves up (`ESC[nA`, `ESC[nF`, `ESC M`), down (`ESC[nB`, `ESC[nE`,
//! never past the last row, as a terminal's cursor stops at the bottom),
//! along the row (`CR`, `BS`, `ESC[nC`, `ESC[nD`, `ESC[nG`, never past the
//! row's text), and erases (`ESC[K` in its three forms, `ESC[J` below the
//! cursor). Other escapes are removed as the line cleaner removes them. A
//! row that reported an error and was erased or drawn over stays, as its
//! own line before the row: a terminal showed it.

use super::clean::escape_len;
use super::signal::is_error;

const ESC: u8 = 0x1b;

/// Whether `b` moves the cursor up anywhere: `ESC [ n A`, `ESC [ n F` or
/// a reverse index (`ESC M`).
pub(super) fn moves_up(b: &[u8]) -> bool {
    memchr::memchr_iter(ESC, b).any(|i| match b.get(i + 1) {
        Some(b'M') => true,
        Some(b'[') => {
            let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
            matches!(b.get(i + 2 + digits), Some(b'A' | b'F'))
        }
        _ => false,
    })
}

/// A character on the screen: a Unicode scalar, or a byte that is not
/// UTF-8 (above `char::MAX`), written back as it came.
type Cell = u32;

const RAW: u32 = 0x11_0000;

/// Above this many bytes output is not replayed (each byte takes a
/// 4-byte cell on the screen): the caller cleans it line by line.
const MAX_REPLAY_BYTES: usize = 4 << 20;

/// The screen after `b` is replayed, as text: one line per row, each
/// ended as the line feed that last left it was (CRLF or LF). `None` when
/// replaying would cost more than a few passes over `b` (long rows drawn
/// over again and again), or would write more than `b` (an error row
/// redrawn in many versions): the caller cleans line by line instead.
pub(super) fn replay(b: &[u8]) -> Option<Vec<u8>> {
    if b.len() > MAX_REPLAY_BYTES {
        return None;
    }
    let mut s = Screen {
        rows: vec![Row::default()],
        row: 0,
        col: 0,
        work: 0,
        saved: 0,
    };
    // Cells read again to judge or erase a row, and bytes of error rows
    // kept, beyond which the replay gives up.
    let (max_work, max_saved) = (8 * b.len() + (1 << 20), b.len() / 2);
    let mut i = 0;
    while i < b.len() {
        if s.work > max_work || s.saved > max_saved {
            return None;
        }
        let c = b[i];
        match c {
            ESC => {
                let len = escape_len(b, i);
                s.escape(&b[i..i + len]);
                i += len;
                continue;
            }
            b'\r' => s.col = 0,
            b'\n' => {
                s.rows[s.row].crlf = i > 0 && b[i - 1] == b'\r';
                s.line_feed();
            }
            0x08 => s.col = s.col.saturating_sub(1),
            0x07 | 0x0e | 0x0f => {}
            _ => {
                let (cell, len) = decode(&b[i..]);
                s.put(cell);
                i += len;
                continue;
            }
        }
        i += 1;
    }
    if s.saved > max_saved {
        return None;
    }
    let mut out = Vec::with_capacity(b.len());
    let last = s.rows.len() - 1;
    for (k, r) in s.rows.iter().enumerate() {
        let ending: &[u8] = if r.crlf { b"\r\n" } else { b"\n" };
        for l in &r.over {
            out.extend_from_slice(l);
            out.push(b'\n');
        }
        encode(&r.text, &mut out);
        if k < last {
            out.extend_from_slice(ending);
        }
    }
    (out.len() <= b.len()).then_some(out)
}

/// The cell at the start of `b` (not empty) and its length in bytes.
fn decode(b: &[u8]) -> (Cell, usize) {
    let len = match b[0] {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    };
    match b.get(..len).and_then(|s| std::str::from_utf8(s).ok()) {
        Some(s) => (
            s.chars().next().map_or(RAW + u32::from(b[0]), u32::from),
            len,
        ),
        None => (RAW + u32::from(b[0]), 1),
    }
}

fn encode(cells: &[Cell], out: &mut Vec<u8>) {
    for &c in cells {
        match char::from_u32(c) {
            Some(ch) => out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes()),
            None => out.push((c - RAW) as u8),
        }
    }
}

/// One row: its cells, the error lines drawn over on it, whether a CRLF
/// left it last, and whether its text changed since it was last judged.
#[derive(Default)]
struct Row {
    text: Vec<Cell>,
    over: Vec<Vec<u8>>,
    crlf: bool,
    changed: bool,
}

impl Row {
    /// Keeps the row's text as a line of its own if it reports an error
    /// (it is about to be erased or drawn over); a text judged before is
    /// not judged again. Adds the cells read to `work` and the bytes kept
    /// to `saved`.
    fn save_error(&mut self, work: &mut usize, saved: &mut usize) {
        if !self.changed {
            return;
        }
        self.changed = false;
        *work += self.text.len();
        let mut line = Vec::new();
        encode(&self.text, &mut line);
        let text = String::from_utf8_lossy(&line);
        if !text.trim().is_empty() && is_error(&text) && self.over.last() != Some(&line) {
            *saved += line.len();
            self.over.push(line);
        }
    }
}

struct Screen {
    rows: Vec<Row>,
    row: usize,
    col: usize,
    /// Cells read again to judge or erase rows.
    work: usize,
    /// Bytes of error rows kept.
    saved: usize,
}

impl Screen {
    fn line_feed(&mut self) {
        self.row += 1;
        if self.row == self.rows.len() {
            self.rows.push(Row::default());
        }
        self.col = 0;
    }

    fn put(&mut self, ch: Cell) {
        let r = &mut self.rows[self.row];
        if self.col < r.text.len() {
            // A redraw from the first column draws over the row; writing
            // the character already there changes nothing.
            if r.text[self.col] != ch {
                if self.col == 0 {
                    r.save_error(&mut self.work, &mut self.saved);
                }
                r.text[self.col] = ch;
                r.changed = true;
            }
        } else {
            r.text.push(ch);
            r.changed = true;
        }
        self.col = (self.col + 1).min(r.text.len());
    }

    fn up(&mut self, n: usize) {
        self.row = self.row.saturating_sub(n);
    }

    fn down(&mut self, n: usize) {
        self.row = self.row.saturating_add(n).min(self.rows.len() - 1);
    }

    /// Moves the cursor along the row, never past its text.
    fn move_to(&mut self, col: usize) {
        self.col = col.min(self.rows[self.row].text.len());
    }

    /// A CSI sequence's effect (others do nothing).
    fn escape(&mut self, e: &[u8]) {
        if e.len() == 2 && e[1] == b'M' {
            return self.up(1);
        }
        if e.len() < 3 || e[1] != b'[' {
            return;
        }
        let (params, fin) = (&e[2..e.len() - 1], e[e.len() - 1]);
        if !params.iter().all(u8::is_ascii_digit) {
            return;
        }
        // A count too large for a number moves as far as it can.
        let p: usize = match std::str::from_utf8(params).ok().filter(|p| !p.is_empty()) {
            Some(p) => p.parse().unwrap_or(usize::MAX),
            None => 0,
        };
        let n = p.max(1);
        match fin {
            b'A' => self.up(n),
            b'B' => self.down(n),
            b'E' => {
                self.down(n);
                self.col = 0;
            }
            b'F' => {
                self.up(n);
                self.col = 0;
            }
            b'C' => self.move_to(self.col.saturating_add(n)),
            b'D' => self.col = self.col.saturating_sub(n),
            b'G' => self.move_to(n - 1),
            b'K' => self.erase_in_row(p),
            b'J' if p == 0 => {
                self.erase_in_row(0);
                let below: Vec<Row> = self.rows.drain(self.row + 1..).collect();
                for mut r in below {
                    r.save_error(&mut self.work, &mut self.saved);
                    self.rows[self.row].over.append(&mut r.over);
                }
            }
            _ => {}
        }
    }

    fn erase_in_row(&mut self, how: usize) {
        let col = self.col;
        let r = &mut self.rows[self.row];
        match how {
            0 => {
                if col == 0 {
                    r.save_error(&mut self.work, &mut self.saved);
                }
                if col < r.text.len() {
                    r.text.truncate(col);
                    r.changed = true;
                }
            }
            1 => {
                let end = (col + 1).min(r.text.len());
                self.work += end;
                for c in &mut r.text[..end] {
                    if *c != u32::from(b' ') {
                        *c = u32::from(b' ');
                        r.changed = true;
                    }
                }
            }
            2 => {
                r.save_error(&mut self.work, &mut self.saved);
                r.text.clear();
                r.changed = false;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> String {
        String::from_utf8(replay(s.as_bytes()).expect("replayed")).unwrap()
    }

    #[test]
    fn docker_progress_shows_the_final_screen() {
        let s = "push\n\n\x1b[1A\x1b[2K\ra: Preparing \r\x1b[1B\n\x1b[1A\x1b[2K\rb: Preparing \r\x1b[1B\x1b[2A\x1b[2K\ra: Pushed \r\x1b[2B\x1b[1A\x1b[2K\rb: Pushed \r\x1b[1Bdigest: x\n";
        assert!(moves_up(s.as_bytes()));
        assert_eq!(r(s), "push\na: Pushed \nb: Pushed \ndigest: x\n");
    }

    #[test]
    fn erase_below_redraws_a_block() {
        let s = "Copying 1 [--]\nCopying 2 [--]\n\x1b[2A\x1b[JCopying 1 [==]\nCopying 2 [==]\nWriting\n";
        assert_eq!(r(s), "Copying 1 [==]\nCopying 2 [==]\nWriting\n");
    }

    #[test]
    fn an_error_drawn_over_stays() {
        let s = "step 1\nerror: disk full\n\x1b[1A\x1b[2Kstep 2\n";
        assert_eq!(r(s), "step 1\nerror: disk full\nstep 2\n");
    }

    /// An error row drawn over from its first column again and again is
    /// kept once, not once per redraw (a 15 KB input made a 25 MB view).
    #[test]
    fn an_error_row_redrawn_many_times_is_kept_once() {
        let mut s = b"a\nb\n\x1b[A\n".to_vec();
        s.extend(std::iter::repeat_n(b'a', 5000));
        s.extend_from_slice(b" error: disk full");
        for _ in 0..5000 {
            s.extend_from_slice(b"\rX");
        }
        s.push(b'\n');
        let out = replay(&s).expect("replayed");
        assert!(out.len() <= s.len());
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text.matches("error: disk full").count(),
            2,
            "the first frame and the last"
        );
        assert!(text.contains(&format!("X{} error: disk full\n", "a".repeat(4999))));
    }

    /// A long row redrawn in many versions costs more than a few passes
    /// over the input: the replay gives up and the caller cleans line by
    /// line; versions of an error row that would outgrow the input too.
    #[test]
    fn costly_redraws_give_up() {
        let mut s = b"a\nb\n\x1b[A\n".to_vec();
        s.extend(std::iter::repeat_n(b'a', 200_000));
        for k in 0..100_000 {
            s.extend_from_slice(if k % 2 == 0 { b"\rX" } else { b"\rY" });
        }
        assert_eq!(replay(&s), None);
        let mut s = b"x\n\x1b[A".to_vec();
        s.extend_from_slice(b"error: ");
        s.extend(std::iter::repeat_n(b'a', 5000));
        for _ in 0..3000 {
            s.extend_from_slice(b"\rE\re");
        }
        assert_eq!(replay(&s), None);
        assert!(crate::compress::shared::clean::clean(&s).len() <= s.len());
    }

    /// Counts past `usize` move as far as they can, without overflow.
    #[test]
    fn huge_counts_saturate() {
        let s = "a\nb\n\x1b[A\nabc\x1b[18446744073709551615CX\nline1\nline2\nline3\x1b[99999999999999999999999999Bdown\n";
        assert_eq!(r(s), "a\nb\nabcX\nline1\nline2\nline3down\n");
    }

    #[test]
    fn next_line_and_column_moves() {
        let s = "  1 test a\n\x1b[1A\x1b[2K\x1b[0G  ok 1 test a\x1b[1E  2 test b\nDone\r\n";
        assert_eq!(r(s), "  ok 1 test a\n  2 test b\nDone\r\n");
        assert!(!moves_up(b"plain \x1b[31mred\x1b[0m\n"));
    }
}
