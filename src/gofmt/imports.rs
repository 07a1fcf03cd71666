//! gofmt's import sorting (`go/ast.SortImports`): inside every
//! parenthesized import declaration, each run of specs on consecutive
//! lines is sorted by path then name, exact duplicates are dropped, the
//! kept specs take over the original position sequence, and lines the
//! line table no longer needs are merged away, exactly as Go does, so the
//! printer's blank-line decisions come out the same.

use super::ast::{Decl, File, Spec};
use super::nodes::unquote;
use super::token::{Lines, Pos, Token, NO_POS};

/// Sorts the imports of `f`, adjusting `lines` as Go adjusts the file's
/// line table.
pub(super) fn sort(f: &mut File, lines: &mut Lines) {
    for d in &mut f.decls {
        let d = match d {
            Decl::Gen(g) if g.tok == Token::Import => g,
            // Imports are always first.
            _ => break,
        };
        if d.lparen == NO_POS {
            continue;
        }
        let rparen = d.rparen;
        let specs = std::mem::take(&mut d.specs);
        let mut out = Vec::with_capacity(specs.len());
        let mut run: Vec<Spec> = Vec::new();
        for s in specs {
            if let Some(prev) = run.last() {
                if lines.line(s.pos()) > 1 + lines.line(prev.end()) {
                    out.extend(sort_run(std::mem::take(&mut run), rparen, lines));
                }
            }
            run.push(s);
        }
        out.extend(sort_run(run, rparen, lines));
        d.specs = out;

        // Deduping can leave a blank line before the closing parenthesis.
        if let Some(last) = d.specs.last() {
            let last_line = lines.line(last.pos());
            let mut rparen_line = lines.line(d.rparen);
            while rparen_line > last_line + 1 {
                rparen_line -= 1;
                lines.merge(rparen_line);
            }
        }
    }
}

fn path(s: &Spec) -> Vec<u8> {
    match s {
        Spec::Import { path, .. } => unquote(&path.value).unwrap_or_default(),
        _ => Vec::new(),
    }
}

fn name(s: &Spec) -> &str {
    match s {
        Spec::Import { name: Some(n), .. } => &n.name,
        _ => "",
    }
}

/// Sorts one run of specs on successive lines (`sortSpecs`, without
/// comments: none are parsed).
fn sort_run(mut specs: Vec<Spec>, rparen: Pos, lines: &mut Lines) -> Vec<Spec> {
    if specs.len() <= 1 {
        return specs;
    }
    let pos: Vec<(Pos, Pos)> = specs.iter().map(|s| (s.pos(), s.end())).collect();
    let mut keyed: Vec<(Vec<u8>, Spec)> = specs.drain(..).map(|s| (path(&s), s)).collect();
    crate::go::sort::sort_by(&mut keyed, |a, b| {
        a.0.cmp(&b.0).then_with(|| name(&a.1).cmp(name(&b.1)))
    });
    let n = keyed.len();
    let mut kept = Vec::with_capacity(n);
    for i in 0..n {
        let collapse =
            i + 1 < n && keyed[i].0 == keyed[i + 1].0 && name(&keyed[i].1) == name(&keyed[i + 1].1);
        if !collapse {
            kept.push(i);
            continue;
        }
        let l = lines.line(keyed[i].1.pos());
        if l != lines.line(rparen) {
            lines.merge(l);
        }
    }
    let mut slots: Vec<Option<Spec>> = keyed.into_iter().map(|(_, s)| Some(s)).collect();
    kept.into_iter()
        .enumerate()
        .map(|(i, k)| {
            let mut s = slots[k].take().expect("each spec is kept once");
            if let Spec::Import {
                name,
                path,
                end_pos,
            } = &mut s
            {
                let (start, end) = pos[i];
                if let Some(n) = name {
                    n.pos = start;
                }
                // `updateBasicLitPos`: the end moves with the start.
                if path.end != NO_POS {
                    path.end = start + (path.end - path.pos);
                }
                path.pos = start;
                *end_pos = end;
            }
            s
        })
        .collect()
}
