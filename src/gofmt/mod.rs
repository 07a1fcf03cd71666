//! Go source formatting as `gofmt` does it (Go 1.26 `go/scanner`,
//! `go/parser`, `go/printer`, `text/tabwriter`, `go/ast.SortImports`),
//! ported function by function for the code compressor (spec/code.md):
//! the output must be gofmt's bytes for the modified tree, and gofmt's
//! layout depends on every source line position, so nothing short of a
//! faithful port reproduces it.
//!
//! Comments are never parsed: the compressor drops them all, which also
//! keeps the printer free of Go's comment interleaving.

mod ast;
mod imports;
mod nodes;
mod parser;
mod printer;
mod scanner;
mod tabwriter;
mod token;

#[cfg(test)]
mod tests;

use printer::{Config, Printer, Sizes};
use token::Lines;

pub(crate) use scanner::SyntaxError;

/// Why a source was not reduced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Skip {
    /// The Go parser rejected the source.
    Syntax(SyntaxError),
    /// No function declaration had a statement to remove.
    NothingToEmpty,
}

/// Parses `src`, removes the statements of every function declaration
/// body, prints the file with Go's printer and formats the printed text
/// with gofmt (spec/code.md §3). The result always ends in one LF.
pub(crate) fn empty_bodies(src: &[u8]) -> Result<Vec<u8>, Skip> {
    let mut clock = crate::timings::Clock::new("gofmt");
    let (file, emptied) = parser::parse_file_emptying(src).map_err(Skip::Syntax)?;
    clock.mark("parse");
    if !emptied {
        return Err(Skip::NothingToEmpty);
    }
    let printed = print(&file, &Lines::of(src));
    clock.mark("print");
    drop(file);
    clock.mark("drop");
    let out = format(&printed).unwrap_or(printed);
    clock.mark("format");
    Ok(out)
}

/// Parses, prints and formats `src` without emptying anything: the
/// differential tests' view of the whole printer.
pub(crate) fn reprint(src: &[u8]) -> Result<Vec<u8>, SyntaxError> {
    let file = parser::parse_file(src)?;
    let printed = print(&file, &Lines::of(src));
    Ok(format(&printed).unwrap_or(printed))
}

/// `format.Source` for a complete file: parse, sort imports, print.
pub(crate) fn format(src: &[u8]) -> Result<Vec<u8>, SyntaxError> {
    let mut file = parser::parse_file(src)?;
    let mut lines = Lines::of(src);
    imports::sort(&mut file, &mut lines);
    Ok(print(&file, &lines))
}

fn print(file: &ast::File, lines: &Lines) -> Vec<u8> {
    let mut sizes = Sizes::default();
    let mut p = Printer::new(Config::GOFMT, lines, &mut sizes);
    p.file(file);
    p.finish()
}
