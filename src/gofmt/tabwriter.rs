//! Go's `text/tabwriter` as the printer configures it (padding 1, empty
//! columns discarded, no HTML filtering, escapes kept for the trimmer):
//! text is cut into cells at TABs and vertical tabs, and the cells of a
//! column are padded to the widest of the consecutive lines holding it.

use super::printer::ESCAPE;

#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    /// Bytes of text.
    size: usize,
    /// Width in runes (escaped text counted without its escape bytes).
    width: usize,
    /// Terminated by a TAB (not a vertical tab).
    htab: bool,
}

struct Writer<'o> {
    out: &'o mut Vec<u8>,
    minwidth: usize,
    tabwidth: usize,
    padding: usize,
    padchar: u8,
    tab_indent: bool,
    buf: Vec<u8>,
    pos: usize,
    cell: Cell,
    in_escape: bool,
    lines: Vec<Vec<Cell>>,
    widths: Vec<usize>,
}

/// Formats `text` (the printer's output) as a Go tabwriter created with
/// `NewWriter(out, minwidth, tabwidth, padding, padchar,
/// DiscardEmptyColumns [| TabIndent])` would, then flushed.
pub(super) fn format(
    text: &[u8],
    minwidth: usize,
    tabwidth: usize,
    padding: usize,
    padchar: u8,
    tab_indent: bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 4);
    let mut w = Writer {
        out: &mut out,
        minwidth,
        tabwidth,
        padding,
        padchar,
        tab_indent,
        buf: Vec::new(),
        pos: 0,
        cell: Cell::default(),
        in_escape: false,
        lines: vec![Vec::new()],
        widths: Vec::new(),
    };
    w.write(text);
    w.flush();
    out
}

fn rune_count(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c & 0xC0) != 0x80).count()
}

impl Writer<'_> {
    fn reset(&mut self) {
        self.buf.clear();
        self.pos = 0;
        self.cell = Cell::default();
        self.in_escape = false;
        self.lines.clear();
        self.lines.push(Vec::new());
        self.widths.clear();
    }

    fn write_n(&mut self, b: u8, n: usize) {
        self.out.extend(std::iter::repeat_n(b, n));
    }

    fn write_padding(&mut self, textw: usize, cellw: usize, use_tabs: bool) {
        if self.padchar == b'\t' || use_tabs {
            if self.tabwidth == 0 {
                return;
            }
            let cellw = cellw.div_ceil(self.tabwidth) * self.tabwidth;
            let n = cellw - textw;
            self.write_n(b'\t', n.div_ceil(self.tabwidth));
            return;
        }
        self.write_n(self.padchar, cellw - textw);
    }

    fn write_lines(&mut self, pos0: usize, line0: usize, line1: usize) -> usize {
        let mut pos = pos0;
        for i in line0..line1 {
            let line = std::mem::take(&mut self.lines[i]);
            let mut use_tabs = self.tab_indent;
            for (j, c) in line.iter().enumerate() {
                if c.size == 0 {
                    if j < self.widths.len() {
                        let w = self.widths[j];
                        self.write_padding(c.width, w, use_tabs);
                    }
                } else {
                    use_tabs = false;
                    self.out.extend_from_slice(&self.buf[pos..pos + c.size]);
                    pos += c.size;
                    if j < self.widths.len() {
                        let w = self.widths[j];
                        self.write_padding(c.width, w, false);
                    }
                }
            }
            self.lines[i] = line;
            if i + 1 == self.lines.len() {
                let end = pos + self.cell.size;
                self.out.extend_from_slice(&self.buf[pos..end]);
                pos = end;
            } else {
                self.out.push(b'\n');
            }
        }
        pos
    }

    fn format(&mut self, pos0: usize, line0: usize, line1: usize) -> usize {
        let mut pos = pos0;
        let mut line0 = line0;
        let column = self.widths.len();
        let mut this = line0;
        while this < line1 {
            if column + 1 >= self.lines[this].len() {
                this += 1;
                continue;
            }
            pos = self.write_lines(pos, line0, this);
            line0 = this;
            let mut width = self.minwidth;
            let mut discardable = true;
            while this < line1 {
                let line = &self.lines[this];
                if column + 1 >= line.len() {
                    break;
                }
                let c = line[column];
                let w = c.width + self.padding;
                if w > width {
                    width = w;
                }
                if c.width > 0 || c.htab {
                    discardable = false;
                }
                this += 1;
            }
            if discardable {
                width = 0;
            }
            self.widths.push(width);
            pos = self.format(pos, line0, this);
            self.widths.pop();
            line0 = this;
        }
        self.write_lines(pos, line0, line1)
    }

    fn append(&mut self, text: &[u8]) {
        self.buf.extend_from_slice(text);
        self.cell.size += text.len();
    }

    fn update_width(&mut self) {
        self.cell.width += rune_count(&self.buf[self.pos..]);
        self.pos = self.buf.len();
    }

    fn end_escape(&mut self) {
        self.update_width();
        self.cell.width -= 2;
        self.pos = self.buf.len();
        self.in_escape = false;
    }

    fn terminate_cell(&mut self, htab: bool) -> usize {
        self.cell.htab = htab;
        let cell = std::mem::take(&mut self.cell);
        let line = self.lines.last_mut().expect("a line");
        line.push(cell);
        line.len()
    }

    fn flush(&mut self) {
        if self.cell.size > 0 {
            if self.in_escape {
                self.end_escape();
            }
            self.terminate_cell(false);
        }
        let n = self.lines.len();
        self.format(0, 0, n);
        self.reset();
    }

    fn write(&mut self, text: &[u8]) {
        let mut n = 0;
        for (i, &ch) in text.iter().enumerate() {
            if !self.in_escape {
                match ch {
                    b'\t' | 0x0b | b'\n' | 0x0c => {
                        self.append(&text[n..i]);
                        self.update_width();
                        n = i + 1;
                        let ncells = self.terminate_cell(ch == b'\t');
                        if ch == b'\n' || ch == 0x0c {
                            self.lines.push(Vec::new());
                            if ch == 0x0c || ncells == 1 {
                                self.flush();
                            }
                        }
                    }
                    ESCAPE => {
                        self.append(&text[n..i]);
                        self.update_width();
                        n = i;
                        self.in_escape = true;
                    }
                    _ => {}
                }
            } else if ch == ESCAPE {
                self.append(&text[n..i + 1]);
                n = i + 1;
                self.end_escape();
            }
        }
        self.append(&text[n..]);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn aligns_columns() {
        let out = super::format(b"a\x0bint\nbbb\x0bstring\n", 0, 8, 1, b' ', true);
        assert_eq!(out, b"a   int\nbbb string\n");
        let out = super::format(b"\tx\x0b= 1\n\tlong\x0b= 2\n", 0, 8, 1, b' ', true);
        assert_eq!(out, b"\tx    = 1\n\tlong = 2\n");
    }
}
