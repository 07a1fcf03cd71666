#!/usr/bin/env python3
"""A third unseen-style probe for by-eye reviews of lean views (stop 54).

Writes 60 tool outputs in formats bench/probe.py and bench/probe2.py do not
have (gh pr view/checks, git log -p, git diff --stat, rebase conflicts, cargo
tree, criterion, webpack/vite/esbuild, tsc --watch, pnpm/bun, pytest --tb
variants, hypothesis, unittest, go race, rustc multi-span, clang analyzer,
kubectl -o yaml, helm, terraform validate, ansible -vvv, Prometheus rules,
compose config, Cargo workspace, setup.cfg, .env.example, CHANGELOG, nroff
overstrike man, --help, mysql box, CSV multi-line fields, paginated JSON,
JSON Schema, HAR, aws logs, CRLF, CR progress bars, ANSI, German/Japanese
logs, minified JS, base64 in logs, Kotlin/C#/Ruby/Elixir/PHP traces), each
with one or two needles an agent would look for, into OUTDIR (default
./probe3-in), and OUTDIR/needles.json naming each needle. Deterministic
(fixed seed). Not corpus files: generated.

    python3 bench/probe3.py [OUTDIR]
"""
import json, os, random, sys, datetime as dt, base64

R = random.Random(20261209)
OUT = sys.argv[1] if len(sys.argv) > 1 else "probe3-in"
os.makedirs(OUT, exist_ok=True)
NEEDLES = {}
ALL = []


def reg(f):
    ALL.append(f)
    return f


def w(name, text, needle, raw=False):
    if not raw and not text.endswith("\n"):
        text += "\n"
    with open(os.path.join(OUT, name), "w", newline="") as f:
        f.write(text)
    NEEDLES[name] = needle


def hexs(n):
    return "".join(R.choice("0123456789abcdef") for _ in range(n))


def rid(n=5):
    return "".join(R.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(n))


T0 = dt.datetime(2026, 12, 7, 14, 2, 11)
SVCS = ["api-gateway", "orders", "payments", "inventory", "auth", "notifier", "search", "billing", "catalog", "cart"]
MODS = ["core", "net", "store", "util", "auth", "cache", "sched", "codec", "http", "db"]
PYMODS = ["models", "views", "services", "utils", "serializers", "tasks", "handlers", "forms"]


def ts(i, step=0.37):
    return (T0 + dt.timedelta(seconds=i * step)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


# ---------------- GitHub / git ----------------

@reg
def gh_pr_view():
    L = ["title:\tfeat(ledger): batch settlement writes", "state:\tOPEN", "author:\tmkowalski", "labels:\tenhancement, needs-review",
         "assignees:\t", "reviewers:\tjchen (Changes requested), apatel (Approved), ci-bot (Commented)", "projects:\t", "milestone:\tv4.2",
         "number:\t1873", "url:\thttps://github.com/acme/ledger/pull/1873", "additions:\t642", "deletions:\t118", "auto-merge:\tdisabled", "--"]
    L += ["## Summary", "", "Batch the settlement writes into one transaction per 500 rows instead of one per row.", ""]
    for i in range(30):
        L.append(f"- {R.choice(['Refactor', 'Add', 'Move', 'Rename', 'Test'])} `{R.choice(MODS)}::{R.choice(PYMODS)}` {R.choice(['helper', 'fixture', 'trait', 'call site'])} ({i})")
    L += ["", "## Test plan", "", "- [x] unit tests", "- [x] staging soak 24h", "- [ ] load test at 3x peak", "",
          "Closes #1790", ""]
    w("gh_pr_view.txt", "\n".join(L), "jchen requested changes (reviewers line); load test box unchecked")


@reg
def gh_pr_checks():
    # `gh pr checks` piped (not a TTY): tab-separated, no header, no summary line.
    L = []
    for os_ in ["ubuntu-latest", "macos-14", "windows-2022"]:
        for py in ["3.9", "3.10", "3.11", "3.12", "3.13"]:
            for part in range(1, 5):
                n, st, dur = f"test ({os_}, {py}, part {part}/4)", "pass", f"{R.randint(1, 14)}m{R.randint(0, 59)}s"
                if n == "test (windows-2022, 3.12, part 3/4)":
                    st = "fail"
                L.append(f"{n}\t{st}\t{dur}\thttps://github.com/acme/fastcsv/actions/runs/118{R.randint(10000000, 99999999)}/job/3{R.randint(10000000, 99999999)}")
    for n, st in [("lint", "pass"), ("typecheck", "pass"), ("docs", "pass"), ("build-wheels (aarch64)", "pending"), ("codecov/patch", "fail")]:
        L.append(f"{n}\t{st}\t{'0' if st != 'pass' else '2m3s'}\thttps://github.com/acme/fastcsv/actions/runs/118{R.randint(10000000, 99999999)}/job/3{R.randint(10000000, 99999999)}")
    w("gh_pr_checks.tsv", "\n".join(L), "fail: test (windows-2022, 3.12, part 3/4) and codecov/patch; pending aarch64; all others pass")


@reg
def json_logs_exc_info():
    L = []
    for i in range(700):
        rec = {"asctime": (T0 + dt.timedelta(seconds=i)).isoformat(), "levelname": "INFO", "name": "worker", "message": f"task {i} done", "task_id": f"t-{i}"}
        if i == 512:
            rec = {"asctime": (T0 + dt.timedelta(seconds=i)).isoformat(), "levelname": "ERROR", "name": "worker", "message": "task 512 failed", "task_id": "t-512",
                   "exc_info": "Traceback (most recent call last):\n  File \"/app/worker.py\", line 88, in run\n    result = handler(payload)\n  File \"/app/handlers/pdf.py\", line 41, in render\n    font = FONTS[payload['font']]\nKeyError: 'Noto Sans CJK'"}
        L.append(json.dumps(rec))
    w("worker_json.log", "\n".join(L), "t-512 KeyError 'Noto Sans CJK' at handlers/pdf.py:41 (exc_info)")


@reg
def git_diff_stat():
    L = []
    for i in range(420):
        f = f"packages/{R.choice(SVCS)}/src/{R.choice(PYMODS)}/{rid(6)}.ts"
        a, d = R.randint(0, 40), R.randint(0, 30)
        if i == 44:
            f, a, d = "packages/payments/src/migrations/0042_drop_legacy_ledger.sql", 0, 2318
        L.append(f" {f:<62} | {a + d:>4} {'+' * min(a, 30)}{'-' * min(d, 30)}")
    L.append(" 420 files changed, 7233 insertions(+), 9391 deletions(-)")
    w("git_diff_stat.txt", "\n".join(L), "0042_drop_legacy_ledger.sql deletes 2318 lines")


@reg
def git_rebase_conflict():
    L = ["Auto-merging src/config/loader.rs", "Auto-merging src/main.rs", "Auto-merging Cargo.lock",
         "CONFLICT (content): Merge conflict in Cargo.lock", "Auto-merging src/net/retry.rs",
         "CONFLICT (content): Merge conflict in src/net/retry.rs",
         "error: could not apply 3f9a2c1... net: exponential backoff with jitter",
         "hint: Resolve all conflicts manually, mark them as resolved with",
         'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".',
         'hint: You can instead skip this commit: run "git rebase --skip".',
         'hint: To abort and get back to the state before "git rebase", run "git rebase --abort".',
         "Could not apply 3f9a2c1... net: exponential backoff with jitter", "", "$ git status",
         "interactive rebase in progress; onto 8c1d0e7", "Last commands done (4 commands done):"]
    for i in range(4):
        L.append(f"   pick {hexs(7)} {R.choice(['docs', 'net', 'cfg'])}: step {i}")
    L += ["Next commands to do (9 remaining commands):"]
    for i in range(9):
        L.append(f"   pick {hexs(7)} {R.choice(['docs', 'net', 'cfg', 'ci'])}: step {i + 4}")
    L += ["  (use \"git rebase --edit-todo\" to view and edit)", "", "Unmerged paths:", "  (use \"git add <file>...\" to mark resolution)",
          "\tboth modified:   Cargo.lock", "\tboth modified:   src/net/retry.rs", "", "$ git diff src/net/retry.rs"]
    L += ["diff --cc src/net/retry.rs", "index 1a2b3c4,5d6e7f8..0000000", "--- a/src/net/retry.rs", "+++ b/src/net/retry.rs"]
    for i in range(20):
        L.append(f"  fn helper_{i}(x: u32) -> u32 {{ x + {i} }}")
    L += ["++<<<<<<< HEAD", " +    let delay = base * 2u32.pow(attempt);", "++=======", "+     let delay = base.saturating_mul(1 << attempt.min(10)) + jitter(rng);", "++>>>>>>> 3f9a2c1 (net: exponential backoff with jitter)"]
    for i in range(20, 40):
        L.append(f"  fn helper_{i}(x: u32) -> u32 {{ x + {i} }}")
    w("git_rebase_conflict.txt", "\n".join(L), "conflict in src/net/retry.rs (delay line) and Cargo.lock, commit 3f9a2c1")


# ---------------- Rust ----------------

@reg
def cargo_tree():
    L = ["webapp v0.3.1 (/home/dev/webapp)"]
    crates = ["serde", "tokio", "hyper", "tower", "tracing", "bytes", "http", "futures-util", "pin-project-lite", "mio", "socket2",
              "libc", "once_cell", "regex", "aho-corasick", "memchr", "rand", "rand_core", "getrandom", "cfg-if", "log", "itoa", "ryu", "smallvec"]
    def sub(depth, pre):
        for j in range(R.randint(1, 5) if depth < 4 else 0):
            c = R.choice(crates)
            last = j == 0
            L.append(f"{pre}{'└── ' if last else '├── '}{c} v{R.randint(0, 2)}.{R.randint(0, 40)}.{R.randint(0, 9)}" + (" (*)" if R.random() < .3 else ""))
            sub(depth + 1, pre + ("    " if last else "│   "))
    for top in range(24):
        L.append(f"├── {crates[top]} v1.{R.randint(0, 40)}.{R.randint(0, 9)}")
        sub(1, "│   ")
        if top == 8:
            L.append("│   ├── openssl-sys v0.9.61")
            L.append("│   │   └── libc v0.2.150 (*)")
    L += ["[dev-dependencies]", "├── criterion v0.5.1", "└── proptest v1.4.0"]
    w("cargo_tree.txt", "\n".join(L), "openssl-sys v0.9.61 pulled under the 9th top crate (old vulnerable)")


@reg
def criterion():
    L = ["   Compiling webapp v0.3.1 (/home/dev/webapp)", "    Finished `bench` profile [optimized] target(s) in 41.22s",
         "     Running benches/codec.rs (target/release/deps/codec-8f1e2d)", "Gnuplot not found, using plotters backend"]
    names = [f"{g}/{sz}" for g in ["encode", "decode", "roundtrip", "checksum", "escape", "parse", "split", "merge"] for sz in ["1k", "16k", "64k", "1m", "large", "small"]]
    for i, n in enumerate(names):
        base = R.uniform(50, 900)
        L.append(f"{n:<24}time:   [{base * .98:.2f} ns {base:.2f} ns {base * 1.02:.2f} ns]")
        if n == "decode/large":
            L += [f"                        change: [+38.412% +41.107% +43.880%] (p = 0.00 < 0.05)", "                        Performance has regressed."]
        else:
            ch = R.uniform(-2, 2)
            L += [f"                        change: [{ch - 1:+.4f}% {ch:+.4f}% {ch + 1:+.4f}%] (p = 0.{R.randint(20, 99)} > 0.05)",
                  "                        No change in performance detected."]
        if R.random() < .5:
            L += [f"Found {R.randint(1, 9)} outliers among 100 measurements ({R.randint(1, 9)}.00%)", f"  {R.randint(1, 5)} (1.00%) high mild"]
        L.append("")
    w("criterion.txt", "\n".join(L), "decode/large regressed +41%")


@reg
def rustc_multispan():
    L = ["   Compiling store v0.8.0 (/work/store)"]
    for i in range(60):
        L += ["warning: unused variable: `tmp`", f"  --> src/{R.choice(MODS)}.rs:{R.randint(10, 400)}:13", "   |",
              f"{R.randint(10, 400):>3} |         let tmp = buf.len();", "   |             ^^^ help: if this is intentional, prefix it with an underscore: `_tmp`", "   |",
              "   = note: `#[warn(unused_variables)]` on by default", ""]
    L += ["error[E0502]: cannot borrow `self.entries` as mutable because it is also borrowed as immutable",
          "   --> src/cache.rs:212:17", "    |",
          "208 |         let first = self.entries.iter().next();", "    |                     ------------ immutable borrow occurs here",
          "...", "212 |                 self.entries.insert(k, v);", "    |                 ^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here",
          "...", "219 |         first.map(|e| e.0.clone())", "    |         ----- immutable borrow later used here", "    |",
          "help: consider cloning the value if the performance cost is acceptable", "    |",
          "208 |         let first = self.entries.iter().next().cloned();", "    |                                               +++++++++", "",
          "error[E0308]: mismatched types", "  --> src/codec.rs:88:24", "   |",
          "88 |     let n: u32 = header.len();", "   |            ---   ^^^^^^^^^^^^ expected `u32`, found `usize`", "   |            |",
          "   |            expected due to this", "   |", "help: you can convert a `usize` to a `u32` and panic if the converted value doesn't fit", "   |",
          "88 |     let n: u32 = header.len().try_into().unwrap();", "   |                              ++++++++++++++++++++", "",
          "Some errors have detailed explanations: E0308, E0502.", "For more information about an error, try `rustc --explain E0308`.",
          "warning: `store` (lib) generated 60 warnings", "error: could not compile `store` (lib) due to 2 previous errors; 60 warnings emitted"]
    w("rustc_multispan.txt", "\n".join(L), "E0502 src/cache.rs:212 and E0308 src/codec.rs:88")


@reg
def cargo_workspace_toml():
    L = ["[workspace]", "resolver = \"2\"", "members = ["] + [f"    \"crates/{m}\"," for m in MODS] + ["]", "exclude = [\"crates/legacy\"]", "",
         "[workspace.package]", "version = \"0.14.2\"", "edition = \"2021\"", "rust-version = \"1.78\"", "license = \"MIT OR Apache-2.0\"", "",
         "[workspace.dependencies]"]
    deps = ["serde", "serde_json", "tokio", "anyhow", "thiserror", "tracing", "tracing-subscriber", "clap", "regex", "bytes", "rand",
            "reqwest", "hyper", "axum", "tower", "futures", "once_cell", "parking_lot", "dashmap", "chrono", "uuid", "sqlx", "rustls"]
    for d in deps:
        if d == "tokio":
            L.append('tokio = { version = "1.38", features = ["full"] }')
        elif d == "rustls":
            L.append('rustls = { version = "0.21.0", default-features = false }  # pinned: see #412')
        else:
            L.append(f'{d} = "{R.randint(0, 4)}.{R.randint(0, 30)}"')
    L += ["", "[profile.release]", "lto = \"thin\"", "codegen-units = 1", "debug = 1", "", "[profile.dev.package.\"*\"]", "opt-level = 2", "",
          "[patch.crates-io]", 'hyper = { git = "https://github.com/acme/hyper", branch = "fix-h2-reset" }']
    w("Cargo_workspace.toml", "\n".join(L), "rustls pinned 0.21.0; hyper patched to git fork")


# ---------------- JS / TS ----------------

@reg
def webpack_err():
    L = ["> web@2.3.0 build", "> webpack --mode production", "", "assets by status 1.92 MiB [cached] 14 assets"]
    for i in range(40):
        L.append(f"orphan modules {R.randint(10, 900)} KiB [orphan] {R.randint(10, 200)} modules" if i == 0 else
                 f"  ./src/{R.choice(['components', 'pages', 'hooks', 'lib'])}/{rid(7)}.tsx {R.randint(1, 40)}.{R.randint(0, 9)} KiB [built] [code generated]")
    L += ["", "WARNING in asset size limit: The following asset(s) exceed the recommended size limit (244 KiB).",
          "Assets: ", "  main.3f9ab1.js (812 KiB)", "",
          "ERROR in ./src/pages/Checkout.tsx 14:0-52", "Module not found: Error: Can't resolve '@/lib/currency-format' in '/app/src/pages'",
          "resolve '@/lib/currency-format' in '/app/src/pages'", "  Parsed request is a module", "  using description file: /app/package.json (relative path: ./src/pages)"]
    for i in range(25):
        L.append(f"    /app/node_modules/@/lib/currency-format{R.choice(['.js', '.ts', '.tsx', '.json', '/index.js'])} doesn't exist")
    L += [" @ ./src/App.tsx 9:0-41 22:38-46", " @ ./src/index.tsx 4:0-24 8:36-39", "",
          "webpack 5.91.0 compiled with 1 error and 1 warning in 18234 ms"]
    w("webpack_err.txt", "\n".join(L), "Can't resolve '@/lib/currency-format' in src/pages/Checkout.tsx 14")


@reg
def vite_build():
    L = ["vite v5.4.2 building for production...", "transforming..."]
    for i in range(25):
        L.append(f"✓ {R.randint(100, 2000)} modules transformed.") if i == 0 else None
    L += ["rendering chunks...", "computing gzip size..."]
    for i in range(260):
        n = f"dist/assets/{R.choice(['index', 'vendor', 'chart', 'editor', 'auth', 'icons'])}-{hexs(8)}.js"
        kb = R.uniform(0.5, 90)
        if i == 191:
            kb = 2384.21
            n = "dist/assets/pdf-worker-" + hexs(8) + ".js"
        L.append(f"{n:<48} {kb:>9.2f} kB │ gzip: {kb / 3.2:>8.2f} kB")
    L += ["", "(!) Some chunks are larger than 500 kB after minification. Consider:",
          "- Using dynamic import() to code-split the application",
          "- Use build.rollupOptions.output.manualChunks to improve chunking: https://rollupjs.org/configuration-options/#output-manualchunks",
          "- Adjust chunk size limit for this warning via build.chunkSizeWarningLimit.", "✓ built in 14.82s"]
    w("vite_build.txt", "\n".join(L), "pdf-worker chunk 2384 kB is the oversize one")


@reg
def esbuild_err():
    L = []
    for i in range(45):
        L += [f"▲ [WARNING] Import \"default\" will always be undefined because there is no matching export in \"src/{rid(6)}.ts\" [import-is-undefined]", "",
              f"    src/{R.choice(PYMODS)}.ts:{R.randint(1, 90)}:7:", f"      {R.randint(1, 90)} │ import x from './{rid(6)}'", "        ╵        ~", ""]
    L += ["✘ [ERROR] Expected \";\" but found \"status\"", "", "    src/api/client.ts:147:14:", "      147 │   const resp status = await fetch(url, opts)",
          "          │               ^", "          ╵               ;", "",
          "✘ [ERROR] Could not resolve \"node:worker_threads\"", "", "    src/jobs/pool.ts:2:23:", "      2 │ import { Worker } from \"node:worker_threads\";",
          "        ╵                        ~~~~~~~~~~~~~~~~~~~~~", "",
          "  The package \"node:worker_threads\" wasn't found on the file system but is built into node. Are you trying to bundle for node? You can use \"--platform=node\" to do that, which will remove this error.", "",
          "45 warnings and 2 errors"]
    w("esbuild_err.txt", "\n".join(L), "src/api/client.ts:147:14 syntax; node:worker_threads needs --platform=node")


@reg
def tsc_watch():
    L = []
    for r in range(24):
        tm = f"{2 + (14 + r) // 60}:{(14 + r) % 60:02d}:{r % 60:02d} PM"
        L.append(f"\x1bc[{tm}] File change detected. Starting incremental compilation..." if r else f"[{tm}] Starting compilation in watch mode...")
        L.append("")
        if r < 23:
            for k in range(R.randint(3, 12)):
                L += [f"src/{R.choice(PYMODS)}/{rid(6)}.ts:{R.randint(1, 300)}:{R.randint(1, 40)} - error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.", "",
                      f"{R.randint(1, 300)}     doThing(id);", "                ~~", ""]
            L.append(f"[{tm}] Found {R.randint(3, 8)} errors. Watching for file changes.")
        else:
            L += ["src/billing/invoice.ts:58:3 - error TS2741: Property 'currency' is missing in type '{ amount: number; }' but required in type 'Money'.", "",
                  "58   total: { amount: sum },", "     ~~~~~", "", "  src/types/money.ts:4:3", "    4   currency: Currency;", "        ~~~~~~~~",
                  "    'currency' is declared here.", "", f"[{tm}] Found 1 error. Watching for file changes."]
        L.append("")
    w("tsc_watch.txt", "\n".join(L), "LAST round: 1 error src/billing/invoice.ts:58 TS2741 currency missing (earlier rounds superseded)")


@reg
def pnpm_install():
    L = ["Scope: all 14 workspace projects", "Lockfile is up to date, resolution step is skipped"]
    for i in range(60):
        L.append(f"Progress: resolved {i * 31}, reused {i * 30}, downloaded {i}, added {i * 29}")
    L += ["Packages: +1842", "++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++",
          " WARN  Issues with peer dependencies found", "packages/web", "├─┬ @testing-library/react 14.3.1",
          "│ └── ✕ unmet peer react@^18.0.0: found 19.0.0-rc-66855b96-20241106", "└─┬ react-beautiful-dnd 13.1.1",
          "  └── ✕ unmet peer react@\"^16.8.5 || ^17.0.0 || ^18.0.0\": found 19.0.0-rc-66855b96-20241106", "",
          "dependencies:", "+ next 15.0.3", "+ react 19.0.0-rc-66855b96-20241106", "",
          " ERR_PNPM_LIFECYCLE  packages/native-addon postinstall: `node-gyp rebuild`", "Exit status 1",
          "gyp ERR! find Python Python is not set from command line or npm configuration", "gyp ERR! stack Error: Could not find any Python installation to use",
          "Done in 48.2s"]
    w("pnpm_install.txt", "\n".join(L), "native-addon postinstall node-gyp fails: no Python; peer react 19 rc")


@reg
def bun_install():
    L = ["bun install v1.1.34 (5e5e7c60)", ""]
    for i in range(80):
        L.append(f"+ {R.choice(['@types/', '', '', '@radix-ui/'])}{rid(7)}@{R.randint(0, 9)}.{R.randint(0, 20)}.{R.randint(0, 9)}")
    L += ["", "error: GET https://registry.npmjs.org/@acme%2finternal-ui - 404", "error: @acme/internal-ui@^3.2.0 failed to resolve",
          "", "1208 packages installed [3.41s]"]
    w("bun_install.txt", "\n".join(L), "@acme/internal-ui 404 failed to resolve")


@reg
def minified_js():
    parts = []
    for i in range(1800):
        parts.append(f"function {rid(2)}{i}(e,t){{return e.{rid(3)}(t)||{R.randint(0, 99)}}}")
        if i == 1337:
            parts.append('var API_BASE="https://staging-internal.acme.io/api/v2";')
    w("bundle.min.js", "!function(){\"use strict\";" + ";".join(parts) + "}();", "API_BASE points to staging-internal in the prod bundle")


# ---------------- Python ----------------

@reg
def pytest_tb_short():
    L = ["============================= test session starts ==============================", "platform linux -- Python 3.12.4, pytest-8.3.2, pluggy-1.5.0",
         "rootdir: /srv/app", "configfile: pyproject.toml", "plugins: cov-5.0.0, xdist-3.6.1, asyncio-0.23.8", "collected 412 items", ""]
    for m in PYMODS:
        L.append(f"tests/test_{m}.py " + "." * R.randint(20, 60) + ("F" if m == "serializers" else "") + f" [{R.randint(1, 99):>3}%]")
    L += ["", "=================================== FAILURES ===================================", "_____________________ test_invoice_total_rounding[EUR-2] ______________________",
          "tests/test_serializers.py:211: in test_invoice_total_rounding", "    assert out[\"total\"] == expected",
          "E   AssertionError: assert '10.01' == '10.00'", "E     ", "E     - 10.00", "E     ?     ^", "E     + 10.01", "E     ?     ^",
          "!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!", "=========================== short test summary info ============================",
          "FAILED tests/test_serializers.py::test_invoice_total_rounding[EUR-2] - AssertionError: assert '10.01' == '10.00'",
          "========================= 1 failed, 287 passed in 11.84s ========================="]
    w("pytest_tb_short.txt", "\n".join(L), "tests/test_serializers.py:211 '10.01' != '10.00'")


@reg
def pytest_tb_line_warnings():
    L = ["============================= test session starts ==============================", "collected 960 items", ""]
    for i in range(24):
        L.append(f"tests/{R.choice(PYMODS)}/test_{rid(5)}.py " + "".join(R.choice("....................s") for _ in range(40)) + f" [{(i + 1) * 4:>3}%]")
    L += ["", "=================================== FAILURES ===================================",
          "/srv/app/tests/tasks/test_retry.py:88: AssertionError: expected 3 calls, got 4",
          "/srv/app/src/app/cache.py:140: KeyError: 'tenant:42'", "", "=============================== warnings summary ==============================="]
    for i in range(30):
        L += [f"tests/{R.choice(PYMODS)}/test_{rid(5)}.py::test_{rid(6)}", "  /srv/app/.venv/lib/python3.12/site-packages/dateutil/tz/tz.py:37: DeprecationWarning: datetime.datetime.utcfromtimestamp() is deprecated", "    EPOCH = datetime.datetime.utcfromtimestamp(0)", ""]
    L += ["tests/test_db.py::test_pool", "  /srv/app/src/app/db.py:51: ResourceWarning: unclosed <socket.socket fd=14>", "",
          "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html", "=========================== short test summary info ============================",
          "FAILED tests/tasks/test_retry.py::test_retry_backoff - AssertionError: expected 3 calls, got 4",
          "FAILED tests/test_cache.py::test_tenant_evict - KeyError: 'tenant:42'", "=========== 2 failed, 921 passed, 37 skipped, 31 warnings in 48.02s ==========="]
    w("pytest_tb_line_warnings.txt", "\n".join(L), "2 failures test_retry.py:88 and cache.py:140; ResourceWarning db.py:51 distinct among 30 identical DeprecationWarnings")


@reg
def hypothesis_fail():
    L = ["tests/test_codec.py F", "", "=================================== FAILURES ===================================", "___________________________ test_roundtrip ____________________________", "",
         "    @given(st.binary(max_size=4096), st.integers(0, 9))", ">   def test_roundtrip(data, level):", "", "tests/test_codec.py:22: ", "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ "]
    for i in range(8):
        L += [f".venv/lib/python3.12/site-packages/hypothesis/core.py:{R.randint(400, 1900)}: in {R.choice(['run_engine', 'execute_once', 'test', 'wrapped_test'])}",
              "    result = self.test_runner(data, run)", ""]
    L += ["data = b'\\x00\\xff\\x00', level = 0", "", "    @given(st.binary(max_size=4096), st.integers(0, 9))", "    def test_roundtrip(data, level):",
          ">       assert decompress(compress(data, level)) == data", "E       AssertionError: assert b'\\x00\\xff' == b'\\x00\\xff\\x00'",
          "E         Right contains one more item: 0", "", "tests/test_codec.py:24: AssertionError", "---------------------------------- Hypothesis ----------------------------------",
          "Falsifying example: test_roundtrip(", "    data=b'\\x00\\xff\\x00',", "    level=0,", ")",
          "You can reproduce this example by temporarily adding @reproduce_failure('6.108.5', b'AXicY2BgYGRkAAAAJwAE') as a decorator on your test case",
          "=========================== short test summary info ============================", "FAILED tests/test_codec.py::test_roundtrip - AssertionError", "1 failed in 3.91s"]
    w("hypothesis_fail.txt", "\n".join(L), "Falsifying example data=b'\\x00\\xff\\x00', level=0")


@reg
def unittest_out():
    L = []
    dots = "".join(R.choice("......................s") for _ in range(300))
    dots = dots[:180] + "E" + dots[181:250] + "F" + dots[251:]
    L += [dots, "======================================================================",
          "ERROR: test_parse_locale (tests.test_i18n.LocaleTests.test_parse_locale)", "----------------------------------------------------------------------",
          "Traceback (most recent call last):", '  File "/src/tests/test_i18n.py", line 77, in test_parse_locale', '    loc = parse_locale("pt_BR.UTF-8@euro")',
          '  File "/src/app/i18n.py", line 31, in parse_locale', '    lang, enc = tag.split(".")', "ValueError: too many values to unpack (expected 2)", "",
          "======================================================================", "FAIL: test_slugify_unicode (tests.test_text.SlugTests.test_slugify_unicode)",
          "----------------------------------------------------------------------", "Traceback (most recent call last):",
          '  File "/src/tests/test_text.py", line 19, in test_slugify_unicode', '    self.assertEqual(slugify("Straße"), "strasse")',
          "AssertionError: 'strae' != 'strasse'", "- strae", "+ strasse", "?    ++", "", "",
          "----------------------------------------------------------------------", "Ran 300 tests in 4.118s", "", f"FAILED (failures=1, errors=1, skipped={dots.count('s')})"]
    w("unittest_out.txt", "\n".join(L), "ERROR i18n.py:31 ValueError; FAIL test_text.py:19 'strae' != 'strasse'")


@reg
def setup_cfg():
    L = ["[metadata]", "name = acme-tools", "version = attr: acme_tools.__version__", "description = Internal tooling", "long_description = file: README.md",
         "long_description_content_type = text/markdown", "classifiers =", "    Programming Language :: Python :: 3", "    License :: OSI Approved :: MIT License", "",
         "[options]", "packages = find:", "python_requires = >=3.8", "install_requires ="]
    for d in ["requests>=2.28", "click>=8", "pydantic>=1.10,<2", "rich", "PyYAML>=6", "jinja2", "tenacity", "boto3>=1.28", "urllib3<2"]:
        L.append(f"    {d}")
    L += ["", "[options.extras_require]", "dev =", "    pytest", "    mypy", "    ruff", "", "[options.entry_points]", "console_scripts =",
          "    acme = acme_tools.cli:main", "    acme-sync = acme_tools.sync:run", "", "[flake8]", "max-line-length = 120", "extend-ignore = E203, W503", "",
          "[tool:pytest]", "addopts = -ra -q --strict-markers", "testpaths = tests", "", "[mypy]", "strict = True", "ignore_missing_imports = True"]
    w("setup.cfg", "\n".join(L), "pydantic<2 and urllib3<2 pins; entry points acme, acme-sync")


# ---------------- Go / C ----------------

@reg
def go_race():
    L = ["=== RUN   TestCacheConcurrent", "=================="]
    L += ["WARNING: DATA RACE", "Write at 0x00c0001a40f0 by goroutine 23:", "  github.com/acme/kv/cache.(*LRU).Put()", "      /src/kv/cache/lru.go:88 +0x1c4",
          "  github.com/acme/kv/cache.TestCacheConcurrent.func1()", "      /src/kv/cache/lru_test.go:41 +0x9c", "",
          "Previous read at 0x00c0001a40f0 by goroutine 22:", "  github.com/acme/kv/cache.(*LRU).Get()", "      /src/kv/cache/lru.go:61 +0x88",
          "  github.com/acme/kv/cache.TestCacheConcurrent.func1()", "      /src/kv/cache/lru_test.go:39 +0x7a", "", "Goroutine 23 (running) created at:",
          "  github.com/acme/kv/cache.TestCacheConcurrent()", "      /src/kv/cache/lru_test.go:36 +0x110", "  testing.tRunner()", "      /usr/local/go/src/testing/testing.go:1690 +0x226", "==================",
          "    testing.go:1399: race detected during execution of test", "--- FAIL: TestCacheConcurrent (0.04s)"]
    for i in range(40):
        L += [f"=== RUN   Test{R.choice(['Get', 'Put', 'Evict', 'Len', 'Keys'])}{i}", f"--- PASS: Test{R.choice(['Get', 'Put', 'Evict'])}{i} (0.0{R.randint(0, 9)}s)"]
    L += ["FAIL", "FAIL\tgithub.com/acme/kv/cache\t1.284s", "ok  \tgithub.com/acme/kv/wal\t0.912s", "FAIL"]
    w("go_race.txt", "\n".join(L), "data race lru.go:88 Put vs lru.go:61 Get")


@reg
def go_build_err():
    L = ["# github.com/acme/edge/internal/proxy", "internal/proxy/handler.go:112:9: undefined: rewriteHost",
         "internal/proxy/handler.go:140:23: cannot use cfg.Timeout (variable of type int) as time.Duration value in argument to context.WithTimeout",
         "internal/proxy/pool.go:33:2: \"sync/atomic\" imported and not used", "# github.com/acme/edge/cmd/edge",
         "cmd/edge/main.go:21:2: could not import github.com/acme/edge/internal/proxy (type-checking package \"github.com/acme/edge/internal/proxy\" failed (internal/proxy/handler.go:112:9: undefined: rewriteHost))"]
    w("go_build_err.txt", "\n".join(L), "handler.go:112 undefined rewriteHost; :140 int vs Duration")


@reg
def clang_analyzer():
    L = []
    for i in range(140):
        f = f"src/{R.choice(MODS)}/{rid(5)}.c"
        L += [f"{f}:{R.randint(10, 900)}:{R.randint(3, 30)}: warning: Value stored to 'rc' is never read [deadcode.DeadStores]",
              f"    rc = step_{i}(ctx);", "    ^    ~~~~~~~~~~~"]
    L += ["src/net/parse.c:211:12: warning: Dereference of null pointer (loaded from variable 'hdr') [core.NullDereference]", "    return hdr->len + off;", "           ^~~~~~~~",
          "src/net/parse.c:198:5: note: 'hdr' initialized to a null pointer value", "    struct header *hdr = NULL;", "    ^~~~~~~~~~~~~~~~~~",
          "src/net/parse.c:203:9: note: Assuming 'n' is < 4", "    if (n >= 4) {", "        ^~~~~~", "src/net/parse.c:211:12: note: Dereference of null pointer (loaded from variable 'hdr')",
          "src/db/pool.c:77:3: warning: Potential leak of memory pointed to by 'conn' [unix.Malloc]", "  return -1;", "  ^~~~~~~~~",
          "142 warnings generated.", "scan-build: 142 bugs found.", "scan-build: Run 'scan-view /tmp/scan-build-2026-12-07-141233-1234-1' to examine bug reports."]
    w("clang_analyzer.txt", "\n".join(L), "NullDereference src/net/parse.c:211; leak src/db/pool.c:77 among 12 dead stores")


# ---------------- k8s / infra ----------------

@reg
def kubectl_deploy_yaml():
    # `kubectl get deploy -o yaml`: a List; each Deployment carries two status conditions.
    D = []
    for i in range(25):
        name, ok = f"{R.choice(SVCS)}-{i:02d}", i != 17
        env = "".join(f"\n            - name: {R.choice(['DB', 'CACHE', 'KAFKA', 'OTEL'])}_{rid(4).upper()}\n              value: \"{rid(8)}\"" for _ in range(4))
        D.append(f"""- apiVersion: apps/v1
  kind: Deployment
  metadata:
    annotations:
      deployment.kubernetes.io/revision: "{R.randint(2, 40)}"
    creationTimestamp: "2026-0{R.randint(1, 9)}-1{R.randint(0, 9)}T10:11:12Z"
    generation: {R.randint(2, 40)}
    labels:
      app: {name}
    name: {name}
    namespace: prod
    resourceVersion: "{R.randint(10**8, 10**9)}"
    uid: {hexs(8)}-{hexs(4)}-{hexs(4)}-{hexs(4)}-{hexs(12)}
  spec:
    progressDeadlineSeconds: 600
    replicas: 3
    selector:
      matchLabels:
        app: {name}
    strategy:
      rollingUpdate:
        maxSurge: 25%
        maxUnavailable: 25%
      type: RollingUpdate
    template:
      metadata:
        labels:
          app: {name}
      spec:
        containers:
        - env:{env}
          image: registry.acme.io/{name}:{'4.12.0-rc3' if not ok else f'4.{R.randint(0, 11)}.{R.randint(0, 9)}'}
          imagePullPolicy: IfNotPresent
          name: app
          resources:
            limits:
              memory: 512Mi
            requests:
              cpu: 250m
              memory: 256Mi
  status:
    availableReplicas: {3 if ok else 1}
    conditions:
    - lastTransitionTime: "2026-12-07T13:40:02Z"
      lastUpdateTime: "2026-12-07T13:40:02Z"
      message: {'Deployment has minimum availability.' if ok else 'Deployment does not have minimum availability.'}
      reason: {'MinimumReplicasAvailable' if ok else 'MinimumReplicasUnavailable'}
      status: "{'True' if ok else 'False'}"
      type: Available
    - lastTransitionTime: "2026-12-07T13:50:02Z"
      lastUpdateTime: "2026-12-07T13:50:02Z"
      message: ReplicaSet "{name}-{hexs(9)}" {'has successfully progressed.' if ok else 'has timed out progressing.'}
      reason: {'NewReplicaSetAvailable' if ok else 'ProgressDeadlineExceeded'}
      status: "{'True' if ok else 'False'}"
      type: Progressing
    observedGeneration: {R.randint(2, 40)}
    readyReplicas: {3 if ok else 1}
    replicas: 3
    updatedReplicas: 3""")
    w("kubectl_deploy.yaml", "apiVersion: v1\nkind: List\nitems:\n" + "\n".join(D) + "\nmetadata:\n  resourceVersion: \"\"",
      "item 17 ProgressDeadlineExceeded, image 4.12.0-rc3, 1/3 available; every other Deployment's two conditions True")


@reg
def python_logging_comma():
    # Python logging's default asctime (and log4j's ISO8601) put a comma before the milliseconds.
    L = []
    for i in range(1200):
        t = (T0 + dt.timedelta(seconds=i * 15)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
        use = R.randint(41, 78)
        if i == 903:
            use = 97
        L.append(f"{t} INFO  [disk-monitor] host=db-{i % 6} mount=/var/lib/postgresql usage={use}% inodes={R.randint(10, 30)}% iops={R.randint(200, 900)}")
    w("disk_monitor.log", "\n".join(L), "line 904: db-3 usage=97% (all others <= 78%)")


@reg
def helm_upgrade_fail():
    L = ["history.go:56: [debug] getting history for release payments", "upgrade.go:164: [debug] preparing upgrade for payments",
         "upgrade.go:172: [debug] performing update for payments", "upgrade.go:370: [debug] creating upgraded release for payments",
         "client.go:393: [debug] checking 14 resources for changes"]
    for i in range(14):
        L.append(f"client.go:{R.choice([684, 693, 702])}: [debug] {R.choice(['Patch', 'Looks like there are no changes for'])} {R.choice(['Service', 'ConfigMap', 'Secret', 'Deployment'])} \"payments-{rid(4)}\"")
    L += ["wait.go:48: [debug] beginning wait for 14 resources with timeout of 5m0s"]
    for i in range(900):
        L.append(f"ready.go:{R.choice([277, 303])}: [debug] Deployment is not ready: prod/payments. 1 out of 3 expected pods are ready")
    L += ["upgrade.go:451: [debug] warning: Upgrade \"payments\" failed: context deadline exceeded", "upgrade.go:469: [debug] Upgrade failed and atomic is set, rolling back to last successful release",
          "Error: UPGRADE FAILED: release payments failed, and has been rolled back due to atomic being set: context deadline exceeded",
          "helm.go:84: [debug] context deadline exceeded"]
    w("helm_upgrade_fail.txt", "\n".join(L), "UPGRADE FAILED rolled back: 1/3 pods ready timeout")


@reg
def terraform_validate():
    L = ["╷", "│ Warning: Deprecated attribute", "│", "│   on modules/net/main.tf line 12, in resource \"aws_eip\" \"nat\":", "│   12:   vpc = true", "│",
         "│ The attribute \"vpc\" is deprecated. Refer to the provider documentation for details.", "│", "│ (and 5 more similar warnings elsewhere)", "╵",
         "╷", "│ Error: Unsupported argument", "│", "│   on modules/db/main.tf line 44, in resource \"aws_db_instance\" \"main\":", "│   44:   name = var.db_name", "│",
         "│ An argument named \"name\" is not expected here. Did you mean \"db_name\"?", "╵",
         "╷", "│ Error: Reference to undeclared input variable", "│", "│   on main.tf line 71, in module \"cache\":", "│   71:   node_type = var.cache_node_type", "│",
         "│ An input variable with the name \"cache_node_type\" has not been declared. This variable can be declared with a variable \"cache_node_type\" {} block.", "╵"]
    w("terraform_validate.txt", "\n".join(L), "db/main.tf:44 name->db_name; main.tf:71 undeclared cache_node_type")


@reg
def ansible_vvv():
    L = ["ansible-playbook [core 2.16.6]", "  config file = /etc/ansible/ansible.cfg", "  python version = 3.11.9", "Using /etc/ansible/ansible.cfg as config file",
         "PLAYBOOK: site.yml ****************************************************************", "1 plays in site.yml", "", "PLAY [web] *****************************************************************"]
    hosts = [f"web-{i:02d}.prod" for i in range(8)]
    for t in ["Gathering Facts", "apt : install packages", "template : nginx.conf", "service : restart nginx"]:
        L += ["", f"TASK [{t}] ********************************************************", f"task path: /srv/ansible/roles/{t.split()[0]}/tasks/main.yml:{R.randint(1, 40)}"]
        for h in hosts:
            L += [f"<{h}> ESTABLISH SSH CONNECTION FOR USER: deploy", f"<{h}> SSH: EXEC ssh -C -o ControlMaster=auto -o ControlPersist=60s -o StrictHostKeyChecking=no -o 'User=\"deploy\"' -o ConnectTimeout=10 -o 'ControlPath=\"/home/ci/.ansible/cp/{hexs(10)}\"' {h} '/bin/sh -c '\"'\"'echo ~deploy && sleep 0'\"'\"''",
                  f"<{h}> (0, b'/home/deploy\\n', b'')", f"<{h}> PUT /home/ci/.ansible/tmp/ansible-local-{R.randint(1000, 9999)}{rid(4)}/tmp{rid(6)} TO /home/deploy/.ansible/tmp/AnsiballZ_{t.split()[0]}.py"]
            if t.startswith("service") and h == "web-05.prod":
                L.append(f"fatal: [{h}]: FAILED! => {{\"changed\": false, \"msg\": \"Unable to restart service nginx: Job for nginx.service failed because the control process exited with error code.\\nnginx: [emerg] unknown directive \\\"proxy_buffer\\\" in /etc/nginx/nginx.conf:58\"}}")
            else:
                L.append(f"{'changed' if R.random() < .3 else 'ok'}: [{h}] => {{\"changed\": false, \"invocation\": {{\"module_args\": {{\"name\": \"nginx\"}}}}}}")
    L += ["", "PLAY RECAP *********************************************************************"]
    for h in hosts:
        L.append(f"{h:<26}: ok=4    changed=1    unreachable=0    failed={1 if h == 'web-05.prod' else 0}    skipped=0    rescued=0    ignored=0")
    w("ansible_vvv.txt", "\n".join(L), "web-05 nginx restart fails: unknown directive proxy_buffer nginx.conf:58")


@reg
def prom_rules():
    L = ["groups:"]
    for g in ["node", "k8s", "app"]:
        L += [f"- name: {g}.rules", "  rules:"]
        for i in range(40):
            n = f"{g.capitalize()}{R.choice(['High', 'Low', 'Down', 'Slow'])}{R.choice(['CPU', 'Memory', 'Latency', 'Errors', 'Disk'])}{i}"
            expr = f"avg by (instance) (rate({g}_{rid(5)}_total[5m])) > {R.randint(1, 90) / 100}"
            fr = "5m"
            if g == "app" and i == 26:
                n, expr, fr = "PaymentsErrorBudgetBurn", "sum(rate(http_requests_total{job=\"payments\",code=~\"5..\"}[1h])) / sum(rate(http_requests_total{job=\"payments\"}[1h])) > 14.4 * 0.001", "0s"
            L += [f"  - alert: {n}", f"    expr: {expr}", f"    for: {fr}", "    labels:", f"      severity: {R.choice(['warning', 'critical'])}",
                  "    annotations:", f"      summary: \"{n} on {{{{ $labels.instance }}}}\"", f"      runbook_url: https://runbooks.acme.io/{n.lower()}"]
    w("prom_rules.yaml", "\n".join(L), "PaymentsErrorBudgetBurn has for: 0s (all others 5m)")


@reg
def compose_config():
    L = ["name: shop", "services:"]
    for s in SVCS[:8]:
        L += [f"  {s}:", "    build:", "      context: /home/dev/shop", f"      dockerfile: docker/{s}.Dockerfile", "    depends_on:", "      postgres:",
              "        condition: service_healthy", "        required: true", "    environment:", "      DATABASE_URL: postgres://shop:shop@postgres:5432/shop",
              f"      SERVICE_NAME: {s}", "      LOG_LEVEL: info", "    networks:", "      default: null", "    ports:", "      - mode: ingress",
              f"        target: 8080", f"        published: \"{8080 if s in ('orders', 'cart') else 8000 + SVCS.index(s)}\"", "        protocol: tcp"]
    L += ["  postgres:", "    image: postgres:16", "    environment:", "      POSTGRES_PASSWORD: shop", "networks:", "  default:", "    name: shop_default"]
    w("compose_config.yaml", "\n".join(L), "orders and cart both publish host port 8080 (conflict)")


@reg
def gha_matrix():
    L = ["name: CI", "on:", "  push:", "    branches: [main]", "  pull_request:", "permissions:", "  contents: read", "concurrency:",
         "  group: ${{ github.workflow }}-${{ github.ref }}", "  cancel-in-progress: true", "jobs:", "  test:", "    runs-on: ${{ matrix.os }}", "    strategy:",
         "      fail-fast: false", "      matrix:", "        os: [ubuntu-22.04, macos-14, windows-2022]", "        node: [18, 20, 22]", "        exclude:",
         "          - os: windows-2022", "            node: 18", "        include:", "          - os: ubuntu-22.04", "            node: 22", "            coverage: true",
         "    steps:", "      - uses: actions/checkout@v4", "      - uses: actions/setup-node@v4", "        with:", "          node-version: ${{ matrix.node }}", "          cache: npm",
         "      - run: npm ci", "      - run: npm test -- --coverage=${{ matrix.coverage || false }}", "  release:", "    needs: test", "    if: startsWith(github.ref, 'refs/tags/')",
         "    runs-on: ubuntu-22.04", "    permissions:", "      contents: write", "      id-token: write", "    steps:", "      - uses: actions/checkout@v4",
         "      - run: npm publish --provenance", "        env:", "          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}"]
    w("ci_matrix.yml", "\n".join(L), "matrix excludes windows+node18; release only on tags, needs test")


@reg
def env_example():
    L = ["# Copy to .env and fill in", "", "# --- App ---", "APP_ENV=development", "APP_PORT=3000", "APP_URL=http://localhost:3000", "", "# --- Database ---",
         "DATABASE_URL=postgres://user:pass@localhost:5432/app", "DATABASE_POOL_SIZE=10", "", "# --- Auth ---", "JWT_SECRET=changeme", "JWT_TTL=3600",
         "OAUTH_GITHUB_CLIENT_ID=", "OAUTH_GITHUB_CLIENT_SECRET=", "", "# --- Third party ---", "STRIPE_SECRET_KEY=sk_test_xxx", "STRIPE_WEBHOOK_SECRET=whsec_xxx",
         "SENTRY_DSN=", "S3_BUCKET=app-dev-uploads", "S3_REGION=eu-central-1", "", "# Required since v3.0: background jobs will not start without it",
         "REDIS_URL=redis://localhost:6379/0", "", "# Feature flags", "FEATURE_NEW_CHECKOUT=false", "FEATURE_BETA_SEARCH=false"]
    w(".env.example", "\n".join(L), "REDIS_URL required since v3.0")


@reg
def changelog():
    L = ["# Changelog", "", "All notable changes to this project will be documented in this file.", "",
         "The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),", "and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).", "",
         "## [Unreleased]", "", "### Added", "- `--dry-run` for `sync`", ""]
    for v in range(24, 0, -1):
        L += [f"## [3.{v}.0] - 2026-{(v % 12) + 1:02d}-{R.randint(1, 28):02d}", "", "### Added"]
        for k in range(R.randint(1, 4)):
            L.append(f"- {R.choice(['Support for', 'Option', 'Flag for', 'Hook for'])} {R.choice(MODS)} {rid(6)}")
        L += ["", "### Fixed"]
        for k in range(R.randint(1, 4)):
            L.append(f"- {R.choice(['Crash in', 'Leak in', 'Race in'])} {R.choice(MODS)} ({'#'}{R.randint(100, 999)})")
        if v == 17:
            L += ["", "### Removed", "- **BREAKING**: the `legacy_auth` option and the `/v1/token` endpoint are removed; use `/v2/token`."]
        L.append("")
    L += [f"[3.{v}.0]: https://github.com/acme/tool/compare/v3.{v - 1}.0...v3.{v}.0" for v in range(24, 0, -1)]
    w("CHANGELOG.md", "\n".join(L), "3.17.0 BREAKING removes legacy_auth and /v1/token")


@reg
def man_overstrike():
    def bold(s):
        return "".join(c + "\b" + c for c in s)
    def ul(s):
        return "".join("_\b" + c for c in s)
    L = [f"RSYNCX(1)                      User Commands                      RSYNCX(1)", "", bold("NAME"), "       rsyncx - fast incremental file transfer", "",
         bold("SYNOPSIS"), f"       {bold('rsyncx')} [{ul('OPTION')}]... {ul('SRC')} [{ul('SRC')}]... {ul('DEST')}", "", bold("OPTIONS")]
    for i in range(40):
        o = f"--{rid(6)}-{R.choice(['mode', 'size', 'list', 'time'])}"
        L += [f"       {bold(o)}={ul('N')}", f"              Set the {o[2:]} to {ul('N')}. Default is {R.randint(1, 100)}. " + "This option affects how files are compared and transferred. " * 2, ""]
        if i == 22:
            L += [f"       {bold('--delete-excluded')}", "              Also delete excluded files from the receiving side. " + bold("WARNING:") + " combined with an empty filter this deletes everything in DEST.", ""]
    L += [bold("EXIT STATUS"), "       0      Success", "       23     Partial transfer due to error", "       24     Partial transfer due to vanished source files"]
    w("man_rsyncx.txt", "\n".join(L), "--delete-excluded WARNING deletes everything in DEST; exit 23/24")


@reg
def help_output():
    L = ["Usage: dbmigrate [OPTIONS] COMMAND [ARGS]...", "", "  Database migration tool.", "", "Options:"]
    opts = [("-c, --config PATH", "Config file [default: ./migrate.toml]"), ("-e, --env TEXT", "Environment [default: dev]"), ("-v, --verbose", "Verbose output"),
            ("--dry-run", "Print SQL without running it"), ("--lock-timeout INTEGER", "Seconds to wait for the advisory lock [default: 30]"),
            ("--no-transaction", "Run each migration outside a transaction (DANGEROUS)"), ("--version", "Show the version and exit."), ("--help", "Show this message and exit.")]
    for o, d in opts:
        L.append(f"  {o:<26}{d}")
    L += ["", "Commands:"]
    for c, d in [("up", "Apply pending migrations"), ("down", "Revert the last N migrations"), ("status", "Show applied and pending migrations"),
                 ("new", "Create a new migration file"), ("squash", "Squash migrations up to VERSION"), ("baseline", "Mark the database as at VERSION without running SQL"),
                 ("verify", "Check checksums of applied migrations")]:
        L.append(f"  {c:<10}{d}")
    w("dbmigrate_help.txt", "\n".join(L), "down reverts; baseline marks without SQL; --dry-run")


# ---------------- data ----------------

@reg
def mysql_box():
    cols = ["id", "customer_email", "country", "orders", "total_eur", "last_order"]
    rows = []
    for i in range(120):
        rows.append([str(1000 + i), f"{rid(6)}@{R.choice(['gmail.com', 'acme.io', 'web.de'])}", R.choice(["DE", "FR", "NL", "AT", "PL"]),
                     str(R.randint(1, 40)), f"{R.uniform(10, 4000):.2f}", f"2026-{R.randint(1, 11):02d}-{R.randint(1, 28):02d} {R.randint(0, 23):02d}:{R.randint(0, 59):02d}:00"])
    rows[73][4] = "981234.50"
    rows[73][3] = "3"
    wd = [max(len(c), *(len(r[k]) for r in rows)) for k, c in enumerate(cols)]
    sep = "+" + "+".join("-" * (x + 2) for x in wd) + "+"
    L = ["mysql> SELECT * FROM customer_totals ORDER BY id;", sep, "| " + " | ".join(c.ljust(wd[k]) for k, c in enumerate(cols)) + " |", sep]
    for r in rows:
        L.append("| " + " | ".join(v.rjust(wd[k]) if k in (0, 3, 4) else v.ljust(wd[k]) for k, v in enumerate(r)) + " |")
    L += [sep, "120 rows in set (0.02 sec)"]
    w("mysql_box.txt", "\n".join(L), "id 1073 total_eur 981234.50 with only 3 orders")


@reg
def csv_multiline():
    L = ["ticket_id,created,priority,customer,subject,body"]
    for i in range(150):
        body = f"\"Hi team,\nthe {R.choice(MODS)} page is {R.choice(['slow', 'broken', 'blank'])}.\nThanks, {rid(5)}\""
        pr = R.choice(["low", "normal", "normal", "high"])
        subj = f"{R.choice(MODS)} issue"
        if i == 97:
            pr, subj = "urgent", "\"Data loss, \"\"export\"\" wiped, pls help\""
            body = "\"All invoices for October are gone after the export ran.\nCustomer: Globex AG\nImpact: 412 invoices\""
        L.append(f"T-{5000 + i},2026-12-0{1 + i % 7}T{i % 24:02d}:00:00Z,{pr},cust-{R.randint(1, 80)},{subj},{body}")
    w("tickets.csv", "\n".join(L), "T-5097 urgent data loss 412 invoices (multi-line quoted body)")


@reg
def api_pagination():
    items = []
    for i in range(50):
        items.append({"id": f"cus_{rid(14)}", "object": "customer", "email": f"{rid(6)}@example.com", "created": 1733500000 + i * 3600,
                      "delinquent": i == 38, "balance": -12000 if i == 38 else 0, "currency": "eur", "metadata": {"tier": R.choice(["free", "pro"])}})
    doc = {"object": "list", "url": "/v1/customers", "has_more": True, "data": items, "next_page": None,
           "next_cursor": "eyJpZCI6ImN1c18" + rid(20)}
    w("api_page.json", json.dumps(doc, indent=2), "has_more true + next_cursor; one delinquent customer balance -12000")


@reg
def json_schema():
    props = {}
    for i in range(30):
        props[f"{rid(6)}_{R.choice(['id', 'name', 'count', 'url'])}"] = {"type": R.choice(["string", "integer", "boolean"]), "description": f"The {rid(5)} field."}
    props["retention_days"] = {"type": "integer", "minimum": 1, "maximum": 30, "default": 7, "description": "Days to keep logs; values above 30 are rejected."}
    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://acme.io/schemas/project.json", "title": "Project", "type": "object",
           "required": ["name", "owner", "retention_days"], "additionalProperties": False, "properties": props}
    w("project.schema.json", json.dumps(doc, indent=2), "retention_days required, max 30; additionalProperties false")


@reg
def graphql_errors():
    doc = {"errors": [{"message": "Cannot query field \"shippingAdress\" on type \"Order\". Did you mean \"shippingAddress\"?",
                       "locations": [{"line": 14, "column": 7}], "extensions": {"code": "GRAPHQL_VALIDATION_FAILED"}}],
           "data": None}
    w("graphql_errors.json", json.dumps(doc, indent=2), "typo shippingAdress line 14")


@reg
def har_file():
    entries = []
    for i in range(40):
        u = f"https://app.acme.io/{R.choice(['static', 'api/v1', 'img'])}/{rid(8)}"
        st, t = 200, R.uniform(5, 300)
        if i == 27:
            u, st, t = "https://app.acme.io/api/v1/cart/checkout", 502, 30012.4
        entries.append({"startedDateTime": ts(i), "time": round(t, 1),
                        "request": {"method": "POST" if i == 27 else "GET", "url": u, "httpVersion": "h2",
                                    "headers": [{"name": n, "value": v} for n, v in [("accept", "*/*"), ("user-agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"), ("accept-language", "en-US,en;q=0.9"), ("cookie", "sid=" + hexs(40))]],
                                    "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
                        "response": {"status": st, "statusText": "Bad Gateway" if st == 502 else "OK", "httpVersion": "h2",
                                     "headers": [{"name": "content-type", "value": "application/json"}, {"name": "cache-control", "value": "no-store"}],
                                     "content": {"size": R.randint(100, 90000), "mimeType": "application/json"}, "redirectURL": "", "headersSize": -1, "bodySize": -1},
                        "cache": {}, "timings": {"blocked": 0.4, "dns": -1, "connect": -1, "send": 0.1, "wait": round(t - 2, 1), "receive": 1.5}})
    doc = {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [], "entries": entries}}
    w("session.har", json.dumps(doc, indent=2), "POST /api/v1/cart/checkout 502 after 30 s")


@reg
def curl_json_error():
    doc = {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:118273645'.",
                     "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED", "domain": "googleapis.com",
                                  "metadata": {"quota_limit_value": "60", "service": "sheets.googleapis.com", "quota_metric": "sheets.googleapis.com/read_requests"}},
                                 {"@type": "type.googleapis.com/google.rpc.Help", "links": [{"description": "Request a higher quota limit.", "url": "https://cloud.google.com/docs/quota"}]}]}}
    w("curl_error.json", json.dumps(doc), "429 quota 60 read requests/min")


@reg
def aws_logs_tail():
    L = []
    for i in range(500):
        stream = f"2026/12/07/[$LATEST]{hexs(32)}"
        t = (T0 + dt.timedelta(seconds=i * 2)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+00:00"
        rid_ = f"{hexs(8)}-{hexs(4)}-{hexs(4)}-{hexs(4)}-{hexs(12)}"
        if i % 5 == 0:
            msg = f"START RequestId: {rid_} Version: $LATEST"
        elif i % 5 == 4:
            dur = R.uniform(20, 400)
            mem = R.randint(80, 140)
            if i == 344:
                msg = f"REPORT RequestId: {rid_}\tDuration: 14998.12 ms\tBilled Duration: 15000 ms\tMemory Size: 256 MB\tMax Memory Used: 256 MB\tStatus: timeout"
            else:
                msg = f"REPORT RequestId: {rid_}\tDuration: {dur:.2f} ms\tBilled Duration: {int(dur) + 1} ms\tMemory Size: 256 MB\tMax Memory Used: {mem} MB"
        elif i % 5 == 3:
            msg = f"END RequestId: {rid_}"
        else:
            msg = f"{t}\t{rid_}\tINFO\tprocessed {R.randint(1, 50)} records"
        L.append(f"{t} {stream} {msg}")
    w("aws_logs_tail.txt", "\n".join(L), "one REPORT with Status: timeout 15000 ms, memory 256/256")


@reg
def cloudwatch_json():
    pts = []
    for i in range(288):
        v = round(R.uniform(20, 45), 2)
        if i == 201:
            v = 99.87
        pts.append({"Timestamp": (T0 + dt.timedelta(minutes=5 * i)).strftime("%Y-%m-%dT%H:%M:%SZ"), "Average": v, "Unit": "Percent"})
    doc = {"Label": "CPUUtilization", "Datapoints": pts}
    w("cloudwatch_cpu.json", json.dumps(doc, indent=4), "peak 99.87% at point 201")


@reg
def openapi_small():
    L = ["openapi: 3.1.0", "info:", "  title: Orders API", "  version: 2.4.0", "paths:"]
    for r in ["orders", "customers", "invoices", "refunds", "webhooks"]:
        L += [f"  /{r}:", "    get:", f"      operationId: list{r.capitalize()}", "      parameters:", "        - $ref: '#/components/parameters/Cursor'",
              "      responses:", "        '200':", f"          description: A page of {r}", f"  /{r}/{{id}}:", "    get:", f"      operationId: get{r.capitalize()[:-1]}",
              "      responses:", "        '200':", "          description: OK", "        '404':", "          description: Not found"]
        if r == "refunds":
            L += ["    delete:", "      operationId: deleteRefund", "      deprecated: true", "      security: []", "      responses:", "        '204':", "          description: Deleted"]
    L += ["components:", "  parameters:", "    Cursor:", "      name: cursor", "      in: query", "      schema:", "        type: string", "  securitySchemes:",
          "    bearer:", "      type: http", "      scheme: bearer", "security:", "  - bearer: []"]
    w("orders_openapi.yaml", "\n".join(L), "DELETE /refunds/{id} has security: [] (unauthenticated) and is deprecated")


# ---------------- odd encodings ----------------

@reg
def windows_crlf():
    L = ["Microsoft (R) Build Engine version 17.9.8+b34f75857 for .NET", "Copyright (C) Microsoft Corporation. All rights reserved.", "",
         "  Determining projects to restore..."]
    for i in range(600):
        L.append(f"  {R.choice(['Core', 'Web', 'Data'])}.{rid(5)} -> C:\\Users\\build\\src\\Acme.{rid(5)}\\bin\\Release\\net8.0\\Acme.{rid(5)}.dll")
    L += ["C:\\Users\\build\\src\\Acme.Data\\Repositories\\OrderRepo.cs(142,31): error CS0266: Cannot implicitly convert type 'long' to 'int'. An explicit conversion exists (are you missing a cast?) [C:\\Users\\build\\src\\Acme.Data\\Acme.Data.csproj]",
          "", "Build FAILED.", "", "    0 Warning(s)", "    1 Error(s)", "", "Time Elapsed 00:00:41.27"]
    w("msbuild_crlf.txt", "\r\n".join(L) + "\r\n", "OrderRepo.cs(142,31) CS0266 long->int", raw=True)


@reg
def cr_progress():
    s = "Downloading model shards\n"
    for f in range(3):
        for p in range(0, 101, 2):
            s += f"\rshard-{f}.safetensors: {p:3d}%|{'█' * (p // 5):<20}| {p * 41 // 10}M/410M [00:{p // 3:02d}<00:{(100 - p) // 3:02d}, 12.3MB/s]"
        s += "\n"
    s += "\rshard-3.safetensors:  62%|████████████        | 254M/410M [00:20<00:12, 12.3MB/s]\nERROR: ConnectionResetError(104, 'Connection reset by peer') while downloading shard-3.safetensors\n"
    w("cr_progress.txt", s, "shard-3 reset at 62%", raw=True)


@reg
def ansi_test():
    G, Rd, Y, D, X = "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[2m", "\x1b[0m"
    L = [f"\x1b[1m RUN \x1b[22m v2.1.4 /app", ""]
    for i in range(60):
        f = f"src/{R.choice(PYMODS)}/{rid(6)}.test.ts"
        if i == 41:
            L.append(f" {Rd}❯{X} src/utils/date.test.ts {D}(12 tests | {Rd}1 failed{X}{D}){X}")
            L.append(f"   {Rd}×{X} formatRelative > handles DST change {D}3ms{X}")
        else:
            L.append(f" {G}✓{X} {f} {D}({R.randint(1, 30)} tests){X} {Y}{R.randint(1, 900)}ms{X}")
    L += ["", f"{Rd}⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯{X}", "", f" {Rd}FAIL{X} src/utils/date.test.ts > formatRelative > handles DST change",
          f"{Rd}AssertionError: expected '23 hours ago' to be '1 day ago'{X}", "", f"{D} ❯ src/utils/date.test.ts:{Y}88:32{X}", "",
          f" Test Files  {Rd}1 failed{X} | {G}59 passed{X} (60)", f"      Tests  {Rd}1 failed{X} | {G}803 passed{X} (804)"]
    w("ansi_vitest.txt", "\n".join(L), "date.test.ts:88 DST '23 hours ago' vs '1 day ago'")


@reg
def german_log():
    L = []
    for i in range(2500):
        t = (T0 + dt.timedelta(seconds=i * 3)).strftime("%d.%m.%Y %H:%M:%S")
        m = R.choice(["Verbindung zur Datenbank hergestellt", "Anfrage erfolgreich verarbeitet", "Cache aktualisiert", "Benutzer angemeldet"])
        lvl = "INFO"
        if i == 1712:
            lvl, m = "FEHLER", "Zahlung konnte nicht verbucht werden: Konto DE89 3704 0044 0532 0130 00 gesperrt (Kontosperre seit 01.12.2026)"
        if i in (50, 120):
            lvl, m = "WARNUNG", "Antwortzeit überschritten (2,4 s)"
        L.append(f"{t} [{lvl:<7}] de.acme.zahlung.{R.choice(['Dienst', 'Buchung', 'Konto'])}: {m}")
    w("german_log.txt", "\n".join(L), "FEHLER Zahlung: Konto gesperrt")


@reg
def japanese_log():
    L = []
    for i in range(250):
        t = (T0 + dt.timedelta(seconds=i * 5)).strftime("%Y/%m/%d %H:%M:%S")
        m = R.choice(["リクエストを処理しました", "キャッシュを更新しました", "ユーザーがログインしました", "バッチ処理を開始します"])
        lvl = "情報"
        if i == 177:
            lvl, m = "エラー", "在庫の引当に失敗しました: 商品コード SKU-88213 の在庫が不足しています (要求 40, 在庫 3)"
        L.append(f"{t} [{lvl}] inventory.reserve - {m}")
    w("japanese_log.txt", "\n".join(L), "エラー SKU-88213 在庫不足 要求40 在庫3")


@reg
def base64_log():
    L = []
    for i in range(120):
        blob = base64.b64encode(bytes(R.getrandbits(8) for _ in range(R.randint(300, 900)))).decode()
        if i == 88:
            L.append(f"{ts(i)} ERROR webhook delivery failed: HTTP 413 Payload Too Large for endpoint https://hooks.partner.io/acme (attempt 5/5, giving up)")
        L.append(f"{ts(i)} DEBUG webhook payload={blob}")
    w("base64_log.txt", "\n".join(L), "webhook 413 Payload Too Large attempt 5/5 giving up")


# ---------------- stack traces ----------------

@reg
def kotlin_trace():
    L = []
    for i in range(60):
        L.append(f"{ts(i)} INFO  [ktor-worker-{i % 8}] Application - 200 OK: GET - /api/items/{R.randint(1, 9999)}")
    L += [f"{ts(61)} ERROR [ktor-worker-3] Application - Unhandled: POST - /api/orders",
          "kotlinx.serialization.MissingFieldException: Field 'currency' is required for type with serial name 'io.acme.shop.dto.MoneyDto', but it was missing at path: $.total",
          "\tat kotlinx.serialization.internal.PluginExceptionsKt.throwMissingFieldException(PluginExceptions.kt:20)",
          "\tat io.acme.shop.dto.MoneyDto.<init>(MoneyDto.kt:7)", "\tat io.acme.shop.dto.MoneyDto$$serializer.deserialize(MoneyDto.kt:7)"]
    for i in range(25):
        L.append(f"\tat io.ktor.{R.choice(['server.engine', 'util.pipeline', 'server.routing'])}.{rid(6).capitalize()}.invoke{R.choice(['', 'Suspend'])}({rid(6).capitalize()}.kt:{R.randint(10, 300)})")
    L += ["\tat io.acme.shop.routes.OrderRoutesKt$orderRoutes$1$2.invokeSuspend(OrderRoutes.kt:48)", "\tat kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)",
          "\t... 31 more"]
    for i in range(62, 100):
        L.append(f"{ts(i)} INFO  [ktor-worker-{i % 8}] Application - 200 OK: GET - /api/items/{R.randint(1, 9999)}")
    w("kotlin_trace.txt", "\n".join(L), "MissingFieldException currency at $.total, OrderRoutes.kt:48")


@reg
def csharp_trace():
    L = ["fail: Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware[1]", "      An unhandled exception has occurred while executing the request.",
         "      System.InvalidOperationException: Unable to resolve service for type 'Acme.Billing.IInvoiceRenderer' while attempting to activate 'Acme.Billing.Controllers.InvoiceController'.",
         "         at Microsoft.Extensions.DependencyInjection.ActivatorUtilities.GetService(IServiceProvider sp, Type type, Type requiredBy, Boolean isDefaultParameterRequired)"]
    for i in range(22):
        L.append(f"         at Microsoft.AspNetCore.{R.choice(['Mvc.Infrastructure', 'Routing', 'Server.Kestrel.Core.Internal.Http'])}.{rid(7).capitalize()}.{rid(6).capitalize()}(){' in /_/src/' + rid(5) + '.cs:line ' + str(R.randint(10, 900)) if R.random() < .3 else ''}")
    L += ["         at Acme.Billing.Middleware.TenantMiddleware.InvokeAsync(HttpContext ctx) in C:\\src\\Acme.Billing\\Middleware\\TenantMiddleware.cs:line 37"]
    pre = [f"info: Microsoft.AspNetCore.Hosting.Diagnostics[{k}]\n      Request {'starting' if k == 1 else 'finished'} HTTP/1.1 GET http://localhost:5000/health - 200 0 - {R.uniform(0.1, 3):.4f}ms" for k in [1, 2] * 400]
    w("csharp_trace.txt", "\n".join(pre + L + pre[:10]), "IInvoiceRenderer not registered for InvoiceController")


@reg
def ruby_trace():
    L = []
    for i in range(40):
        L.append(f"I, [{ts(i)} #{R.randint(1000, 9999)}]  INFO -- : Started GET \"/products/{R.randint(1, 999)}\" for 10.0.{R.randint(0, 9)}.{R.randint(1, 254)}")
        L.append(f"I, [{ts(i)} #{R.randint(1000, 9999)}]  INFO -- : Completed 200 OK in {R.randint(3, 90)}ms (Views: {R.randint(1, 40)}.0ms | ActiveRecord: {R.randint(1, 20)}.1ms)")
    L += [f"F, [{ts(41)} #4242] FATAL -- : ", "NoMethodError (undefined method `price_cents' for nil):", "  ",
          "app/models/line_item.rb:23:in `subtotal'", "app/models/cart.rb:41:in `block in total'", "app/models/cart.rb:41:in `sum'", "app/models/cart.rb:41:in `total'",
          "app/controllers/checkouts_controller.rb:12:in `create'"]
    for i in range(20):
        L.append(f"actionpack (7.1.3) lib/action_controller/metal/{rid(6)}.rb:{R.randint(10, 300)}:in `{rid(6)}'")
    w("ruby_trace.txt", "\n".join(L), "NoMethodError price_cents for nil line_item.rb:23")


@reg
def elixir_trace():
    L = []
    for i in range(50):
        L.append(f"{(T0 + dt.timedelta(seconds=i)).strftime('%H:%M:%S.%f')[:-3]} request_id={rid(20)} [info] GET /api/rooms/{R.randint(1, 99)}")
        L.append(f"{(T0 + dt.timedelta(seconds=i)).strftime('%H:%M:%S.%f')[:-3]} request_id={rid(20)} [info] Sent 200 in {R.randint(1, 40)}ms")
    L += ["14:03:02.118 [error] GenServer Chat.RoomServer terminating", "** (FunctionClauseError) no function clause matching in Chat.RoomServer.handle_cast/2",
          "    (chat 0.9.1) lib/chat/room_server.ex:58: Chat.RoomServer.handle_cast({:kick, \"u_9921\", :no_reason}, %Chat.Room{id: 42, members: 17})",
          "    (stdlib 5.2) gen_server.erl:1123: :gen_server.try_handle_cast/3", "    (stdlib 5.2) gen_server.erl:1200: :gen_server.handle_msg/6",
          "    (stdlib 5.2) proc_lib.erl:241: :proc_lib.init_p_do_apply/3", "Last message: {:\"$gen_cast\", {:kick, \"u_9921\", :no_reason}}",
          "State: %Chat.Room{id: 42, members: 17}"]
    w("elixir_trace.txt", "\n".join(L), "FunctionClauseError handle_cast {:kick,..., :no_reason} room_server.ex:58")


@reg
def php_trace():
    L = []
    for i in range(30):
        L.append(f"[{(T0 + dt.timedelta(seconds=i)).strftime('%Y-%m-%d %H:%M:%S')}] production.INFO: Job processed {{\"job\":\"App\\\\Jobs\\\\SendMail\",\"id\":\"{hexs(8)}\"}}")
    L += [f"[2026-12-07 14:03:00] production.ERROR: SQLSTATE[23000]: Integrity constraint violation: 1062 Duplicate entry 'ord-77812' for key 'orders.orders_reference_unique' (Connection: mysql, SQL: insert into `orders` (`reference`, `total`) values (ord-77812, 120.00)) {{\"exception\":\"[object] (Illuminate\\\\Database\\\\UniqueConstraintViolationException(code: 23000): SQLSTATE[23000] at /var/www/vendor/laravel/framework/src/Illuminate/Database/Connection.php:817)",
          "[stacktrace]"]
    for i in range(30):
        if i == 9:
            L.append(f"#{i} /var/www/app/Services/OrderService.php(64): Illuminate\\Database\\Eloquent\\Model->save()")
        else:
            L.append(f"#{i} /var/www/vendor/laravel/framework/src/Illuminate/{R.choice(['Database', 'Pipeline', 'Routing'])}/{rid(6).capitalize()}.php({R.randint(10, 900)}): Illuminate\\{rid(6).capitalize()}->{rid(5)}()")
    L += ["#30 {main}", "\"}"]
    w("php_trace.txt", "\n".join(L), "Duplicate entry ord-77812; OrderService.php(64)")


# ---------------- bigger variants ----------------

@reg
def kubectl_logs_jsonl_big():
    L = []
    for i in range(1900):
        lvl = R.choice(["info"] * 20 + ["debug"] * 6 + ["warn"])
        rec = {"ts": ts(i, 0.05), "level": lvl, "caller": f"{R.choice(MODS)}/{R.choice(PYMODS)}.go:{R.randint(10, 400)}", "msg": R.choice(["request", "cache hit", "flush", "heartbeat"]),
               "path": f"/v1/{R.choice(SVCS)}", "status": 200, "dur_ms": R.randint(1, 80)}
        if i in (1400, 1401, 1402):
            rec["status"], rec["level"], rec["msg"], rec["dur_ms"] = 503, "error", "upstream unavailable: payments circuit open", 30000
        L.append(json.dumps(rec))
    w("kubectl_logs_jsonl_big.txt", "\n".join(L), "3 errors at i=1400..1402 payments circuit open 503")


@reg
def git_log_p_big():
    L = []
    for c in range(120):
        L += [f"commit {hexs(40)}", f"Author: dev{c % 7} <dev{c % 7}@acme.io>", f"Date:   Sun Dec 6 {c % 24:02d}:00:00 2026 +0000", "", f"    chore: bump {rid(6)}", ""]
        f = f"deps/{rid(6)}.lock"
        L += [f"diff --git a/{f} b/{f}", f"--- a/{f}", f"+++ b/{f}", "@@ -1,3 +1,3 @@", f"-version = \"1.{c}.0\"", f"+version = \"1.{c + 1}.0\"", " checksum = \"" + hexs(64) + "\""]
        if c == 77:
            f = "config/prod.yaml"
            L += [f"diff --git a/{f} b/{f}", f"--- a/{f}", f"+++ b/{f}", "@@ -12,3 +12,3 @@", "   payments:", "-    verify_tls: true", "+    verify_tls: false"]
        L.append("")
    w("git_log_p_big.txt", "\n".join(L), "commit 77 flips payments verify_tls true->false in config/prod.yaml")


@reg
def mysql_box_wide_big():
    cols = ["ts", "host", "p50_ms", "p99_ms", "errors", "rps"]
    rows = []
    for i in range(1500):
        rows.append([(T0 + dt.timedelta(minutes=i)).strftime("%Y-%m-%d %H:%M"), f"web-{i % 12:02d}", str(R.randint(10, 40)), str(R.randint(80, 300)), str(R.randint(0, 3)), str(R.randint(400, 900))])
    rows[1111][3], rows[1111][4] = "9817", "412"
    wd = [max(len(c), *(len(r[k]) for r in rows)) for k, c in enumerate(cols)]
    sep = "+" + "+".join("-" * (x + 2) for x in wd) + "+"
    L = [sep, "| " + " | ".join(c.ljust(wd[k]) for k, c in enumerate(cols)) + " |", sep]
    for r in rows:
        L.append("| " + " | ".join(v.ljust(wd[k]) for k, v in enumerate(r)) + " |")
    L += [sep, "1500 rows in set (0.41 sec)"]
    w("mysql_latency_big.txt", "\n".join(L), "row 1111 p99 9817 errors 412")


if __name__ == "__main__":
    for f in ALL:
        f()
    with open(os.path.join(OUT, "needles.json"), "w") as fh:
        json.dump(NEEDLES, fh, indent=1, sort_keys=True, ensure_ascii=False)
    print(len(NEEDLES), "payloads")
