//! The Go-compatibility layer: everything the reference's output depends on
//! that Go's standard library (or gopkg.in/yaml.v3) decides, reproduced
//! byte for byte and kept here, one module per Go package, so that no
//! compressor re-implements a piece of Go on its own.
//!
//! | module | Go counterpart |
//! | --- | --- |
//! | [`json`] | `encoding/json`: `Decoder` with `UseNumber`, `Valid`, `Marshal`, `MarshalIndent` |
//! | [`csv`] | `encoding/csv`: `Reader` defaults and `Writer` |
//! | [`strconv`] | `ParseFloat`, `ParseInt`, `FormatFloat` as `encoding/json` uses it, `Quote` |
//! | [`unicode`] | `IsSpace` trimming, `ToLower`, simple case folding, `IsLetter`/`IsDigit` |
//! | [`utf8`] | `[]rune` conversion (one U+FFFD per bad byte), `DecodeRune` |
//! | [`regexp`] | RE2's ASCII `\b \d \s \w` and `(?i)` folding |
//! | [`yaml`] | gopkg.in/yaml.v3 v3.0.1 decoding errors |
//! | [`os`] | `*PathError` and errno texts |

pub mod csv;
pub mod json;
pub mod os;
pub mod regexp;
pub mod sort;
pub mod strconv;
pub mod unicode;
pub mod utf8;
pub mod yaml;
