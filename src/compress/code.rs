//! The code compressor (content type `code`, method `code`;
//! spec/code.md): Go source only. Every comment goes (they are never
//! parsed), every function declaration body with statements is emptied,
//! and the file is printed as gofmt prints the modified tree. Any other
//! language passes through, as in the reference's cgo-free build.

use super::{Compressed, Decline, Input};
use crate::gofmt::{self, Skip};

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    compress(input.body).map(Compressed::new)
}

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
