//! Statements: lists, blocks, control clauses and every statement
//! form.

use super::*;

impl Printer<'_> {
    pub(super) fn stmt_list(&mut self, list: &[Stmt], nindent: usize, next_is_rbrace: bool) {
        if nindent > 0 {
            self.ws(Ws::Indent);
        }
        let slot = self.new_slot();
        // `i` counts the statements printed (Go compares it, not the
        // index, with the list's last index for `nextIsRBrace`).
        let mut i = 0;
        let n = list.len();
        for s in list {
            if matches!(s, Stmt::Empty { .. }) {
                continue;
            }
            if !self.output.is_empty() {
                let ns = i == 0 || nindent == 0 || self.lines_from(slot) > 0;
                let l = self.line_for(s.pos());
                self.linebreak(l, 1, Ws::Ignore, ns);
            }
            self.record_line(slot);
            self.stmt(s, next_is_rbrace && i == n - 1);
            let mut t = s;
            while let Stmt::Labeled { stmt, .. } = t {
                self.line_slots[slot] += 1;
                t = stmt;
            }
            i += 1;
        }
        if nindent > 0 {
            self.ws(Ws::Unindent);
        }
    }

    pub(super) fn block(&mut self, b: &Block, nindent: usize) {
        self.set_pos(b.lbrace);
        self.tok(Token::Lbrace);
        self.stmt_list(&b.list, nindent, true);
        let l = self.line_for(b.rbrace);
        self.linebreak(l, 1, Ws::Ignore, true);
        self.set_pos(b.rbrace);
        self.tok(Token::Rbrace);
    }

    pub(super) fn control_clause(
        &mut self,
        is_for: bool,
        init: Option<&Stmt>,
        expr: Option<&Expr>,
        post: Option<&Stmt>,
    ) {
        self.ws(Ws::Blank);
        let mut needs_blank = false;
        if init.is_none() && post.is_none() {
            if let Some(e) = expr {
                self.expr(strip_parens(e));
                needs_blank = true;
            }
        } else {
            if let Some(i) = init {
                self.stmt(i, false);
            }
            self.tok(Token::Semicolon);
            self.ws(Ws::Blank);
            if let Some(e) = expr {
                self.expr(strip_parens(e));
                needs_blank = true;
            }
            if is_for {
                self.tok(Token::Semicolon);
                self.ws(Ws::Blank);
                needs_blank = false;
                if let Some(p) = post {
                    self.stmt(p, false);
                    needs_blank = true;
                }
            }
        }
        if needs_blank {
            self.ws(Ws::Blank);
        }
    }

    pub(super) fn indent_list(&self, list: &[Expr]) -> bool {
        if list.len() >= 2 {
            let b = self.line_for(list[0].pos());
            let e = self.line_for(list[list.len() - 1].end());
            if 0 < b && b < e {
                let mut n = 0;
                let mut line = b;
                for x in list {
                    let xb = self.line_for(x.pos());
                    let xe = self.line_for(x.end());
                    if line < xb {
                        return true;
                    }
                    if xb < xe {
                        n += 1;
                    }
                    line = xe;
                }
                return n > 1;
            }
        }
        false
    }

    pub(super) fn stmt(&mut self, stmt: &Stmt, next_is_rbrace: bool) {
        self.set_pos(stmt.pos());
        match stmt {
            Stmt::Decl(d) => self.gen_decl(d),
            Stmt::Empty { .. } => {}
            Stmt::Labeled {
                label,
                colon,
                stmt: s,
            } => {
                self.ws(Ws::Unindent);
                self.ident_expr(label);
                self.set_pos(*colon);
                self.tok(Token::Colon);
                self.ws(Ws::Indent);
                if let Stmt::Empty { semicolon, .. } = &**s {
                    if !next_is_rbrace {
                        self.ws(Ws::Newline);
                        self.set_pos(*semicolon);
                        self.tok(Token::Semicolon);
                        return;
                    }
                } else {
                    let l = self.line_for(s.pos());
                    self.linebreak(l, 1, Ws::Ignore, true);
                }
                self.stmt(s, next_is_rbrace);
            }
            Stmt::Expr(x) => self.expr0(x, 1),
            Stmt::Send { chan, arrow, value } => {
                self.expr0(chan, 1);
                self.ws(Ws::Blank);
                self.set_pos(*arrow);
                self.tok(Token::Arrow);
                self.ws(Ws::Blank);
                self.expr0(value, 1);
            }
            Stmt::IncDec { x, tok_pos, tok } => {
                self.expr0(x, 2);
                self.set_pos(*tok_pos);
                self.tok(*tok);
            }
            Stmt::Assign {
                lhs,
                tok_pos,
                tok,
                rhs,
            } => {
                let depth = if lhs.len() > 1 && rhs.len() > 1 { 2 } else { 1 };
                self.expr_list(stmt.pos(), lhs, depth, 0, *tok_pos);
                self.ws(Ws::Blank);
                self.set_pos(*tok_pos);
                self.tok(*tok);
                self.ws(Ws::Blank);
                self.expr_list(*tok_pos, rhs, depth, 0, NO_POS);
            }
            Stmt::Go { call, .. } => {
                self.tok(Token::Go);
                self.ws(Ws::Blank);
                self.expr(call);
            }
            Stmt::Defer { call, .. } => {
                self.tok(Token::Defer);
                self.ws(Ws::Blank);
                self.expr(call);
            }
            Stmt::Return { results, .. } => {
                self.tok(Token::Return);
                if !results.is_empty() {
                    self.ws(Ws::Blank);
                    if self.indent_list(results) {
                        self.ws(Ws::Indent);
                        self.expr_list(NO_POS, results, 1, NO_INDENT, NO_POS);
                        self.ws(Ws::Unindent);
                    } else {
                        self.expr_list(NO_POS, results, 1, 0, NO_POS);
                    }
                }
            }
            Stmt::Branch { tok, label, .. } => {
                self.tok(*tok);
                if let Some(l) = label {
                    self.ws(Ws::Blank);
                    self.ident_expr(l);
                }
            }
            Stmt::Block(b) => self.block(b, 1),
            Stmt::If {
                init,
                cond,
                body,
                else_,
                ..
            } => {
                self.tok(Token::If);
                self.control_clause(false, init.as_deref(), Some(cond), None);
                self.block(body, 1);
                if let Some(e) = else_ {
                    self.ws(Ws::Blank);
                    self.tok(Token::Else);
                    self.ws(Ws::Blank);
                    match &**e {
                        Stmt::Block(_) | Stmt::If { .. } => self.stmt(e, next_is_rbrace),
                        _ => {
                            self.tok(Token::Lbrace);
                            self.ws(Ws::Indent);
                            self.ws(Ws::Formfeed);
                            self.stmt(e, true);
                            self.ws(Ws::Unindent);
                            self.ws(Ws::Formfeed);
                            self.tok(Token::Rbrace);
                        }
                    }
                }
            }
            Stmt::Case {
                list, colon, body, ..
            } => {
                match list {
                    Some(l) => {
                        self.tok(Token::Case);
                        self.ws(Ws::Blank);
                        self.expr_list(stmt.pos(), l, 1, 0, *colon);
                    }
                    None => self.tok(Token::Default),
                }
                self.set_pos(*colon);
                self.tok(Token::Colon);
                self.stmt_list(body, 1, next_is_rbrace);
            }
            Stmt::Switch {
                init, tag, body, ..
            } => {
                self.tok(Token::Switch);
                self.control_clause(false, init.as_deref(), tag.as_ref(), None);
                self.block(body, 0);
            }
            Stmt::TypeSwitch {
                init, assign, body, ..
            } => {
                self.tok(Token::Switch);
                if let Some(i) = init {
                    self.ws(Ws::Blank);
                    self.stmt(i, false);
                    self.tok(Token::Semicolon);
                }
                self.ws(Ws::Blank);
                self.stmt(assign, false);
                self.ws(Ws::Blank);
                self.block(body, 0);
            }
            Stmt::Comm {
                comm, colon, body, ..
            } => {
                match comm {
                    Some(c) => {
                        self.tok(Token::Case);
                        self.ws(Ws::Blank);
                        self.stmt(c, false);
                    }
                    None => self.tok(Token::Default),
                }
                self.set_pos(*colon);
                self.tok(Token::Colon);
                self.stmt_list(body, 1, next_is_rbrace);
            }
            Stmt::Select { body, .. } => {
                self.tok(Token::Select);
                self.ws(Ws::Blank);
                if body.list.is_empty() {
                    self.set_pos(body.lbrace);
                    self.tok(Token::Lbrace);
                    self.set_pos(body.rbrace);
                    self.tok(Token::Rbrace);
                } else {
                    self.block(body, 0);
                }
            }
            Stmt::For {
                init,
                cond,
                post,
                body,
                ..
            } => {
                self.tok(Token::For);
                self.control_clause(true, init.as_deref(), cond.as_ref(), post.as_deref());
                self.block(body, 1);
            }
            Stmt::Range {
                key,
                value,
                tok_pos,
                tok,
                x,
                body,
                ..
            } => {
                self.tok(Token::For);
                self.ws(Ws::Blank);
                if let Some(k) = key {
                    self.expr(k);
                    if let Some(v) = value {
                        self.set_pos(v.pos());
                        self.tok(Token::Comma);
                        self.ws(Ws::Blank);
                        self.expr(v);
                    }
                    self.ws(Ws::Blank);
                    self.set_pos(*tok_pos);
                    self.tok(*tok);
                    self.ws(Ws::Blank);
                }
                self.tok(Token::Range);
                self.ws(Ws::Blank);
                self.expr(strip_parens(x));
                self.ws(Ws::Blank);
                self.block(body, 1);
            }
        }
    }
}
