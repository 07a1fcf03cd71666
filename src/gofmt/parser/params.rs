//! Parameter lists (Go's `parseParamDecl`/`parseParameterList`, with
//! its grouping of names by shared type), type parameters and function
//! types.

use super::*;

impl Parser<'_> {
    pub(super) fn parse_param_decl(
        &mut self,
        name: Option<Ident>,
        type_sets_ok: bool,
        types: &mut Vec<Expr>,
    ) -> Result<Param> {
        let push = |types: &mut Vec<Expr>, t: Expr| {
            types.push(t);
            Some(types.len() - 1)
        };
        let forced_ident = name.is_some();
        if !forced_ident && type_sets_ok && self.tok == Token::Tilde {
            let t = self.embedded_elem(None)?;
            return Ok(Param {
                name: None,
                ty: push(types, t),
            });
        }
        let mut f = Param {
            name: None,
            ty: None,
        };
        if forced_ident || self.tok == Token::Ident {
            f.name = Some(match name {
                Some(n) => n,
                None => self.parse_ident()?,
            });
            match self.tok {
                Token::Ident
                | Token::Mul
                | Token::Arrow
                | Token::Func
                | Token::Chan
                | Token::Map
                | Token::Struct
                | Token::Interface
                | Token::Lparen => {
                    let t = self.parse_type()?;
                    f.ty = push(types, t);
                }
                Token::Lbrack => {
                    let n = f.name.take().expect("a name");
                    let (n, t) = self.parse_array_field_or_type_instance(n)?;
                    f.name = n;
                    f.ty = push(types, t);
                }
                Token::Ellipsis => {
                    let t = self.parse_dots_type()?;
                    f.ty = push(types, t);
                    return Ok(f);
                }
                Token::Period => {
                    let n = f.name.take();
                    let t = self.parse_qualified_ident(n)?;
                    f.ty = push(types, t);
                }
                Token::Tilde if type_sets_ok => {
                    let t = self.embedded_elem(None)?;
                    f.ty = push(types, t);
                    return Ok(f);
                }
                Token::Or if type_sets_ok => {
                    let n = f.name.take().expect("a name");
                    let t = self.embedded_elem(Some(Expr::Ident(n)))?;
                    f.ty = push(types, t);
                    return Ok(f);
                }
                _ => {}
            }
        } else {
            match self.tok {
                Token::Mul
                | Token::Arrow
                | Token::Func
                | Token::Lbrack
                | Token::Chan
                | Token::Map
                | Token::Struct
                | Token::Interface
                | Token::Lparen => {
                    let t = self.parse_type()?;
                    f.ty = push(types, t);
                }
                Token::Ellipsis => {
                    let t = self.parse_dots_type()?;
                    f.ty = push(types, t);
                    return Ok(f);
                }
                _ => return fail("expected ')'"),
            }
        }
        if type_sets_ok && self.tok == Token::Or {
            if let Some(i) = f.ty {
                let t = std::mem::replace(
                    &mut types[i],
                    Expr::Bad {
                        from: NO_POS,
                        to: NO_POS,
                    },
                );
                types[i] = self.embedded_elem(Some(t))?;
            }
        }
        Ok(f)
    }

    pub(super) fn parse_parameter_list(
        &mut self,
        name0: Option<Ident>,
        typ0: Option<Expr>,
        closing: Token,
        dddok: bool,
    ) -> Result<Vec<Field>> {
        let tparams = closing == Token::Rbrack;
        let mut types: Vec<Expr> = Vec::new();
        let mut list: Vec<Param> = Vec::new();
        let mut named = 0;
        let mut typed = 0;
        let mut name0 = name0;
        let mut typ0 = typ0;
        while name0.is_some() || (self.tok != closing && self.tok != Token::Eof) {
            let par = if let Some(t) = typ0.take() {
                let t = if tparams {
                    self.embedded_elem(Some(t))?
                } else {
                    t
                };
                types.push(t);
                Param {
                    name: name0.take(),
                    ty: Some(types.len() - 1),
                }
            } else {
                let n = name0.take();
                self.parse_param_decl(n, tparams, &mut types)?
            };
            if par.name.is_some() || par.ty.is_some() {
                if par.name.is_some() && par.ty.is_some() {
                    named += 1;
                }
                if par.ty.is_some() {
                    typed += 1;
                }
                list.push(par);
            }
            if !self.at_comma("parameter list", closing)? {
                break;
            }
            self.next()?;
        }
        if list.is_empty() {
            return Ok(Vec::new());
        }
        if named == 0 {
            // Unnamed parameters: every name is a type.
            for par in &mut list {
                if let Some(n) = par.name.take() {
                    types.push(Expr::Ident(n));
                    par.ty = Some(types.len() - 1);
                }
            }
            if tparams {
                return fail(if named == typed {
                    "missing type constraint"
                } else {
                    "missing type parameter name"
                });
            }
        } else if named != list.len() {
            // Names without a type take the type to their right.
            let mut typ: Option<usize> = None;
            for par in list.iter_mut().rev() {
                if par.ty.is_some() {
                    typ = par.ty;
                    if par.name.is_none() {
                        return fail("missing parameter name");
                    }
                } else if typ.is_some() {
                    par.ty = typ;
                } else {
                    return fail("missing parameter type");
                }
            }
        }
        // `...` only as the type of the final parameter of a function.
        for (i, par) in list.iter().enumerate() {
            if let Some(t) = par.ty {
                if matches!(types[t], Expr::Ellipsis { .. }) && (!dddok || i + 1 < list.len()) {
                    return fail("invalid use of ...");
                }
            }
        }
        // Group consecutive parameters sharing a type.
        let mut types: Vec<Option<Expr>> = types.into_iter().map(Some).collect();
        let mut params = Vec::new();
        if named == 0 {
            for par in list {
                let t = par.ty.and_then(|i| types[i].take()).expect("a type");
                params.push(Field {
                    names: Vec::new(),
                    ty: t,
                    tag: None,
                });
            }
            return Ok(params);
        }
        let mut names: Vec<Ident> = Vec::new();
        let mut typ: Option<usize> = None;
        for par in list {
            if par.ty != typ {
                if !names.is_empty() {
                    let t = typ.and_then(|i| types[i].take()).expect("a type");
                    params.push(Field {
                        names: std::mem::take(&mut names),
                        ty: t,
                        tag: None,
                    });
                }
                typ = par.ty;
            }
            names.push(par.name.expect("a name"));
        }
        if !names.is_empty() {
            let t = typ.and_then(|i| types[i].take()).expect("a type");
            params.push(Field {
                names,
                ty: t,
                tag: None,
            });
        }
        Ok(params)
    }

    pub(super) fn parse_type_parameters(&mut self) -> Result<FieldList> {
        let lbrack = self.expect(Token::Lbrack)?;
        let mut list = Vec::new();
        if self.tok != Token::Rbrack {
            list = self.parse_parameter_list(None, None, Token::Rbrack, false)?;
        }
        let rbrack = self.expect(Token::Rbrack)?;
        if list.is_empty() {
            return fail("empty type parameter list");
        }
        Ok(FieldList {
            opening: lbrack,
            list,
            closing: rbrack,
        })
    }

    pub(super) fn parse_parameters(&mut self, result: bool) -> Result<Option<FieldList>> {
        if !result || self.tok == Token::Lparen {
            let lparen = self.expect(Token::Lparen)?;
            let mut list = Vec::new();
            if self.tok != Token::Rparen {
                list = self.parse_parameter_list(None, None, Token::Rparen, !result)?;
            }
            let rparen = self.expect(Token::Rparen)?;
            return Ok(Some(FieldList {
                opening: lparen,
                list,
                closing: rparen,
            }));
        }
        if let Some(typ) = self.try_ident_or_type()? {
            return Ok(Some(FieldList {
                opening: NO_POS,
                list: vec![Field {
                    names: Vec::new(),
                    ty: typ,
                    tag: None,
                }],
                closing: NO_POS,
            }));
        }
        Ok(None)
    }

    pub(super) fn parse_func_type(&mut self) -> Result<FuncType> {
        let pos = self.expect(Token::Func)?;
        if self.tok == Token::Lbrack {
            self.parse_type_parameters()?;
            return fail("function type must have no type parameters");
        }
        let params = self.parse_parameters(false)?.expect("parameters");
        let results = self.parse_parameters(true)?;
        Ok(FuncType {
            func: pos,
            type_params: None,
            params,
            results,
        })
    }
}
