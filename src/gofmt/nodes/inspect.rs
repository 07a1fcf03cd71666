//! `ast.Inspect` over expressions, as the printer's typed-composite
//! and type-switch checks walk them.

use super::*;

pub(super) fn inspect(x: &Expr, f: &mut dyn FnMut(&Expr) -> bool) {
    if !f(x) {
        return;
    }
    let mut each = |e: &Expr| inspect(e, f);
    match x {
        Expr::Ellipsis { elt: Some(e), .. } => each(e),
        Expr::FuncLit { ty, body } => {
            inspect_func_type(ty, f);
            for s in &body.list {
                inspect_stmt(s, f);
            }
        }
        Expr::CompositeLit { ty, elts, .. } => {
            if let Some(t) = ty {
                inspect(t, f);
            }
            for e in elts {
                inspect(e, f);
            }
        }
        Expr::Paren { x, .. }
        | Expr::Selector { x, .. }
        | Expr::Star { x, .. }
        | Expr::Unary { x, .. } => each(x),
        Expr::Index { x, index, .. } => {
            inspect(x, f);
            inspect(index, f);
        }
        Expr::IndexList { x, indices, .. } => {
            inspect(x, f);
            for e in indices {
                inspect(e, f);
            }
        }
        Expr::Slice {
            x, low, high, max, ..
        } => {
            inspect(x, f);
            for e in [low, high, max].into_iter().flatten() {
                inspect(e, f);
            }
        }
        Expr::TypeAssert { x, ty, .. } => {
            inspect(x, f);
            if let Some(t) = ty {
                inspect(t, f);
            }
        }
        Expr::Call { fun, args, .. } => {
            inspect(fun, f);
            for e in args {
                inspect(e, f);
            }
        }
        Expr::Binary { x, y, .. } => {
            inspect(x, f);
            inspect(y, f);
        }
        Expr::KeyValue { key, value, .. } => {
            inspect(key, f);
            inspect(value, f);
        }
        Expr::Array { len, elt, .. } => {
            if let Some(l) = len {
                inspect(l, f);
            }
            inspect(elt, f);
        }
        Expr::Struct { fields, .. }
        | Expr::Interface {
            methods: fields, ..
        } => inspect_fields(fields, f),
        Expr::Func(ft) => inspect_func_type(ft, f),
        Expr::Map { key, value, .. } => {
            inspect(key, f);
            inspect(value, f);
        }
        Expr::Chan { value, .. } => inspect(value, f),
        _ => {}
    }
}

pub(super) fn inspect_fields(fl: &FieldList, f: &mut dyn FnMut(&Expr) -> bool) {
    for field in &fl.list {
        inspect(&field.ty, f);
    }
}

pub(super) fn inspect_func_type(ft: &FuncType, f: &mut dyn FnMut(&Expr) -> bool) {
    if let Some(tp) = &ft.type_params {
        inspect_fields(tp, f);
    }
    inspect_fields(&ft.params, f);
    if let Some(r) = &ft.results {
        inspect_fields(r, f);
    }
}

pub(super) fn inspect_stmt(s: &Stmt, f: &mut dyn FnMut(&Expr) -> bool) {
    let mut e = |x: &Expr| inspect(x, f);
    match s {
        Stmt::Expr(x) => e(x),
        Stmt::Send { chan, value, .. } => {
            inspect(chan, f);
            inspect(value, f);
        }
        Stmt::IncDec { x, .. } => e(x),
        Stmt::Assign { lhs, rhs, .. } => {
            for x in lhs.iter().chain(rhs) {
                inspect(x, f);
            }
        }
        Stmt::Go { call, .. } | Stmt::Defer { call, .. } => e(call),
        Stmt::Return { results, .. } => {
            for x in results {
                inspect(x, f);
            }
        }
        Stmt::Labeled { stmt, .. } => inspect_stmt(stmt, f),
        Stmt::Block(b) => {
            for s in &b.list {
                inspect_stmt(s, f);
            }
        }
        Stmt::If {
            init,
            cond,
            body,
            else_,
            ..
        } => {
            if let Some(i) = init {
                inspect_stmt(i, f);
            }
            inspect(cond, f);
            for s in &body.list {
                inspect_stmt(s, f);
            }
            if let Some(e) = else_ {
                inspect_stmt(e, f);
            }
        }
        Stmt::Case { list, body, .. } => {
            for x in list.iter().flatten() {
                inspect(x, f);
            }
            for s in body {
                inspect_stmt(s, f);
            }
        }
        Stmt::Switch {
            init, tag, body, ..
        } => {
            if let Some(i) = init {
                inspect_stmt(i, f);
            }
            if let Some(t) = tag {
                inspect(t, f);
            }
            for s in &body.list {
                inspect_stmt(s, f);
            }
        }
        Stmt::TypeSwitch {
            init, assign, body, ..
        } => {
            if let Some(i) = init {
                inspect_stmt(i, f);
            }
            inspect_stmt(assign, f);
            for s in &body.list {
                inspect_stmt(s, f);
            }
        }
        Stmt::Comm { comm, body, .. } => {
            if let Some(c) = comm {
                inspect_stmt(c, f);
            }
            for s in body {
                inspect_stmt(s, f);
            }
        }
        Stmt::Select { body, .. } => {
            for s in &body.list {
                inspect_stmt(s, f);
            }
        }
        Stmt::For {
            init,
            cond,
            post,
            body,
            ..
        } => {
            if let Some(i) = init {
                inspect_stmt(i, f);
            }
            if let Some(c) = cond {
                inspect(c, f);
            }
            if let Some(p) = post {
                inspect_stmt(p, f);
            }
            for s in &body.list {
                inspect_stmt(s, f);
            }
        }
        Stmt::Range {
            key,
            value,
            x,
            body,
            ..
        } => {
            for k in [key, value].into_iter().flatten() {
                inspect(k, f);
            }
            inspect(x, f);
            for s in &body.list {
                inspect_stmt(s, f);
            }
        }
        Stmt::Decl(d) => {
            for spec in &d.specs {
                match spec {
                    Spec::Value { ty, values, .. } => {
                        if let Some(t) = ty {
                            inspect(t, f);
                        }
                        for v in values {
                            inspect(v, f);
                        }
                    }
                    Spec::Type {
                        type_params, ty, ..
                    } => {
                        if let Some(tp) = type_params {
                            inspect_fields(tp, f);
                        }
                        inspect(ty, f);
                    }
                    Spec::Import { .. } => {}
                }
            }
        }
        _ => {}
    }
}
