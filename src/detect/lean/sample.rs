//! The sample of a payload the line rules read.

use super::SAMPLE;

/// The first lines of a text, and those lines joined again.
pub(crate) struct Sample<'a> {
    pub lines: Vec<&'a str>,
    /// The sampled prefix of the text.
    pub text: &'a str,
    /// Non-blank sampled lines.
    pub non_blank: usize,
}

impl<'a> Sample<'a> {
    pub fn of(s: &'a str) -> Sample<'a> {
        let mut lines = Vec::new();
        let mut end = 0;
        for l in s.split('\n') {
            if lines.len() == SAMPLE {
                break;
            }
            end += l.len() + 1;
            lines.push(l.strip_suffix('\r').unwrap_or(l));
        }
        let non_blank = lines.iter().filter(|l| !l.trim().is_empty()).count();
        Sample {
            lines,
            text: &s[..end.min(s.len())],
            non_blank,
        }
    }

    pub fn non_blank_lines(&self) -> impl Iterator<Item = &&'a str> {
        self.lines.iter().filter(|l| !l.trim().is_empty())
    }

    /// Non-blank lines matching `f`.
    pub fn count(&self, f: impl Fn(&str) -> bool) -> usize {
        self.non_blank_lines().filter(|l| f(l)).count()
    }
}
