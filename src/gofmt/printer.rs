//! The core of Go's printer (`go/printer/printer.go`, Go 1.26): tokens and
//! buffered whitespace written with line breaks taken from source line
//! positions, indentation, alignment cells for the tabwriter, then the
//! tabwriter and the trimmer. The comment machinery is left out: the trees
//! printed here never hold comments.

use rustc_hash::FxHashMap;

use super::token::{Lines, Pos, Token, NO_POS};

/// Go's `maxNewlines`: at most one blank line is kept.
pub(super) const MAX_NEWLINES: usize = 2;
pub(super) const INFINITY: usize = 1 << 30;

/// Buffered whitespace (`whiteSpace` in Go).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ws {
    Ignore,
    Blank,
    Vtab,
    Newline,
    Formfeed,
    Indent,
    Unindent,
}

impl Ws {
    fn byte(self) -> u8 {
        match self {
            Ws::Ignore => 0,
            Ws::Blank => b' ',
            Ws::Vtab => 0x0b,
            Ws::Newline => b'\n',
            Ws::Formfeed => 0x0c,
            Ws::Indent => b'>',
            Ws::Unindent => b'<',
        }
    }
}

/// The tabwriter's escape byte.
pub(super) const ESCAPE: u8 = 0xff;

/// Printer settings (`printer.Config`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Config {
    pub raw_format: bool,
    pub tab_indent: bool,
    pub use_spaces: bool,
    pub normalize_numbers: bool,
    pub tabwidth: usize,
}

impl Config {
    /// gofmt's: `UseSpaces | TabIndent | normalizeNumbers`, tab width 8.
    pub const GOFMT: Config = Config {
        raw_format: false,
        tab_indent: true,
        use_spaces: true,
        normalize_numbers: true,
        tabwidth: 8,
    };

    /// What `nodeSize` prints with: `RawFormat` only.
    pub const RAW: Config = Config {
        raw_format: true,
        tab_indent: false,
        use_spaces: false,
        normalize_numbers: false,
        tabwidth: 0,
    };
}

/// A source line and whether it is a real position (`token.Position`
/// reduced to what the printer reads without comments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Position {
    pub line: usize,
}

impl Position {
    pub fn valid(self) -> bool {
        self.line > 0
    }
}

/// Memoized node sizes, keyed by node address (Go keys them by pointer,
/// and the first size computed for a node is the one kept).
pub(super) type Sizes = FxHashMap<usize, usize>;

pub(super) struct Printer<'a> {
    pub cfg: Config,
    pub lines: &'a Lines,
    pub output: Vec<u8>,
    pub indent: i32,
    pub level: i32,
    end_alignment: bool,
    pub implied_semi: bool,
    pub last_tok: Token,
    wsbuf: Vec<Ws>,
    pub pos: Position,
    pub out_line: usize,
    pub out_column: usize,
    /// `recordLine`: the slot to receive the output line of the next token.
    line_ptr: Option<usize>,
    pub line_slots: Vec<usize>,
    pub sizes: &'a mut Sizes,
}

/// Capacity of Go's whitespace buffer: a longer run is written out early.
const WSBUF_CAP: usize = 16;

fn may_combine(prev: Token, next: u8) -> bool {
    match prev {
        Token::Int => next == b'.',
        Token::Add => next == b'+',
        Token::Sub => next == b'-',
        Token::Quo => next == b'*',
        Token::Lss => next == b'-' || next == b'<',
        Token::And => next == b'&' || next == b'^',
        _ => false,
    }
}

impl<'a> Printer<'a> {
    pub fn new(cfg: Config, lines: &'a Lines, sizes: &'a mut Sizes) -> Printer<'a> {
        Printer {
            cfg,
            lines,
            output: Vec::new(),
            indent: 0,
            level: 0,
            end_alignment: false,
            implied_semi: false,
            last_tok: Token::Illegal,
            wsbuf: Vec::with_capacity(WSBUF_CAP),
            pos: Position { line: 1 },
            out_line: 1,
            out_column: 1,
            line_ptr: None,
            line_slots: Vec::new(),
            sizes,
        }
    }

    pub fn line_for(&self, pos: Pos) -> usize {
        self.lines.line(pos)
    }

    pub fn pos_for(&self, pos: Pos) -> Position {
        Position {
            line: self.lines.line(pos),
        }
    }

    pub fn set_pos(&mut self, pos: Pos) {
        if pos != NO_POS {
            self.pos = self.pos_for(pos);
        }
    }

    /// A new slot for `record_line`.
    pub fn new_slot(&mut self) -> usize {
        self.line_slots.push(0);
        self.line_slots.len() - 1
    }

    pub fn record_line(&mut self, slot: usize) {
        self.line_ptr = Some(slot);
    }

    pub fn lines_from(&self, slot: usize) -> isize {
        self.out_line as isize - self.line_slots[slot] as isize
    }

    fn write_indent(&mut self) {
        let n = self.indent.max(0) as usize;
        self.output.extend(std::iter::repeat_n(b'\t', n));
        self.out_column += n;
    }

    pub fn write_byte(&mut self, ch: u8, n: usize) {
        let mut ch = ch;
        if self.end_alignment {
            match ch {
                b'\t' | 0x0b => ch = b' ',
                b'\n' | 0x0c => {
                    ch = 0x0c;
                    self.end_alignment = false;
                }
                _ => {}
            }
        }
        if self.out_column == 1 {
            self.write_indent();
        }
        self.output.extend(std::iter::repeat_n(ch, n));
        if ch == b'\n' || ch == 0x0c {
            self.pos.line += n;
            self.out_line += n;
            self.out_column = 1;
            return;
        }
        self.out_column += n;
    }

    fn write_string(&mut self, pos: Position, s: &str, is_lit: bool) {
        if self.out_column == 1 {
            self.write_indent();
        }
        if pos.valid() {
            self.pos = pos;
        }
        if is_lit {
            self.output.push(ESCAPE);
        }
        self.output.extend_from_slice(s.as_bytes());
        let b = s.as_bytes();
        let nlines = b.iter().filter(|&&c| c == b'\n' || c == 0x0c).count();
        if nlines > 0 {
            self.end_alignment = true;
            let li = b
                .iter()
                .rposition(|&c| c == b'\n' || c == 0x0c)
                .unwrap_or(0);
            self.pos.line += nlines;
            self.out_line += nlines;
            self.out_column = s.len() - li;
        } else {
            self.out_column += s.len();
        }
        if is_lit {
            self.output.push(ESCAPE);
        }
    }

    pub fn write_whitespace(&mut self, n: usize) {
        let mut i = 0;
        while i < n {
            match self.wsbuf[i] {
                Ws::Ignore => {}
                Ws::Indent => self.indent += 1,
                Ws::Unindent => {
                    self.indent -= 1;
                    if self.indent < 0 {
                        self.indent = 0;
                    }
                }
                ch @ (Ws::Newline | Ws::Formfeed) => {
                    if i + 1 < n && self.wsbuf[i + 1] == Ws::Unindent {
                        self.wsbuf[i] = Ws::Unindent;
                        self.wsbuf[i + 1] = Ws::Formfeed;
                        continue;
                    }
                    self.write_byte(ch.byte(), 1);
                }
                ch => self.write_byte(ch.byte(), 1),
            }
            i += 1;
        }
        self.wsbuf.drain(..n);
    }

    /// Buffers whitespace (`print` of a `whiteSpace`).
    pub fn ws(&mut self, x: Ws) {
        if x == Ws::Ignore {
            return;
        }
        if self.wsbuf.len() == WSBUF_CAP {
            self.write_whitespace(WSBUF_CAP);
        }
        self.wsbuf.push(x);
        if x == Ws::Newline || x == Ws::Formfeed {
            self.implied_semi = false;
        }
        self.last_tok = Token::Illegal;
    }

    pub fn tok(&mut self, t: Token) {
        let s = t.as_str();
        if may_combine(self.last_tok, s.as_bytes()[0]) {
            self.wsbuf.clear();
            self.wsbuf.push(Ws::Blank);
        }
        let implied = matches!(
            t,
            Token::Break
                | Token::Continue
                | Token::Fallthrough
                | Token::Return
                | Token::Inc
                | Token::Dec
                | Token::Rparen
                | Token::Rbrack
                | Token::Rbrace
        );
        self.last_tok = t;
        self.emit(s, false, implied);
    }

    pub fn ident(&mut self, name: &str) {
        self.last_tok = Token::Ident;
        self.emit(name, false, true);
    }

    pub fn lit(&mut self, kind: Token, value: &str) {
        self.last_tok = kind;
        self.emit(value, true, true);
    }

    /// The common tail of Go's `print` for one item.
    fn emit(&mut self, data: &str, is_lit: bool, implied: bool) {
        let next = self.pos;
        self.flush();
        let mut implied = implied;
        if !self.implied_semi {
            let n = next.line as isize - self.pos.line as isize;
            let n = n.min(MAX_NEWLINES as isize);
            if n > 0 {
                self.write_byte(b'\n', n as usize);
                implied = false;
            }
        }
        if let Some(slot) = self.line_ptr.take() {
            self.line_slots[slot] = self.out_line;
        }
        self.write_string(next, data, is_lit);
        self.implied_semi = implied;
    }

    /// Writes the buffered whitespace (no comments to intersperse).
    pub fn flush(&mut self) {
        let n = self.wsbuf.len();
        self.write_whitespace(n);
    }

    /// Go's `linebreak`: at least `min` line breaks, as many as the source
    /// had (at most two), the first a formfeed for a new section.
    pub fn linebreak(&mut self, line: usize, min: usize, ws: Ws, new_section: bool) -> usize {
        let gap = line as isize - self.pos.line as isize;
        let mut n = gap.min(MAX_NEWLINES as isize).max(min as isize) as usize;
        let mut nbreaks = 0;
        if n > 0 {
            self.ws(ws);
            if new_section {
                self.ws(Ws::Formfeed);
                n -= 1;
                nbreaks = 2;
            }
            nbreaks += n;
            for _ in 0..n {
                self.ws(Ws::Newline);
            }
        }
        nbreaks
    }

    /// The printed bytes through the tabwriter (unless raw) and the
    /// trimmer: what `Fprint` writes.
    pub fn finish(mut self) -> Vec<u8> {
        self.implied_semi = false;
        self.flush();
        let out = std::mem::take(&mut self.output);
        let out = if self.cfg.raw_format {
            out
        } else {
            let padchar = if self.cfg.use_spaces { b' ' } else { b'\t' };
            let (minwidth, tab_indent) = if self.cfg.tab_indent {
                (0, true)
            } else {
                (self.cfg.tabwidth, false)
            };
            super::tabwriter::format(&out, minwidth, self.cfg.tabwidth, 1, padchar, tab_indent)
        };
        trim(&out)
    }
}

/// Go's printer `trimmer`: vertical tabs become tabs, whitespace before a
/// line break or the end is dropped, escape bytes are removed.
pub(super) fn trim(data: &[u8]) -> Vec<u8> {
    #[derive(PartialEq)]
    enum State {
        Space,
        Escape,
        Text,
    }
    let mut out = Vec::with_capacity(data.len());
    let mut space: Vec<u8> = Vec::new();
    let mut state = State::Space;
    for &b0 in data {
        let b = if b0 == 0x0b { b'\t' } else { b0 };
        match state {
            State::Space => match b {
                b'\t' | b' ' => space.push(b),
                b'\n' | 0x0c => {
                    space.clear();
                    out.push(b'\n');
                }
                ESCAPE => {
                    out.extend_from_slice(&space);
                    space.clear();
                    state = State::Escape;
                }
                _ => {
                    out.extend_from_slice(&space);
                    space.clear();
                    state = State::Text;
                    out.push(b);
                }
            },
            State::Escape => {
                if b == ESCAPE {
                    state = State::Space;
                } else {
                    out.push(b0);
                }
            }
            State::Text => match b {
                b'\t' | b' ' => {
                    state = State::Space;
                    space.push(b);
                }
                b'\n' | 0x0c => {
                    state = State::Space;
                    out.push(b'\n');
                }
                ESCAPE => state = State::Escape,
                _ => out.push(b),
            },
        }
    }
    out
}
