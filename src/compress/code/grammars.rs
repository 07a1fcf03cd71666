//! The grammar of each language the lean skeleton reads, and what of its
//! syntax tree is a function body, a long literal or a comment.

use crate::detect::Language;

/// How a body is written, and so how its elision is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// `{ … }`: the braces stay around a comment line.
    Braces,
    /// An indented block: `...` (Python) or `???` (Scala) and a comment.
    Indented(&'static str),
    /// Statements up to `end` (Ruby): a comment line in their place.
    Statements,
    /// `{ … }` where a body needs a command (shell): `:` and a comment.
    ShellBraces,
}

pub(super) struct Grammar {
    pub language: fn() -> tree_sitter::Language,
    /// Nodes whose body is elided.
    pub funcs: &'static [&'static str],
    /// A function's body when the grammar has no `body` field: the first
    /// child of one of these kinds (a wrapper is looked into once).
    pub bodies: &'static [&'static str],
    /// Literals whose contents are elided when long, outside bodies.
    pub literals: &'static [&'static str],
    pub style: Style,
    /// The line comment that starts a marker.
    pub comment: &'static str,
}

fn go() -> tree_sitter::Language {
    tree_sitter_go::LANGUAGE.into()
}
fn python() -> tree_sitter::Language {
    tree_sitter_python::LANGUAGE.into()
}
fn javascript() -> tree_sitter::Language {
    tree_sitter_javascript::LANGUAGE.into()
}
fn typescript() -> tree_sitter::Language {
    tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
}
fn tsx() -> tree_sitter::Language {
    tree_sitter_typescript::LANGUAGE_TSX.into()
}
fn rust() -> tree_sitter::Language {
    tree_sitter_rust::LANGUAGE.into()
}
fn java() -> tree_sitter::Language {
    tree_sitter_java::LANGUAGE.into()
}
fn c() -> tree_sitter::Language {
    tree_sitter_c::LANGUAGE.into()
}
fn cpp() -> tree_sitter::Language {
    tree_sitter_cpp::LANGUAGE.into()
}
fn csharp() -> tree_sitter::Language {
    tree_sitter_c_sharp::LANGUAGE.into()
}
fn ruby() -> tree_sitter::Language {
    tree_sitter_ruby::LANGUAGE.into()
}
fn php() -> tree_sitter::Language {
    tree_sitter_php::LANGUAGE_PHP.into()
}
fn kotlin() -> tree_sitter::Language {
    tree_sitter_kotlin_ng::LANGUAGE.into()
}
fn swift() -> tree_sitter::Language {
    tree_sitter_swift::LANGUAGE.into()
}
fn scala() -> tree_sitter::Language {
    tree_sitter_scala::LANGUAGE.into()
}
fn bash() -> tree_sitter::Language {
    tree_sitter_bash::LANGUAGE.into()
}

const JS_FUNCS: &[&str] = &[
    "function_declaration",
    "function_expression",
    "generator_function_declaration",
    "generator_function",
    "method_definition",
    "arrow_function",
    "class_static_block",
];
const JS_LITERALS: &[&str] = &["array", "object", "template_string"];

pub(super) fn of(l: Language) -> Grammar {
    match l {
        Language::Go => Grammar {
            language: go,
            funcs: &["function_declaration", "method_declaration", "func_literal"],
            bodies: &[],
            literals: &["literal_value"],
            style: Style::Braces,
            comment: "//",
        },
        Language::Python => Grammar {
            language: python,
            funcs: &["function_definition"],
            bodies: &[],
            literals: &["list", "dictionary", "set", "tuple"],
            style: Style::Indented("..."),
            comment: "#",
        },
        Language::JavaScript => Grammar {
            language: javascript,
            funcs: JS_FUNCS,
            bodies: &[],
            literals: JS_LITERALS,
            style: Style::Braces,
            comment: "//",
        },
        Language::TypeScript | Language::Tsx => Grammar {
            language: if l == Language::Tsx { tsx } else { typescript },
            funcs: JS_FUNCS,
            bodies: &[],
            literals: JS_LITERALS,
            style: Style::Braces,
            comment: "//",
        },
        Language::Rust => Grammar {
            language: rust,
            funcs: &["function_item", "closure_expression"],
            bodies: &[],
            literals: &["array_expression"],
            style: Style::Braces,
            comment: "//",
        },
        Language::Java => Grammar {
            language: java,
            funcs: &[
                "method_declaration",
                "constructor_declaration",
                "compact_constructor_declaration",
                "lambda_expression",
            ],
            bodies: &[],
            literals: &["array_initializer"],
            style: Style::Braces,
            comment: "//",
        },
        Language::C => Grammar {
            language: c,
            funcs: &["function_definition"],
            bodies: &[],
            literals: &["initializer_list"],
            style: Style::Braces,
            comment: "//",
        },
        Language::Cpp => Grammar {
            language: cpp,
            funcs: &["function_definition", "lambda_expression"],
            bodies: &[],
            literals: &["initializer_list"],
            style: Style::Braces,
            comment: "//",
        },
        Language::CSharp => Grammar {
            language: csharp,
            funcs: &[
                "method_declaration",
                "constructor_declaration",
                "destructor_declaration",
                "operator_declaration",
                "conversion_operator_declaration",
                "local_function_statement",
                "accessor_declaration",
                "lambda_expression",
            ],
            bodies: &[],
            literals: &["initializer_expression"],
            style: Style::Braces,
            comment: "//",
        },
        Language::Ruby => Grammar {
            language: ruby,
            funcs: &["method", "singleton_method"],
            bodies: &[],
            literals: &["array", "hash"],
            style: Style::Statements,
            comment: "#",
        },
        Language::Php => Grammar {
            language: php,
            funcs: &[
                "function_definition",
                "method_declaration",
                "anonymous_function",
            ],
            bodies: &[],
            literals: &["array_creation_expression"],
            style: Style::Braces,
            comment: "//",
        },
        Language::Kotlin => Grammar {
            language: kotlin,
            funcs: &[
                "function_declaration",
                "secondary_constructor",
                "anonymous_initializer",
                "getter",
                "setter",
            ],
            bodies: &["function_body", "block"],
            literals: &[],
            style: Style::Braces,
            comment: "//",
        },
        Language::Swift => Grammar {
            language: swift,
            funcs: &[
                "function_declaration",
                "init_declaration",
                "deinit_declaration",
            ],
            bodies: &["function_body"],
            literals: &["array_literal", "dictionary_literal"],
            style: Style::Braces,
            comment: "//",
        },
        Language::Scala => Grammar {
            language: scala,
            funcs: &["function_definition"],
            bodies: &[],
            literals: &[],
            style: Style::Indented("???"),
            comment: "//",
        },
        Language::Shell => Grammar {
            language: bash,
            funcs: &["function_definition"],
            bodies: &[],
            literals: &[],
            style: Style::ShellBraces,
            comment: "#",
        },
    }
}
