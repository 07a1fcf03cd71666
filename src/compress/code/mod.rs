//! The code compressor (content type `code`, method `code`).
//!
//! Compat (spec/code.md): Go source only. Every comment goes (they are
//! never parsed), every function declaration body with statements is
//! emptied, and the file is printed as gofmt prints the modified tree. Any
//! other language passes through, as in the reference's cgo-free build.
//!
//! Lean: a skeleton of any of sixteen languages, read with tree-sitter
//! (`skeleton`): bodies and long literals elided in the language's own
//! syntax, doc comments cut to their first sentence and the sentences that
//! state rules (`comments`). Small files, small test files and files the
//! skeleton would shrink by less than [`MIN_SAVED_PCT`] % are read whole.

mod comments;
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
    let mut langs = crate::detect::lang::ranked(text);
    if let Parsed::Code(l) = input.parsed {
        langs.retain(|&x| x != l);
        langs.insert(0, l);
    }
    if langs.is_empty() {
        return Err(Decline("no language recognised"));
    }
    // A small file is read whole: its bodies are what it says, and a
    // skeleton of it saves a few tokens at the cost of the answer. Tests
    // are read whole up to a larger size: a test's body is its point.
    let small = if skeleton::test_file(text, langs[0]) {
        SMALL_TEST_TOKENS
    } else {
        SMALL_FILE_TOKENS
    };
    let tokens = if input.budget.is_none() && text.len() < 4 * small {
        crate::tokens::count(input.body)
    } else {
        usize::MAX
    };
    if tokens < small {
        return Err(Decline("a small file is read whole"));
    }
    // The first language whose grammar reads the file; others are tried
    // only on files small enough to parse again.
    if text.len() > MAX_RETRY_BYTES {
        langs.truncate(1);
    }
    let mut last = Decline("no language recognised");
    for (k, l) in langs.into_iter().enumerate() {
        match skeleton::skeleton(text, l, input.query, k == 0) {
            Ok((out, trace)) => {
                // A view that saves little is not worth what it hides.
                if input.budget.is_none()
                    && text.len() < MAX_WEIGH_BYTES
                    && crate::tokens::count(out.as_bytes()) * 100
                        > crate::tokens::count(input.body) * (100 - MIN_SAVED_PCT)
                {
                    return Err(Decline("the skeleton saves too little"));
                }
                return Ok(Compressed::traced(out.into_bytes(), trace));
            }
            Err(d) => last = d,
        }
    }
    Err(last)
}

/// Files under this many tokens are not skeletonised (without a budget).
const SMALL_FILE_TOKENS: usize = 1000;
/// Test files under this many tokens are not skeletonised either.
const SMALL_TEST_TOKENS: usize = 2000;
/// A skeleton that saves less than this share of the tokens is not used.
const MIN_SAVED_PCT: usize = 15;
/// Files up to this size are weighed in tokens (larger ones save enough).
const MAX_WEIGH_BYTES: usize = 4 << 20;

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
