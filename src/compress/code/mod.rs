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
//!
//! A lean Go view is never larger than compat's view of the same file
//! (issue 40): compat's view's size, less the retrieve line lean adds, is
//! the skeleton's ceiling, and the skeleton takes the richest of its
//! levels that fits (`skeleton::Detail`: all of the above; every body
//! elided; every body `{}` with exported declarations' doc comments cut to
//! their first sentence; top-level ones only; no comment; no import list),
//! all from one parse. A small Go file compat cuts is read whole only
//! when it fits.

mod comments;
mod grammars;
mod render;
mod skeleton;

use super::{Compressed, Decline, Input};
use crate::detect::{Language, Parsed};
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
    // The language detection named first, then the others the line votes
    // name (counted only when the first does not parse: a vote reads
    // every line of the sample).
    let (first, rest) = match input.parsed {
        Parsed::Code(l) => (l, None),
        _ => match crate::detect::lang::ranked(text).split_first() {
            Some((&l, rest)) => (l, Some(rest.to_vec())),
            None => return Err(Decline("no language recognised")),
        },
    };
    // A small file is read whole: its bodies are what it says, and a
    // skeleton of it saves a few tokens at the cost of the answer. Tests
    // are read whole up to a larger size: a test's body is its point.
    let small = if skeleton::test_file(text, first) {
        SMALL_TEST_TOKENS
    } else {
        SMALL_FILE_TOKENS
    };
    // Lean is never larger than compat's view (issue 40): for Go, the one
    // language compat cuts, compat's view's size is the skeleton's
    // ceiling, and a small file is read whole only when it fits.
    let ceiling = ceiling(input, first);
    let tokens = match ceiling {
        Some(c) => c.input,
        None if input.budget.is_none() && text.len() < 4 * small => {
            crate::tokens::count(input.body)
        }
        None => usize::MAX,
    };
    if tokens < small && ceiling.is_none_or(|c| c.view >= tokens) {
        return Err(Decline("a small file is read whole"));
    }
    if let Some(c) = ceiling {
        return skeleton::skeleton_within(text, first, true, c.view)
            .map(|(out, trace)| Compressed::traced(out.into_bytes(), trace));
    }
    // The first language whose grammar reads the file; others are tried
    // only on files small enough to parse again.
    let others = || {
        if text.len() > MAX_RETRY_BYTES {
            return Vec::new();
        }
        rest.unwrap_or_else(|| {
            let mut r = crate::detect::lang::ranked(text);
            r.retain(|&x| x != first);
            r
        })
    };
    let mut last = Decline("no language recognised");
    let langs = std::iter::once(first).chain(std::iter::once_with(others).flatten());
    for (k, l) in langs.enumerate() {
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

/// The most a lean Go view may spend, and the input's tokens.
#[derive(Clone, Copy)]
struct Ceiling {
    /// Compat's view's tokens less the retrieve line lean adds after it.
    view: usize,
    input: usize,
}

/// The ceiling of Go source (the one language compat cuts) that compat
/// shrinks, read without a query or budget (which choose their own
/// bodies).
fn ceiling(input: &Input<'_>, lang: Language) -> Option<Ceiling> {
    if lang != Language::Go || !input.query.is_empty() || input.budget.is_some() {
        return None;
    }
    let view = compress(input.body).ok()?;
    let tokens = crate::tokens::count(&view);
    let all = crate::tokens::count(input.body);
    // The line names the engine's handle (of the input as it came); a
    // few tokens spare for where it joins the view.
    let note = crate::engine::code_note_tokens(lang, &input.handle()) + NOTE_SPARE;
    (tokens < all).then(|| Ceiling {
        view: tokens.saturating_sub(note),
        input: all,
    })
}

/// Tokens a Go view's ceiling keeps spare beyond its retrieve line's.
const NOTE_SPARE: usize = 2;
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
