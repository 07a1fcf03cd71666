//! Types: names, arrays, structs, pointers, functions and their
//! parameter lists, interfaces, maps, channels, instantiations.
use super::*;

impl Parser<'_> {
    pub(super) fn parse_type(&mut self) -> Result<Expr> {
        match self.try_ident_or_type()? {
            Some(t) => Ok(t),
            None => fail("expected type"),
        }
    }

    pub(super) fn parse_qualified_ident(&mut self, ident: Option<Ident>) -> Result<Expr> {
        let mut typ = self.parse_type_name(ident)?;
        if self.tok == Token::Lbrack {
            typ = self.parse_type_instance(typ)?;
        }
        Ok(typ)
    }

    pub(super) fn parse_type_name(&mut self, ident: Option<Ident>) -> Result<Expr> {
        let ident = match ident {
            Some(i) => i,
            None => self.parse_ident()?,
        };
        if self.tok == Token::Period {
            self.next()?;
            let sel = self.parse_ident()?;
            return Ok(Expr::Selector {
                x: Box::new(Expr::Ident(ident)),
                sel,
            });
        }
        Ok(Expr::Ident(ident))
    }

    pub(super) fn parse_array_type(&mut self, lbrack: Pos, len: Option<Expr>) -> Result<Expr> {
        let len = match len {
            Some(l) => Some(l),
            None => {
                self.expr_lev += 1;
                let l = if self.tok == Token::Ellipsis {
                    let e = Expr::Ellipsis {
                        pos: self.pos,
                        elt: None,
                    };
                    self.next()?;
                    Some(e)
                } else if self.tok != Token::Rbrack {
                    Some(self.parse_rhs()?)
                } else {
                    None
                };
                self.expr_lev -= 1;
                l
            }
        };
        if self.tok == Token::Comma {
            return fail("unexpected comma; expecting ]");
        }
        self.expect(Token::Rbrack)?;
        let elt = self.parse_type()?;
        Ok(Expr::Array {
            lbrack,
            len: len.map(Box::new),
            elt: Box::new(elt),
        })
    }

    /// `[` after a field or parameter name: an array type, or the name was
    /// a generic type being instantiated (returns no name then).
    pub(super) fn parse_array_field_or_type_instance(
        &mut self,
        x: Ident,
    ) -> Result<(Option<Ident>, Expr)> {
        let lbrack = self.expect(Token::Lbrack)?;
        let mut trailing_comma = false;
        let mut args = Vec::new();
        if self.tok != Token::Rbrack {
            self.expr_lev += 1;
            args.push(self.parse_rhs()?);
            while self.tok == Token::Comma {
                self.next()?;
                if self.tok == Token::Rbrack {
                    trailing_comma = true;
                    break;
                }
                args.push(self.parse_rhs()?);
            }
            self.expr_lev -= 1;
        }
        let rbrack = self.expect(Token::Rbrack)?;
        if args.is_empty() {
            let elt = self.parse_type()?;
            return Ok((
                Some(x),
                Expr::Array {
                    lbrack,
                    len: None,
                    elt: Box::new(elt),
                },
            ));
        }
        if args.len() == 1 {
            if let Some(elt) = self.try_ident_or_type()? {
                if trailing_comma {
                    return fail("unexpected comma; expecting ]");
                }
                let len = args.pop().map(Box::new);
                return Ok((
                    Some(x),
                    Expr::Array {
                        lbrack,
                        len,
                        elt: Box::new(elt),
                    },
                ));
            }
        }
        Ok((None, pack_index(Expr::Ident(x), lbrack, args, rbrack)))
    }

    pub(super) fn parse_field_decl(&mut self) -> Result<Field> {
        let mut names = Vec::new();
        let typ;
        match self.tok {
            Token::Ident => {
                let name = self.parse_ident()?;
                if matches!(
                    self.tok,
                    Token::Period | Token::String | Token::Semicolon | Token::Rbrace
                ) {
                    typ = if self.tok == Token::Period {
                        self.parse_qualified_ident(Some(name))?
                    } else {
                        Expr::Ident(name)
                    };
                } else {
                    names.push(name);
                    while self.tok == Token::Comma {
                        self.next()?;
                        names.push(self.parse_ident()?);
                    }
                    if names.len() == 1 && self.tok == Token::Lbrack {
                        let first = names.pop().expect("one name");
                        let (name, t) = self.parse_array_field_or_type_instance(first)?;
                        if let Some(n) = name {
                            names.push(n);
                        }
                        typ = t;
                    } else {
                        typ = self.parse_type()?;
                    }
                }
            }
            Token::Mul => {
                let star = self.pos;
                self.next()?;
                if self.tok == Token::Lparen {
                    return fail("cannot parenthesize embedded type");
                }
                let x = self.parse_qualified_ident(None)?;
                typ = Expr::Star {
                    pos: star,
                    x: Box::new(x),
                };
            }
            Token::Lparen => return fail("cannot parenthesize embedded type"),
            _ => return fail("expected field name or embedded type"),
        }
        let tag = if self.tok == Token::String {
            let t = BasicLit {
                pos: self.pos,
                end: self.string_end,
                kind: Token::String,
                value: std::mem::take(&mut self.lit),
            };
            self.next()?;
            Some(t)
        } else {
            None
        };
        self.expect_semi()?;
        Ok(Field {
            names,
            ty: typ,
            tag,
        })
    }

    pub(super) fn parse_struct_type(&mut self) -> Result<Expr> {
        let pos = self.expect(Token::Struct)?;
        let lbrace = self.expect(Token::Lbrace)?;
        let mut list = Vec::new();
        while matches!(self.tok, Token::Ident | Token::Mul | Token::Lparen) {
            list.push(self.parse_field_decl()?);
        }
        let rbrace = self.expect(Token::Rbrace)?;
        Ok(Expr::Struct {
            pos,
            fields: FieldList {
                opening: lbrace,
                list,
                closing: rbrace,
            },
        })
    }

    pub(super) fn parse_pointer_type(&mut self) -> Result<Expr> {
        let star = self.expect(Token::Mul)?;
        let base = self.parse_type()?;
        Ok(Expr::Star {
            pos: star,
            x: Box::new(base),
        })
    }

    pub(super) fn parse_dots_type(&mut self) -> Result<Expr> {
        let pos = self.expect(Token::Ellipsis)?;
        let elt = self.parse_type()?;
        Ok(Expr::Ellipsis {
            pos,
            elt: Some(Box::new(elt)),
        })
    }

    /// One parameter; the type (if any) is pushed on `types`.
    pub(super) fn parse_method_spec(&mut self) -> Result<Field> {
        let x = self.parse_type_name(None)?;
        let mut names = Vec::new();
        let typ;
        if let Expr::Ident(ident) = x {
            match self.tok {
                Token::Lbrack => {
                    let lbrack = self.pos;
                    self.next()?;
                    self.expr_lev += 1;
                    let x = self.parse_expr()?;
                    self.expr_lev -= 1;
                    if matches!(x, Expr::Ident(_))
                        && self.tok != Token::Comma
                        && self.tok != Token::Rbrack
                    {
                        return fail("interface method must have no type parameters");
                    }
                    let mut list = vec![x];
                    if self.at_comma("type argument list", Token::Rbrack)? {
                        self.expr_lev += 1;
                        self.next()?;
                        while self.tok != Token::Rbrack && self.tok != Token::Eof {
                            list.push(self.parse_type()?);
                            if !self.at_comma("type argument list", Token::Rbrack)? {
                                break;
                            }
                            self.next()?;
                        }
                        self.expr_lev -= 1;
                    }
                    let rbrack = self.expect_closing(Token::Rbrack, "type argument list")?;
                    typ = pack_index(Expr::Ident(ident), lbrack, list, rbrack);
                }
                Token::Lparen => {
                    let params = self.parse_parameters(false)?.expect("parameters");
                    let results = self.parse_parameters(true)?;
                    names.push(ident);
                    typ = Expr::Func(Box::new(FuncType {
                        func: NO_POS,
                        type_params: None,
                        params,
                        results,
                    }));
                }
                _ => typ = Expr::Ident(ident),
            }
        } else {
            typ = if self.tok == Token::Lbrack {
                self.parse_type_instance(x)?
            } else {
                x
            };
        }
        Ok(Field {
            names,
            ty: typ,
            tag: None,
        })
    }

    pub(super) fn embedded_elem(&mut self, x: Option<Expr>) -> Result<Expr> {
        let mut x = match x {
            Some(x) => x,
            None => self.embedded_term()?,
        };
        while self.tok == Token::Or {
            let op_pos = self.pos;
            self.next()?;
            let y = self.embedded_term()?;
            x = Expr::Binary {
                x: Box::new(x),
                op_pos,
                op: Token::Or,
                y: Box::new(y),
            };
        }
        Ok(x)
    }

    pub(super) fn embedded_term(&mut self) -> Result<Expr> {
        if self.tok == Token::Tilde {
            let pos = self.pos;
            self.next()?;
            let t = self.parse_type()?;
            return Ok(Expr::Unary {
                pos,
                op: Token::Tilde,
                x: Box::new(t),
            });
        }
        match self.try_ident_or_type()? {
            Some(t) => Ok(t),
            None => fail("expected ~ term or type"),
        }
    }

    pub(super) fn parse_interface_type(&mut self) -> Result<Expr> {
        let pos = self.expect(Token::Interface)?;
        let lbrace = self.expect(Token::Lbrace)?;
        let mut list = Vec::new();
        loop {
            if self.tok == Token::Ident {
                let mut f = self.parse_method_spec()?;
                if f.names.is_empty() {
                    let t = std::mem::replace(
                        &mut f.ty,
                        Expr::Bad {
                            from: NO_POS,
                            to: NO_POS,
                        },
                    );
                    f.ty = self.embedded_elem(Some(t))?;
                }
                self.expect_semi()?;
                list.push(f);
            } else if self.tok == Token::Tilde {
                let t = self.embedded_elem(None)?;
                self.expect_semi()?;
                list.push(Field {
                    names: Vec::new(),
                    ty: t,
                    tag: None,
                });
            } else if let Some(t) = self.try_ident_or_type()? {
                let t = self.embedded_elem(Some(t))?;
                self.expect_semi()?;
                list.push(Field {
                    names: Vec::new(),
                    ty: t,
                    tag: None,
                });
            } else {
                break;
            }
        }
        let rbrace = self.expect(Token::Rbrace)?;
        Ok(Expr::Interface {
            pos,
            methods: FieldList {
                opening: lbrace,
                list,
                closing: rbrace,
            },
        })
    }

    pub(super) fn parse_map_type(&mut self) -> Result<Expr> {
        let pos = self.expect(Token::Map)?;
        self.expect(Token::Lbrack)?;
        let key = self.parse_type()?;
        self.expect(Token::Rbrack)?;
        let value = self.parse_type()?;
        Ok(Expr::Map {
            pos,
            key: Box::new(key),
            value: Box::new(value),
        })
    }

    pub(super) fn parse_chan_type(&mut self) -> Result<Expr> {
        let pos = self.pos;
        let mut dir = ChanDir::Both;
        let mut arrow = NO_POS;
        if self.tok == Token::Chan {
            self.next()?;
            if self.tok == Token::Arrow {
                arrow = self.pos;
                self.next()?;
                dir = ChanDir::Send;
            }
        } else {
            arrow = self.expect(Token::Arrow)?;
            self.expect(Token::Chan)?;
            dir = ChanDir::Recv;
        }
        let value = self.parse_type()?;
        Ok(Expr::Chan {
            begin: pos,
            arrow,
            dir,
            value: Box::new(value),
        })
    }

    pub(super) fn parse_type_instance(&mut self, typ: Expr) -> Result<Expr> {
        let opening = self.expect(Token::Lbrack)?;
        self.expr_lev += 1;
        let mut list = Vec::new();
        while self.tok != Token::Rbrack && self.tok != Token::Eof {
            list.push(self.parse_type()?);
            if !self.at_comma("type argument list", Token::Rbrack)? {
                break;
            }
            self.next()?;
        }
        self.expr_lev -= 1;
        let closing = self.expect_closing(Token::Rbrack, "type argument list")?;
        if list.is_empty() {
            return fail("expected type argument list");
        }
        Ok(pack_index(typ, opening, list, closing))
    }

    pub(super) fn try_ident_or_type(&mut self) -> Result<Option<Expr>> {
        self.enter()?;
        let r = self.try_ident_or_type_inner();
        self.leave();
        r
    }

    pub(super) fn try_ident_or_type_inner(&mut self) -> Result<Option<Expr>> {
        Ok(Some(match self.tok {
            Token::Ident => {
                let mut typ = self.parse_type_name(None)?;
                if self.tok == Token::Lbrack {
                    typ = self.parse_type_instance(typ)?;
                }
                typ
            }
            Token::Lbrack => {
                let lbrack = self.expect(Token::Lbrack)?;
                self.parse_array_type(lbrack, None)?
            }
            Token::Struct => self.parse_struct_type()?,
            Token::Mul => self.parse_pointer_type()?,
            Token::Func => Expr::Func(Box::new(self.parse_func_type()?)),
            Token::Interface => self.parse_interface_type()?,
            Token::Map => self.parse_map_type()?,
            Token::Chan | Token::Arrow => self.parse_chan_type()?,
            Token::Lparen => {
                let lparen = self.pos;
                self.next()?;
                let typ = self.parse_type()?;
                let rparen = self.expect(Token::Rparen)?;
                Expr::Paren {
                    lparen,
                    x: Box::new(typ),
                    rparen,
                }
            }
            _ => return Ok(None),
        }))
    }
}
