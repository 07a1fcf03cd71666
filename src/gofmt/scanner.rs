//! Go's scanner (`go/scanner`, Go 1.26) as the parser drives it: tokens
//! with their positions and literal text, semicolons inserted at line
//! ends, comments skipped (a `/* */` comment holding a newline still ends
//! a statement). Any error Go's scanner reports ends the scan: the
//! compressor only needs to know that the file does not parse.
//!
//! Over 600 lines on purpose: it follows `go/scanner/scanner.go` function
//! by function (numbers, escapes, raw strings, comments, semicolon
//! insertion), and the differential test compares it with Go's; split
//! apart, the correspondence would be harder to check.

use super::token::{Pos, Token};
use crate::go::unicode::{is_decimal, is_letter};

/// The source does not scan (Go would report an error here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError(pub String);

pub type Result<T> = std::result::Result<T, SyntaxError>;

const EOF: i32 = -1;
const BOM: i32 = 0xFEFF;

/// A scanned token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scanned {
    pub pos: Pos,
    pub tok: Token,
    /// Literal text: identifiers, literals (raw strings without CRs), and
    /// `";"` or `"\n"` for semicolons.
    pub lit: String,
    /// For strings: the position just past the literal in the source.
    pub end: Pos,
}

pub struct Scanner<'a> {
    src: &'a [u8],
    ch: i32,
    offset: usize,
    rd_offset: usize,
    line_offset: usize,
    insert_semi: bool,
    nl_pos: Option<Pos>,
}

fn err<T>(msg: &str) -> Result<T> {
    Err(SyntaxError(msg.to_string()))
}

fn lower(ch: i32) -> i32 {
    (b'a' - b'A') as i32 | ch
}

fn is_dec(ch: i32) -> bool {
    (b'0' as i32..=b'9' as i32).contains(&ch)
}

fn is_hex(ch: i32) -> bool {
    is_dec(ch) || (b'a' as i32..=b'f' as i32).contains(&lower(ch))
}

fn char_of(ch: i32) -> Option<char> {
    u32::try_from(ch).ok().and_then(char::from_u32)
}

fn is_letter_ch(ch: i32) -> bool {
    (b'a' as i32..=b'z' as i32).contains(&lower(ch))
        || ch == b'_' as i32
        || (ch >= 0x80 && char_of(ch).is_some_and(is_letter))
}

fn is_digit_ch(ch: i32) -> bool {
    is_dec(ch) || (ch >= 0x80 && char_of(ch).is_some_and(is_decimal))
}

fn digit_val(ch: i32) -> u32 {
    if is_dec(ch) {
        (ch - b'0' as i32) as u32
    } else if (b'a' as i32..=b'f' as i32).contains(&lower(ch)) {
        (lower(ch) - b'a' as i32 + 10) as u32
    } else {
        16
    }
}

impl<'a> Scanner<'a> {
    pub fn new(src: &'a [u8]) -> Result<Scanner<'a>> {
        let mut s = Scanner {
            src,
            ch: b' ' as i32,
            offset: 0,
            rd_offset: 0,
            line_offset: 0,
            insert_semi: false,
            nl_pos: None,
        };
        s.next()?;
        if s.ch == BOM {
            s.next()?;
        }
        Ok(s)
    }

    fn pos(&self, offset: usize) -> Pos {
        (offset + 1) as Pos
    }

    fn next(&mut self) -> Result<()> {
        if self.rd_offset < self.src.len() {
            self.offset = self.rd_offset;
            if self.ch == b'\n' as i32 {
                self.line_offset = self.offset;
            }
            let b = self.src[self.rd_offset];
            let (r, w) = if b == 0 {
                return err("illegal character NUL");
            } else if b >= 0x80 {
                match crate::go::utf8::decode_rune(&self.src[self.rd_offset..]) {
                    (Some(c), w) => {
                        if c as i32 == BOM && self.offset > 0 {
                            return err("illegal byte order mark");
                        }
                        (c as i32, w)
                    }
                    (None, _) => return err("illegal UTF-8 encoding"),
                }
            } else {
                (b as i32, 1)
            };
            self.rd_offset += w;
            self.ch = r;
        } else {
            self.offset = self.src.len();
            if self.ch == b'\n' as i32 {
                self.line_offset = self.offset;
            }
            self.ch = EOF;
        }
        Ok(())
    }

    fn peek(&self) -> u8 {
        self.src.get(self.rd_offset).copied().unwrap_or(0)
    }

    /// Skips a comment (the first `/` already consumed); returns the
    /// offset of the first newline inside a `/* */` comment (0: none).
    fn skip_comment(&mut self) -> Result<usize> {
        let offs = self.offset - 1;
        let mut nl_offset = 0;
        if self.ch == b'/' as i32 {
            self.next()?;
            while self.ch != b'\n' as i32 && self.ch >= 0 {
                self.next()?;
            }
            self.check_line_directive(offs, false)?;
            return Ok(0);
        }
        self.next()?;
        while self.ch >= 0 {
            let ch = self.ch;
            if ch == b'\n' as i32 && nl_offset == 0 {
                nl_offset = self.offset;
            }
            self.next()?;
            if ch == b'*' as i32 && self.ch == b'/' as i32 {
                self.next()?;
                self.check_line_directive(offs, true)?;
                return Ok(nl_offset);
            }
        }
        err("comment not terminated")
    }

    /// A `//line` or `/*line` directive with a bad line or column number
    /// is an error (Go's `updateLineInfo`); otherwise directives only move
    /// reported positions, which the printer does not use.
    fn check_line_directive(&self, offs: usize, block: bool) -> Result<()> {
        let mut lit = &self.src[offs..self.offset];
        if !block && lit.last() == Some(&b'\r') {
            lit = &lit[..lit.len() - 1];
        }
        if !(block || offs == self.line_offset) || !lit[2..].starts_with(b"line ") {
            return Ok(());
        }
        let mut text = if block { &lit[..lit.len() - 2] } else { lit };
        text = &text[7..];
        let stripped: Vec<u8>;
        if text.contains(&b'\r') {
            stripped = text.iter().copied().filter(|&c| c != b'\r').collect();
            text = &stripped;
        }
        let trailing = |t: &[u8]| -> Option<(usize, Option<u64>)> {
            let i = t.iter().rposition(|&c| c == b':')?;
            let n = std::str::from_utf8(&t[i + 1..])
                .ok()
                .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|s| s.parse::<u64>().ok());
            Some((i + 1, n))
        };
        let Some((i, n)) = trailing(text) else {
            return Ok(());
        };
        let Some(n) = n else {
            return err("invalid line number");
        };
        const MAX: u64 = 1 << 30;
        let line = match trailing(&text[..i - 1]) {
            Some((_, Some(l))) => {
                if n == 0 || n > MAX {
                    return err("invalid column number");
                }
                l
            }
            _ => n,
        };
        if line == 0 || line > MAX {
            return err("invalid line number");
        }
        Ok(())
    }

    fn scan_identifier(&mut self) -> Result<String> {
        let offs = self.offset;
        while is_letter_ch(self.ch) || is_digit_ch(self.ch) {
            self.next()?;
        }
        Ok(String::from_utf8_lossy(&self.src[offs..self.offset]).into_owned())
    }

    fn digits(&mut self, base: u32, invalid: &mut Option<usize>) -> Result<u32> {
        let mut digsep = 0;
        if base <= 10 {
            let max = b'0' as i32 + base as i32;
            while is_dec(self.ch) || self.ch == b'_' as i32 {
                let mut ds = 1;
                if self.ch == b'_' as i32 {
                    ds = 2;
                } else if self.ch >= max && invalid.is_none() {
                    *invalid = Some(self.offset);
                }
                digsep |= ds;
                self.next()?;
            }
        } else {
            while is_hex(self.ch) || self.ch == b'_' as i32 {
                digsep |= if self.ch == b'_' as i32 { 2 } else { 1 };
                self.next()?;
            }
        }
        Ok(digsep)
    }

    fn scan_number(&mut self) -> Result<(Token, String)> {
        let offs = self.offset;
        let mut tok = Token::Illegal;
        let mut base = 10;
        let mut prefix = 0u8;
        let mut digsep = 0;
        let mut invalid: Option<usize> = None;
        if self.ch != b'.' as i32 {
            tok = Token::Int;
            if self.ch == b'0' as i32 {
                self.next()?;
                match lower(self.ch) as u8 {
                    b'x' => {
                        self.next()?;
                        base = 16;
                        prefix = b'x';
                    }
                    b'o' => {
                        self.next()?;
                        base = 8;
                        prefix = b'o';
                    }
                    b'b' => {
                        self.next()?;
                        base = 2;
                        prefix = b'b';
                    }
                    _ => {
                        base = 8;
                        prefix = b'0';
                        digsep = 1;
                    }
                }
            }
            digsep |= self.digits(base, &mut invalid)?;
        }
        if self.ch == b'.' as i32 {
            tok = Token::Float;
            if prefix == b'o' || prefix == b'b' {
                return err("invalid radix point");
            }
            self.next()?;
            digsep |= self.digits(base, &mut invalid)?;
        }
        if digsep & 1 == 0 {
            return err("literal has no digits");
        }
        let e = lower(self.ch);
        if e == b'e' as i32 || e == b'p' as i32 {
            if e == b'e' as i32 && prefix != 0 && prefix != b'0' {
                return err("'e' exponent requires decimal mantissa");
            }
            if e == b'p' as i32 && prefix != b'x' {
                return err("'p' exponent requires hexadecimal mantissa");
            }
            self.next()?;
            tok = Token::Float;
            if self.ch == b'+' as i32 || self.ch == b'-' as i32 {
                self.next()?;
            }
            let ds = self.digits(10, &mut None)?;
            digsep |= ds;
            if ds & 1 == 0 {
                return err("exponent has no digits");
            }
        } else if prefix == b'x' && tok == Token::Float {
            return err("hexadecimal mantissa requires a 'p' exponent");
        }
        if self.ch == b'i' as i32 {
            tok = Token::Imag;
            self.next()?;
        }
        let lit = String::from_utf8_lossy(&self.src[offs..self.offset]).into_owned();
        if tok == Token::Int && invalid.is_some() {
            return err("invalid digit in literal");
        }
        if digsep & 2 != 0 && invalid_sep(lit.as_bytes()) {
            return err("'_' must separate successive digits");
        }
        Ok((tok, lit))
    }

    fn scan_escape(&mut self, quote: u8) -> Result<()> {
        let c = self.ch;
        let (mut n, base, max): (u32, u32, u32) = match u8::try_from(c).unwrap_or(0) {
            b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' => return self.next(),
            q if q == quote && c >= 0 => return self.next(),
            b'0'..=b'7' => (3, 8, 255),
            b'x' => {
                self.next()?;
                (2, 16, 255)
            }
            b'u' => {
                self.next()?;
                (4, 16, 0x10FFFF)
            }
            b'U' => {
                self.next()?;
                (8, 16, 0x10FFFF)
            }
            _ => return err("unknown escape sequence"),
        };
        let mut x: u32 = 0;
        while n > 0 {
            let d = digit_val(self.ch);
            if d >= base {
                return err("illegal character in escape sequence");
            }
            x = x.wrapping_mul(base).wrapping_add(d);
            self.next()?;
            n -= 1;
        }
        if x > max || (0xD800..0xE000).contains(&x) {
            return err("escape sequence is invalid Unicode code point");
        }
        Ok(())
    }

    fn scan_rune(&mut self) -> Result<String> {
        let offs = self.offset - 1;
        let mut n = 0;
        loop {
            let ch = self.ch;
            if ch == b'\n' as i32 || ch < 0 {
                return err("rune literal not terminated");
            }
            self.next()?;
            if ch == b'\'' as i32 {
                break;
            }
            n += 1;
            if ch == b'\\' as i32 {
                self.scan_escape(b'\'')?;
            }
        }
        if n != 1 {
            return err("illegal rune literal");
        }
        Ok(String::from_utf8_lossy(&self.src[offs..self.offset]).into_owned())
    }

    fn scan_string(&mut self) -> Result<String> {
        let offs = self.offset - 1;
        loop {
            let ch = self.ch;
            if ch == b'\n' as i32 || ch < 0 {
                return err("string literal not terminated");
            }
            self.next()?;
            if ch == b'"' as i32 {
                break;
            }
            if ch == b'\\' as i32 {
                self.scan_escape(b'"')?;
            }
        }
        Ok(String::from_utf8_lossy(&self.src[offs..self.offset]).into_owned())
    }

    /// A raw string literal (CRs removed from its text) and its length in
    /// the source.
    fn scan_raw_string(&mut self) -> Result<(String, usize)> {
        let offs = self.offset - 1;
        loop {
            let ch = self.ch;
            if ch < 0 {
                return err("raw string literal not terminated");
            }
            self.next()?;
            if ch == b'`' as i32 {
                break;
            }
        }
        let raw = &self.src[offs..self.offset];
        let lit: Vec<u8> = raw.iter().copied().filter(|&c| c != b'\r').collect();
        Ok((String::from_utf8_lossy(&lit).into_owned(), raw.len()))
    }

    fn skip_whitespace(&mut self) -> Result<()> {
        while self.ch == b' ' as i32
            || self.ch == b'\t' as i32
            || (self.ch == b'\n' as i32 && !self.insert_semi)
            || self.ch == b'\r' as i32
        {
            self.next()?;
        }
        Ok(())
    }

    fn switch2(&mut self, t0: Token, t1: Token) -> Result<Token> {
        if self.ch == b'=' as i32 {
            self.next()?;
            return Ok(t1);
        }
        Ok(t0)
    }

    fn switch3(&mut self, t0: Token, t1: Token, ch2: u8, t2: Token) -> Result<Token> {
        if self.ch == b'=' as i32 {
            self.next()?;
            return Ok(t1);
        }
        if self.ch == ch2 as i32 {
            self.next()?;
            return Ok(t2);
        }
        Ok(t0)
    }

    fn switch4(&mut self, t0: Token, t1: Token, ch2: u8, t2: Token, t3: Token) -> Result<Token> {
        if self.ch == b'=' as i32 {
            self.next()?;
            return Ok(t1);
        }
        if self.ch == ch2 as i32 {
            self.next()?;
            if self.ch == b'=' as i32 {
                self.next()?;
                return Ok(t3);
            }
            return Ok(t2);
        }
        Ok(t0)
    }

    /// The next token (Go's `Scan`, comments skipped).
    pub fn scan(&mut self) -> Result<Scanned> {
        loop {
            if let Some(p) = self.nl_pos.take() {
                return Ok(Scanned {
                    pos: p,
                    tok: Token::Semicolon,
                    lit: "\n".into(),
                    end: 0,
                });
            }
            self.skip_whitespace()?;
            let pos = self.pos(self.offset);
            let mut insert_semi = false;
            let mut lit = String::new();
            let mut end = 0;
            let ch = self.ch;
            let tok;
            if is_letter_ch(ch) {
                lit = self.scan_identifier()?;
                if lit.len() > 1 {
                    tok = Token::lookup(&lit);
                    insert_semi = matches!(
                        tok,
                        Token::Ident
                            | Token::Break
                            | Token::Continue
                            | Token::Fallthrough
                            | Token::Return
                    );
                } else {
                    insert_semi = true;
                    tok = Token::Ident;
                }
            } else if is_dec(ch) || (ch == b'.' as i32 && (self.peek() as char).is_ascii_digit()) {
                insert_semi = true;
                let (t, l) = self.scan_number()?;
                tok = t;
                lit = l;
            } else {
                self.next()?;
                tok = match ch {
                    EOF => {
                        if self.insert_semi {
                            self.insert_semi = false;
                            return Ok(Scanned {
                                pos,
                                tok: Token::Semicolon,
                                lit: "\n".into(),
                                end: 0,
                            });
                        }
                        Token::Eof
                    }
                    0x0A => {
                        self.insert_semi = false;
                        return Ok(Scanned {
                            pos,
                            tok: Token::Semicolon,
                            lit: "\n".into(),
                            end: 0,
                        });
                    }
                    0x22 => {
                        insert_semi = true;
                        lit = self.scan_string()?;
                        end = pos + lit.len() as Pos;
                        Token::String
                    }
                    0x27 => {
                        insert_semi = true;
                        lit = self.scan_rune()?;
                        Token::Char
                    }
                    0x60 => {
                        insert_semi = true;
                        let (l, raw_len) = self.scan_raw_string()?;
                        lit = l;
                        end = pos + raw_len as Pos;
                        Token::String
                    }
                    0x3A => self.switch2(Token::Colon, Token::Define)?,
                    0x2E => {
                        if self.ch == b'.' as i32 && self.peek() == b'.' {
                            self.next()?;
                            self.next()?;
                            Token::Ellipsis
                        } else {
                            Token::Period
                        }
                    }
                    0x2C => Token::Comma,
                    0x3B => {
                        lit = ";".into();
                        Token::Semicolon
                    }
                    0x28 => Token::Lparen,
                    0x29 => {
                        insert_semi = true;
                        Token::Rparen
                    }
                    0x5B => Token::Lbrack,
                    0x5D => {
                        insert_semi = true;
                        Token::Rbrack
                    }
                    0x7B => Token::Lbrace,
                    0x7D => {
                        insert_semi = true;
                        Token::Rbrace
                    }
                    0x2B => {
                        let t = self.switch3(Token::Add, Token::AddAssign, b'+', Token::Inc)?;
                        insert_semi = t == Token::Inc;
                        t
                    }
                    0x2D => {
                        let t = self.switch3(Token::Sub, Token::SubAssign, b'-', Token::Dec)?;
                        insert_semi = t == Token::Dec;
                        t
                    }
                    0x2A => self.switch2(Token::Mul, Token::MulAssign)?,
                    0x2F => {
                        if self.ch == b'/' as i32 || self.ch == b'*' as i32 {
                            let nl_offset = self.skip_comment()?;
                            if self.insert_semi && nl_offset != 0 {
                                self.nl_pos = Some(self.pos(nl_offset));
                                self.insert_semi = false;
                            }
                            // A comment keeps the semicolon state as it was.
                            continue;
                        }
                        self.switch2(Token::Quo, Token::QuoAssign)?
                    }
                    0x25 => self.switch2(Token::Rem, Token::RemAssign)?,
                    0x5E => self.switch2(Token::Xor, Token::XorAssign)?,
                    0x3C => {
                        if self.ch == b'-' as i32 {
                            self.next()?;
                            Token::Arrow
                        } else {
                            self.switch4(
                                Token::Lss,
                                Token::Leq,
                                b'<',
                                Token::Shl,
                                Token::ShlAssign,
                            )?
                        }
                    }
                    0x3E => {
                        self.switch4(Token::Gtr, Token::Geq, b'>', Token::Shr, Token::ShrAssign)?
                    }
                    0x3D => self.switch2(Token::Assign, Token::Eql)?,
                    0x21 => self.switch2(Token::Not, Token::Neq)?,
                    0x26 => {
                        if self.ch == b'^' as i32 {
                            self.next()?;
                            self.switch2(Token::AndNot, Token::AndNotAssign)?
                        } else {
                            self.switch3(Token::And, Token::AndAssign, b'&', Token::Land)?
                        }
                    }
                    0x7C => self.switch3(Token::Or, Token::OrAssign, b'|', Token::Lor)?,
                    0x7E => Token::Tilde,
                    _ => {
                        if ch == BOM {
                            // A BOM after the start was already refused by
                            // `next`; here it cannot occur.
                            return err("illegal byte order mark");
                        }
                        return err("illegal character");
                    }
                };
            }
            self.insert_semi = insert_semi;
            return Ok(Scanned { pos, tok, lit, end });
        }
    }
}

/// Go's `invalidSep`: a `_` that does not separate two digits.
fn invalid_sep(x: &[u8]) -> bool {
    let mut x1 = b' ';
    let mut d = b'.';
    let mut i = 0;
    if x.len() >= 2 && x[0] == b'0' {
        x1 = x[1] | 0x20;
        if x1 == b'x' || x1 == b'o' || x1 == b'b' {
            d = b'0';
            i = 2;
        }
    }
    while i < x.len() {
        let p = d;
        d = x[i];
        if d == b'_' {
            if p != b'0' {
                return true;
            }
        } else if d.is_ascii_digit() || (x1 == b'x' && d.is_ascii_hexdigit()) {
            d = b'0';
        } else {
            if p == b'_' {
                return true;
            }
            d = b'.';
        }
        i += 1;
    }
    d == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<(Token, String)> {
        let mut s = Scanner::new(src.as_bytes()).unwrap();
        let mut out = Vec::new();
        loop {
            let t = s.scan().unwrap();
            if t.tok == Token::Eof {
                return out;
            }
            out.push((t.tok, t.lit));
        }
    }

    #[test]
    fn semicolons_and_comments() {
        let t = toks("x /* a\nb */ y\nreturn // c\n}");
        let kinds: Vec<Token> = t.iter().map(|x| x.0).collect();
        assert_eq!(
            kinds,
            [
                Token::Ident,
                Token::Semicolon,
                Token::Ident,
                Token::Semicolon,
                Token::Return,
                Token::Semicolon,
                Token::Rbrace,
                Token::Semicolon
            ]
        );
    }

    #[test]
    fn numbers() {
        for ok in [
            "0x1p-2", "1_000", "0o7", "0b1", "1e5", ".5", "1i", "0X1F", "07", "0x_1",
        ] {
            assert!(Scanner::new(ok.as_bytes()).unwrap().scan().is_ok(), "{ok}");
        }
        for bad in ["0x1.0", "1__0", "1_", "08", "0b2", "1e", "0o1.5"] {
            assert!(
                Scanner::new(bad.as_bytes()).unwrap().scan().is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn raw_strings_lose_crs() {
        let t = toks("`a\r\nb`");
        assert_eq!(t[0], (Token::String, "`a\nb`".to_string()));
    }
}
