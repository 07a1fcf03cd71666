//! The pixel transform: text drawn as PNG pages where images cost fewer
//! tokens than the text. [`simulate`] prices a model request's transform
//! offline.

pub mod simulate;
