//! How Go's printer prints each kind of node (`go/printer/nodes.go`, Go
//! 1.26), without comments: expression lists and their line breaks,
//! parameters, field lists, binary expressions with their spacing cutoff,
//! statements, declarations, function bodies and the one-line body rule,
//! and node sizes measured by printing (memoized per node, as Go does).
//! The parts call each other as Go's functions do: [`lists`], [`exprs`],
//! [`stmts`], [`decls`], with [`inspect`] and [`literals`] as helpers;
//! the shared helpers are here.

mod decls;
mod exprs;
mod inspect;
mod lists;
mod literals;
mod stmts;

use inspect::*;
pub(super) use literals::unquote;
use literals::*;

use super::ast::*;
use super::parser::is_type_elem;
use super::printer::{Config, Printer, Ws, INFINITY};
use super::token::{Pos, Token, HIGHEST_PREC, LOWEST_PREC, NO_POS, UNARY_PREC};

/// A node whose size can be measured.
#[derive(Clone, Copy)]
pub(super) enum Node<'n> {
    Expr(&'n Expr),
    Stmt(&'n Stmt),
}

impl Node<'_> {
    /// The node's identity (Go keys sizes by pointer).
    fn key(self) -> usize {
        match self {
            Node::Expr(e) => e as *const Expr as usize,
            Node::Stmt(s) => (s as *const Stmt as usize) | 1,
        }
    }
}

/// An element of a list `exprList` prints: an expression of the tree, or
/// a name (Go passes `*ast.Ident`s of the tree as expressions; sizing a
/// name needs no printing, and no temporary node gets a size memoized
/// under an address a later node could reuse).
#[derive(Clone, Copy)]
enum Item<'n> {
    Expr(&'n Expr),
    Name(&'n Ident),
}

impl Item<'_> {
    fn pos(self) -> Pos {
        match self {
            Item::Expr(e) => e.pos(),
            Item::Name(i) => i.pos,
        }
    }

    fn end(self) -> Pos {
        match self {
            Item::Expr(e) => e.end(),
            Item::Name(i) => i.end(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamMode {
    Func,
    FuncT,
    TypeT,
}

/// `exprList` modes.
const COMMA_TERM: u8 = 1;
const NO_INDENT: u8 = 2;

fn walk_binary(op: Token, x: &Expr, y: &Expr) -> (bool, bool, usize) {
    let prec = op.precedence();
    let (mut has4, mut has5, mut max_problem) = (prec == 4, prec == 5, 0);
    if let Expr::Binary {
        op: lop,
        x: lx,
        y: ly,
        ..
    } = x
    {
        if lop.precedence() >= prec {
            let (h4, h5, mp) = walk_binary(*lop, lx, ly);
            has4 |= h4;
            has5 |= h5;
            max_problem = max_problem.max(mp);
        }
    }
    match y {
        Expr::Binary {
            op: rop,
            x: rx,
            y: ry,
            ..
        } if rop.precedence() > prec => {
            let (h4, h5, mp) = walk_binary(*rop, rx, ry);
            has4 |= h4;
            has5 |= h5;
            max_problem = max_problem.max(mp);
        }
        Expr::Star { .. } if op == Token::Quo => max_problem = 5,
        // `op` then the operand's operator would read as another token.
        Expr::Unary { op: uop, .. } => match (op, *uop) {
            (Token::Quo, Token::Mul) | (Token::And, Token::And) | (Token::And, Token::Xor) => {
                max_problem = 5
            }
            (Token::Add, Token::Add) | (Token::Sub, Token::Sub) => max_problem = max_problem.max(4),
            _ => {}
        },
        _ => {}
    }
    (has4, has5, max_problem)
}

fn cutoff(op: Token, x: &Expr, y: &Expr, depth: usize) -> u8 {
    let (has4, has5, max_problem) = walk_binary(op, x, y);
    if max_problem > 0 {
        return max_problem as u8 + 1;
    }
    if has4 && has5 {
        if depth == 1 {
            return 5;
        }
        return 4;
    }
    if depth == 1 {
        return 6;
    }
    4
}

fn diff_prec(expr: &Expr, prec: u8) -> usize {
    match expr {
        Expr::Binary { op, .. } if op.precedence() == prec => 0,
        _ => 1,
    }
}

fn reduce_depth(depth: usize) -> usize {
    depth.saturating_sub(1).max(1)
}

fn combines_with_name(x: &Expr) -> bool {
    match x {
        Expr::Star { x, .. } => !is_type_elem(x),
        Expr::Binary { x, y, .. } => combines_with_name(x) && !is_type_elem(y),
        Expr::Paren { x, .. } => !is_type_elem(x),
        _ => false,
    }
}

fn strip_parens_always(x: &Expr) -> &Expr {
    match x {
        Expr::Paren { x, .. } => strip_parens_always(x),
        _ => x,
    }
}

fn is_type_name(x: &Expr) -> bool {
    match x {
        Expr::Ident(_) => true,
        Expr::Selector { x, .. } => is_type_name(x),
        _ => false,
    }
}

/// Whether a composite literal with a type name occurs in `x` outside
/// nested parentheses (then the parentheses around `x` must stay).
fn holds_typed_composite(x: &Expr) -> bool {
    let mut found = false;
    inspect(x, &mut |e| match e {
        Expr::Paren { .. } => false,
        Expr::CompositeLit { ty, .. } => {
            if ty.as_ref().is_some_and(|t| is_type_name(t)) {
                found = true;
            }
            false
        }
        _ => true,
    });
    found
}

/// Go's `ast.Inspect` over expressions (statements inside function
/// literals are not expressions the stripping rule looks into: it stops at
/// a function literal's body as Go's walk would visit it too, so it walks
/// them).
/// Go's `stripParens`: parentheses around a control clause's expression
/// go, unless a composite literal with a type name sits inside.
fn strip_parens(x: &Expr) -> &Expr {
    if let Expr::Paren { x: inner, .. } = x {
        if !holds_typed_composite(inner) {
            return strip_parens(inner);
        }
    }
    x
}

/// Go's `normalizedNumber`: lowercase prefixes and exponents.
/// Go's `keepTypeColumn`.
fn keep_type_column(specs: &[Spec]) -> Vec<bool> {
    let mut m = vec![false; specs.len()];
    let populate = |m: &mut Vec<bool>, i: usize, j: usize, keep: bool| {
        if keep {
            for x in &mut m[i..j] {
                *x = true;
            }
        }
    };
    let mut i0: Option<usize> = None;
    let mut keep_type = false;
    for (i, s) in specs.iter().enumerate() {
        let Spec::Value { ty, values, .. } = s else {
            continue;
        };
        if !values.is_empty() {
            if i0.is_none() {
                i0 = Some(i);
                keep_type = false;
            }
        } else if let Some(start) = i0.take() {
            populate(&mut m, start, i, keep_type);
        }
        if ty.is_some() {
            keep_type = true;
        }
    }
    if let Some(start) = i0 {
        populate(&mut m, start, specs.len(), keep_type);
    }
    m
}

fn ident_list_size(list: &[Ident], max_size: usize) -> usize {
    let mut size = 0;
    for (i, x) in list.iter().enumerate() {
        if i > 0 {
            size += 2;
        }
        size += x.name.chars().count();
        if size >= max_size {
            break;
        }
    }
    size
}
