//! Drawing and encoding one page, for `ImageBytes` (pixel-simulate.md §5.3).
//!
//! The glyph renderer and the PNG encoder belong to `pixel render` (issue
//! 41); until they are merged here, pages are not encoded and `ImageBytes`
//! reads 0.

use super::pages::Page;

/// The length of `page` as an encoded PNG.
pub fn encoded_len(_page: &Page) -> usize {
    0
}
