//! Output of test runners, compilers, build tools and package managers.

use std::sync::{Arc, LazyLock, Mutex};

use aho_corasick::AhoCorasick;

use crate::rx::RegexSet;

use super::{share, Ctx, Hit};
use crate::content_type::ContentType;

/// Lines that only test runners, compilers, build tools and package
/// managers print, by tool.
const TOOL_PATTERNS: &[(&str, &str)] = &[
    // pytest
    (
        "pytest",
        r"^=+ (test session starts|FAILURES|ERRORS|short test summary info|warnings summary|PASSES)\b.*=+$",
    ),
    (
        "pytest",
        r"^=+ .*\b(passed|failed|error|errors|skipped|xfailed|xpassed|deselected)\b.* in [\d.]+s.*=+$",
    ),
    (
        "pytest",
        r"^\S+\.py::\S+ (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b",
    ),
    (
        "pytest",
        r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) \S+\.py::",
    ),
    (
        "pytest",
        r"^(platform \w+ -- Python|rootdir: |collected \d+ items?|collecting \.\.\.)",
    ),
    ("pytest", r"^_{3,} .+ _{3,}$"),
    ("pytest", r"^\S+\.py [.FEsxX]+\s+\[\s*\d+%\]$"),
    // go test
    ("go test", r"^=== (RUN|PAUSE|CONT|NAME)\s+\S+"),
    ("go test", r"^\s*--- (PASS|FAIL|SKIP): \S+ \("),
    (
        "go test",
        r"^(ok|FAIL|\?)\s+\S+\s+(\(cached\)|[\d.]+s|\[no test files\])",
    ),
    (
        "go test",
        r"^\s*(PASS|FAIL|SKIP|EMPTY) (Package )?\S+( \(.*\))?$",
    ),
    ("go test", r"^(DONE|PASS|FAIL) \d+ tests?"),
    ("go test", r"^::(group|endgroup|error|warning)::"),
    // cargo / rustc
    (
        "cargo",
        r"^\s+(Compiling|Checking|Finished|Running|Downloaded|Downloading|Updating|Locking|Adding|Fresh|Documenting|Doc-tests|Installing|Installed|Packaging|Verifying|Uploading|Blocking|Removing) \S",
    ),
    ("cargo", r"^(error|warning)(\[E\d{4}\])?: "),
    ("cargo", r"^\s*--> [^\s:]+:\d+:\d+$"),
    ("cargo", r"^test \S+ \.\.\. (ok|FAILED|ignored|bench)"),
    ("cargo", r"^test result: (ok|FAILED)\. \d+ passed"),
    ("cargo", r"^running \d+ tests?$"),
    // jest / mocha / vitest
    ("jest", r"^\s*(PASS|FAIL) \S+\.(js|ts|jsx|tsx|mjs|cjs)\b"),
    ("jest", r"^(Tests|Test Suites|Snapshots):\s+\d+"),
    ("jest", r"^\s*(✓|✔|✕|✗|×|√) "),
    ("jest", r"^\s*\d+ (passing|failing|pending) \("),
    // maven / gradle
    ("maven", r"^\[(INFO|WARNING|WARN|ERROR|DEBUG)\] "),
    ("maven", r"BUILD (SUCCESS|FAILURE|SUCCESSFUL|FAILED)"),
    ("gradle", r"^> Task :\S+"),
    (
        "gradle",
        r"^:[\w:-]+( (UP-TO-DATE|NO-SOURCE|FROM-CACHE|SKIPPED|FAILED))?$",
    ),
    (
        "gradle",
        r"^BUILD (SUCCESSFUL|FAILED) in \d|^\d+ actionable tasks?: ",
    ),
    (
        "gradle",
        r"^(FAILURE: Build failed|\* What went wrong:|\* Try:)",
    ),
    // javac, tsc, eslint, dotnet, go build
    ("javac", r"^\S+\.java:\d+: (error|warning): "),
    ("javac", r"^\d+ (errors?|warnings?)$|^Note: \S+\.java "),
    ("tsc", r"\(\d+,\d+\): (error|warning) TS\d+: "),
    ("tsc", r"^Found \d+ errors?( in \d+ files?)?\.?$"),
    ("eslint", r"^\s+\d+:\d+\s+(error|warning)\s+\S"),
    ("eslint", r"^✖ \d+ problems? \("),
    ("dotnet", r": (error|warning) [A-Z]{2,}\d{3,}: "),
    (
        "dotnet",
        r"^Build (succeeded|FAILED)\.$|^\s+\d+ (Warning|Error)\(s\)$",
    ),
    ("go build", r"^# \S+$"),
    ("go build", r"^\S+\.go:\d+:\d+: "),
    // rspec, TAP, phpunit
    (
        "rspec",
        r"^\d+ examples?, \d+ failures?|^rspec \./\S+:\d+ |^Failures:$",
    ),
    ("tap", r"^(not )?ok \d+\b|^1\.\.\d+$"),
    (
        "phpunit",
        r"^PHPUnit \d|^(OK|FAILURES!) \(\d+ tests?|^Tests: \d+, Assertions: \d+",
    ),
    // cmake, ninja, bazel
    (
        "cmake",
        r"^-- (The \w+ compiler|Configuring done|Generating done|Build files have been written|Looking for|Performing Test|Found )",
    ),
    (
        "cmake",
        r"^\[\s*\d+%\] (Building|Linking|Built target|Generating)",
    ),
    ("ninja", r"^\[\d+/\d+\] \S"),
    (
        "bazel",
        r"^(INFO|ERROR|WARNING): .*(packages? loaded|targets? configured|Build completed|Elapsed time)",
    ),
    // terraform, ansible
    (
        "terraform",
        r"^(Terraform will perform|Plan: \d+ to add|Apply complete!|No changes\.|Terraform has been successfully)",
    ),
    (
        "terraform",
        r"^\s+# \S+ (will be|must be) (created|destroyed|updated|replaced)",
    ),
    (
        "ansible",
        r"^(TASK|PLAY|RUNNING HANDLER) \[.*\] \*+$|^PLAY RECAP \*+",
    ),
    ("ansible", r"^(ok|changed|skipping|fatal|failed): \["),
    // bundler, composer
    (
        "bundler",
        r"^(Fetching|Installing|Using) \S+ \d+(\.\d+)*|^Bundle complete!",
    ),
    (
        "composer",
        r"^\s+- (Installing|Updating|Removing|Downloading) \S+/\S+ \(",
    ),
    // git porcelain
    (
        "git",
        r"^(On branch \S+|Your branch is |Changes (not staged|to be committed)|Untracked files:|nothing to commit)",
    ),
    (
        "git",
        r"^(To|From) \S+\n?$|^ \* \[new (branch|tag)\]|^\s+[0-9a-f]{7,}\.\.[0-9a-f]{7,}\s",
    ),
    // make / compilers
    ("make", r"^make(\[\d+\])?: "),
    (
        "make",
        r"^\S+\.(c|cc|cpp|h|hpp|go|rs|java|ts|py|m|swift):\d+:\d+: (error|warning|note): ",
    ),
    (
        "make",
        r"^\s*(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|ld|ar|javac|tsc) \S",
    ),
    ("make", r"^\s*(CC|CXX|LD|AR|CCLD|GEN)\s+\S"),
    // npm / yarn / pnpm
    (
        "npm",
        r"^npm (ERR!|WARN|notice|warn|error|http|info|verb|sill|timing)\b",
    ),
    ("npm", r"^(added|removed|changed|audited) \d+ packages?"),
    ("npm", r"^(up to date|found \d+ vulnerabilit)"),
    ("yarn", r"^\[\d+/\d+\] |^yarn (install|run|add) v"),
    // pip
    (
        "pip",
        r"^\s*(Collecting|Downloading|Requirement already satisfied|Installing collected packages|Successfully installed|Successfully built|Building wheels? for|Using cached|Obtaining|Preparing metadata|Attempting uninstall|Found existing installation|Uninstalling|Created wheel for|Stored in directory|Processing) ",
    ),
    // docker build
    ("docker build", r"^Step \d+/\d+ : "),
    (
        "docker build",
        r"^#\d+ (\[internal\]|\[[\w-]* ?\d+/\d+\]|DONE [\d.]+s|CACHED|ERROR|sha256:|extracting|resolve|transferring)",
    ),
    ("docker build", r"^ ---> "),
    (
        "docker build",
        r"^(Successfully (built|tagged)|Sending build context)",
    ),
    // apt / dpkg
    ("apt", r"^(Get|Hit|Ign|Err):\d+ "),
    (
        "apt",
        r"^(Reading package lists|Building dependency tree|Reading state information|Setting up |Unpacking |Selecting previously unselected|Preparing to unpack|Processing triggers for)",
    ),
    // jtreg / generic test reports
    (
        "test report",
        r"^(Passed|Failed|FAILED|Error): \S+\.(java|sh|py|js|ts)",
    ),
    ("test report", r"^(Test results|Tests run): "),
    // Python
    ("python", r"^Traceback \(most recent call last\):$"),
    ("python", r#"^  File "[^"]+", line \d+"#),
    // a shell prompt line
    ("shell session", r"^\$ \S"),
];

/// What every match of each of [`TOOL_PATTERNS`] holds (same index): at
/// least one of these strings. A pattern none of whose strings occurs in
/// a sample cannot match any of its lines, so it is not compiled for that
/// sample (compiling the whole set costs more than reading most samples;
/// the tests check these strings against each pattern).
const TOOL_NEEDLES: [&[&str]; TOOL_PATTERNS.len()] = [
    // pytest
    &[
        "test session starts",
        "FAILURES",
        "ERRORS",
        "short test summary info",
        "warnings summary",
        "PASSES",
    ],
    &["= "],
    &[".py::"],
    &[".py::"],
    &["platform ", "rootdir: ", "collected ", "collecting ..."],
    &["___ "],
    &[".py "],
    // go test
    &["=== "],
    &["--- PASS: ", "--- FAIL: ", "--- SKIP: "],
    &["ok", "FAIL", "?"],
    &["PASS ", "FAIL ", "SKIP ", "EMPTY "],
    &["DONE ", "PASS ", "FAIL "],
    &["::"],
    // cargo / rustc
    &[
        "Compiling ",
        "Checking ",
        "Finished ",
        "Running ",
        "Downloaded ",
        "Downloading ",
        "Updating ",
        "Locking ",
        "Adding ",
        "Fresh ",
        "Documenting ",
        "Doc-tests ",
        "Installing ",
        "Installed ",
        "Packaging ",
        "Verifying ",
        "Uploading ",
        "Blocking ",
        "Removing ",
    ],
    &["error", "warning"],
    &["--> "],
    &[" ... "],
    &["test result: "],
    &["running "],
    // jest / mocha / vitest
    &["PASS ", "FAIL "],
    &["Tests:", "Test Suites:", "Snapshots:"],
    &[
        "\u{2713} ",
        "\u{2714} ",
        "\u{2715} ",
        "\u{2717} ",
        "\u{d7} ",
        "\u{221a} ",
    ],
    &[" passing (", " failing (", " pending ("],
    // maven / gradle
    &["[INFO] ", "[WARNING] ", "[WARN] ", "[ERROR] ", "[DEBUG] "],
    &["BUILD "],
    &["> Task :"],
    &[":"],
    &["BUILD ", "actionable task"],
    &["FAILURE: Build failed", "* What went wrong:", "* Try:"],
    // javac, tsc, eslint, dotnet, go build
    &[".java:"],
    &[" error", " warning", "Note: "],
    &["): error TS", "): warning TS"],
    &["Found "],
    &["error", "warning"],
    &["\u{2716} "],
    &[": error ", ": warning "],
    &[
        "Build succeeded.",
        "Build FAILED.",
        " Warning(s)",
        " Error(s)",
    ],
    &["# "],
    &[".go:"],
    // rspec, TAP, phpunit
    &[" example", "rspec ./", "Failures:"],
    &["ok ", "1.."],
    &["PHPUnit ", "OK (", "FAILURES! (", "Tests: "],
    // cmake, ninja, bazel
    &["-- "],
    &["%] "],
    &["] "],
    &["loaded", "configured", "Build completed", "Elapsed time"],
    // terraform, ansible
    &[
        "Terraform will perform",
        "Plan: ",
        "Apply complete!",
        "No changes.",
        "Terraform has been successfully",
    ],
    &[" will be ", " must be "],
    &["TASK [", "PLAY [", "RUNNING HANDLER [", "PLAY RECAP "],
    &[": ["],
    // bundler, composer
    &["Fetching ", "Installing ", "Using ", "Bundle complete!"],
    &[
        "- Installing ",
        "- Updating ",
        "- Removing ",
        "- Downloading ",
    ],
    // git porcelain
    &[
        "On branch ",
        "Your branch is ",
        "Changes not staged",
        "Changes to be committed",
        "Untracked files:",
        "nothing to commit",
    ],
    &["To ", "From ", " * [new ", ".."],
    // make / compilers
    &["make"],
    &[": error: ", ": warning: ", ": note: "],
    &["cc ", "++ ", "clang ", "ld ", "ar ", "javac ", "tsc "],
    &["CC", "CXX", "LD", "AR", "GEN"],
    // npm / yarn / pnpm
    &["npm "],
    &[" package"],
    &["up to date", "found "],
    &["] ", "yarn "],
    // pip
    &[
        "Collecting ",
        "Downloading ",
        "Requirement already satisfied ",
        "Installing collected packages ",
        "Successfully installed ",
        "Successfully built ",
        "Building wheel",
        "Using cached ",
        "Obtaining ",
        "Preparing metadata ",
        "Attempting uninstall ",
        "Found existing installation ",
        "Uninstalling ",
        "Created wheel for ",
        "Stored in directory ",
        "Processing ",
    ],
    // docker build
    &["Step "],
    &["#"],
    &[" ---> "],
    &[
        "Successfully built",
        "Successfully tagged",
        "Sending build context",
    ],
    // apt / dpkg
    &["Get:", "Hit:", "Ign:", "Err:"],
    &[
        "Reading package lists",
        "Building dependency tree",
        "Reading state information",
        "Setting up ",
        "Unpacking ",
        "Selecting previously unselected",
        "Preparing to unpack",
        "Processing triggers for",
    ],
    // jtreg / generic test reports
    &["Passed: ", "Failed: ", "FAILED: ", "Error: "],
    &["Test results: ", "Tests run: "],
    // Python
    &["Traceback (most recent call last):"],
    &["  File \""],
    // a shell prompt line
    &["$ "],
];

/// Every needle of [`TOOL_NEEDLES`], and the pattern it is for.
static NEEDLES: LazyLock<(AhoCorasick, Vec<usize>)> = LazyLock::new(|| {
    let mut words = Vec::new();
    let mut owner = Vec::new();
    for (i, ns) in TOOL_NEEDLES.iter().enumerate() {
        for n in *ns {
            words.push(*n);
            owner.push(i);
        }
    }
    (AhoCorasick::new(words).expect("tool needles"), owner)
});

/// The tool patterns that may match a line of `text`: those with a needle
/// in it, in [`TOOL_PATTERNS`] order.
fn possible(text: &str) -> Vec<usize> {
    let (ac, owner) = &*NEEDLES;
    let mut may = vec![false; TOOL_PATTERNS.len()];
    for m in ac.find_overlapping_iter(text) {
        may[owner[m.pattern().as_usize()]] = true;
    }
    (0..may.len()).filter(|&i| may[i]).collect()
}

/// The patterns of `which` compiled as one set (its index `k` is
/// `which[k]`); the last few are kept (the MCP server reads many
/// payloads, most of one kind).
fn set_of(which: &[usize]) -> Arc<RegexSet> {
    static SETS: Mutex<Vec<(Vec<usize>, Arc<RegexSet>)>> = Mutex::new(Vec::new());
    let mut sets = SETS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, s)) = sets.iter().find(|(w, _)| w == which) {
        return Arc::clone(s);
    }
    let set = Arc::new(
        RegexSet::new(
            which
                .iter()
                .map(|&i| format!("(?-u){}", TOOL_PATTERNS[i].1)),
        )
        .expect("tool output patterns"),
    );
    if sets.len() == 8 {
        sets.remove(0);
    }
    sets.push((which.to_vec(), Arc::clone(&set)));
    set
}

/// Lines that belong to a tool's output besides its own patterns: a
/// compiler's `path:N:` diagnostics, indented continuations and source
/// snippets, caret lines.
fn follows(l: &str) -> bool {
    l.starts_with([' ', '\t'])
        || l.trim_start().starts_with(['^', '|', '~'])
        || crate::compress::shared::signal::is_error(l)
}

/// Output of a tool (test runner, compiler, build tool, package manager,
/// infrastructure tool), when enough lines are ones only such tools
/// print; its score counts those lines and the diagnostics and
/// continuations among them.
pub(super) fn tool_output<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    let mut n = 0;
    let mut by_tool: Vec<(&'static str, usize)> = Vec::new();
    // The other lines: read for diagnostics only once the tool's own
    // lines hold (the error classifier is dear to compile).
    let mut others = Vec::new();
    // Only the patterns that may match some line of the sample.
    let which = possible(s.text);
    let set = (!which.is_empty()).then(|| set_of(&which));
    for l in s.non_blank_lines() {
        if l.len() > 1000 {
            continue;
        }
        let first = set.as_ref().and_then(|set| set.first(l.as_bytes()));
        if let Some(i) = first.map(|k| which[k]) {
            n += 1;
            let tool = TOOL_PATTERNS[i].0;
            match by_tool.iter_mut().find(|t| t.0 == tool) {
                Some(t) => t.1 += 1,
                None => by_tool.push((tool, 1)),
            }
        } else {
            others.push(l);
        }
    }
    let strong = by_tool.iter().any(|t| t.0 != "shell session" && t.1 >= 2);
    if !(strong && (n * 8 >= s.non_blank || n >= 12)) {
        return None;
    }
    let explained = others.into_iter().filter(|l| follows(l)).count();
    let top = by_tool.iter().max_by_key(|t| t.1).map_or("", |t| t.0);
    let rule = match top {
        "pytest" => "test-runner output: pytest",
        "go test" => "test-runner output: go test / gotestsum",
        "cargo" => "compiler and build output: cargo/rustc",
        "jest" => "test-runner output: jest/mocha/vitest",
        "maven" => "build-tool output: maven",
        "gradle" => "build-tool output: gradle",
        "javac" => "compiler output: javac",
        "tsc" => "compiler output: tsc",
        "eslint" => "linter output: eslint",
        "dotnet" => "build output: dotnet/msbuild",
        "go build" => "compiler output: go build/vet",
        "rspec" => "test-runner output: rspec",
        "tap" => "test-runner output: TAP",
        "phpunit" => "test-runner output: phpunit",
        "cmake" | "ninja" => "build output: cmake/ninja",
        "bazel" => "build output: bazel",
        "terraform" => "infrastructure tool output: terraform",
        "ansible" => "infrastructure tool output: ansible",
        "bundler" | "composer" => "package-manager output: bundler/composer",
        "git" => "git command output",
        "python" => "a Python program's output with its traceback",
        "make" => "build output: make and compilers",
        "npm" => "package-manager output: npm",
        "yarn" => "package-manager output: yarn",
        "pip" => "package-manager output: pip",
        "docker build" => "build output: docker build",
        "apt" => "package-manager output: apt/dpkg",
        "test report" => "test-runner output: a test report",
        _ => "output of a command-line tool",
    };
    // A tool's output is named by its few own lines: they weigh double.
    let score = share(2 * n + explained, s.non_blank);
    Some(Hit::new(ContentType::Terminal, rule, score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::{Strategy, ValueTree};

    /// The pattern without anchors and word boundaries (which the
    /// generator does not take): it matches at least where the pattern
    /// does, so what its lines must hold, the pattern's must too.
    fn relaxed(p: &str) -> String {
        let mut out = String::new();
        let mut chars = p.chars().peekable();
        let mut class = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    let e = chars.next().unwrap();
                    if e != 'b' || class {
                        out.push(c);
                        out.push(e);
                    }
                }
                '[' if !class => {
                    class = true;
                    out.push(c);
                    if chars.peek() == Some(&'^') {
                        out.push(chars.next().unwrap());
                    }
                }
                ']' if class => {
                    class = false;
                    out.push(c);
                }
                '^' | '$' if !class => {}
                _ => out.push(c),
            }
        }
        out
    }

    /// Every match of each tool pattern holds one of its needles, on
    /// lines generated from the pattern.
    #[test]
    fn every_match_holds_a_needle() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        for (i, (_, p)) in TOOL_PATTERNS.iter().enumerate() {
            let gen = proptest::string::string_regex(&relaxed(p))
                .unwrap_or_else(|e| panic!("pattern {i} {p}: {e}"));
            let re = regex::Regex::new(p).unwrap();
            let mut matched = 0;
            for _ in 0..300 {
                let line = gen.new_tree(&mut runner).unwrap().current();
                if let Some(m) = re.find(&line) {
                    matched += 1;
                    assert!(
                        TOOL_NEEDLES[i].iter().any(|n| m.as_str().contains(n)),
                        "pattern {i} {p} matched {:?} without a needle",
                        m.as_str()
                    );
                }
            }
            assert!(matched > 0, "pattern {i} {p}: no generated line matched");
        }
    }

    /// The patterns compiled for a sample answer every line as the whole
    /// set does.
    #[test]
    fn the_possible_patterns_answer_as_all() {
        let all = &*ALL;
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/shapes");
        let mut texts: Vec<String> = std::fs::read_dir(dir)
            .expect("shapes folder")
            .map(|e| {
                String::from_utf8_lossy(&std::fs::read(e.unwrap().path()).unwrap()).into_owned()
            })
            .collect();
        texts.push(
            "=== RUN   TestA\n--- FAIL: TestA (0.01s)\nFAIL\texample.com/x\t0.02s\n\
             ok  \texample.com/y\t(cached)\n   Compiling a v0.1.0 (/x)\nerror[E0308]: mismatched types\n \
             --> src/main.rs:2:9\n[INFO] BUILD SUCCESS\n> Task :app:compileJava\n:app:build UP-TO-DATE\n\
             \u{2713} renders (3 ms)\nnpm ERR! code 1\n$ make\nmake[1]: Entering directory\n"
                .to_owned(),
        );
        let mut hits = 0;
        for t in &texts {
            let which = possible(t);
            let set = (!which.is_empty()).then(|| set_of(&which));
            for l in t.lines() {
                let want = all.first(l.as_bytes());
                let got = set
                    .as_ref()
                    .and_then(|s| s.first(l.as_bytes()))
                    .map(|k| which[k]);
                assert_eq!(got, want, "{l:?}");
                hits += usize::from(want.is_some());
            }
        }
        assert!(hits > 20, "{hits}");
    }

    /// The whole set, as detection compiled it before the prefilter.
    static ALL: LazyLock<RegexSet> = LazyLock::new(|| {
        RegexSet::new(TOOL_PATTERNS.iter().map(|p| format!("(?-u){}", p.1))).unwrap()
    });

    /// Random lines near the tools' own: needles, lines generated from
    /// the patterns, and stray text, in any order.
    fn near_lines() -> impl Strategy<Value = String> {
        use proptest::prelude::*;
        let needles: Vec<&str> = TOOL_NEEDLES
            .iter()
            .flat_map(|n| n.iter().copied())
            .collect();
        let from_patterns = proptest::strategy::Union::new(TOOL_PATTERNS.iter().map(|p| {
            proptest::string::string_regex(&relaxed(p.1))
                .unwrap()
                .boxed()
        }));
        let fragment = prop_oneof![
            proptest::sample::select(needles).prop_map(str::to_owned),
            from_patterns,
            "[ -~\t]{0,10}",
            proptest::sample::select(vec!["12", "0.01s", "(", ")", ": ", "src/a.rs", "  ", "="])
                .prop_map(str::to_owned),
        ];
        proptest::collection::vec(proptest::collection::vec(fragment, 0..5), 1..24).prop_map(
            |lines| {
                lines
                    .into_iter()
                    .map(|l| l.concat().replace('\n', " "))
                    .collect::<Vec<_>>()
                    .join("\n")
            },
        )
    }

    proptest::proptest! {
        /// On random text, the patterns the prefilter compiles answer
        /// every line as the whole set does.
        #[test]
        fn the_prefilter_answers_as_all_on_random_text(text in near_lines()) {
            let which = possible(&text);
            let set = (!which.is_empty()).then(|| set_of(&which));
            for l in text.lines() {
                let got = set
                    .as_ref()
                    .and_then(|s| s.first(l.as_bytes()))
                    .map(|k| which[k]);
                proptest::prop_assert_eq!(got, ALL.first(l.as_bytes()), "{:?}", l);
            }
        }
    }
}
