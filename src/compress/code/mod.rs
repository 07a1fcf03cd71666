//! The code compressor (content type `code`, method `code`).
//!
//! Compat (spec/code.md): Go source only. Every comment goes (they are
//! never parsed), every function declaration body with statements is
//! emptied, and the file is printed as gofmt prints the modified tree. Any
//! other language passes through, as in the reference's cgo-free build.
//!
//! Lean: a skeleton of any of sixteen languages, read with tree-sitter
//! (`skeleton`): bodies, long literals and doc comments past their first
//! sentence elided in the language's own syntax.

mod grammars;
mod skeleton;

use super::{Compressed, Decline, Input};
use crate::detect::Parsed;
use crate::gofmt::{self, Skip};

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    if input.profile.is_lean() {
        return lean(input);
    }
    compress(input.body).map(Compressed::new)
}

/// The lean skeleton, in the language detection named (or, with `--type
/// code`, the one its line votes name).
fn lean(input: &Input<'_>) -> Result<Compressed, Decline> {
    let text = std::str::from_utf8(input.body).map_err(|_| Decline("not valid UTF-8"))?;
    // A small file is read whole: its bodies are what it says, and a
    // skeleton of it saves a few tokens at the cost of the answer.
    if input.budget.is_none()
        && text.len() < 4 * SMALL_FILE_TOKENS
        && crate::tokens::count(input.body) < SMALL_FILE_TOKENS
    {
        return Err(Decline("a small file is read whole"));
    }
    let mut langs = crate::detect::lang::ranked(text);
    if let Parsed::Code(l) = input.parsed {
        langs.retain(|&x| x != l);
        langs.insert(0, l);
    }
    if langs.is_empty() {
        return Err(Decline("no language recognised"));
    }
    // The first language whose grammar reads the file; others are tried
    // only on files small enough to parse again.
    if text.len() > MAX_RETRY_BYTES {
        langs.truncate(1);
    }
    let mut last = Decline("no language recognised");
    for (k, l) in langs.into_iter().enumerate() {
        match skeleton::skeleton(text, l, input.query, k == 0) {
            Ok((out, trace)) => return Ok(Compressed::traced(out.into_bytes(), trace)),
            Err(d) => last = d,
        }
    }
    Err(last)
}

/// Files under this many tokens are not skeletonised (without a budget).
const SMALL_FILE_TOKENS: usize = 600;

/// Files larger than this are parsed with one grammar only.
const MAX_RETRY_BYTES: usize = 256 << 10;

pub(crate) fn compress(body: &[u8]) -> Result<Vec<u8>, Decline> {
    let finder = |needle: &[u8]| memchr::memmem::find(body, needle).is_some();
    if !finder(b"package ") || !finder(b"func ") {
        return Err(Decline("not Go source (no `package ` and `func `)"));
    }
    gofmt::empty_bodies(body).map_err(|skip| match skip {
        Skip::Syntax(_) => Decline("Go syntax error"),
        Skip::NothingToEmpty => Decline("no function body with statements"),
    })
}

#[cfg(test)]
mod tests;
