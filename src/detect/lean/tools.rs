//! Output of test runners, compilers, build tools and package managers.

use std::sync::LazyLock;

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

static TOOL_SET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(TOOL_PATTERNS.iter().map(|p| format!("(?-u){}", p.1)))
        .expect("tool output patterns")
});

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
    for l in s.non_blank_lines() {
        if l.len() > 1000 {
            continue;
        }
        if let Some(i) = TOOL_SET.first(l.as_bytes()) {
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
