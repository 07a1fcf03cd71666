//! Boilerplate in a document, folded to one marker that names it: the
//! body of a section whose heading names a licence, a copyright notice,
//! authors or contributors, acknowledgements, a code of conduct, an RFC's
//! "Status of This Memo" or a table of contents; and a licence's text
//! where it starts without a heading (`Permission is hereby granted`,
//! `Redistribution and use`, `Licensed under the Apache License`, …), up
//! to the next heading.

use std::sync::LazyLock;

use regex::Regex;

/// A heading that names boilerplate (numbering, Markdown marks and a
/// permalink sign around it are allowed).
static HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^[#=*\s]*(\d+(\.\d+)*\.?\s+)?(the\s+)?(",
        r"(?P<licence>(\w+\s+)?licen[sc]es?(\s+(text|terms|information|and\s+copyright))?|licensing|copying)",
        r"|(?P<copyright>copyright(\s+(notice|and\s+licen[sc]e))?|legal(\s+notice)?)",
        r"|(?P<people>authors?|contributors?|credits|acknowledge?ments?|thanks|sponsors?|backers|maintainers|(core\s+)?team)",
        r"|(?P<conduct>code\s+of\s+conduct)",
        r"|(?P<memo>status\s+of\s+this\s+memo)",
        r"|(?P<toc>(table\s+of\s+)?contents|toc)",
        r")\s*[:\u{b6}\u{f0c1}#=*]*\s*$",
    ))
    .expect("boilerplate heading pattern")
});

/// The first words of a licence's text.
static LICENCE_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(Permission is hereby granted|Permission to use, copy, modify",
        r"|Redistribution and use in source and binary forms",
        r"|Licensed under the Apache License|Licensed to the Apache Software Foundation",
        r"|This program is free software|This library is free software",
        r"|THE SOFTWARE IS PROVIDED|THIS SOFTWARE IS PROVIDED",
        r"|This Source Code Form is subject to the terms of the Mozilla|GNU GENERAL PUBLIC LICENSE)",
    ))
    .expect("licence text pattern")
});

/// What a heading's section holds, if it is boilerplate.
pub(super) fn section(heading: &str) -> Option<&'static str> {
    let c = HEADING.captures(heading.trim())?;
    let names = [
        ("licence", "licence text"),
        ("copyright", "copyright notice"),
        ("people", "list of people"),
        ("conduct", "code of conduct"),
        ("memo", "status of this memo"),
        ("toc", "table of contents"),
    ];
    names
        .iter()
        .find(|(g, _)| c.name(g).is_some())
        .map(|(_, name)| *name)
}

/// Whether a paragraph starting with `line` opens a licence's text.
pub(super) fn licence_text(line: &str) -> bool {
    LICENCE_TEXT.is_match(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boilerplate_headings() {
        assert_eq!(section("## License"), Some("licence text"));
        assert_eq!(section("MIT License"), Some("licence text"));
        assert_eq!(section("Copyright Notice"), Some("copyright notice"));
        assert_eq!(section("1. Copyright\u{b6}"), Some("copyright notice"));
        assert_eq!(section("## Contributors"), Some("list of people"));
        assert_eq!(section("Status of This Memo"), Some("status of this memo"));
        assert_eq!(section("Table of Contents"), Some("table of contents"));
        assert_eq!(section("## Licensing requirements for plugins"), None);
        assert_eq!(section("Installation"), None);
        assert!(licence_text(
            "Permission is hereby granted, free of charge, to any"
        ));
        assert!(!licence_text("Permission errors are reported"));
    }
}
