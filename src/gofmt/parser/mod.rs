//! Go's parser (`go/parser`, Go 1.26; no comments, no object resolution)
//! building the tree the printer reads, with Go's positions. It follows
//! the Go source function by function so that it accepts exactly what Go
//! accepts; where Go reports an error and recovers, this stops: the code
//! compressor declines on any syntax error. One file per part of the
//! grammar: [`types`], [`params`], [`exprs`], [`stmts`]; declarations
//! are here.

mod exprs;
mod params;
mod stmts;
mod types;

use super::ast::*;
use super::scanner::{Result, Scanner, SyntaxError};
use super::token::{Pos, Token, LOWEST_PREC, NO_POS, UNARY_PREC};

/// Go's `maxNestLev`.
const MAX_NEST: usize = 100_000;

/// Parses a whole source file.
pub fn parse_file(src: &[u8]) -> Result<File> {
    let mut p = Parser::new(src)?;
    p.parse_file()
}

/// Parses a whole source file, removing the statements of every function
/// declaration body as soon as it is parsed (so a large file never holds
/// all of its statements at once); also says whether any body had some.
pub fn parse_file_emptying(src: &[u8]) -> Result<(File, bool)> {
    let mut p = Parser::new(src)?;
    p.empty_bodies = Some(false);
    let file = p.parse_file()?;
    Ok((file, p.empty_bodies == Some(true)))
}

struct Parser<'a> {
    scanner: Scanner<'a>,
    pos: Pos,
    tok: Token,
    lit: String,
    string_end: Pos,
    expr_lev: i32,
    in_rhs: bool,
    nest: usize,
    /// Empty function declaration bodies while parsing: `Some(emptied
    /// any)`.
    empty_bodies: Option<bool>,
}

fn fail<T>(msg: impl Into<String>) -> Result<T> {
    Err(SyntaxError(msg.into()))
}

/// How a simple statement may continue.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Basic,
    LabelOk,
    RangeOk,
}

/// A parameter as parsed, before names and types are grouped: its type
/// is an index into the list of types seen, so that names sharing one
/// type (`a, b int`) group as Go groups them by pointer.
struct Param {
    name: Option<Ident>,
    ty: Option<usize>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a [u8]) -> Result<Parser<'a>> {
        let scanner = Scanner::new(src)?;
        let mut p = Parser {
            scanner,
            pos: NO_POS,
            tok: Token::Illegal,
            lit: String::new(),
            string_end: NO_POS,
            expr_lev: 0,
            in_rhs: false,
            nest: 0,
            empty_bodies: None,
        };
        p.next()?;
        Ok(p)
    }

    fn next(&mut self) -> Result<()> {
        let t = self.scanner.scan()?;
        self.pos = t.pos;
        self.tok = t.tok;
        self.lit = t.lit;
        self.string_end = t.end;
        Ok(())
    }

    fn enter(&mut self) -> Result<()> {
        self.nest += 1;
        if self.nest > MAX_NEST {
            return fail("exceeded max nesting depth");
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nest -= 1;
    }

    fn expect(&mut self, tok: Token) -> Result<Pos> {
        let pos = self.pos;
        if self.tok != tok {
            return fail(format!("expected '{}'", tok.as_str()));
        }
        self.next()?;
        Ok(pos)
    }

    fn expect_closing(&mut self, tok: Token, context: &str) -> Result<Pos> {
        if self.tok != tok && self.tok == Token::Semicolon && self.lit == "\n" {
            return fail(format!("missing ',' before newline in {context}"));
        }
        self.expect(tok)
    }

    fn expect_semi(&mut self) -> Result<()> {
        match self.tok {
            Token::Rparen | Token::Rbrace => Ok(()),
            Token::Semicolon => self.next(),
            _ => fail("expected ';'"),
        }
    }

    fn at_comma(&mut self, context: &str, follow: Token) -> Result<bool> {
        if self.tok == Token::Comma {
            return Ok(true);
        }
        if self.tok != follow {
            return fail(format!("missing ',' in {context}"));
        }
        Ok(false)
    }

    fn parse_ident(&mut self) -> Result<Ident> {
        let pos = self.pos;
        if self.tok != Token::Ident {
            return fail("expected 'IDENT'");
        }
        let name = std::mem::take(&mut self.lit);
        self.next()?;
        Ok(Ident { pos, name })
    }

    fn parse_ident_list(&mut self) -> Result<Vec<Ident>> {
        let mut list = vec![self.parse_ident()?];
        while self.tok == Token::Comma {
            self.next()?;
            list.push(self.parse_ident()?);
        }
        Ok(list)
    }

    fn parse_expr_list(&mut self) -> Result<Vec<Expr>> {
        let mut list = vec![self.parse_expr()?];
        while self.tok == Token::Comma {
            self.next()?;
            list.push(self.parse_expr()?);
        }
        Ok(list)
    }

    fn parse_list(&mut self, in_rhs: bool) -> Result<Vec<Expr>> {
        let old = self.in_rhs;
        self.in_rhs = in_rhs;
        let list = self.parse_expr_list();
        self.in_rhs = old;
        list
    }

    // Declarations and the file.

    fn parse_import_spec(&mut self) -> Result<Spec> {
        let name = match self.tok {
            Token::Ident => Some(self.parse_ident()?),
            Token::Period => {
                let i = Ident {
                    pos: self.pos,
                    name: ".".into(),
                };
                self.next()?;
                Some(i)
            }
            _ => None,
        };
        let pos = self.pos;
        if self.tok != Token::String {
            return fail(if self.tok.is_literal() {
                "import path must be a string"
            } else {
                "missing import path"
            });
        }
        let path = BasicLit {
            pos,
            end: self.string_end,
            kind: Token::String,
            value: std::mem::take(&mut self.lit),
        };
        self.next()?;
        self.expect_semi()?;
        Ok(Spec::Import {
            name,
            path,
            end_pos: NO_POS,
        })
    }

    fn parse_value_spec(&mut self, keyword: Token) -> Result<Spec> {
        let names = self.parse_ident_list()?;
        let mut ty = None;
        let mut values = Vec::new();
        if keyword == Token::Const {
            if self.tok != Token::Eof && self.tok != Token::Semicolon && self.tok != Token::Rparen {
                ty = self.try_ident_or_type()?;
                if self.tok == Token::Assign {
                    self.next()?;
                    values = self.parse_list(true)?;
                }
            }
        } else {
            if self.tok != Token::Assign {
                ty = Some(self.parse_type()?);
            }
            if self.tok == Token::Assign {
                self.next()?;
                values = self.parse_list(true)?;
            }
        }
        self.expect_semi()?;
        Ok(Spec::Value { names, ty, values })
    }

    fn parse_type_spec(&mut self) -> Result<Spec> {
        let name = self.parse_ident()?;
        let mut type_params = None;
        let mut assign = NO_POS;
        let ty;
        if self.tok == Token::Lbrack {
            let lbrack = self.pos;
            self.next()?;
            if self.tok == Token::Ident {
                let mut x = Expr::Ident(self.parse_ident()?);
                if self.tok != Token::Lbrack {
                    self.expr_lev += 1;
                    let lhs = self.parse_primary_expr(Some(x))?;
                    x = self.parse_binary_expr(Some(lhs), LOWEST_PREC + 1)?;
                    self.expr_lev -= 1;
                }
                let force = self.tok == Token::Comma;
                match extract_name(x, force) {
                    Ok((pname, ptype)) if ptype.is_some() || self.tok != Token::Rbrack => {
                        let list =
                            self.parse_parameter_list(Some(pname), ptype, Token::Rbrack, false)?;
                        let closing = self.expect(Token::Rbrack)?;
                        type_params = Some(FieldList {
                            opening: lbrack,
                            list,
                            closing,
                        });
                        if self.tok == Token::Assign {
                            assign = self.pos;
                            self.next()?;
                        }
                        ty = self.parse_type()?;
                    }
                    Ok((pname, _)) => {
                        ty = self.parse_array_type(lbrack, Some(Expr::Ident(pname)))?
                    }
                    Err(x) => ty = self.parse_array_type(lbrack, Some(x))?,
                }
            } else {
                ty = self.parse_array_type(lbrack, None)?;
            }
        } else {
            if self.tok == Token::Assign {
                assign = self.pos;
                self.next()?;
            }
            ty = self.parse_type()?;
        }
        self.expect_semi()?;
        Ok(Spec::Type {
            name,
            type_params,
            assign,
            ty,
        })
    }

    fn parse_gen_decl(&mut self, keyword: Token) -> Result<GenDecl> {
        let pos = self.expect(keyword)?;
        let mut lparen = NO_POS;
        let mut rparen = NO_POS;
        let mut specs = Vec::new();
        let spec = |p: &mut Self| match keyword {
            Token::Import => p.parse_import_spec(),
            Token::Type => p.parse_type_spec(),
            _ => p.parse_value_spec(keyword),
        };
        if self.tok == Token::Lparen {
            lparen = self.pos;
            self.next()?;
            while self.tok != Token::Rparen && self.tok != Token::Eof {
                specs.push(spec(self)?);
            }
            rparen = self.expect(Token::Rparen)?;
            self.expect_semi()?;
        } else {
            specs.push(spec(self)?);
        }
        Ok(GenDecl {
            pos,
            tok: keyword,
            lparen,
            specs,
            rparen,
        })
    }

    fn parse_func_decl(&mut self) -> Result<FuncDecl> {
        let pos = self.expect(Token::Func)?;
        let recv = if self.tok == Token::Lparen {
            self.parse_parameters(false)?
        } else {
            None
        };
        let name = self.parse_ident()?;
        let mut type_params = None;
        if self.tok == Token::Lbrack {
            let tp = self.parse_type_parameters()?;
            if recv.is_some() {
                return fail("method must have no type parameters");
            }
            type_params = Some(tp);
        }
        let params = self.parse_parameters(false)?.expect("parameters");
        let results = self.parse_parameters(true)?;
        let mut body = None;
        match self.tok {
            Token::Lbrace => {
                let mut b = self.parse_block_stmt()?;
                if let Some(emptied) = &mut self.empty_bodies {
                    if !b.list.is_empty() {
                        b.list = Vec::new();
                        *emptied = true;
                    }
                }
                body = Some(b);
                self.expect_semi()?;
            }
            Token::Semicolon => {
                self.next()?;
                if self.tok == Token::Lbrace {
                    return fail("unexpected semicolon or newline before {");
                }
            }
            _ => self.expect_semi()?,
        }
        Ok(FuncDecl {
            recv,
            name,
            ty: FuncType {
                func: pos,
                type_params,
                params,
                results,
            },
            body,
        })
    }

    fn parse_decl(&mut self) -> Result<Decl> {
        match self.tok {
            Token::Import | Token::Const | Token::Var | Token::Type => {
                Ok(Decl::Gen(self.parse_gen_decl(self.tok)?))
            }
            Token::Func => Ok(Decl::Func(self.parse_func_decl()?)),
            _ => fail("expected declaration"),
        }
    }

    fn parse_file(&mut self) -> Result<File> {
        let package = self.expect(Token::Package)?;
        let name = self.parse_ident()?;
        self.expect_semi()?;
        let mut decls = Vec::new();
        while self.tok == Token::Import {
            decls.push(Decl::Gen(self.parse_gen_decl(Token::Import)?));
        }
        let mut prev = Token::Import;
        while self.tok != Token::Eof {
            if self.tok == Token::Import && prev != Token::Import {
                return fail("imports must appear before other declarations");
            }
            prev = self.tok;
            decls.push(self.parse_decl()?);
        }
        Ok(File {
            package,
            name,
            decls,
        })
    }
}

fn unparen(x: &Expr) -> &Expr {
    match x {
        Expr::Paren { x, .. } => unparen(x),
        _ => x,
    }
}

fn is_type_switch_assert(x: &Expr) -> bool {
    matches!(x, Expr::TypeAssert { ty: None, .. })
}

/// The expression of an expression statement, or Go's error for any other
/// statement in an expression's place.
fn make_expr(s: Stmt, want: &str) -> Result<Expr> {
    match s {
        Stmt::Expr(x) => Ok(x),
        Stmt::Assign { .. } => fail(format!("expected {want}, found assignment")),
        _ => fail(format!("expected {want}, found simple statement")),
    }
}

fn pack_index(x: Expr, lbrack: Pos, mut exprs: Vec<Expr>, rbrack: Pos) -> Expr {
    if exprs.len() == 1 {
        return Expr::Index {
            x: Box::new(x),
            lbrack,
            index: Box::new(exprs.pop().expect("one index")),
            rbrack,
        };
    }
    Expr::IndexList {
        x: Box::new(x),
        lbrack,
        indices: exprs,
        rbrack,
    }
}

/// Go's `isTypeElem`.
pub fn is_type_elem(x: &Expr) -> bool {
    match x {
        Expr::Array { .. }
        | Expr::Struct { .. }
        | Expr::Func(_)
        | Expr::Interface { .. }
        | Expr::Map { .. }
        | Expr::Chan { .. } => true,
        Expr::Binary { x, y, .. } => is_type_elem(x) || is_type_elem(y),
        Expr::Unary { op, .. } => *op == Token::Tilde,
        Expr::Paren { x, .. } => is_type_elem(x),
        _ => false,
    }
}

/// Go's `extractName` for `type T[P …]`: a type parameter name and its
/// constraint if `x` reads as one, else `x` back (an array length).
fn extract_name(x: Expr, force: bool) -> std::result::Result<(Ident, Option<Expr>), Expr> {
    match x {
        Expr::Ident(i) => Ok((i, None)),
        Expr::Binary {
            x: bx,
            op_pos,
            op: Token::Mul,
            y,
        } => {
            if matches!(*bx, Expr::Ident(_)) && (force || is_type_elem(&y)) {
                let Expr::Ident(name) = *bx else {
                    unreachable!()
                };
                return Ok((name, Some(Expr::Star { pos: op_pos, x: y })));
            }
            Err(Expr::Binary {
                x: bx,
                op_pos,
                op: Token::Mul,
                y,
            })
        }
        Expr::Binary {
            x: bx,
            op_pos,
            op: Token::Or,
            y,
        } => {
            let f = force || is_type_elem(&y);
            match extract_name(*bx, f) {
                Ok((name, Some(lhs))) => Ok((
                    name,
                    Some(Expr::Binary {
                        x: Box::new(lhs),
                        op_pos,
                        op: Token::Or,
                        y,
                    }),
                )),
                Ok((name, None)) => Err(Expr::Binary {
                    x: Box::new(Expr::Ident(name)),
                    op_pos,
                    op: Token::Or,
                    y,
                }),
                Err(bx) => Err(Expr::Binary {
                    x: Box::new(bx),
                    op_pos,
                    op: Token::Or,
                    y,
                }),
            }
        }
        Expr::Call {
            fun,
            lparen,
            mut args,
            ellipsis,
            rparen,
        } => {
            if matches!(*fun, Expr::Ident(_))
                && args.len() == 1
                && ellipsis == NO_POS
                && (force || is_type_elem(&args[0]))
            {
                let Expr::Ident(name) = *fun else {
                    unreachable!()
                };
                let arg = args.pop().expect("one argument");
                return Ok((
                    name,
                    Some(Expr::Paren {
                        lparen,
                        x: Box::new(arg),
                        rparen,
                    }),
                ));
            }
            Err(Expr::Call {
                fun,
                lparen,
                args,
                ellipsis,
                rparen,
            })
        }
        other => Err(other),
    }
}

#[allow(dead_code)]
const _: u8 = UNARY_PREC;
