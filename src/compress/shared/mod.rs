//! Machinery shared by the JSON and tabular compressors: marker summaries,
//! the kind guard, BM25 relevance, Go number parsing and robust statistics.

pub mod gofloat;
pub mod invariants;
pub mod kinds;
pub mod relevance;
pub mod robust;
pub mod words;
