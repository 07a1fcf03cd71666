//! Declarations: value and type specs, general declarations, function
//! bodies with the one-line rule, function declarations, the file.

use super::*;

impl Printer<'_> {
    pub(super) fn value_spec(&mut self, s: &Spec, keep_type: bool) {
        let Spec::Value { names, ty, values } = s else {
            return;
        };
        self.ident_list(names, false);
        if ty.is_some() || keep_type {
            self.ws(Ws::Vtab);
        }
        if let Some(t) = ty {
            self.expr(t);
        }
        if !values.is_empty() {
            self.ws(Ws::Vtab);
            self.tok(Token::Assign);
            self.ws(Ws::Blank);
            self.expr_list(NO_POS, values, 1, 0, NO_POS);
        }
    }

    pub(super) fn spec(&mut self, spec: &Spec, n: usize, do_indent: bool) {
        match spec {
            Spec::Import {
                name,
                path,
                end_pos,
            } => {
                if let Some(nm) = name {
                    self.ident_expr(nm);
                    self.ws(Ws::Blank);
                }
                match sanitize_import_path(&path.value) {
                    Some(v) => {
                        self.set_pos(path.pos);
                        self.lit(Token::String, &v);
                    }
                    None => self.basic_lit(path),
                }
                self.set_pos(*end_pos);
            }
            Spec::Value { names, ty, values } => {
                self.ident_list(names, do_indent);
                if let Some(t) = ty {
                    self.ws(Ws::Blank);
                    self.expr(t);
                }
                if !values.is_empty() {
                    self.ws(Ws::Blank);
                    self.tok(Token::Assign);
                    self.ws(Ws::Blank);
                    self.expr_list(NO_POS, values, 1, 0, NO_POS);
                }
            }
            Spec::Type {
                name,
                type_params,
                assign,
                ty,
            } => {
                self.ident_expr(name);
                if let Some(tp) = type_params {
                    self.parameters(tp, ParamMode::TypeT);
                }
                self.ws(if n == 1 { Ws::Blank } else { Ws::Vtab });
                if *assign != NO_POS {
                    self.tok(Token::Assign);
                    self.ws(Ws::Blank);
                }
                self.expr(ty);
            }
        }
    }

    pub(super) fn gen_decl(&mut self, d: &GenDecl) {
        self.set_pos(d.pos);
        self.tok(d.tok);
        self.ws(Ws::Blank);
        if d.lparen != NO_POS || d.specs.len() != 1 {
            self.set_pos(d.lparen);
            self.tok(Token::Lparen);
            let n = d.specs.len();
            if n > 0 {
                self.ws(Ws::Indent);
                self.ws(Ws::Formfeed);
                let slot = self.new_slot();
                if n > 1 && (d.tok == Token::Const || d.tok == Token::Var) {
                    let keep = keep_type_column(&d.specs);
                    for (i, s) in d.specs.iter().enumerate() {
                        if i > 0 {
                            let ns = self.lines_from(slot) > 0;
                            let l = self.line_for(s.pos());
                            self.linebreak(l, 1, Ws::Ignore, ns);
                        }
                        self.record_line(slot);
                        self.value_spec(s, keep[i]);
                    }
                } else {
                    for (i, s) in d.specs.iter().enumerate() {
                        if i > 0 {
                            let ns = self.lines_from(slot) > 0;
                            let l = self.line_for(s.pos());
                            self.linebreak(l, 1, Ws::Ignore, ns);
                        }
                        self.record_line(slot);
                        self.spec(s, n, false);
                    }
                }
                self.ws(Ws::Unindent);
                self.ws(Ws::Formfeed);
            }
            self.set_pos(d.rparen);
            self.tok(Token::Rparen);
        } else if let Some(s) = d.specs.first() {
            self.spec(s, 1, true);
        }
    }

    pub(super) fn body_size(&mut self, b: &Block, max_size: usize) -> usize {
        let pos1 = b.lbrace;
        let pos2 = b.rbrace;
        if pos1 != NO_POS && pos2 != NO_POS && self.line_for(pos1) != self.line_for(pos2) {
            return max_size + 1;
        }
        if b.list.len() > 5 {
            return max_size + 1;
        }
        let mut size = 0;
        for (i, s) in b.list.iter().enumerate() {
            if size > max_size {
                break;
            }
            if i > 0 {
                size += 2;
            }
            size += self.node_size(Node::Stmt(s), max_size);
        }
        size
    }

    pub(super) fn func_body(&mut self, header_size: usize, sep: Ws, b: &Block) {
        let level = self.level;
        self.level = 0;
        const MAX: usize = 100;
        if header_size.saturating_add(self.body_size(b, MAX)) <= MAX {
            self.ws(sep);
            self.set_pos(b.lbrace);
            self.tok(Token::Lbrace);
            if !b.list.is_empty() {
                self.ws(Ws::Blank);
                for (i, s) in b.list.iter().enumerate() {
                    if i > 0 {
                        self.tok(Token::Semicolon);
                        self.ws(Ws::Blank);
                    }
                    self.stmt(s, i == b.list.len() - 1);
                }
                self.ws(Ws::Blank);
            }
            self.set_pos(b.rbrace);
            self.tok(Token::Rbrace);
            self.level = level;
            return;
        }
        if sep != Ws::Ignore {
            self.ws(Ws::Blank);
        }
        self.block(b, 1);
        self.level = level;
    }

    pub(super) fn distance_from(&self, start: Pos, start_col: isize) -> usize {
        if start != NO_POS && self.pos.valid() && self.line_for(start) == self.pos.line {
            return (self.out_column as isize - start_col).max(0) as usize;
        }
        INFINITY
    }

    pub(super) fn func_decl(&mut self, d: &FuncDecl) {
        self.set_pos(d.ty.pos());
        self.tok(Token::Func);
        self.ws(Ws::Blank);
        let start_col = self.out_column as isize - 5;
        if let Some(r) = &d.recv {
            self.parameters(r, ParamMode::Func);
            self.ws(Ws::Blank);
        }
        self.ident_expr(&d.name);
        self.signature(&d.ty);
        let header = self.distance_from(d.ty.pos(), start_col);
        if let Some(b) = &d.body {
            self.func_body(header, Ws::Vtab, b);
        }
    }

    pub(super) fn num_lines(&self, d: &Decl) -> usize {
        let from = d.pos();
        let to = d.end();
        if from != NO_POS && to != NO_POS {
            return self.line_for(to) - self.line_for(from) + 1;
        }
        INFINITY
    }

    pub(in crate::gofmt) fn file(&mut self, f: &File) {
        self.set_pos(f.package);
        self.tok(Token::Package);
        self.ws(Ws::Blank);
        self.ident_expr(&f.name);
        let mut tok = Token::Illegal;
        for d in &f.decls {
            let prev = tok;
            tok = match d {
                Decl::Gen(g) => g.tok,
                Decl::Func(_) => Token::Func,
            };
            if !self.output.is_empty() {
                let min = if prev != tok { 2 } else { 1 };
                let l = self.line_for(d.pos());
                let ns = tok == Token::Func && self.num_lines(d) > 1;
                self.linebreak(l, min, Ws::Ignore, ns);
            }
            match d {
                Decl::Gen(g) => self.gen_decl(g),
                Decl::Func(fd) => self.func_decl(fd),
            }
        }
        self.ws(Ws::Newline);
    }
}
