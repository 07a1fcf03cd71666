//! One classifier of error and warning lines, shared by every lean rule
//! and by the budget: errors are recognised by their *shape*, not by a
//! dictionary of English words alone.
//!
//! A line is an **error** when it holds any of:
//! - an error or failure word (`error`, `fatal`, `failed`, `panic`,
//!   `timed out`, `denied`, `refused`, `unable to`, `not found`, …) that
//!   is not negated by a zero count or an empty value (`0 errors`,
//!   `errors: 0`, `err=<nil>`, `"error":null`, `no errors`);
//! - an exception, error or fault class name (`KeyError`,
//!   `java.lang.OutOfMemoryError`, `NullPointerException`,
//!   `SegmentationFault`);
//! - a non-zero exit or status code (`exit status 1`, `exited with code
//!   137`, `returncode=2`), an HTTP status of 4xx or 5xx (`HTTP/1.1 503`,
//!   `"GET / HTTP/1.1" 500`, `status=500`, `"status": 404`);
//! - a diagnostic or error code (`E0502`, `error[E0502]`, `TS2345`,
//!   `ERR_MODULE_NOT_FOUND`, `ENOENT`), an `E`/`F` level prefix (glog
//!   `E0102 10:00:00`, logcat ` E/Tag`, pytest's `E   assert …`);
//! - a test runner's failure marker (`FAILED`, `not ok 3`, `--- FAIL`,
//!   `✗`, `✕`), a fatal signal (`SIGSEGV`, `Segmentation fault`, `core
//!   dumped`, `Killed`), an out-of-memory or crash word (`OOMKilled`,
//!   `CrashLoopBackOff`, `deadlock detected`, `stack overflow`);
//! - the common non-English words for error and failure (`Fehler`,
//!   `erreur`, `エラー`, `错误`, `ошибка`, …).
//!
//! A line is a **warning** when it is not an error and holds a warning
//! word (`warn`, `warning`, `deprecated`), a `…Warning` class name, a
//! `W` level prefix, or a terminating signal (`SIGTERM`).

use crate::ascii_first::AsciiFirst;

/// How serious a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Other,
    Warning,
    Error,
}

/// Error and failure words (ASCII word boundaries, any case). Each match
/// is checked for negation ([`negated`]).
static ERROR_WORDS: AsciiFirst = AsciiFirst::new(concat!(
    r"(?i)(?-u:\b)(",
    r"errors?|err|fatal|critical|crit|severe|emerg|emergency|alert|panic|panicked|panics",
    r"|exceptions?|fail|fails|failed|failures?|failing|timeout|timeouts|timed out",
    r"|denied|refused|traceback|abort|aborted|aborting|segfault|segmentation fault",
    r"|core dumped|killed|crash|crashed|crashes|crashing|deadlock|deadlocked",
    r"|deadlock detected|oom|oomkilled|out of memory|unhandled|uncaught",
    r"|stack overflow|assertion|unable to|could not|couldn't|cannot|can't",
    r"|not found|no such file|undefined reference|undefined symbol|unresolved",
    r"|deadline exceeded|expired|violation|corrupt|corrupted|rejected|forbidden",
    r"|unauthorized|unavailable|unreachable|invalid|backoff|evicted|unhealthy",
    r"|non-zero exit|nonzero exit|broken pipe|disconnected unexpectedly",
    r"|unexpected shutdown|unexpectedly|mismatch|overflow|underflow",
    r")(?-u:\b)",
));

/// Error shapes that are not words: class names, codes, prefixes, exit
/// and HTTP statuses, runner markers, signals (case-sensitive).
static ERROR_SHAPES: AsciiFirst = AsciiFirst::new(concat!(
    // Exception, error and fault class names.
    r"(?-u:\b)[A-Za-z][A-Za-z0-9]*(Error|Exception|Fault|Failure|Panic)(?-u:\b)",
    r"|(?-u:\b)(OOMKilled|CrashLoopBackOff|ImagePullBackOff|ErrImagePull|CreateContainerError|OutOfMemory|OutOfmemory)",
    // Diagnostic codes.
    r"|(?-u:\b)E[0-9]{4}(?-u:\b)|(?-u:\b)TS[0-9]{4,5}(?-u:\b)|(?-u:\b)ERR_[A-Z0-9_]+",
    r"|(?-u:\b)E(NOENT|ACCES|PERM|CONNREFUSED|CONNRESET|CONNABORTED|PIPE|TIMEDOUT|ADDRINUSE",
    r"|ADDRNOTAVAIL|NOMEM|NOSPC|EXIST|NOTDIR|ISDIR|INVAL|MFILE|NFILE|AGAIN|BUSY|HOSTUNREACH",
    r"|NETUNREACH|NOTFOUND|ROFS|NOTEMPTY|XDEV|BADF|DQUOT|NOTCONN|PROTO|NOEXEC|2BIG|FAULT",
    r"|DEADLK|SRCH|CHILD|OVERFLOW|NOTSUP|OPNOTSUPP|NOSYS|IO)(?-u:\b)",
    // Level prefixes: glog, logcat, pytest's assertion lines.
    r"|^[EF][0-9]{4} [0-9]{2}:[0-9]{2}|(^|\s)[EF]/[A-Za-z]|^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+ [EF] ",
    r"|^E {2,}\S|^\[[EF]\]\s",
    // Fatal signals.
    r"|(?-u:\b)SIG(SEGV|KILL|ABRT|BUS|ILL|FPE|TRAP|SYS|XCPU|XFSZ)(?-u:\b)",
    // Test runners.
    r"|^\s*not ok(?-u:\b)|^\s*--- FAIL|^\s*(✗|✕|✘|×|❌|💥)|\[FAIL(ED)?\]",
    // Non-English error and failure words.
    r"|(?i)(?-u:\b)(fehler|fehlgeschlagen|ausnahme|erreur|échec|échoué|errore|fallito",
    r"|fallo|falló|erro|falha|hata|błąd|fout|mislukt|chyba|virhe)(?-u:\b)",
    r"|ошибк|сбой|エラー|失敗|例外|异常|错误|失败|異常|錯誤|오류|실패|예외",
));

/// Non-zero exit codes and HTTP 4xx/5xx statuses (case-insensitive keys).
static STATUS: AsciiFirst = AsciiFirst::new(concat!(
    r#"(?i)(?-u:\b)(exit(ed)?(\s+with)?(\s+(status|code))?|exit_?code|exit-code|exitstatus"#,
    r#"|return_?code|returncode)["']?\s*[:=]?\s*["']?-?0*[1-9][0-9]*(?-u:\b)"#,
    r#"|(?-u:\b)rc\s*[:=]\s*-?0*[1-9][0-9]*(?-u:\b)"#,
    r#"|(?-u:\b)HTTP/[0-9](\.[0-9])?"?\s+[45][0-9]{2}(?-u:\b)"#,
    r#"|(?i)(?-u:\b)(status|status_?code|statuscode|http_?status|response_?code|code)["']?\s*[:=]\s*["']?[45][0-9]{2}(?-u:\b)"#,
    r#"|"\s+[45][0-9]{2}\s+([0-9]+|-)(\s|$)"#,
));

/// Warning words and shapes.
static WARN: AsciiFirst = AsciiFirst::new(concat!(
    r"(?i)(?-u:\b)(warn|warning|warnings|deprecated|deprecation|retrying|degraded)(?-u:\b)",
    r"|(?-u:\b)[A-Za-z][A-Za-z0-9]*Warning(?-u:\b)",
    r"|^W[0-9]{4} [0-9]{2}:[0-9]{2}|(^|\s)W/[A-Za-z]|^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+ W ",
    r"|(?-u:\b)SIG(TERM|HUP|INT|QUIT|PIPE)(?-u:\b)",
    r"|(?i)(?-u:\b)(warnung|avertissement|advertencia|предупреждение|警告|경고)",
));

/// What may follow a word to say there was none: `: 0`, `="0"`,
/// `=<nil>`, `: null`, `=""`, `: []`.
static NONE_AFTER: AsciiFirst = AsciiFirst::new(
    r#"^(?i)["']?[ \t]*[:=][ \t]*(["']?0+(\.0+)?["']?|none|null|nil|<nil>|false|\[\]|\{\}|""|'')($|[^\w.])"#,
);

/// What may precede a word to say there was none: a zero count (`0 `,
/// not after a word character, `.` or `,`, nor the value of the field
/// before: `unreachable=0    failed=1` is one failure).
static NONE_BEFORE: AsciiFirst = AsciiFirst::new(r"(^|[^\w.,=:])0+[ \t]+$");

/// Whether the word at `start..end` of `line` is negated: a zero count or
/// an empty value next to it.
fn negated(line: &str, start: usize, end: usize) -> bool {
    NONE_AFTER.is_match(&line[end..]) || NONE_BEFORE.is_match(&line[..start])
}

/// The level of a line.
pub fn level(line: &str) -> Level {
    if is_error(line) {
        Level::Error
    } else if is_warning_word(line) {
        Level::Warning
    } else {
        Level::Other
    }
}

/// Words that say something is missing or refused without saying the
/// program failed: an error unless the line's own level says otherwise.
static WEAK: AsciiFirst = AsciiFirst::new(concat!(
    r"(?i)^(not found|unavailable|invalid|cannot|can't|unable to|could not|couldn't",
    r"|expired|rejected|unreachable|mismatch|backoff|evicted|unhealthy|violation",
    r"|overflow|underflow|unexpectedly|alert)$",
));

/// A level field that says the line is routine: `INFO`, `DEBUG`,
/// `TRACE`, `NOTICE` as a word of their own, `level=info`,
/// `"level":"debug"`, a glog `I0102 10:00:00` prefix.
static ROUTINE_LEVEL: AsciiFirst = AsciiFirst::new(concat!(
    r#"(?-u:\b)(INFO|DEBUG|TRACE|NOTICE)(?-u:\b)"#,
    r#"|(?i)(?-u:\b)level["']?\s*[:=]\s*["']?(info|debug|trace|notice)(?-u:\b)"#,
    r#"|^I[0-9]{4} [0-9]{2}:[0-9]{2}"#,
));

/// A bracketed lower-case level field near the start of a line that says
/// the event is routine: nginx's and Apache's `[info]`, `[notice]`,
/// `[debug]` (Apache 2.4's `[core:info]`). The server sets that field per
/// event, so the words of its message (`client timed out (110: Connection
/// timed out) while waiting for request`) do not make it an error.
static BRACKET_ROUTINE: AsciiFirst = AsciiFirst::new(
    r"^(?:[^\[]{0,48}|\[[^\]]{0,40}\]\s*)\[(?:[a-z_]+:)?(?:info|notice|debug|trace)\]",
);

/// Crash words: an error under any level field.
static CRASH: AsciiFirst = AsciiFirst::new(concat!(
    r"(?i)(?-u:\b)(fatal|panic|panicked|segfault|segmentation fault|core dumped",
    r"|out of memory|oom|deadlock|deadlocked|crash|crashed|traceback|unhandled|uncaught",
    r"|stack overflow)(?-u:\b)",
));

/// Whether a line reports an error or failure (module doc). A weak word
/// (`not found`, `invalid`, `cannot`, …) on a line whose level field says
/// INFO or DEBUG is the program reporting routine work (`INFO Partition
/// rdd_2_1 not found, computing it`), not an error; under a bracketed
/// routine level ([`BRACKET_ROUTINE`]) no word is, only a shape.
pub fn is_error(line: &str) -> bool {
    if BRACKET_ROUTINE.is_match(line) {
        return ERROR_SHAPES.is_match(line) || STATUS.is_match(line) || CRASH.is_match(line);
    }
    let mut routine = None;
    error_by(line, |line| {
        !*routine.get_or_insert_with(|| ROUTINE_LEVEL.is_match(line))
    })
}

/// Whether a table cell reports an error or failure: as [`is_error`], but
/// a weak word never counts. A cell has no level of its own, and a cell of
/// prose (`I Can't Stand It`, `Not found in stock`) is data, not a report.
pub fn is_error_cell(cell: &str) -> bool {
    error_by(cell, |_| false)
}

/// The level of a table cell ([`is_error_cell`], then warnings).
pub fn cell_level(cell: &str) -> Level {
    if is_error_cell(cell) {
        Level::Error
    } else if is_warning_word(cell) {
        Level::Warning
    } else {
        Level::Other
    }
}

/// An error shape, or an error word that is not negated; a weak word
/// counts when `weak_counts` says so.
fn error_by(line: &str, mut weak_counts: impl FnMut(&str) -> bool) -> bool {
    if ERROR_SHAPES.is_match(line) || STATUS.is_match(line) {
        return true;
    }
    ERROR_WORDS.find_iter(line).any(|m| {
        (!WEAK.is_match(m.as_str()) || weak_counts(line)) && !negated(line, m.start(), m.end())
    })
}

fn is_warning_word(line: &str) -> bool {
    WARN.find_iter(line)
        .any(|m| !negated(line, m.start(), m.end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real-looking lines and their level.
    const TABLE: &[(&str, Level)] = &[
        // Errors by word.
        ("2024-01-01 10:00:00 ERROR [main] request failed", Level::Error),
        ("error: could not compile `app` due to 2 previous errors", Level::Error),
        ("level=error msg=\"dial tcp 10.0.0.1:5432: connect: connection refused\"", Level::Error),
        (r#"{"level":"error","msg":"boom"}"#, Level::Error),
        ("context deadline exceeded", Level::Error),
        // A weak word under a routine level is routine; a strong one is not.
        ("17/06/09 20:10:46 INFO spark.CacheManager: Partition rdd_2_1 not found, computing it", Level::Other),
        ("level=debug msg=\"cache entry invalid, refreshing\"", Level::Other),
        ("2024-03-05 10:00:00 INFO [kernel] Out of memory: Killed process 4242 (java)", Level::Error),
        ("17/06/09 20:10:46 INFO request failed, retrying", Level::Error),
        ("2024-03-05 10:00:00 WARN config file not found", Level::Error),
        ("x509: certificate has expired or is not yet valid", Level::Error),
        ("Segmentation fault (core dumped)", Level::Error),
        ("Killed", Level::Error),
        ("FATAL: password authentication failed for user \"app\"", Level::Error),
        ("ERROR: deadlock detected", Level::Error),
        ("thread 'main' panicked at 'attempt to add with overflow', src/main.rs:4:5", Level::Error),
        ("/usr/bin/ld: main.o: undefined reference to `foo'", Level::Error),
        ("bash: foo: command not found", Level::Error),
        ("cat: x.txt: No such file or directory", Level::Error),
        ("Agent unexpected shutdown", Level::Error),
        ("Tests: 1 failed, 3000 passed, 3001 total", Level::Error),
        ("FAILED tests/test_payments.py::test_refund - AssertionError", Level::Error),
        // Errors by shape.
        ("KeyError: 'price'", Level::Error),
        ("ValueError: invalid literal for int() with base 10: 'x'", Level::Error),
        ("TypeError: Cannot read properties of undefined (reading 'id')", Level::Error),
        ("java.lang.OutOfMemoryError: Java heap space", Level::Error),
        ("Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"customer\" is null", Level::Error),
        ("E   AssertionError: assert 15.0 == 1.5", Level::Error),
        ("E       assert 15.0 == 1.5", Level::Error),
        ("tests/test_payments.py:212: AssertionError", Level::Error),
        ("error[E0502]: cannot borrow `v` as mutable", Level::Error),
        ("  = note: E0502 see rustc --explain", Level::Error),
        ("src/app.ts(3,7): error TS2322: Type 'string' is not assignable", Level::Error),
        ("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x'", Level::Error),
        ("node:internal/fs ENOENT open '/app/config.json'", Level::Error),
        ("E0102 10:00:00.123456    1234 server.go:42] listen failed", Level::Error),
        ("01-02 10:00:00.123  1234  1234 E ActivityManager: ANR in app", Level::Error),
        ("not ok 3 - should reject negative balance", Level::Error),
        ("--- FAIL: TestBalance (0.00s)", Level::Error),
        ("  ✗ rejects a refund over the total", Level::Error),
        ("Last State: Terminated  Reason: OOMKilled  Exit Code: 137", Level::Error),
        ("api-7d9f  0/1  CrashLoopBackOff  12  40m", Level::Error),
        ("process exited with code 137", Level::Error),
        ("exit status 1", Level::Error),
        ("subprocess.CalledProcessError: Command 'make' returned non-zero exit status 2.", Level::Error),
        ("HTTP/1.1 503 Service Unavailable", Level::Error),
        ("10.0.0.1 - - [01/Jan/2024:00:00:01 +0000] \"GET /api HTTP/1.1\" 500 1234", Level::Error),
        ("method=GET path=/api status=500 duration=3ms", Level::Error),
        (r#"{"path":"/x","status": 404}"#, Level::Error),
        ("received SIGSEGV", Level::Error),
        ("Fehler beim Laden der Datei", Level::Error),
        ("エラーが発生しました", Level::Error),
        ("错误: 无法连接", Level::Error),
        ("Ошибка соединения", Level::Error),
        ("erreur : fichier introuvable", Level::Error),
        // Not errors.
        ("2024-01-01 10:00:00 INFO [main] request ok", Level::Other),
        ("Finished `release` profile [optimized] target(s) in 6m 59s", Level::Other),
        ("test result: ok. 173 passed; 0 failed; 0 ignored", Level::Other),
        ("Tests run: 10, Failures: 0, Errors: 0, Skipped: 0", Level::Other),
        ("level=info err=<nil> msg=\"connected\"", Level::Other),
        ("level=info err=0 took=3ms", Level::Other),
        // A zero that is the value of the field before is no count.
        ("web17.prod : ok=6 changed=2 unreachable=0    failed=1    skipped=0", Level::Error),
        ("web18.prod : ok=7 changed=2 unreachable=0    failed=0    skipped=0", Level::Other),
        // A bracketed routine level: the message's words do not count.
        ("2026/12/05 09:14:07 [info] 1038#1072: *109621 client timed out (110: Connection timed out) while waiting for request, client: 10.1.1.170", Level::Other),
        ("[Wed Oct 11 14:32:52.123 2026] [core:notice] [pid 42] AH00094: Command line: 'httpd -D FOREGROUND' failed", Level::Other),
        ("2026/12/05 09:14:07 [error] 1038#1072: *1 upstream timed out (110: Connection timed out)", Level::Error),
        ("2026/12/05 09:14:07 [notice] 1#1: worker process 77 exited with code 2", Level::Error),
        ("2026/12/05 09:14:07 [info] 1#1: java.lang.OutOfMemoryError: Java heap space", Level::Error),
        ("2026/12/05 09:14:07 [notice] 1#1: worker process 77 exited on signal 11 (core dumped)", Level::Error),
        (r#"{"error":null,"ok":true}"#, Level::Other),
        (r#"{"errors":[],"ok":true}"#, Level::Other),
        ("compiled with 0 errors and 0 warnings", Level::Other),
        // "no errors" names errors: kept (a zero count is the only negation).
        ("no errors found", Level::Error),
        ("exit status 0", Level::Other),
        ("process exited with code 0", Level::Other),
        ("HTTP/1.1 200 OK", Level::Other),
        ("10.0.0.1 - - [01/Jan/2024:00:00:01 +0000] \"GET /api HTTP/1.1\" 200 1234", Level::Other),
        ("method=GET path=/api status=200 duration=3ms", Level::Other),
        ("GET /health 200 1ms", Level::Other),
        ("api-7d9f  1/1  Running  0  40m", Level::Other),
        ("PASS src/app.test.ts", Level::Other),
        ("ok  \texample.com/pay\t0.01s", Level::Other),
        ("Downloading serde v1.0.0", Level::Other),
        // Warnings.
        ("warning: unused variable: `x`", Level::Warning),
        ("2024-01-01 WARN disk usage 91%", Level::Warning),
        ("DeprecationWarning: the imp module is deprecated", Level::Warning),
        ("W0102 10:00:00.123456    1234 server.go:42] slow", Level::Warning),
        ("received SIGTERM, shutting down", Level::Warning),
        ("compiled with 0 errors and 2 warnings", Level::Warning),
    ];

    /// Every pattern compiles in both forms (the ASCII one first meets
    /// a payload otherwise).
    #[test]
    fn patterns_compile_in_both_forms() {
        for re in [
            &ERROR_WORDS,
            &ERROR_SHAPES,
            &STATUS,
            &WARN,
            &NONE_AFTER,
            &NONE_BEFORE,
            &WEAK,
            &ROUTINE_LEVEL,
        ] {
            re.force();
        }
    }

    #[test]
    fn classifies_a_table_of_real_lines() {
        let mut wrong = Vec::new();
        for &(line, want) in TABLE {
            let got = level(line);
            if got != want {
                wrong.push(format!("{line:?}: got {got:?}, want {want:?}"));
            }
        }
        assert!(wrong.is_empty(), "misclassified:\n{}", wrong.join("\n"));
    }

    #[test]
    fn warnings_are_not_errors() {
        for &(line, want) in TABLE {
            assert_eq!(is_error(line), want == Level::Error, "{line}");
            assert_eq!(
                level(line) == Level::Warning,
                want == Level::Warning,
                "{line}"
            );
        }
    }

    #[test]
    fn cells_count_no_weak_word() {
        for (cell, want) in [
            ("CrashLoopBackOff", Level::Error),
            ("Failed", Level::Error),
            ("exit code 137", Level::Error),
            ("java.lang.NullPointerException", Level::Error),
            ("Warning", Level::Warning),
            ("I Can't Stand It", Level::Other),
            ("Not found in stock", Level::Other),
            ("invalid", Level::Other),
            ("Running", Level::Other),
        ] {
            assert_eq!(cell_level(cell), want, "{cell}");
        }
        // The same weak words are errors on a line of a log.
        assert!(is_error("open config.yaml: not found"));
    }

    proptest::proptest! {
        /// Any exception class name followed by a message is an error,
        /// wherever it sits in a line.
        #[test]
        fn exception_names_are_errors(
            pre in "[a-z .:]{0,20}",
            name in "[A-Z][a-z]{1,8}(Error|Exception)",
            msg in "[a-z ]{0,30}",
        ) {
            let line = format!("{pre}{name}: {msg}");
            proptest::prop_assert!(is_error(&line));
        }

        /// A zero count of errors, failures or warnings is neither.
        #[test]
        fn zero_counts_are_not_signals(
            word in "(errors|failures|failed|warnings)",
            pre in "[a-z]{1,8} ",
        ) {
            let a = format!("{pre}0 {word}");
            let b = format!("{pre}{word}: 0");
            let c = format!("{pre}{word}=0");
            proptest::prop_assert_eq!(level(&a), Level::Other, "{}", a);
            proptest::prop_assert_eq!(level(&b), Level::Other, "{}", b);
            proptest::prop_assert_eq!(level(&c), Level::Other, "{}", c);
        }

        /// A non-zero count is a signal; non-zero exit codes are errors.
        #[test]
        fn non_zero_counts_are_signals(n in 1u32..100_000, code in 1u32..256) {
            let counted = format!("{n} failed, 3 passed");
            let exit = format!("exited with code {code}");
            proptest::prop_assert!(is_error(&counted));
            proptest::prop_assert!(is_error(&exit));
        }

        /// The classifier never panics and answers the same twice.
        #[test]
        fn total_and_deterministic(line in "\\PC{0,80}") {
            proptest::prop_assert_eq!(level(&line), level(&line));
        }
    }
}
