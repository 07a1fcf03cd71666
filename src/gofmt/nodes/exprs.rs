//! Expressions: literals, binary expressions with their spacing
//! cutoff, every other expression form, selectors.

use super::*;

impl Printer<'_> {
    pub(super) fn ident_expr(&mut self, x: &Ident) {
        self.set_pos(x.pos);
        self.ident(&x.name);
    }

    pub(super) fn basic_lit(&mut self, x: &BasicLit) {
        self.set_pos(x.pos);
        if self.cfg.normalize_numbers {
            if let Some(v) = normalized_number(x.kind, &x.value) {
                self.lit(x.kind, &v);
                return;
            }
        }
        self.lit(x.kind, &x.value);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn binary_expr(
        &mut self,
        x: &Expr,
        bx: &Expr,
        op_pos: Pos,
        op: Token,
        by: &Expr,
        prec1: u8,
        cutoff: u8,
        depth: usize,
    ) {
        let prec = op.precedence();
        if prec < prec1 {
            self.tok(Token::Lparen);
            self.expr0(x, reduce_depth(depth));
            self.tok(Token::Rparen);
            return;
        }
        let mut print_blank = prec < cutoff;
        let mut ws = Ws::Indent;
        self.expr1(bx, prec, depth + diff_prec(bx, prec));
        if print_blank {
            self.ws(Ws::Blank);
        }
        let xline = self.pos.line;
        let yline = self.line_for(by.pos());
        self.set_pos(op_pos);
        self.tok(op);
        if xline != yline && xline > 0 && yline > 0 && self.linebreak(yline, 1, ws, true) > 0 {
            ws = Ws::Ignore;
            print_blank = false;
        }
        if print_blank {
            self.ws(Ws::Blank);
        }
        self.expr1(by, prec + 1, depth + 1);
        if ws == Ws::Ignore {
            self.ws(Ws::Unindent);
        }
    }

    pub(super) fn expr1(&mut self, expr: &Expr, prec1: u8, depth: usize) {
        self.set_pos(expr.pos());
        match expr {
            Expr::Bad { .. } => self.lit(Token::String, "BadExpr"),
            Expr::Ident(x) => self.ident(&x.name),
            Expr::Binary { x, op_pos, op, y } => {
                let depth = depth.max(1);
                let c = cutoff(*op, x, y, depth);
                self.binary_expr(expr, x, *op_pos, *op, y, prec1, c, depth);
            }
            Expr::KeyValue { key, colon, value } => {
                self.expr(key);
                self.set_pos(*colon);
                self.tok(Token::Colon);
                self.ws(Ws::Blank);
                self.expr(value);
            }
            Expr::Star { x, .. } => {
                if UNARY_PREC < prec1 {
                    self.tok(Token::Lparen);
                    self.tok(Token::Mul);
                    self.expr(x);
                    self.tok(Token::Rparen);
                } else {
                    self.tok(Token::Mul);
                    self.expr(x);
                }
            }
            Expr::Unary { op, x, .. } => {
                if UNARY_PREC < prec1 {
                    self.tok(Token::Lparen);
                    self.expr(expr);
                    self.tok(Token::Rparen);
                } else {
                    self.tok(*op);
                    if *op == Token::Range {
                        self.ws(Ws::Blank);
                    }
                    self.expr1(x, UNARY_PREC, depth);
                }
            }
            Expr::BasicLit(x) => self.basic_lit(x),
            Expr::FuncLit { ty, body } => {
                self.set_pos(ty.pos());
                self.tok(Token::Func);
                let start_col = self.out_column as isize - 4;
                self.signature(ty);
                let header = self.distance_from(ty.pos(), start_col);
                self.func_body(header, Ws::Blank, body);
            }
            Expr::Paren { x, rparen, .. } => {
                if matches!(**x, Expr::Paren { .. }) {
                    self.expr0(x, depth);
                } else {
                    self.tok(Token::Lparen);
                    self.expr0(x, reduce_depth(depth));
                    self.set_pos(*rparen);
                    self.tok(Token::Rparen);
                }
            }
            Expr::Selector { x, sel } => {
                self.selector_expr(x, sel, depth, false);
            }
            Expr::TypeAssert {
                x,
                lparen,
                ty,
                rparen,
            } => {
                self.expr1(x, HIGHEST_PREC, depth);
                self.tok(Token::Period);
                self.set_pos(*lparen);
                self.tok(Token::Lparen);
                match ty {
                    Some(t) => self.expr(t),
                    None => self.tok(Token::Type),
                }
                self.set_pos(*rparen);
                self.tok(Token::Rparen);
            }
            Expr::Index {
                x,
                lbrack,
                index,
                rbrack,
            } => {
                self.expr1(x, HIGHEST_PREC, 1);
                self.set_pos(*lbrack);
                self.tok(Token::Lbrack);
                self.expr0(index, depth + 1);
                self.set_pos(*rbrack);
                self.tok(Token::Rbrack);
            }
            Expr::IndexList {
                x,
                lbrack,
                indices,
                rbrack,
            } => {
                self.expr1(x, HIGHEST_PREC, 1);
                self.set_pos(*lbrack);
                self.tok(Token::Lbrack);
                self.expr_list(*lbrack, indices, depth + 1, COMMA_TERM, *rbrack);
                self.set_pos(*rbrack);
                self.tok(Token::Rbrack);
            }
            Expr::Slice {
                x,
                lbrack,
                low,
                high,
                max,
                rbrack,
            } => {
                self.expr1(x, HIGHEST_PREC, 1);
                self.set_pos(*lbrack);
                self.tok(Token::Lbrack);
                let mut indices: Vec<Option<&Expr>> = vec![low.as_deref(), high.as_deref()];
                if let Some(m) = max {
                    indices.push(Some(m));
                }
                let mut needs_blanks = false;
                if depth <= 1 {
                    let count = indices.iter().flatten().count();
                    let binaries = indices
                        .iter()
                        .flatten()
                        .any(|x| matches!(x, Expr::Binary { .. }));
                    needs_blanks = count > 1 && binaries;
                }
                for (i, x) in indices.iter().enumerate() {
                    if i > 0 {
                        if indices[i - 1].is_some() && needs_blanks {
                            self.ws(Ws::Blank);
                        }
                        self.tok(Token::Colon);
                        if x.is_some() && needs_blanks {
                            self.ws(Ws::Blank);
                        }
                    }
                    if let Some(x) = x {
                        self.expr0(x, depth + 1);
                    }
                }
                self.set_pos(*rbrack);
                self.tok(Token::Rbrack);
            }
            Expr::Call {
                fun,
                lparen,
                args,
                ellipsis,
                rparen,
            } => {
                let depth = if args.len() > 1 { depth + 1 } else { depth };
                let paren = match &**fun {
                    Expr::Func(_) => true,
                    Expr::Chan { dir, .. } => *dir == ChanDir::Recv,
                    _ => false,
                };
                if paren {
                    self.tok(Token::Lparen);
                }
                let was_indented = match &**fun {
                    Expr::Selector { x, sel } => self.selector_expr(x, sel, depth, true),
                    f => {
                        self.expr1(f, HIGHEST_PREC, depth);
                        false
                    }
                };
                if paren {
                    self.tok(Token::Rparen);
                }
                self.set_pos(*lparen);
                self.tok(Token::Lparen);
                if *ellipsis != NO_POS {
                    self.expr_list(*lparen, args, depth, 0, *ellipsis);
                    self.set_pos(*ellipsis);
                    self.tok(Token::Ellipsis);
                    if *rparen != NO_POS && self.line_for(*ellipsis) < self.line_for(*rparen) {
                        self.tok(Token::Comma);
                        self.ws(Ws::Formfeed);
                    }
                } else {
                    self.expr_list(*lparen, args, depth, COMMA_TERM, *rparen);
                }
                self.set_pos(*rparen);
                self.tok(Token::Rparen);
                if was_indented {
                    self.ws(Ws::Unindent);
                }
            }
            Expr::CompositeLit {
                ty,
                lbrace,
                elts,
                rbrace,
            } => {
                if let Some(t) = ty {
                    self.expr1(t, HIGHEST_PREC, depth);
                }
                self.level += 1;
                self.set_pos(*lbrace);
                self.tok(Token::Lbrace);
                self.expr_list(*lbrace, elts, 1, COMMA_TERM, *rbrace);
                self.ws(Ws::Indent);
                self.ws(Ws::Unindent);
                self.set_pos(*rbrace);
                self.tok(Token::Rbrace);
                self.level -= 1;
            }
            Expr::Ellipsis { elt, .. } => {
                self.tok(Token::Ellipsis);
                if let Some(e) = elt {
                    self.expr(e);
                }
            }
            Expr::Array { len, elt, .. } => {
                self.tok(Token::Lbrack);
                if let Some(l) = len {
                    self.expr(l);
                }
                self.tok(Token::Rbrack);
                self.expr(elt);
            }
            Expr::Struct { fields, .. } => {
                self.tok(Token::Struct);
                self.field_list(fields, true);
            }
            Expr::Func(ft) => {
                self.tok(Token::Func);
                self.signature(ft);
            }
            Expr::Interface { methods, .. } => {
                self.tok(Token::Interface);
                self.field_list(methods, false);
            }
            Expr::Map { key, value, .. } => {
                self.tok(Token::Map);
                self.tok(Token::Lbrack);
                self.expr(key);
                self.tok(Token::Rbrack);
                self.expr(value);
            }
            Expr::Chan {
                arrow, dir, value, ..
            } => {
                match dir {
                    ChanDir::Both => self.tok(Token::Chan),
                    ChanDir::Recv => {
                        self.tok(Token::Arrow);
                        self.tok(Token::Chan);
                    }
                    ChanDir::Send => {
                        self.tok(Token::Chan);
                        self.set_pos(*arrow);
                        self.tok(Token::Arrow);
                    }
                }
                self.ws(Ws::Blank);
                self.expr(value);
            }
        }
    }

    /// Prints `x.sel`; true when it broke the line before `sel` (and, for
    /// a method call, left the indentation for the caller to undo).
    pub(super) fn selector_expr(
        &mut self,
        x: &Expr,
        sel: &Ident,
        depth: usize,
        is_method: bool,
    ) -> bool {
        self.expr1(x, HIGHEST_PREC, depth);
        self.tok(Token::Period);
        let line = self.line_for(sel.pos);
        if self.pos.valid() && self.pos.line < line {
            self.ws(Ws::Indent);
            self.ws(Ws::Newline);
            self.set_pos(sel.pos);
            self.ident(&sel.name);
            if !is_method {
                self.ws(Ws::Unindent);
            }
            return true;
        }
        self.set_pos(sel.pos);
        self.ident(&sel.name);
        false
    }

    pub(super) fn expr0(&mut self, x: &Expr, depth: usize) {
        self.expr1(x, LOWEST_PREC, depth);
    }

    pub(super) fn expr(&mut self, x: &Expr) {
        self.expr1(x, LOWEST_PREC, 1);
    }
}
