//! The lean view of a JUnit XML report (`<testsuites>`/`<testsuite>` of
//! `<testcase>` elements, as gotestsum, surefire, pytest and jest write
//! them). What a reader wants is which tests failed and why: every
//! failing testcase (one holding a `<failure>` or `<error>`) stays whole,
//! with its testsuite's opening line and the report's header; passing and
//! skipped testcases, properties and closing tags go into markers that
//! count the lines and say what they held (`2 testsuites, 16 testcases
//! passed, 2 skipped`). A kept testcase is written more tightly: its
//! opening tag joined to the line after it, a closing `</testcase>` to the
//! line before, and a `classname` that repeats its testsuite's name left
//! out (the note at the top says so). Lines with error words outside any
//! testcase (a suite's `<system-err>`) and lines holding the query stay.

use super::shared::lines::Trace;
use super::shared::signal;
use super::Compressed;

/// How far into the text the report's root element must start.
const ROOT_WITHIN: usize = 4096;

/// Whether a line opens a `<failure>` or `<error>` element.
fn fails(line: &str) -> bool {
    ["<failure", "<error"].iter().any(|tag| {
        line.match_indices(tag).any(|(i, _)| {
            matches!(
                line.as_bytes().get(i + tag.len()),
                Some(b' ' | b'>' | b'/' | b'\t')
            )
        })
    })
}

/// The value of attribute `name` in a tag line.
fn attr<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = line.find(&key)? + key.len();
    let len = line[start..].find('"')?;
    Some(&line[start..start + len])
}

/// A testcase: its first and last line and what it holds.
struct Case {
    first: usize,
    last: usize,
    failing: bool,
    skipped: bool,
    /// The testsuite line it sits under.
    suite: Option<usize>,
}

/// Whether `text` is a JUnit XML report: an XML declaration or the root
/// first, the root (the first element after the declaration and
/// comments, within [`ROOT_WITHIN`] bytes) a `<testsuites>` or
/// `<testsuite>`, and a `<testcase>` in it. Lean detection names such a
/// report by this same test.
pub(crate) fn is_report(text: &str) -> bool {
    let head = text.trim_start();
    if !(head.starts_with("<?xml") || head.starts_with("<testsuite")) {
        return false;
    }
    let mut end = head.len().min(ROOT_WITHIN);
    while !head.is_char_boundary(end) {
        end -= 1;
    }
    let lead = &head[..end];
    // No element opens before the root (a declaration, comments and
    // processing instructions may).
    let opens_element = |s: &str| {
        s.match_indices('<')
            .any(|(i, _)| s[i + 1..].starts_with(|c: char| c.is_ascii_alphabetic()))
    };
    lead.find("<testsuite")
        .is_some_and(|root| !opens_element(&lead[..root]) && text.contains("<testcase"))
}

/// The view, or `None` when `text` is not a JUnit report.
pub(super) fn lean(text: &str, query: &str) -> Option<Compressed> {
    if !is_report(text) {
        return None;
    }
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let n = lines.len() - usize::from(text.ends_with('\n'));
    let lines = &lines[..n];
    let opens = |l: &str, tag: &str| {
        l.trim_start()
            .strip_prefix(tag)
            .is_some_and(|r| r.starts_with([' ', '>', '\t', '/']) || r.is_empty())
    };
    // The testcases and the testsuite each sits under.
    let mut cases: Vec<Case> = Vec::new();
    let mut suite = None;
    let mut i = 0;
    while i < n {
        let l = lines[i];
        if opens(l, "<testsuite") {
            suite = Some(i);
        }
        if !opens(l, "<testcase") {
            i += 1;
            continue;
        }
        let t = l.trim_end();
        let mut last = i;
        if !(t.ends_with("/>") || t.contains("</testcase>")) {
            while last + 1 < n && !lines[last].contains("</testcase>") {
                last += 1;
            }
        }
        let body = &lines[i..=last];
        cases.push(Case {
            first: i,
            last,
            failing: body.iter().any(|l| fails(l)),
            skipped: body.iter().any(|l| l.contains("<skipped")),
            suite,
        });
        i = last + 1;
    }
    if cases.is_empty() {
        return None;
    }
    let words: Vec<String> = query
        .split_whitespace()
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_lowercase)
        .collect();
    let mut keep = vec![false; n];
    let mut in_case = vec![false; n];
    let mut trace = Trace::default();
    for c in &cases {
        in_case[c.first..=c.last].iter_mut().for_each(|k| *k = true);
        if c.failing {
            keep[c.first..=c.last].iter_mut().for_each(|k| *k = true);
            if let Some(s) = c.suite {
                keep[s] = true;
            }
            trace.add("failing testcase (whole)", c.last - c.first + 1);
        }
    }
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let header = t.starts_with("<?xml")
            || opens(l, "<testsuites")
            || t.starts_with("</testsuites>")
            || (opens(l, "<testsuite")
                && ["failures", "errors"]
                    .iter()
                    .any(|a| attr(l, a).is_some_and(|v| !v.trim_start_matches('0').is_empty())));
        let hit = !words.is_empty() && {
            let low = l.to_lowercase();
            words.iter().any(|w| low.contains(w.as_str()))
        };
        let error = !in_case[i] && !t.starts_with('<') && signal::is_error(l);
        if !keep[i] && (header || hit || error) {
            keep[i] = true;
            trace.add(
                match (header, hit) {
                    (true, _) => "report and failing suite header",
                    (_, true) => "query hit",
                    _ => "error line",
                },
                1,
            );
        }
    }
    // Kept testcases, written tightly.
    let mut rewritten: Vec<Option<String>> = vec![None; n];
    // Lines written onto the line before them, and lines already written
    // into a rewritten opening tag.
    let mut joined = vec![false; n];
    let mut consumed = vec![false; n];
    let mut classname_cut = false;
    for c in cases.iter().filter(|c| c.failing) {
        let open = lines[c.first];
        let own = attr(open, "classname");
        let suite_name = c.suite.and_then(|s| attr(lines[s], "name"));
        let mut first = match (own, suite_name) {
            (Some(a), Some(b)) if a == b && !a.is_empty() => {
                classname_cut = true;
                open.replacen(&format!(" classname=\"{a}\""), "", 1)
            }
            _ => open.to_string(),
        };
        if c.last > c.first {
            first.push_str(lines[c.first + 1].trim_start());
            consumed[c.first + 1] = true;
        }
        rewritten[c.first] = Some(first);
        if c.last > c.first + 1 && lines[c.last].trim() == "</testcase>" {
            joined[c.last] = true;
        }
    }
    let mut out = String::with_capacity(text.len() / 4);
    if classname_cut {
        out.push_str("\u{2026} caveman: JUnit report: failing testcases whole (a classname that repeats its testsuite's name left out), the rest counted \u{2026}\n");
    }
    let mut run = Run::default();
    let mut dropped = 0;
    let mut i = 0;
    while i < n {
        if !keep[i] {
            run.add(lines[i], &cases, i);
            dropped += 1;
            i += 1;
            continue;
        }
        run.flush(&mut out);
        if consumed[i] {
            i += 1;
            continue;
        }
        if joined[i] {
            // Joined onto the line before (never the first of a run).
            if out.ends_with('\n') {
                out.pop();
            }
            out.push_str(lines[i].trim_start());
            out.push('\n');
        } else {
            out.push_str(rewritten[i].as_deref().unwrap_or(lines[i]));
            out.push('\n');
        }
        i += 1;
    }
    run.flush(&mut out);
    if !text.ends_with('\n') {
        out.pop();
    }
    trace.dropped = dropped;
    Some(Compressed::traced(out.into_bytes(), trace))
}

/// A run of dropped lines and what it held, for its marker.
#[derive(Default)]
struct Run {
    lines: usize,
    suites: usize,
    passed: usize,
    skipped: usize,
}

impl Run {
    fn add(&mut self, line: &str, cases: &[Case], i: usize) {
        self.lines += 1;
        let t = line.trim_start();
        if t.starts_with("<testsuite ") || t.starts_with("<testsuite>") {
            self.suites += 1;
        }
        // A testcase counts where its opening line is.
        if let Ok(k) = cases.binary_search_by_key(&i, |c| c.first) {
            if cases[k].skipped {
                self.skipped += 1;
            } else if !cases[k].failing {
                self.passed += 1;
            }
        }
    }

    fn flush(&mut self, out: &mut String) {
        if self.lines == 0 {
            return;
        }
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut parts = Vec::new();
        if self.suites > 0 {
            parts.push(plural(self.suites, "testsuite", "testsuites"));
        }
        if self.passed > 0 {
            parts.push(plural(self.passed, "testcase passed", "testcases passed"));
        }
        if self.skipped > 0 {
            parts.push(format!("{} skipped", self.skipped));
        }
        out.push_str(&format!(
            "\u{2026} {} elided (caveman){}{} \u{2026}\n",
            plural(self.lines, "line", "lines"),
            if parts.is_empty() { "" } else { ": " },
            parts.join(", ")
        ));
        *self = Run::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="4" failures="1">
	<testsuite tests="4" failures="1" name="pkg/cart">
		<properties>
			<property name="go.version" value="go1.22"></property>
		</properties>
		<testcase classname="pkg/cart" name="TestA" time="0.01"></testcase>
		<testcase classname="pkg/cart" name="TestTotal" time="0.02">
			<failure message="Failed" type="">cart_test.go:42: Total() = 99.99, want 100.00</failure>
		</testcase>
		<testcase classname="pkg/cart" name="TestB" time="0.00">
			<skipped message="slow"></skipped>
		</testcase>
		<testcase classname="pkg/cart" name="TestC" time="0.00"></testcase>
	</testsuite>
</testsuites>
"#;

    fn view(text: &str, query: &str) -> String {
        String::from_utf8(lean(text, query).expect("a JUnit report").bytes).unwrap()
    }

    #[test]
    fn keeps_failing_testcases_and_counts_the_rest() {
        assert_eq!(
            view(REPORT, ""),
            "\u{2026} caveman: JUnit report: failing testcases whole (a classname that repeats its testsuite's name left out), the rest counted \u{2026}\n\
<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<testsuites tests=\"4\" failures=\"1\">\n\
\t<testsuite tests=\"4\" failures=\"1\" name=\"pkg/cart\">\n\
\u{2026} 4 lines elided (caveman): 1 testcase passed \u{2026}\n\
\t\t<testcase name=\"TestTotal\" time=\"0.02\"><failure message=\"Failed\" type=\"\">cart_test.go:42: Total() = 99.99, want 100.00</failure></testcase>\n\
\u{2026} 5 lines elided (caveman): 1 testcase passed, 1 skipped \u{2026}\n\
</testsuites>\n"
        );
    }

    #[test]
    fn a_query_keeps_its_passing_testcase() {
        assert!(view(REPORT, "TestC").contains("name=\"TestC\""));
    }

    #[test]
    fn other_xml_is_not_a_report() {
        assert!(lean(
            "<?xml version=\"1.0\"?>\n<project>\n<testcase/>\n</project>\n",
            ""
        )
        .is_none());
        assert!(lean("2026-01-01 INFO <testsuite>\n", "").is_none());
    }
}
