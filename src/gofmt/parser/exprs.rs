//! Expressions: operands, function literals, index/slice/call forms,
//! composite literals, unary and binary expressions.
use super::*;

impl Parser<'_> {
    pub(super) fn parse_func_type_or_lit(&mut self) -> Result<Expr> {
        let typ = self.parse_func_type()?;
        if self.tok != Token::Lbrace {
            return Ok(Expr::Func(Box::new(typ)));
        }
        self.expr_lev += 1;
        let body = self.parse_block_stmt()?;
        self.expr_lev -= 1;
        Ok(Expr::FuncLit {
            ty: Box::new(typ),
            body: Box::new(body),
        })
    }

    pub(super) fn parse_operand(&mut self) -> Result<Expr> {
        match self.tok {
            Token::Ident => return Ok(Expr::Ident(self.parse_ident()?)),
            Token::Int | Token::Float | Token::Imag | Token::Char | Token::String => {
                let value = std::mem::take(&mut self.lit);
                let end = if self.tok == Token::String {
                    self.string_end
                } else {
                    self.pos + value.len() as Pos
                };
                let x = BasicLit {
                    pos: self.pos,
                    end,
                    kind: self.tok,
                    value,
                };
                self.next()?;
                return Ok(Expr::BasicLit(x));
            }
            Token::Lparen => {
                let lparen = self.pos;
                self.next()?;
                self.expr_lev += 1;
                let x = self.parse_rhs()?;
                self.expr_lev -= 1;
                let rparen = self.expect(Token::Rparen)?;
                return Ok(Expr::Paren {
                    lparen,
                    x: Box::new(x),
                    rparen,
                });
            }
            Token::Func => return self.parse_func_type_or_lit(),
            _ => {}
        }
        match self.try_ident_or_type()? {
            Some(t) => Ok(t),
            None => fail("expected operand"),
        }
    }

    pub(super) fn parse_index_or_slice_or_instance(&mut self, x: Expr) -> Result<Expr> {
        let lbrack = self.expect(Token::Lbrack)?;
        if self.tok == Token::Rbrack {
            return fail("expected operand");
        }
        self.expr_lev += 1;
        let mut args = Vec::new();
        let mut index: [Option<Expr>; 3] = [None, None, None];
        let mut ncolons = 0;
        if self.tok != Token::Colon {
            index[0] = Some(self.parse_rhs()?);
        }
        match self.tok {
            Token::Colon => {
                while self.tok == Token::Colon && ncolons < 2 {
                    ncolons += 1;
                    self.next()?;
                    if !matches!(self.tok, Token::Colon | Token::Rbrack | Token::Eof) {
                        index[ncolons] = Some(self.parse_rhs()?);
                    }
                }
            }
            Token::Comma => {
                args.push(index[0].take().expect("first index"));
                while self.tok == Token::Comma {
                    self.next()?;
                    if self.tok != Token::Rbrack && self.tok != Token::Eof {
                        args.push(self.parse_type()?);
                    }
                }
            }
            _ => {}
        }
        self.expr_lev -= 1;
        let rbrack = self.expect(Token::Rbrack)?;
        if ncolons > 0 {
            if ncolons == 2 {
                if index[1].is_none() {
                    return fail("middle index required in 3-index slice");
                }
                if index[2].is_none() {
                    return fail("final index required in 3-index slice");
                }
            }
            let [low, high, max] = index;
            return Ok(Expr::Slice {
                x: Box::new(x),
                lbrack,
                low: low.map(Box::new),
                high: high.map(Box::new),
                max: max.map(Box::new),
                rbrack,
            });
        }
        if args.is_empty() {
            return Ok(Expr::Index {
                x: Box::new(x),
                lbrack,
                index: Box::new(index[0].take().expect("an index")),
                rbrack,
            });
        }
        Ok(pack_index(x, lbrack, args, rbrack))
    }

    pub(super) fn parse_call_or_conversion(&mut self, fun: Expr) -> Result<Expr> {
        let lparen = self.expect(Token::Lparen)?;
        self.expr_lev += 1;
        let mut list = Vec::new();
        let mut ellipsis = NO_POS;
        while self.tok != Token::Rparen && self.tok != Token::Eof && ellipsis == NO_POS {
            list.push(self.parse_rhs()?);
            if self.tok == Token::Ellipsis {
                ellipsis = self.pos;
                self.next()?;
            }
            if !self.at_comma("argument list", Token::Rparen)? {
                break;
            }
            self.next()?;
        }
        self.expr_lev -= 1;
        let rparen = self.expect_closing(Token::Rparen, "argument list")?;
        Ok(Expr::Call {
            fun: Box::new(fun),
            lparen,
            args: list,
            ellipsis,
            rparen,
        })
    }

    pub(super) fn parse_value(&mut self) -> Result<Expr> {
        if self.tok == Token::Lbrace {
            return self.parse_literal_value(None);
        }
        self.parse_expr()
    }

    pub(super) fn parse_element(&mut self) -> Result<Expr> {
        let x = self.parse_value()?;
        if self.tok == Token::Colon {
            let colon = self.pos;
            self.next()?;
            let v = self.parse_value()?;
            return Ok(Expr::KeyValue {
                key: Box::new(x),
                colon,
                value: Box::new(v),
            });
        }
        Ok(x)
    }

    pub(super) fn parse_literal_value(&mut self, typ: Option<Expr>) -> Result<Expr> {
        self.enter()?;
        let lbrace = self.expect(Token::Lbrace)?;
        let mut elts = Vec::new();
        self.expr_lev += 1;
        if self.tok != Token::Rbrace {
            while self.tok != Token::Rbrace && self.tok != Token::Eof {
                elts.push(self.parse_element()?);
                if !self.at_comma("composite literal", Token::Rbrace)? {
                    break;
                }
                self.next()?;
            }
        }
        self.expr_lev -= 1;
        let rbrace = self.expect_closing(Token::Rbrace, "composite literal")?;
        self.leave();
        Ok(Expr::CompositeLit {
            ty: typ.map(Box::new),
            lbrace,
            elts,
            rbrace,
        })
    }

    pub(super) fn parse_primary_expr(&mut self, x: Option<Expr>) -> Result<Expr> {
        let mut x = match x {
            Some(x) => x,
            None => self.parse_operand()?,
        };
        let mut n = 0;
        let r = loop {
            n += 1;
            if let Err(e) = self.enter() {
                break Err(e);
            }
            match self.tok {
                Token::Period => {
                    self.next()?;
                    match self.tok {
                        Token::Ident => {
                            let sel = self.parse_ident()?;
                            x = Expr::Selector {
                                x: Box::new(x),
                                sel,
                            };
                        }
                        Token::Lparen => {
                            let lparen = self.expect(Token::Lparen)?;
                            let ty = if self.tok == Token::Type {
                                self.next()?;
                                None
                            } else {
                                Some(Box::new(self.parse_type()?))
                            };
                            let rparen = self.expect(Token::Rparen)?;
                            x = Expr::TypeAssert {
                                x: Box::new(x),
                                lparen,
                                ty,
                                rparen,
                            };
                        }
                        _ => break fail("expected selector or type assertion"),
                    }
                }
                Token::Lbrack => x = self.parse_index_or_slice_or_instance(x)?,
                Token::Lparen => x = self.parse_call_or_conversion(x)?,
                Token::Lbrace => {
                    let t = unparen(&x);
                    let ok = match t {
                        Expr::Bad { .. }
                        | Expr::Ident(_)
                        | Expr::Selector { .. }
                        | Expr::Index { .. }
                        | Expr::IndexList { .. } => self.expr_lev >= 0,
                        Expr::Array { .. } | Expr::Struct { .. } | Expr::Map { .. } => true,
                        _ => false,
                    };
                    if !ok {
                        break Ok(x);
                    }
                    if !std::ptr::eq(t, &x) {
                        break fail("cannot parenthesize type in composite literal");
                    }
                    x = self.parse_literal_value(Some(x))?;
                }
                _ => break Ok(x),
            }
        };
        self.nest -= n;
        r
    }

    pub(super) fn parse_unary_expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.parse_unary_expr_inner();
        self.leave();
        r
    }

    pub(super) fn parse_unary_expr_inner(&mut self) -> Result<Expr> {
        match self.tok {
            Token::Add | Token::Sub | Token::Not | Token::Xor | Token::And | Token::Tilde => {
                let (pos, op) = (self.pos, self.tok);
                self.next()?;
                let x = self.parse_unary_expr()?;
                Ok(Expr::Unary {
                    pos,
                    op,
                    x: Box::new(x),
                })
            }
            Token::Arrow => {
                let arrow = self.pos;
                self.next()?;
                let x = self.parse_unary_expr()?;
                if let Expr::Chan { .. } = x {
                    return self.recv_chan_type(arrow, x);
                }
                Ok(Expr::Unary {
                    pos: arrow,
                    op: Token::Arrow,
                    x: Box::new(x),
                })
            }
            Token::Mul => {
                let pos = self.pos;
                self.next()?;
                let x = self.parse_unary_expr()?;
                Ok(Expr::Star {
                    pos,
                    x: Box::new(x),
                })
            }
            _ => self.parse_primary_expr(None),
        }
    }

    /// `<-` before a channel type (`<-chan int`, `<-chan <-chan int`): the
    /// arrows shift onto the channel types (go/parser's reassociation).
    pub(super) fn recv_chan_type(&mut self, arrow: Pos, x: Expr) -> Result<Expr> {
        let mut x = x;
        let mut arrow = arrow;
        let mut dir = ChanDir::Send;
        let mut node: &mut Expr = &mut x;
        while let Expr::Chan {
            begin,
            arrow: a,
            dir: d,
            value,
        } = node
        {
            if dir != ChanDir::Send {
                break;
            }
            if *d == ChanDir::Recv {
                return fail("expected 'chan'");
            }
            let old_arrow = *a;
            *begin = arrow;
            *a = arrow;
            arrow = old_arrow;
            dir = *d;
            *d = ChanDir::Recv;
            node = value;
        }
        if dir == ChanDir::Send {
            return fail("expected channel type");
        }
        Ok(x)
    }

    pub(super) fn tok_prec(&self) -> (Token, u8) {
        let mut tok = self.tok;
        if self.in_rhs && tok == Token::Assign {
            tok = Token::Eql;
        }
        (tok, tok.precedence())
    }

    pub(super) fn parse_binary_expr(&mut self, x: Option<Expr>, prec1: u8) -> Result<Expr> {
        let mut x = match x {
            Some(x) => x,
            None => self.parse_unary_expr()?,
        };
        let mut n = 0;
        let r = loop {
            n += 1;
            if let Err(e) = self.enter() {
                break Err(e);
            }
            let (op, oprec) = self.tok_prec();
            if oprec < prec1 {
                break Ok(x);
            }
            let pos = match self.expect(op) {
                Ok(p) => p,
                Err(e) => break Err(e),
            };
            let y = match self.parse_binary_expr(None, oprec + 1) {
                Ok(y) => y,
                Err(e) => break Err(e),
            };
            x = Expr::Binary {
                x: Box::new(x),
                op_pos: pos,
                op,
                y: Box::new(y),
            };
        };
        self.nest -= n;
        r
    }

    pub(super) fn parse_expr(&mut self) -> Result<Expr> {
        self.parse_binary_expr(None, LOWEST_PREC + 1)
    }

    pub(super) fn parse_rhs(&mut self) -> Result<Expr> {
        let old = self.in_rhs;
        self.in_rhs = true;
        let x = self.parse_expr();
        self.in_rhs = old;
        x
    }
}
