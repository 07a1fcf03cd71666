//! Go's syntax tree (`go/ast`) as far as the printer reads it, with the
//! same positions and the same `Pos`/`End` rules. Comments are never
//! parsed, so no node carries any.

use super::token::{Pos, Token, NO_POS};

#[derive(Debug, Clone)]
pub struct Ident {
    pub pos: Pos,
    pub name: String,
}

impl Ident {
    pub fn end(&self) -> Pos {
        self.pos + self.name.len() as Pos
    }
}

#[derive(Debug, Clone)]
pub struct BasicLit {
    pub pos: Pos,
    /// Position just past the literal (`ValueEnd`; `NO_POS` when unknown).
    pub end: Pos,
    pub kind: Token,
    pub value: String,
}

impl BasicLit {
    pub fn end(&self) -> Pos {
        if self.end == NO_POS {
            self.pos + self.value.len() as Pos
        } else {
            self.end
        }
    }
}

/// Channel direction bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChanDir {
    Send,
    Recv,
    Both,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub names: Vec<Ident>,
    pub ty: Expr,
    pub tag: Option<BasicLit>,
}

impl Field {
    pub fn pos(&self) -> Pos {
        match self.names.first() {
            Some(n) => n.pos,
            None => self.ty.pos(),
        }
    }

    pub fn end(&self) -> Pos {
        match &self.tag {
            Some(t) => t.end(),
            None => self.ty.end(),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct FieldList {
    pub opening: Pos,
    pub list: Vec<Field>,
    pub closing: Pos,
}

impl FieldList {
    pub fn pos(&self) -> Pos {
        if self.opening != NO_POS {
            return self.opening;
        }
        self.list.first().map_or(NO_POS, |f| f.pos())
    }

    pub fn end(&self) -> Pos {
        if self.closing != NO_POS {
            return self.closing + 1;
        }
        self.list.last().map_or(NO_POS, |f| f.end())
    }

    /// Go's `NumFields`: names count one each, unnamed fields one.
    pub fn num_fields(&self) -> usize {
        self.list.iter().map(|f| f.names.len().max(1)).sum()
    }
}

#[derive(Debug, Clone)]
pub struct FuncType {
    pub func: Pos,
    pub type_params: Option<FieldList>,
    pub params: FieldList,
    pub results: Option<FieldList>,
}

impl FuncType {
    pub fn pos(&self) -> Pos {
        if self.func != NO_POS {
            self.func
        } else {
            self.params.pos()
        }
    }

    pub fn end(&self) -> Pos {
        match &self.results {
            Some(r) => r.end(),
            None => self.params.end(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Block {
    pub lbrace: Pos,
    pub list: Vec<Stmt>,
    pub rbrace: Pos,
}

impl Block {
    pub fn end(&self) -> Pos {
        if self.rbrace != NO_POS {
            return self.rbrace + 1;
        }
        match self.list.last() {
            Some(s) => s.end(),
            None => self.lbrace + 1,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Expr {
    Bad {
        from: Pos,
        to: Pos,
    },
    Ident(Ident),
    Ellipsis {
        pos: Pos,
        elt: Option<Box<Expr>>,
    },
    BasicLit(BasicLit),
    FuncLit {
        ty: Box<FuncType>,
        body: Box<Block>,
    },
    CompositeLit {
        ty: Option<Box<Expr>>,
        lbrace: Pos,
        elts: Vec<Expr>,
        rbrace: Pos,
    },
    Paren {
        lparen: Pos,
        x: Box<Expr>,
        rparen: Pos,
    },
    Selector {
        x: Box<Expr>,
        sel: Ident,
    },
    Index {
        x: Box<Expr>,
        lbrack: Pos,
        index: Box<Expr>,
        rbrack: Pos,
    },
    IndexList {
        x: Box<Expr>,
        lbrack: Pos,
        indices: Vec<Expr>,
        rbrack: Pos,
    },
    Slice {
        x: Box<Expr>,
        lbrack: Pos,
        low: Option<Box<Expr>>,
        high: Option<Box<Expr>>,
        max: Option<Box<Expr>>,
        rbrack: Pos,
    },
    TypeAssert {
        x: Box<Expr>,
        lparen: Pos,
        ty: Option<Box<Expr>>,
        rparen: Pos,
    },
    Call {
        fun: Box<Expr>,
        lparen: Pos,
        args: Vec<Expr>,
        ellipsis: Pos,
        rparen: Pos,
    },
    Star {
        pos: Pos,
        x: Box<Expr>,
    },
    Unary {
        pos: Pos,
        op: Token,
        x: Box<Expr>,
    },
    Binary {
        x: Box<Expr>,
        op_pos: Pos,
        op: Token,
        y: Box<Expr>,
    },
    KeyValue {
        key: Box<Expr>,
        colon: Pos,
        value: Box<Expr>,
    },
    Array {
        lbrack: Pos,
        len: Option<Box<Expr>>,
        elt: Box<Expr>,
    },
    Struct {
        pos: Pos,
        fields: FieldList,
    },
    Func(Box<FuncType>),
    Interface {
        pos: Pos,
        methods: FieldList,
    },
    Map {
        pos: Pos,
        key: Box<Expr>,
        value: Box<Expr>,
    },
    Chan {
        begin: Pos,
        arrow: Pos,
        dir: ChanDir,
        value: Box<Expr>,
    },
}

impl Expr {
    pub fn pos(&self) -> Pos {
        match self {
            Expr::Bad { from, .. } => *from,
            Expr::Ident(i) => i.pos,
            Expr::Ellipsis { pos, .. } => *pos,
            Expr::BasicLit(l) => l.pos,
            Expr::FuncLit { ty, .. } => ty.pos(),
            Expr::CompositeLit { ty, lbrace, .. } => ty.as_ref().map_or(*lbrace, |t| t.pos()),
            Expr::Paren { lparen, .. } => *lparen,
            Expr::Selector { x, .. }
            | Expr::Index { x, .. }
            | Expr::IndexList { x, .. }
            | Expr::Slice { x, .. }
            | Expr::TypeAssert { x, .. }
            | Expr::Binary { x, .. } => x.pos(),
            Expr::Call { fun, .. } => fun.pos(),
            Expr::Star { pos, .. } => *pos,
            Expr::Unary { pos, .. } => *pos,
            Expr::KeyValue { key, .. } => key.pos(),
            Expr::Array { lbrack, .. } => *lbrack,
            Expr::Struct { pos, .. } => *pos,
            Expr::Func(f) => f.pos(),
            Expr::Interface { pos, .. } => *pos,
            Expr::Map { pos, .. } => *pos,
            Expr::Chan { begin, .. } => *begin,
        }
    }

    pub fn end(&self) -> Pos {
        match self {
            Expr::Bad { to, .. } => *to,
            Expr::Ident(i) => i.end(),
            Expr::Ellipsis { pos, elt } => elt.as_ref().map_or(pos + 3, |e| e.end()),
            Expr::BasicLit(l) => l.end(),
            Expr::FuncLit { body, .. } => body.end(),
            Expr::CompositeLit { rbrace, .. } => rbrace + 1,
            Expr::Paren { rparen, .. } => rparen + 1,
            Expr::Selector { sel, .. } => sel.end(),
            Expr::Index { rbrack, .. }
            | Expr::IndexList { rbrack, .. }
            | Expr::Slice { rbrack, .. } => rbrack + 1,
            Expr::TypeAssert { rparen, .. } | Expr::Call { rparen, .. } => rparen + 1,
            Expr::Star { x, .. } | Expr::Unary { x, .. } => x.end(),
            Expr::Binary { y, .. } => y.end(),
            Expr::KeyValue { value, .. } => value.end(),
            Expr::Array { elt, .. } => elt.end(),
            Expr::Struct { fields, .. } => fields.end(),
            Expr::Func(f) => f.end(),
            Expr::Interface { methods, .. } => methods.end(),
            Expr::Map { value, .. } | Expr::Chan { value, .. } => value.end(),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Stmt {
    Decl(GenDecl),
    Empty {
        semicolon: Pos,
        implicit: bool,
    },
    Labeled {
        label: Ident,
        colon: Pos,
        stmt: Box<Stmt>,
    },
    Expr(Expr),
    Send {
        chan: Expr,
        arrow: Pos,
        value: Expr,
    },
    IncDec {
        x: Expr,
        tok_pos: Pos,
        tok: Token,
    },
    Assign {
        lhs: Vec<Expr>,
        tok_pos: Pos,
        tok: Token,
        rhs: Vec<Expr>,
    },
    Go {
        pos: Pos,
        call: Expr,
    },
    Defer {
        pos: Pos,
        call: Expr,
    },
    Return {
        pos: Pos,
        results: Vec<Expr>,
    },
    Branch {
        pos: Pos,
        tok: Token,
        label: Option<Ident>,
    },
    Block(Block),
    If {
        pos: Pos,
        init: Option<Box<Stmt>>,
        cond: Expr,
        body: Block,
        else_: Option<Box<Stmt>>,
    },
    Case {
        pos: Pos,
        /// `None` for `default`.
        list: Option<Vec<Expr>>,
        colon: Pos,
        body: Vec<Stmt>,
    },
    Switch {
        pos: Pos,
        init: Option<Box<Stmt>>,
        tag: Option<Expr>,
        body: Block,
    },
    TypeSwitch {
        pos: Pos,
        init: Option<Box<Stmt>>,
        assign: Box<Stmt>,
        body: Block,
    },
    Comm {
        pos: Pos,
        comm: Option<Box<Stmt>>,
        colon: Pos,
        body: Vec<Stmt>,
    },
    Select {
        pos: Pos,
        body: Block,
    },
    For {
        pos: Pos,
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        post: Option<Box<Stmt>>,
        body: Block,
    },
    Range {
        pos: Pos,
        key: Option<Expr>,
        value: Option<Expr>,
        tok_pos: Pos,
        tok: Token,
        x: Expr,
        body: Block,
    },
}

impl Stmt {
    pub fn pos(&self) -> Pos {
        match self {
            Stmt::Decl(d) => d.pos,
            Stmt::Empty { semicolon, .. } => *semicolon,
            Stmt::Labeled { label, .. } => label.pos,
            Stmt::Expr(x) => x.pos(),
            Stmt::Send { chan, .. } => chan.pos(),
            Stmt::IncDec { x, .. } => x.pos(),
            Stmt::Assign { lhs, .. } => lhs.first().map_or(NO_POS, |x| x.pos()),
            Stmt::Go { pos, .. }
            | Stmt::Defer { pos, .. }
            | Stmt::Return { pos, .. }
            | Stmt::Branch { pos, .. }
            | Stmt::If { pos, .. }
            | Stmt::Case { pos, .. }
            | Stmt::Switch { pos, .. }
            | Stmt::TypeSwitch { pos, .. }
            | Stmt::Comm { pos, .. }
            | Stmt::Select { pos, .. }
            | Stmt::For { pos, .. }
            | Stmt::Range { pos, .. } => *pos,
            Stmt::Block(b) => b.lbrace,
        }
    }

    pub fn end(&self) -> Pos {
        match self {
            Stmt::Decl(d) => d.end(),
            Stmt::Empty {
                semicolon,
                implicit,
            } => {
                if *implicit {
                    *semicolon
                } else {
                    semicolon + 1
                }
            }
            Stmt::Labeled { stmt, .. } => stmt.end(),
            Stmt::Expr(x) => x.end(),
            Stmt::Send { value, .. } => value.end(),
            Stmt::IncDec { tok_pos, .. } => tok_pos + 2,
            Stmt::Assign { rhs, .. } => rhs.last().map_or(NO_POS, |x| x.end()),
            Stmt::Go { call, .. } | Stmt::Defer { call, .. } => call.end(),
            Stmt::Return { pos, results } => results.last().map_or(pos + 6, |x| x.end()),
            Stmt::Branch { pos, tok, label } => match label {
                Some(l) => l.end(),
                None => pos + tok.as_str().len() as Pos,
            },
            Stmt::Block(b) => b.end(),
            Stmt::If { body, else_, .. } => else_.as_ref().map_or_else(|| body.end(), |e| e.end()),
            Stmt::Case { colon, body, .. } | Stmt::Comm { colon, body, .. } => {
                body.last().map_or(colon + 1, |s| s.end())
            }
            Stmt::Switch { body, .. }
            | Stmt::TypeSwitch { body, .. }
            | Stmt::Select { body, .. }
            | Stmt::For { body, .. }
            | Stmt::Range { body, .. } => body.end(),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Spec {
    Import {
        name: Option<Ident>,
        path: BasicLit,
        /// End position set by import sorting (`EndPos`); `NO_POS` before.
        end_pos: Pos,
    },
    Value {
        names: Vec<Ident>,
        ty: Option<Expr>,
        values: Vec<Expr>,
    },
    Type {
        name: Ident,
        type_params: Option<FieldList>,
        assign: Pos,
        ty: Expr,
    },
}

impl Spec {
    pub fn pos(&self) -> Pos {
        match self {
            Spec::Import { name, path, .. } => name.as_ref().map_or(path.pos, |n| n.pos),
            Spec::Value { names, .. } => names[0].pos,
            Spec::Type { name, .. } => name.pos,
        }
    }

    pub fn end(&self) -> Pos {
        match self {
            Spec::Import { path, end_pos, .. } => {
                if *end_pos != NO_POS {
                    *end_pos
                } else {
                    path.end()
                }
            }
            Spec::Value { names, ty, values } => match (values.last(), ty) {
                (Some(v), _) => v.end(),
                (None, Some(t)) => t.end(),
                (None, None) => names[names.len() - 1].end(),
            },
            Spec::Type { ty, .. } => ty.end(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct GenDecl {
    pub pos: Pos,
    pub tok: Token,
    pub lparen: Pos,
    pub specs: Vec<Spec>,
    pub rparen: Pos,
}

impl GenDecl {
    pub fn end(&self) -> Pos {
        if self.rparen != NO_POS {
            self.rparen + 1
        } else {
            self.specs[0].end()
        }
    }
}

#[derive(Debug, Clone)]
pub struct FuncDecl {
    pub recv: Option<FieldList>,
    pub name: Ident,
    pub ty: FuncType,
    pub body: Option<Block>,
}

#[derive(Debug, Clone)]
pub enum Decl {
    Gen(GenDecl),
    Func(FuncDecl),
}

impl Decl {
    pub fn pos(&self) -> Pos {
        match self {
            Decl::Gen(g) => g.pos,
            Decl::Func(f) => f.ty.pos(),
        }
    }

    pub fn end(&self) -> Pos {
        match self {
            Decl::Gen(g) => g.end(),
            Decl::Func(f) => f.body.as_ref().map_or_else(|| f.ty.end(), |b| b.end()),
        }
    }
}

#[derive(Debug, Clone)]
pub struct File {
    pub package: Pos,
    pub name: Ident,
    pub decls: Vec<Decl>,
}
