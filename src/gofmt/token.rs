//! Go's tokens (`go/token`): kinds, spellings, operator precedence, and a
//! source file's line table (positions are byte offsets + 1; 0 is "no
//! position").

/// A position: byte offset in the file plus one; [`NO_POS`] is none.
pub type Pos = u32;
pub const NO_POS: Pos = 0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Token {
    Illegal,
    Eof,
    Ident,
    Int,
    Float,
    Imag,
    Char,
    String,
    Add,
    Sub,
    Mul,
    Quo,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    AndNot,
    AddAssign,
    SubAssign,
    MulAssign,
    QuoAssign,
    RemAssign,
    AndAssign,
    OrAssign,
    XorAssign,
    ShlAssign,
    ShrAssign,
    AndNotAssign,
    Land,
    Lor,
    Arrow,
    Inc,
    Dec,
    Eql,
    Lss,
    Gtr,
    Assign,
    Not,
    Neq,
    Leq,
    Geq,
    Define,
    Ellipsis,
    Lparen,
    Lbrack,
    Lbrace,
    Comma,
    Period,
    Rparen,
    Rbrack,
    Rbrace,
    Semicolon,
    Colon,
    Tilde,
    Break,
    Case,
    Chan,
    Const,
    Continue,
    Default,
    Defer,
    Else,
    Fallthrough,
    For,
    Func,
    Go,
    Goto,
    If,
    Import,
    Interface,
    Map,
    Package,
    Range,
    Return,
    Select,
    Struct,
    Switch,
    Type,
    Var,
}

pub const LOWEST_PREC: u8 = 0;
pub const UNARY_PREC: u8 = 6;
pub const HIGHEST_PREC: u8 = 7;

impl Token {
    /// Go's `Token.String()`.
    pub fn as_str(self) -> &'static str {
        use Token::*;
        match self {
            Illegal => "ILLEGAL",
            Eof => "EOF",
            Ident => "IDENT",
            Int => "INT",
            Float => "FLOAT",
            Imag => "IMAG",
            Char => "CHAR",
            String => "STRING",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Quo => "/",
            Rem => "%",
            And => "&",
            Or => "|",
            Xor => "^",
            Shl => "<<",
            Shr => ">>",
            AndNot => "&^",
            AddAssign => "+=",
            SubAssign => "-=",
            MulAssign => "*=",
            QuoAssign => "/=",
            RemAssign => "%=",
            AndAssign => "&=",
            OrAssign => "|=",
            XorAssign => "^=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AndNotAssign => "&^=",
            Land => "&&",
            Lor => "||",
            Arrow => "<-",
            Inc => "++",
            Dec => "--",
            Eql => "==",
            Lss => "<",
            Gtr => ">",
            Assign => "=",
            Not => "!",
            Neq => "!=",
            Leq => "<=",
            Geq => ">=",
            Define => ":=",
            Ellipsis => "...",
            Lparen => "(",
            Lbrack => "[",
            Lbrace => "{",
            Comma => ",",
            Period => ".",
            Rparen => ")",
            Rbrack => "]",
            Rbrace => "}",
            Semicolon => ";",
            Colon => ":",
            Tilde => "~",
            Break => "break",
            Case => "case",
            Chan => "chan",
            Const => "const",
            Continue => "continue",
            Default => "default",
            Defer => "defer",
            Else => "else",
            Fallthrough => "fallthrough",
            For => "for",
            Func => "func",
            Go => "go",
            Goto => "goto",
            If => "if",
            Import => "import",
            Interface => "interface",
            Map => "map",
            Package => "package",
            Range => "range",
            Return => "return",
            Select => "select",
            Struct => "struct",
            Switch => "switch",
            Type => "type",
            Var => "var",
        }
    }

    /// Binary operator precedence (0 for anything else).
    pub fn precedence(self) -> u8 {
        use Token::*;
        match self {
            Lor => 1,
            Land => 2,
            Eql | Neq | Lss | Leq | Gtr | Geq => 3,
            Add | Sub | Or | Xor => 4,
            Mul | Quo | Rem | Shl | Shr | And | AndNot => 5,
            _ => 0,
        }
    }

    pub fn is_literal(self) -> bool {
        matches!(
            self,
            Token::Ident | Token::Int | Token::Float | Token::Imag | Token::Char | Token::String
        )
    }

    /// The keyword spelled `s`, or `Ident`.
    pub fn lookup(s: &str) -> Token {
        use Token::*;
        match s {
            "break" => Break,
            "case" => Case,
            "chan" => Chan,
            "const" => Const,
            "continue" => Continue,
            "default" => Default,
            "defer" => Defer,
            "else" => Else,
            "fallthrough" => Fallthrough,
            "for" => For,
            "func" => Func,
            "go" => Go,
            "goto" => Goto,
            "if" => If,
            "import" => Import,
            "interface" => Interface,
            "map" => Map,
            "package" => Package,
            "range" => Range,
            "return" => Return,
            "select" => Select,
            "struct" => Struct,
            "switch" => Switch,
            "type" => Type,
            "var" => Var,
            _ => Ident,
        }
    }
}

/// A file's line table (`token.File`): the offset where each line starts.
#[derive(Debug, Clone)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The line table of `src`: a line starts after every LF that is not
    /// the last byte (Go's `AddLine` ignores an offset at the end).
    pub fn of(src: &[u8]) -> Lines {
        let mut starts = vec![0];
        for i in memchr::memchr_iter(b'\n', src) {
            if i + 1 < src.len() {
                starts.push(i + 1);
            }
        }
        Lines { starts }
    }

    /// The line of a position (1-based); 0 for no position.
    pub fn line(&self, pos: Pos) -> usize {
        if pos == NO_POS {
            return 0;
        }
        let off = (pos - 1) as usize;
        self.starts.partition_point(|&s| s <= off)
    }

    /// Joins `line` with the line after it (`token.File.MergeLine`).
    pub fn merge(&mut self, line: usize) {
        if line >= 1 && line < self.starts.len() {
            self.starts.remove(line);
        }
    }
}
