//! Statements: blocks, simple statements, if/switch/select/for and
//! every other statement form.
use super::*;

impl Parser<'_> {
    pub(super) fn parse_stmt_list(&mut self) -> Result<Vec<Stmt>> {
        let mut list = Vec::new();
        while !matches!(
            self.tok,
            Token::Case | Token::Default | Token::Rbrace | Token::Eof
        ) {
            list.push(self.parse_stmt()?);
        }
        Ok(list)
    }

    pub(super) fn parse_block_stmt(&mut self) -> Result<Block> {
        let lbrace = self.expect(Token::Lbrace)?;
        let list = self.parse_stmt_list()?;
        let rbrace = self.expect(Token::Rbrace)?;
        Ok(Block {
            lbrace,
            list,
            rbrace,
        })
    }

    pub(super) fn parse_simple_stmt(&mut self, mode: Mode) -> Result<(Stmt, bool)> {
        let mut x = self.parse_list(false)?;
        match self.tok {
            Token::Define
            | Token::Assign
            | Token::AddAssign
            | Token::SubAssign
            | Token::MulAssign
            | Token::QuoAssign
            | Token::RemAssign
            | Token::AndAssign
            | Token::OrAssign
            | Token::XorAssign
            | Token::ShlAssign
            | Token::ShrAssign
            | Token::AndNotAssign => {
                let (pos, tok) = (self.pos, self.tok);
                self.next()?;
                let mut is_range = false;
                let y = if mode == Mode::RangeOk
                    && self.tok == Token::Range
                    && (tok == Token::Define || tok == Token::Assign)
                {
                    let rpos = self.pos;
                    self.next()?;
                    let r = self.parse_rhs()?;
                    is_range = true;
                    vec![Expr::Unary {
                        pos: rpos,
                        op: Token::Range,
                        x: Box::new(r),
                    }]
                } else {
                    self.parse_list(true)?
                };
                return Ok((
                    Stmt::Assign {
                        lhs: x,
                        tok_pos: pos,
                        tok,
                        rhs: y,
                    },
                    is_range,
                ));
            }
            _ => {}
        }
        if x.len() > 1 {
            return fail("expected 1 expression");
        }
        let x0 = x.pop().expect("one expression");
        match self.tok {
            Token::Colon => {
                let colon = self.pos;
                self.next()?;
                if let (Mode::LabelOk, Expr::Ident(label)) = (mode, &x0) {
                    let label = label.clone();
                    let stmt = self.parse_stmt()?;
                    return Ok((
                        Stmt::Labeled {
                            label,
                            colon,
                            stmt: Box::new(stmt),
                        },
                        false,
                    ));
                }
                fail("illegal label declaration")
            }
            Token::Arrow => {
                let arrow = self.pos;
                self.next()?;
                let y = self.parse_rhs()?;
                Ok((
                    Stmt::Send {
                        chan: x0,
                        arrow,
                        value: y,
                    },
                    false,
                ))
            }
            Token::Inc | Token::Dec => {
                let s = Stmt::IncDec {
                    x: x0,
                    tok_pos: self.pos,
                    tok: self.tok,
                };
                self.next()?;
                Ok((s, false))
            }
            _ => Ok((Stmt::Expr(x0), false)),
        }
    }

    pub(super) fn parse_call_expr(&mut self, call_type: &str) -> Result<Expr> {
        let x = self.parse_rhs()?;
        if matches!(x, Expr::Paren { .. }) {
            return fail(format!(
                "expression in {call_type} must not be parenthesized"
            ));
        }
        match x {
            Expr::Call { .. } => Ok(x),
            _ => fail(format!("expression in {call_type} must be function call")),
        }
    }

    pub(super) fn parse_if_header(&mut self) -> Result<(Option<Box<Stmt>>, Expr)> {
        if self.tok == Token::Lbrace {
            return fail("missing condition in if statement");
        }
        let prev = self.expr_lev;
        self.expr_lev = -1;
        let mut init = None;
        if self.tok != Token::Semicolon {
            if self.tok == Token::Var {
                return fail("var declaration not allowed in if initializer");
            }
            init = Some(self.parse_simple_stmt(Mode::Basic)?.0);
        }
        let cond_stmt;
        let mut semi: Option<String> = None;
        if self.tok != Token::Lbrace {
            if self.tok == Token::Semicolon {
                semi = Some(self.lit.clone());
                self.next()?;
            } else {
                self.expect(Token::Semicolon)?;
            }
            cond_stmt = if self.tok != Token::Lbrace {
                Some(self.parse_simple_stmt(Mode::Basic)?.0)
            } else {
                None
            };
        } else {
            cond_stmt = init.take();
        }
        let cond = match cond_stmt {
            Some(s) => make_expr(s, "boolean expression")?,
            None => {
                return fail(match semi.as_deref() {
                    Some("\n") => "unexpected newline, expecting { after if clause",
                    _ => "missing condition in if statement",
                })
            }
        };
        self.expr_lev = prev;
        Ok((init.map(Box::new), cond))
    }

    pub(super) fn parse_if_stmt(&mut self) -> Result<Stmt> {
        self.enter()?;
        let pos = self.expect(Token::If)?;
        let (init, cond) = self.parse_if_header()?;
        let body = self.parse_block_stmt()?;
        let mut else_ = None;
        if self.tok == Token::Else {
            self.next()?;
            match self.tok {
                Token::If => else_ = Some(Box::new(self.parse_if_stmt()?)),
                Token::Lbrace => {
                    else_ = Some(Box::new(Stmt::Block(self.parse_block_stmt()?)));
                    self.expect_semi()?;
                }
                _ => return fail("expected if statement or block"),
            }
        } else {
            self.expect_semi()?;
        }
        self.leave();
        Ok(Stmt::If {
            pos,
            init,
            cond,
            body,
            else_,
        })
    }

    pub(super) fn parse_case_clause(&mut self) -> Result<Stmt> {
        let pos = self.pos;
        let list = if self.tok == Token::Case {
            self.next()?;
            Some(self.parse_list(true)?)
        } else {
            self.expect(Token::Default)?;
            None
        };
        let colon = self.expect(Token::Colon)?;
        let body = self.parse_stmt_list()?;
        Ok(Stmt::Case {
            pos,
            list,
            colon,
            body,
        })
    }

    pub(super) fn parse_switch_stmt(&mut self) -> Result<Stmt> {
        let pos = self.expect(Token::Switch)?;
        let (mut s1, mut s2) = (None, None);
        if self.tok != Token::Lbrace {
            let prev = self.expr_lev;
            self.expr_lev = -1;
            if self.tok != Token::Semicolon {
                s2 = Some(self.parse_simple_stmt(Mode::Basic)?.0);
            }
            if self.tok == Token::Semicolon {
                self.next()?;
                s1 = s2.take();
                if self.tok != Token::Lbrace {
                    s2 = Some(self.parse_simple_stmt(Mode::Basic)?.0);
                }
            }
            self.expr_lev = prev;
        }
        let type_switch = match &s2 {
            Some(Stmt::Expr(x)) => is_type_switch_assert(x),
            Some(Stmt::Assign { lhs, tok, rhs, .. })
                if lhs.len() == 1 && rhs.len() == 1 && is_type_switch_assert(&rhs[0]) =>
            {
                match tok {
                    Token::Assign => return fail("expected ':=', found '='"),
                    Token::Define => true,
                    _ => false,
                }
            }
            _ => false,
        };
        let lbrace = self.expect(Token::Lbrace)?;
        let mut list = Vec::new();
        while self.tok == Token::Case || self.tok == Token::Default {
            list.push(self.parse_case_clause()?);
        }
        let rbrace = self.expect(Token::Rbrace)?;
        self.expect_semi()?;
        let body = Block {
            lbrace,
            list,
            rbrace,
        };
        if type_switch {
            return Ok(Stmt::TypeSwitch {
                pos,
                init: s1.map(Box::new),
                assign: Box::new(s2.expect("a guard")),
                body,
            });
        }
        let tag = match s2 {
            Some(s) => Some(make_expr(s, "switch expression")?),
            None => None,
        };
        Ok(Stmt::Switch {
            pos,
            init: s1.map(Box::new),
            tag,
            body,
        })
    }

    pub(super) fn parse_comm_clause(&mut self) -> Result<Stmt> {
        let pos = self.pos;
        let comm = if self.tok == Token::Case {
            self.next()?;
            let mut lhs = self.parse_list(false)?;
            if self.tok == Token::Arrow {
                if lhs.len() > 1 {
                    return fail("expected 1 expression");
                }
                let arrow = self.pos;
                self.next()?;
                let rhs = self.parse_rhs()?;
                Some(Box::new(Stmt::Send {
                    chan: lhs.pop().expect("a channel"),
                    arrow,
                    value: rhs,
                }))
            } else if self.tok == Token::Assign || self.tok == Token::Define {
                let tok = self.tok;
                if lhs.len() > 2 {
                    return fail("expected 1 or 2 expressions");
                }
                let tpos = self.pos;
                self.next()?;
                let rhs = self.parse_rhs()?;
                Some(Box::new(Stmt::Assign {
                    lhs,
                    tok_pos: tpos,
                    tok,
                    rhs: vec![rhs],
                }))
            } else {
                if lhs.len() > 1 {
                    return fail("expected 1 expression");
                }
                Some(Box::new(Stmt::Expr(lhs.pop().expect("an expression"))))
            }
        } else {
            self.expect(Token::Default)?;
            None
        };
        let colon = self.expect(Token::Colon)?;
        let body = self.parse_stmt_list()?;
        Ok(Stmt::Comm {
            pos,
            comm,
            colon,
            body,
        })
    }

    pub(super) fn parse_select_stmt(&mut self) -> Result<Stmt> {
        let pos = self.expect(Token::Select)?;
        let lbrace = self.expect(Token::Lbrace)?;
        let mut list = Vec::new();
        while self.tok == Token::Case || self.tok == Token::Default {
            list.push(self.parse_comm_clause()?);
        }
        let rbrace = self.expect(Token::Rbrace)?;
        self.expect_semi()?;
        Ok(Stmt::Select {
            pos,
            body: Block {
                lbrace,
                list,
                rbrace,
            },
        })
    }

    pub(super) fn parse_for_stmt(&mut self) -> Result<Stmt> {
        let pos = self.expect(Token::For)?;
        let (mut s1, mut s2, mut s3) = (None, None, None);
        let mut is_range = false;
        if self.tok != Token::Lbrace {
            let prev = self.expr_lev;
            self.expr_lev = -1;
            if self.tok != Token::Semicolon {
                if self.tok == Token::Range {
                    let rpos = self.pos;
                    self.next()?;
                    let r = self.parse_rhs()?;
                    s2 = Some(Stmt::Assign {
                        lhs: Vec::new(),
                        tok_pos: NO_POS,
                        tok: Token::Illegal,
                        rhs: vec![Expr::Unary {
                            pos: rpos,
                            op: Token::Range,
                            x: Box::new(r),
                        }],
                    });
                    is_range = true;
                } else {
                    let (s, r) = self.parse_simple_stmt(Mode::RangeOk)?;
                    s2 = Some(s);
                    is_range = r;
                }
            }
            if !is_range && self.tok == Token::Semicolon {
                self.next()?;
                s1 = s2.take();
                if self.tok != Token::Semicolon {
                    s2 = Some(self.parse_simple_stmt(Mode::Basic)?.0);
                }
                self.expect_semi()?;
                if self.tok != Token::Lbrace {
                    s3 = Some(self.parse_simple_stmt(Mode::Basic)?.0);
                }
            }
            self.expr_lev = prev;
        }
        let body = self.parse_block_stmt()?;
        self.expect_semi()?;
        if is_range {
            let Some(Stmt::Assign {
                mut lhs,
                tok_pos,
                tok,
                mut rhs,
            }) = s2
            else {
                return fail("range clause");
            };
            let (key, value) = match lhs.len() {
                0 => (None, None),
                1 => (lhs.pop(), None),
                2 => {
                    let v = lhs.pop();
                    (lhs.pop(), v)
                }
                _ => return fail("expected at most 2 expressions"),
            };
            let Some(Expr::Unary { x, .. }) = rhs.pop() else {
                return fail("range clause");
            };
            return Ok(Stmt::Range {
                pos,
                key,
                value,
                tok_pos,
                tok,
                x: *x,
                body,
            });
        }
        let cond = match s2 {
            Some(s) => Some(make_expr(s, "boolean or range expression")?),
            None => None,
        };
        Ok(Stmt::For {
            pos,
            init: s1.map(Box::new),
            cond,
            post: s3.map(Box::new),
            body,
        })
    }

    pub(super) fn parse_stmt(&mut self) -> Result<Stmt> {
        self.enter()?;
        let s = self.parse_stmt_inner();
        self.leave();
        s
    }

    pub(super) fn parse_stmt_inner(&mut self) -> Result<Stmt> {
        Ok(match self.tok {
            Token::Const | Token::Type | Token::Var => Stmt::Decl(self.parse_gen_decl(self.tok)?),
            Token::Ident
            | Token::Int
            | Token::Float
            | Token::Imag
            | Token::Char
            | Token::String
            | Token::Func
            | Token::Lparen
            | Token::Lbrack
            | Token::Struct
            | Token::Map
            | Token::Chan
            | Token::Interface
            | Token::Add
            | Token::Sub
            | Token::Mul
            | Token::And
            | Token::Xor
            | Token::Arrow
            | Token::Not => {
                let (s, _) = self.parse_simple_stmt(Mode::LabelOk)?;
                if !matches!(s, Stmt::Labeled { .. }) {
                    self.expect_semi()?;
                }
                s
            }
            Token::Go => {
                let pos = self.expect(Token::Go)?;
                let call = self.parse_call_expr("go")?;
                self.expect_semi()?;
                Stmt::Go { pos, call }
            }
            Token::Defer => {
                let pos = self.expect(Token::Defer)?;
                let call = self.parse_call_expr("defer")?;
                self.expect_semi()?;
                Stmt::Defer { pos, call }
            }
            Token::Return => {
                let pos = self.pos;
                self.expect(Token::Return)?;
                let results = if self.tok != Token::Semicolon && self.tok != Token::Rbrace {
                    self.parse_list(true)?
                } else {
                    Vec::new()
                };
                self.expect_semi()?;
                Stmt::Return { pos, results }
            }
            Token::Break | Token::Continue | Token::Goto | Token::Fallthrough => {
                let tok = self.tok;
                let pos = self.expect(tok)?;
                let label = if tok == Token::Goto
                    || ((tok == Token::Continue || tok == Token::Break) && self.tok == Token::Ident)
                {
                    Some(self.parse_ident()?)
                } else {
                    None
                };
                self.expect_semi()?;
                Stmt::Branch { pos, tok, label }
            }
            Token::Lbrace => {
                let b = self.parse_block_stmt()?;
                self.expect_semi()?;
                Stmt::Block(b)
            }
            Token::If => self.parse_if_stmt()?,
            Token::Switch => self.parse_switch_stmt()?,
            Token::Select => self.parse_select_stmt()?,
            Token::For => self.parse_for_stmt()?,
            Token::Semicolon => {
                let s = Stmt::Empty {
                    semicolon: self.pos,
                    implicit: self.lit == "\n",
                };
                self.next()?;
                s
            }
            Token::Rbrace => Stmt::Empty {
                semicolon: self.pos,
                implicit: true,
            },
            _ => return fail("expected statement"),
        })
    }
}
