//! Node sizes, expression lists and their line breaks, parameters,
//! signatures and field lists.

use super::*;

impl Printer<'_> {
    /// Go's `nodeSize`: the node printed on one line by a raw printer, or
    /// `max_size + 1` when it does not fit or spans lines. The first size
    /// computed for a node is kept for good, whatever `max_size` asked.
    pub(super) fn node_size(&mut self, n: Node<'_>, max_size: usize) -> usize {
        let key = n.key();
        if let Some(&s) = self.sizes.get(&key) {
            return s;
        }
        let mut size = max_size + 1;
        self.sizes.insert(key, size);
        let lines = self.lines;
        let out = {
            let mut p = Printer::new(Config::RAW, lines, &mut *self.sizes);
            match n {
                Node::Expr(e) => p.expr(e),
                Node::Stmt(s) => {
                    if matches!(s, Stmt::Labeled { .. }) {
                        p.indent = 1;
                    }
                    p.stmt(s, false);
                }
            }
            p.finish()
        };
        if out.len() <= max_size && !out.contains(&b'\n') {
            size = out.len();
            self.sizes.insert(key, size);
        }
        size
    }

    pub(super) fn ident_list(&mut self, list: &[Ident], indent: bool) {
        let items: Vec<Item<'_>> = list.iter().map(Item::Name).collect();
        let mode = if indent { 0 } else { NO_INDENT };
        self.item_list(NO_POS, &items, 1, mode, NO_POS);
    }

    pub(super) fn expr_list(
        &mut self,
        prev0: Pos,
        list: &[Expr],
        depth: usize,
        mode: u8,
        next0: Pos,
    ) {
        let items: Vec<Item<'_>> = list.iter().map(Item::Expr).collect();
        self.item_list(prev0, &items, depth, mode, next0);
    }

    pub(super) fn item_size(&mut self, x: Item<'_>, max_size: usize) -> usize {
        match x {
            Item::Expr(e) => self.node_size(Node::Expr(e), max_size),
            Item::Name(i) if i.name.len() <= max_size => i.name.len(),
            Item::Name(_) => max_size + 1,
        }
    }

    pub(super) fn item(&mut self, x: Item<'_>, depth: usize) {
        match x {
            Item::Expr(e) => self.expr0(e, depth),
            Item::Name(i) => self.ident_expr(i),
        }
    }

    /// Go's `exprList`.
    pub(super) fn item_list(
        &mut self,
        prev0: Pos,
        list: &[Item<'_>],
        depth: usize,
        mode: u8,
        next0: Pos,
    ) {
        if list.is_empty() {
            return;
        }
        let prev = self.pos_for(prev0);
        let next = self.pos_for(next0);
        let mut line = self.line_for(list[0].pos());
        let end_line = self.line_for(list[list.len() - 1].end());
        if prev.valid() && prev.line == line && line == end_line {
            for (i, &x) in list.iter().enumerate() {
                if i > 0 {
                    self.set_pos(x.pos());
                    self.tok(Token::Comma);
                    self.ws(Ws::Blank);
                }
                self.item(x, depth);
            }
            return;
        }
        let mut ws = if mode & NO_INDENT == 0 {
            Ws::Indent
        } else {
            Ws::Ignore
        };
        let mut prev_break: isize = -1;
        if prev.valid() && prev.line < line && self.linebreak(line, 0, ws, true) > 0 {
            ws = Ws::Ignore;
            prev_break = 0;
        }
        let mut size = 0usize;
        let mut lnsum = 0.0f64;
        let mut count = 0usize;
        let mut prev_line = prev.line;
        for (i, &x) in list.iter().enumerate() {
            line = self.line_for(x.pos());
            let mut use_ff = true;
            let prev_size = size;
            const INF: usize = 1_000_000;
            size = self.item_size(x, INF);
            let pair = match x {
                Item::Expr(Expr::KeyValue { key, colon, value }) => {
                    Some((&**key, *colon, &**value))
                }
                _ => None,
            };
            if size <= INF && prev.valid() && next.valid() {
                if let Some((key, _, _)) = pair {
                    size = self.node_size(Node::Expr(key), INF);
                }
            } else {
                size = 0;
            }
            if prev_size > 0 && size > 0 {
                const SMALL: usize = 40;
                if count == 0 || (prev_size <= SMALL && size <= SMALL) {
                    use_ff = false;
                } else {
                    const R: f64 = 2.5;
                    let geomean = (lnsum / count as f64).exp();
                    let ratio = size as f64 / geomean;
                    use_ff = R * ratio <= 1.0 || R <= ratio;
                }
            }
            let needs_linebreak = 0 < prev_line && prev_line < line;
            if i > 0 {
                if !needs_linebreak {
                    self.set_pos(x.pos());
                }
                self.tok(Token::Comma);
                let mut needs_blank = true;
                if needs_linebreak {
                    let nbreaks =
                        self.linebreak(line, 0, ws, use_ff || prev_break + 1 < i as isize);
                    if nbreaks > 0 {
                        ws = Ws::Ignore;
                        prev_break = i as isize;
                        needs_blank = false;
                    }
                    if nbreaks > 1 {
                        lnsum = 0.0;
                        count = 0;
                    }
                }
                if needs_blank {
                    self.ws(Ws::Blank);
                }
            }
            match pair {
                Some((key, colon, value)) if list.len() > 1 && size > 0 && needs_linebreak => {
                    self.expr(key);
                    self.set_pos(colon);
                    self.tok(Token::Colon);
                    self.ws(Ws::Vtab);
                    self.expr(value);
                }
                _ => self.item(x, depth),
            }
            if size > 0 {
                lnsum += (size as f64).ln();
                count += 1;
            }
            prev_line = line;
        }
        if mode & COMMA_TERM != 0 && next.valid() && self.pos.line < next.line {
            self.tok(Token::Comma);
            if ws == Ws::Ignore && mode & NO_INDENT == 0 {
                self.ws(Ws::Unindent);
            }
            self.ws(Ws::Formfeed);
            return;
        }
        if ws == Ws::Ignore && mode & NO_INDENT == 0 {
            self.ws(Ws::Unindent);
        }
    }

    pub(super) fn parameters(&mut self, fields: &FieldList, mode: ParamMode) {
        let (open, close) = if mode == ParamMode::Func {
            (Token::Lparen, Token::Rparen)
        } else {
            (Token::Lbrack, Token::Rbrack)
        };
        self.set_pos(fields.opening);
        self.tok(open);
        if !fields.list.is_empty() {
            let mut prev_line = self.line_for(fields.opening);
            let mut ws = Ws::Indent;
            for (i, par) in fields.list.iter().enumerate() {
                let beg = self.line_for(par.pos());
                let end = self.line_for(par.end());
                let needs_linebreak = 0 < prev_line && prev_line < beg;
                if i > 0 {
                    if !needs_linebreak {
                        self.set_pos(par.pos());
                    }
                    self.tok(Token::Comma);
                }
                if needs_linebreak && self.linebreak(beg, 0, ws, true) > 0 {
                    ws = Ws::Ignore;
                } else if i > 0 {
                    self.ws(Ws::Blank);
                }
                if !par.names.is_empty() {
                    self.ident_list(&par.names, ws == Ws::Indent);
                    self.ws(Ws::Blank);
                }
                self.expr(strip_parens_always(&par.ty));
                prev_line = end;
            }
            let closing = self.line_for(fields.closing);
            if 0 < prev_line && prev_line < closing {
                self.tok(Token::Comma);
                self.linebreak(closing, 0, Ws::Ignore, true);
            } else if mode == ParamMode::TypeT
                && fields.num_fields() == 1
                && combines_with_name(strip_parens_always(&fields.list[0].ty))
            {
                self.tok(Token::Comma);
            }
            if ws == Ws::Ignore {
                self.ws(Ws::Unindent);
            }
        }
        self.set_pos(fields.closing);
        self.tok(close);
    }

    pub(super) fn signature(&mut self, sig: &FuncType) {
        if let Some(tp) = &sig.type_params {
            self.parameters(tp, ParamMode::FuncT);
        }
        self.parameters(&sig.params, ParamMode::Func);
        let Some(res) = &sig.results else { return };
        let n = res.num_fields();
        if n > 0 {
            self.ws(Ws::Blank);
            if n == 1 && res.list[0].names.is_empty() {
                self.expr(strip_parens_always(&res.list[0].ty));
                return;
            }
            self.parameters(res, ParamMode::Func);
        }
    }

    pub(super) fn is_one_line_field_list(&mut self, list: &[Field]) -> bool {
        if list.len() != 1 {
            return false;
        }
        let f = &list[0];
        if f.tag.is_some() {
            return false;
        }
        const MAX: usize = 30;
        let mut names = ident_list_size(&f.names, MAX);
        if names > 0 {
            names = 1;
        }
        let ty = self.node_size(Node::Expr(&f.ty), MAX);
        names + ty <= MAX
    }

    pub(super) fn field_list(&mut self, fields: &FieldList, is_struct: bool) {
        let lbrace = fields.opening;
        let list = &fields.list;
        let rbrace = fields.closing;
        let one_line =
            lbrace != NO_POS && rbrace != NO_POS && self.line_for(lbrace) == self.line_for(rbrace);
        if one_line {
            if list.is_empty() {
                self.set_pos(lbrace);
                self.tok(Token::Lbrace);
                self.set_pos(rbrace);
                self.tok(Token::Rbrace);
                return;
            } else if self.is_one_line_field_list(list) {
                self.set_pos(lbrace);
                self.tok(Token::Lbrace);
                self.ws(Ws::Blank);
                let f = &list[0];
                if is_struct {
                    for (i, x) in f.names.iter().enumerate() {
                        if i > 0 {
                            self.tok(Token::Comma);
                            self.ws(Ws::Blank);
                        }
                        self.ident_expr(x);
                    }
                    if !f.names.is_empty() {
                        self.ws(Ws::Blank);
                    }
                    self.expr(&f.ty);
                } else if let (Some(name), Expr::Func(ft)) = (f.names.first(), &f.ty) {
                    self.ident_expr(name);
                    self.signature(ft);
                } else {
                    self.expr(&f.ty);
                }
                self.ws(Ws::Blank);
                self.set_pos(rbrace);
                self.tok(Token::Rbrace);
                return;
            }
        }
        self.ws(Ws::Blank);
        self.set_pos(lbrace);
        self.tok(Token::Lbrace);
        self.ws(Ws::Indent);
        if !list.is_empty() {
            self.ws(Ws::Formfeed);
        }
        let slot = self.new_slot();
        if is_struct {
            let sep = if list.len() == 1 { Ws::Blank } else { Ws::Vtab };
            for (i, f) in list.iter().enumerate() {
                if i > 0 {
                    let ns = self.lines_from(slot) > 0;
                    let l = self.line_for(f.pos());
                    self.linebreak(l, 1, Ws::Ignore, ns);
                }
                self.record_line(slot);
                if !f.names.is_empty() {
                    self.ident_list(&f.names, false);
                    self.ws(sep);
                    self.expr(&f.ty);
                } else {
                    self.expr(&f.ty);
                }
                if let Some(tag) = &f.tag {
                    if !f.names.is_empty() && sep == Ws::Vtab {
                        self.ws(sep);
                    }
                    self.ws(sep);
                    self.basic_lit(tag);
                }
            }
        } else {
            for (i, f) in list.iter().enumerate() {
                if i > 0 {
                    let ns = self.lines_from(slot) > 0;
                    let l = self.line_for(f.pos());
                    self.linebreak(l, 1, Ws::Ignore, ns);
                }
                self.record_line(slot);
                match (f.names.first(), &f.ty) {
                    (Some(name), Expr::Func(ft)) => {
                        self.ident_expr(name);
                        self.signature(ft);
                    }
                    _ => self.expr(&f.ty),
                }
            }
        }
        self.ws(Ws::Unindent);
        self.ws(Ws::Formfeed);
        self.set_pos(rbrace);
        self.tok(Token::Rbrace);
    }
}
