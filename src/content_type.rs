//! The content types of the registry (spec/engine.md §3) and the methods a
//! report names (§4), as types rather than strings: a forced `--type foo`
//! is kept verbatim in [`ContentType::Other`].

use std::fmt;

/// What a payload is: one of the fifteen registered types, or whatever
/// `--type` forced.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ContentType {
    Json,
    Terminal,
    Diff,
    Html,
    Tabular,
    Code,
    Log,
    SearchResult,
    Config,
    Text,
    Toolschema,
    ToolschemaAnnotations,
    Toon,
    A11y,
    Repetition,
    /// A forced type no compressor is registered for: passes through and
    /// is reported as given.
    Other(String),
}

impl ContentType {
    /// The fifteen registered types, in the registry's order.
    pub const REGISTERED: [ContentType; 15] = [
        ContentType::Json,
        ContentType::Log,
        ContentType::Code,
        ContentType::Diff,
        ContentType::SearchResult,
        ContentType::Text,
        ContentType::Html,
        ContentType::Tabular,
        ContentType::Config,
        ContentType::Terminal,
        ContentType::Toolschema,
        ContentType::ToolschemaAnnotations,
        ContentType::Toon,
        ContentType::A11y,
        ContentType::Repetition,
    ];

    /// The name as reports, `detect` and `--type` spell it.
    pub fn as_str(&self) -> &str {
        match self {
            ContentType::Json => "json",
            ContentType::Terminal => "terminal",
            ContentType::Diff => "diff",
            ContentType::Html => "html",
            ContentType::Tabular => "tabular",
            ContentType::Code => "code",
            ContentType::Log => "log",
            ContentType::SearchResult => "search-result",
            ContentType::Config => "config",
            ContentType::Text => "text",
            ContentType::Toolschema => "toolschema",
            ContentType::ToolschemaAnnotations => "toolschema-annotations",
            ContentType::Toon => "toon",
            ContentType::A11y => "a11y",
            ContentType::Repetition => "repetition",
            ContentType::Other(s) => s,
        }
    }

    /// The type `--type NAME` forces (exact, case-sensitive names).
    pub fn from_name(name: &str) -> ContentType {
        ContentType::REGISTERED
            .into_iter()
            .find(|t| t.as_str() == name)
            .unwrap_or_else(|| ContentType::Other(name.to_string()))
    }
}

impl fmt::Display for ContentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `method` of a transformed report (spec/engine.md §4): the
/// compressor's own when it reports one, else its content type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    Elision,
    Toon,
    Log,
    Code,
    Diff,
    SearchResult,
    Text,
    Html,
    Tabular,
    Config,
    Terminal,
    Toolschema,
    ToolschemaAnnotations,
    A11y,
    Repetition,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Elision => "elision",
            Method::Toon => "toon",
            Method::Log => "log",
            Method::Code => "code",
            Method::Diff => "diff",
            Method::SearchResult => "search-result",
            Method::Text => "text",
            Method::Html => "html",
            Method::Tabular => "tabular",
            Method::Config => "config",
            Method::Terminal => "terminal",
            Method::Toolschema => "toolschema",
            Method::ToolschemaAnnotations => "toolschema-annotations",
            Method::A11y => "a11y",
            Method::Repetition => "repetition",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in ContentType::REGISTERED {
            assert_eq!(ContentType::from_name(t.as_str()), t);
        }
        assert_eq!(
            ContentType::from_name("foo"),
            ContentType::Other("foo".into())
        );
        assert_eq!(ContentType::from_name("JSON").as_str(), "JSON");
        assert_eq!(ContentType::from_name("").as_str(), "");
    }
}
