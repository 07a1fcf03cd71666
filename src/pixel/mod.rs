//! `pixel`: text drawn as PNG pages with bitmap-glyph atlases, for vision
//! models (spec/pixel-render.md). [`render::render`] is `pixel render`'s
//! whole pipeline; [`render::pages`] and [`render::overlay_pages`] are the
//! renderer variants with the geometry left to the caller; [`text`] holds
//! the text operations both use; [`atlas`] the glyphs. [`simulate`] prices
//! a model request's pixel transform offline (spec/pixel-simulate.md).

pub mod atlas;
mod draw;
pub mod layout;
pub mod render;
pub mod simulate;
pub mod text;

pub use draw::Ink;
pub use render::{est_tokens, render, Density, Options, Page, Style};
