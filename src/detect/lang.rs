//! Which programming language a source text is written in (lean
//! detection): a vote of line patterns each language is known by, over the
//! first lines of the text. The code compressor parses with the grammar
//! of the language named here, and declines when that parse fails.

use std::fmt;
use std::sync::LazyLock;

use crate::rx::RegexSet;

/// The languages the lean code compressor reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    Go,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Rust,
    Java,
    C,
    Cpp,
    CSharp,
    Ruby,
    Php,
    Kotlin,
    Swift,
    Scala,
    Shell,
}

impl Language {
    pub const ALL: [Language; 16] = [
        Language::Go,
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Rust,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::CSharp,
        Language::Ruby,
        Language::Php,
        Language::Kotlin,
        Language::Swift,
        Language::Scala,
        Language::Shell,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Language::Go => "Go",
            Language::Python => "Python",
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TSX",
            Language::Rust => "Rust",
            Language::Java => "Java",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::CSharp => "C#",
            Language::Ruby => "Ruby",
            Language::Php => "PHP",
            Language::Kotlin => "Kotlin",
            Language::Swift => "Swift",
            Language::Scala => "Scala",
            Language::Shell => "shell",
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Lines read for the vote.
const SAMPLE_LINES: usize = 1500;

/// (language, weight, pattern) — a line matching the pattern votes
/// `weight` for the language. Patterns are tried on the line with its
/// leading whitespace kept (`^\s*` where indentation does not matter).
const VOTES: &[(Language, i32, &str)] = &[
    // Go
    (Language::Go, 6, r"^package [a-z_][a-z0-9_]*\s*$"),
    (Language::Go, 3, r"^func (\([^)]*\) )?[A-Za-z_]\w*[\[(]"),
    (Language::Go, 3, r"^import \($"),
    (Language::Go, 3, r"^type \w+ (struct|interface) \{"),
    (Language::Go, 1, r"\w+ := "),
    (Language::Go, 2, r"^\s*if err != nil \{"),
    (
        Language::Go,
        3,
        r"^(var|const) \(\s*$|^(var|const) \w+ = &?\w+\{|^\t\w+\s+(\w+|\*\w+|\[\]\w+)\s+`",
    ),
    // Python
    (
        Language::Python,
        3,
        r"^\s*(async )?def \w+\(.*\)\s*(->\s*[^:]+)?:\s*(#.*)?$",
    ),
    (Language::Python, 3, r"^\s*(async )?def \w+\($"),
    (Language::Python, 2, r"^from [\w.]+ import [\w*(]"),
    (
        Language::Python,
        1,
        r"^import [\w.]+(, [\w.]+)*( as \w+)?\s*$",
    ),
    (Language::Python, 3, r"^\s*class \w+(\([^)]*\))?:\s*$"),
    (Language::Python, 1, r"\bself\.\w+"),
    (
        Language::Python,
        2,
        r"^\s*(elif .*|else|try|finally|except( \w+.*)?):\s*$",
    ),
    (Language::Python, 2, r#"^\s*(""""|''')"#),
    (Language::Python, 2, r"^if __name__ == .__main__.:"),
    // Rust
    (
        Language::Rust,
        3,
        r"^\s*(pub(\([\w:]+\))? )?(const |async |unsafe |extern .C. )*fn \w+",
    ),
    (Language::Rust, 2, r"\blet (mut )?\w+(: [^=]+)? = "),
    (
        Language::Rust,
        3,
        r"^(pub )?use (crate|std|super|self|core|alloc)?(::)?\w+(::[\w{*]+)+",
    ),
    (
        Language::Rust,
        3,
        r"^\s*impl(<[^>]*>)? [\w:<>, ]+( for [\w:<>, ]+)? \{",
    ),
    (
        Language::Rust,
        3,
        r"^\s*#!?\[(derive|cfg|allow|inline|test|must_use|doc|deny|warn)",
    ),
    (
        Language::Rust,
        2,
        r"^\s*(pub(\([\w:]+\))? )?(struct|enum|trait|mod) \w+",
    ),
    (Language::Rust, 1, r"&mut \w+|\bOption<|\bResult<|\bVec<"),
    // JavaScript / TypeScript
    (
        Language::JavaScript,
        2,
        r"^\s*(export )?(async )?function\*? ?\w*\s*\(",
    ),
    (
        Language::JavaScript,
        2,
        r"\brequire\(['\x22][^'\x22]+['\x22]\)",
    ),
    (
        Language::JavaScript,
        3,
        r"^\s*module\.exports\b|^exports\.\w+ =",
    ),
    (Language::JavaScript, 1, r"^\s*(const|let|var) \w+ = "),
    (Language::JavaScript, 1, r"=> \{?|\bconsole\.\w+\("),
    (
        Language::JavaScript,
        2,
        r"^import .* from ['\x22][^'\x22]+['\x22];?$",
    ),
    (
        Language::JavaScript,
        2,
        r"^export (default |const |class |function |\{)",
    ),
    (
        Language::TypeScript,
        4,
        r"^\s*(export )?(declare )?interface \w+",
    ),
    (
        Language::TypeScript,
        4,
        r"^\s*(export )?(declare )?type \w+(<[^>]*>)? = ",
    ),
    (Language::TypeScript, 3, r"^import type "),
    (
        Language::TypeScript,
        2,
        r"\w\??: (string|number|boolean|any|unknown|void|never|Promise<|Array<|Record<)",
    ),
    (
        Language::TypeScript,
        2,
        r"^\s*(public|private|protected|readonly) \w+\??: ",
    ),
    (Language::TypeScript, 1, r"\bas const\b|\bas \w+[;)]"),
    (
        Language::Tsx,
        3,
        r"^\s*<[A-Z]\w*[ />]|^\s*</\w+>|return \($",
    ),
    // Java
    (Language::Java, 6, r"^package [\w.]+;\s*$"),
    (Language::Java, 3, r"^import (static )?[\w.]+(\.\*)?;\s*$"),
    (
        Language::Java,
        3,
        r"^\s*(public |protected |private )?(abstract |final )*(class|interface|enum|record) \w+",
    ),
    (Language::Java, 3, r"^\s*@Override\s*$"),
    (Language::Java, 2, r"\bSystem\.(out|err)\.print"),
    (
        Language::Java,
        2,
        r"^\s*(public|private|protected) (static )?(final )?[\w<>\[\], ]+ \w+\(.*\)( throws [\w., ]+)? \{",
    ),
    // C / C++
    (Language::C, 2, r"^#include [<\x22][\w/.]+[>\x22]"),
    (Language::C, 1, r"^#(define|ifdef|ifndef|endif|if|pragma)\b"),
    (
        Language::C,
        2,
        r"^(static )?(inline )?(const )?(unsigned |signed )?(int|void|char|long|short|double|float|size_t|bool|struct \w+|\w+_t) \**\w+\(",
    ),
    (Language::C, 1, r"\b(printf|malloc|free|memcpy|sizeof)\("),
    (Language::Cpp, 3, r"\bstd::"),
    (
        Language::Cpp,
        3,
        r"^\s*namespace [\w:]+ \{|^\s*namespace \w+$",
    ),
    (Language::Cpp, 3, r"^\s*template\s*<"),
    (Language::Cpp, 3, r"^\s*(public|private|protected):\s*$"),
    (
        Language::Cpp,
        3,
        r"#include <(iostream|vector|string|memory|map|unordered_map|algorithm|utility|cstdint|cstddef|cstring|type_traits|functional|array)>",
    ),
    (
        Language::Cpp,
        2,
        r"\bnullptr\b|\bconstexpr\b|\bnoexcept\b|\boverride\b|\bvirtual\b",
    ),
    (Language::Cpp, 1, r"\bauto \w+ = |::\w+\("),
    // C#
    (Language::CSharp, 6, r"^using System(\.[\w.]+)?;\s*$"),
    (Language::CSharp, 3, r"^using [\w.]+;\s*$"),
    (Language::CSharp, 2, r"^namespace [\w.]+;?\s*$"),
    (Language::CSharp, 4, r"\{ get; (private |init; |set; )?"),
    (
        Language::CSharp,
        2,
        r"^\s*(public|private|internal|protected) (static |async |override |virtual |sealed |partial |readonly )*(class|struct|interface|enum|record|void|Task|string|int|bool) ",
    ),
    (Language::CSharp, 2, r"^\s*\[\w+(\(.*\))?\]\s*$"),
    // Ruby
    (
        Language::Ruby,
        3,
        r"^\s*def (self\.)?\w+[?!=]?(\([^)]*\))?\s*$",
    ),
    (Language::Ruby, 2, r"^\s*end\s*$"),
    (Language::Ruby, 3, r"^require(_relative)? ['\x22]"),
    (Language::Ruby, 2, r"^\s*module [A-Z]\w*(::\w+)*\s*$"),
    (
        Language::Ruby,
        3,
        r"^\s*class [A-Z]\w*(::\w+)*( < [\w:]+)?\s*$",
    ),
    (Language::Ruby, 3, r"^\s*attr_(reader|writer|accessor) :"),
    (Language::Ruby, 3, r"\bdo \|[\w, ]+\|\s*$"),
    // PHP
    (Language::Php, 20, r"^<\?php"),
    (Language::Php, 3, r"\$this->\w+"),
    (Language::Php, 3, r"^namespace [\w\\]+;\s*$"),
    (Language::Php, 3, r"^use [\w\\]+( as \w+)?;\s*$"),
    (
        Language::Php,
        2,
        r"^\s*(public |private |protected )?(static )?function \w+\(.*\$",
    ),
    // Kotlin
    (
        Language::Kotlin,
        3,
        r"^\s*((private|public|internal|override|suspend|inline|open|abstract) )*fun (<[^>]*> )?[\w.]+\(",
    ),
    (
        Language::Kotlin,
        2,
        r"^\s*(private |public |internal )?(val|var) \w+(: [\w<>?, ]+)? = [^&]",
    ),
    (Language::Kotlin, 3, r"^package \w+(\.\w+)+\s*$"),
    (Language::Kotlin, 2, r"^import \w+(\.\w+)+(\.\*)?\s*$"),
    (
        Language::Kotlin,
        3,
        r"^\s*(data|sealed|enum|inline|value|open|abstract) class \w+",
    ),
    (
        Language::Kotlin,
        3,
        r"^\s*companion object|^\s*object \w+ \{|\?\.let \{",
    ),
    // Swift
    (
        Language::Swift,
        6,
        r"^import (Foundation|UIKit|SwiftUI|XCTest|Combine|AppKit|Dispatch)\s*$",
    ),
    (
        Language::Swift,
        3,
        r"^\s*((public|private|internal|fileprivate|open|static|override|mutating|@\w+) )*func \w+(<[^>]*>)?\(.*\)\s*(throws )?(-> .+)?\{?\s*$",
    ),
    (
        Language::Swift,
        3,
        r"^\s*guard (let|var) |^\s*if let \w+ = ",
    ),
    (
        Language::Swift,
        2,
        r"^\s*((public|private|internal|fileprivate|open|final) )*(struct|class|enum|protocol|extension) \w+(: [\w, .]+)? \{",
    ),
    (
        Language::Swift,
        2,
        r"^\s*@(objc|IBOutlet|IBAction|State|Published|MainActor|available)\b",
    ),
    (
        Language::Swift,
        1,
        r"^\s*(let|var) \w+: [\w\[\]?<>]+( = |\s*$)",
    ),
    // Scala
    (Language::Scala, 3, r"^\s*(case )?object \w+"),
    (
        Language::Scala,
        3,
        r"^\s*(final |sealed |abstract )*case class \w+",
    ),
    (
        Language::Scala,
        3,
        r"^\s*((override|private|protected|final|implicit) )*def \w+(\[[^\]]*\])?(\(.*\))*(: [^=]+)? =\s*",
    ),
    (Language::Scala, 2, r"^import [\w.]+\.(_|\{[^}]*\})\s*$"),
    (Language::Scala, 2, r"^\s*(sealed )?trait \w+"),
    (
        Language::Scala,
        3,
        r"\bextends \w+( with \w+)+|\bimplicit \w+",
    ),
    // Shell
    (
        Language::Shell,
        3,
        r"^\s*(if|elif|while|until) .*; *then\s*$|^\s*(for|while) .*; *do\s*$",
    ),
    (Language::Shell, 3, r"^\s*(fi|done|esac)\s*(;.*)?$"),
    (Language::Shell, 2, r"^\s*(function )?[\w-]+ ?\(\) ?\{?\s*$"),
    (
        Language::Shell,
        2,
        r"^\s*(export|local|readonly|declare) [A-Za-z_]\w*(=|\s*$)",
    ),
    (Language::Shell, 1, r"\$\{?[A-Za-z_]\w*\}?|\$\(|\becho "),
];

static SET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(VOTES.iter().map(|v| format!("(?-u){}", v.2))).expect("language vote patterns")
});

/// The language a `#!` line names.
pub fn shebang(first: &str) -> Option<Language> {
    let rest = first.strip_prefix("#!")?;
    let mut words = rest.split_whitespace();
    let prog = words.next()?;
    let prog = if prog.ends_with("/env") {
        words.find(|w| !w.starts_with('-'))?
    } else {
        prog
    };
    let name = prog.rsplit('/').next().unwrap_or(prog);
    let name = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match name {
        "sh" | "bash" | "zsh" | "ksh" | "dash" | "ash" | "mksh" => Language::Shell,
        "python" | "pypy" => Language::Python,
        "node" | "nodejs" | "deno" | "bun" => Language::JavaScript,
        "ts-node" | "tsx" => Language::TypeScript,
        "ruby" => Language::Ruby,
        "php" => Language::Php,
        "kotlin" | "kscript" => Language::Kotlin,
        "swift" => Language::Swift,
        "scala" => Language::Scala,
        _ => return None,
    })
}

/// Votes per language over the first lines of `text`, how many non-blank
/// lines were read, and whether a strong line voted.
type Votes = ([i32; 16], usize, bool);

/// The [`Votes`] of `text`'s first lines.
fn votes(text: &str) -> Votes {
    let mut score = [0i32; 16];
    let mut strong = false;
    let mut read = 0;
    let mut in_block_comment = false;
    for line in text.lines().take(SAMPLE_LINES) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        // C-style block comments hold prose that would vote.
        if in_block_comment {
            if t.contains("*/") {
                in_block_comment = false;
            }
            continue;
        }
        if t.starts_with("/*") && !t.contains("*/") {
            in_block_comment = true;
            continue;
        }
        if line.len() > 400 {
            continue;
        }
        // Comment lines are prose: they neither vote nor count.
        if t.starts_with("//") || t.starts_with("* ") || t.starts_with("# ") {
            continue;
        }
        read += 1;
        for i in SET.matches(line.as_bytes()) {
            let (lang, w, _) = VOTES[i];
            score[lang as usize] += w;
            strong |= w >= 6;
        }
    }
    (score, read, strong)
}

/// The languages `text` may be written in, most likely first: the
/// identified one, then the others that got votes (the code compressor
/// takes the first whose grammar parses the file).
pub fn ranked(text: &str) -> Vec<Language> {
    // One vote serves both the choice and the ranking.
    let v = votes(text);
    let Some(first) = declared(text).or_else(|| decide(&v)) else {
        return Vec::new();
    };
    let s = v.0;
    let mut rest: Vec<(i32, Language)> = Language::ALL
        .into_iter()
        .filter(|&l| l != first && s[l as usize] > 0)
        .map(|l| (s[l as usize], l))
        .collect();
    rest.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut out = vec![first];
    // Family members the votes do not separate well.
    let family: &[Language] = match first {
        Language::C => &[Language::Cpp],
        Language::Cpp => &[Language::C],
        Language::JavaScript => &[Language::TypeScript, Language::Tsx],
        Language::TypeScript => &[Language::Tsx, Language::JavaScript],
        Language::Tsx => &[Language::TypeScript],
        _ => &[],
    };
    out.extend(family.iter().copied());
    for (_, l) in rest.into_iter().take(2) {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// The language of `text`, if it reads as source code of one of ours.
pub fn identify(text: &str) -> Option<Language> {
    declared(text).or_else(|| decide(&votes(text)))
}

/// The language `text` names itself: a `#!` line, `<?php`.
fn declared(text: &str) -> Option<Language> {
    let first = text.lines().next().unwrap_or("");
    if let Some(l) = shebang(first) {
        return Some(l);
    }
    text.trim_start()
        .starts_with("<?php")
        .then_some(Language::Php)
}

/// The language the votes name, if they are evidence enough.
fn decide(&(mut s, read, strong): &Votes) -> Option<Language> {
    if read == 0 {
        return None;
    }
    let get = |s: &[i32; 16], l: Language| s[l as usize];
    // Families: a TypeScript file also votes JavaScript; C++ also votes C;
    // TSX is TypeScript (or JavaScript) with JSX.
    let js = get(&s, Language::JavaScript);
    let ts = get(&s, Language::TypeScript);
    let jsx = get(&s, Language::Tsx);
    s[Language::TypeScript as usize] = if ts > 0 { ts + js } else { 0 };
    s[Language::Tsx as usize] = 0;
    let c = get(&s, Language::C);
    let cpp = get(&s, Language::Cpp);
    s[Language::Cpp as usize] = if cpp > 0 { cpp + c } else { 0 };
    // Kotlin and Scala share Java's package line without the semicolon.
    let mut best = Language::Go;
    for l in Language::ALL {
        if get(&s, l) > get(&s, best) {
            best = l;
        }
    }
    let top = get(&s, best);
    // Enough evidence: a few strong lines, and more than a stray keyword
    // in prose.
    // A header line only source has (`package x`, `using System;`) is
    // enough with a few more.
    let needed = if strong { 9 } else { 6.max((read as i32) / 25) };
    if top < needed {
        return None;
    }
    Some(match best {
        Language::TypeScript | Language::JavaScript if jsx >= 6 => Language::Tsx,
        l => l,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_languages_by_their_lines() {
        let cases: &[(&str, Language)] = &[
            (
                "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n",
                Language::Go,
            ),
            (
                "import os\n\n\nclass A:\n    def f(self, x):\n        return self.y\n\n\ndef g():\n    pass\n",
                Language::Python,
            ),
            (
                "use std::io;\n\npub struct A {\n    x: u8,\n}\n\nimpl A {\n    pub fn new() -> A {\n        let mut a = A { x: 0 };\n        a\n    }\n}\n",
                Language::Rust,
            ),
            (
                "const fs = require('fs');\n\nfunction read(p) {\n  return fs.readFileSync(p);\n}\n\nmodule.exports = { read };\n",
                Language::JavaScript,
            ),
            (
                "import { x } from './x';\n\nexport interface Point {\n  x: number;\n  y: number;\n}\n\nexport function len(p: Point): number {\n  return Math.hypot(p.x, p.y);\n}\n",
                Language::TypeScript,
            ),
            (
                "package com.example;\n\nimport java.util.List;\n\npublic class A {\n    @Override\n    public String toString() {\n        return \"a\";\n    }\n}\n",
                Language::Java,
            ),
            (
                "#include <stdio.h>\n#include <stdlib.h>\n\nint main(void) {\n    printf(\"hi\\n\");\n    return 0;\n}\n",
                Language::C,
            ),
            (
                "#include <vector>\n#include <string>\n\nnamespace app {\n\ntemplate <typename T>\nclass Box {\n public:\n  T get() const noexcept { return v_; }\n private:\n  T v_;\n};\n\n}  // namespace app\n",
                Language::Cpp,
            ),
            (
                "using System;\nusing System.Linq;\n\nnamespace App\n{\n    public class A\n    {\n        public int X { get; set; }\n    }\n}\n",
                Language::CSharp,
            ),
            (
                "require 'json'\n\nmodule Foo\n  class Bar < Base\n    attr_reader :x\n\n    def initialize(x)\n      @x = x\n    end\n  end\nend\n",
                Language::Ruby,
            ),
            (
                "<?php\nnamespace App;\n\nclass A {\n    public function f($x) { return $this->y; }\n}\n",
                Language::Php,
            ),
            (
                "package app\n\nimport kotlinx.coroutines.launch\n\ndata class P(val x: Int)\n\nfun main() {\n    val p = P(1)\n    println(p)\n}\n",
                Language::Kotlin,
            ),
            (
                "import Foundation\n\nstruct P: Codable {\n    let x: Int\n}\n\nfunc f(p: P) -> Int {\n    guard let y = Optional(p.x) else { return 0 }\n    return y\n}\n",
                Language::Swift,
            ),
            (
                "package app\n\nimport scala.collection.mutable._\n\nobject Main {\n  case class P(x: Int)\n  def f(p: P): Int = p.x\n}\n",
                Language::Scala,
            ),
            ("#!/bin/bash\nset -e\necho hi\n", Language::Shell),
            (
                "foo() {\n  local x=1\n  if [ -n \"$x\" ]; then\n    echo \"$x\"\n  fi\n}\n",
                Language::Shell,
            ),
        ];
        for (src, want) in cases {
            assert_eq!(identify(src), Some(*want), "{src}");
        }
    }

    #[test]
    fn prose_is_no_language() {
        assert_eq!(
            identify("We return the class and import the package.\nIt is fine.\n"),
            None
        );
    }
}
