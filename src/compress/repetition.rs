//! The repetition compressor (content type `repetition`, method
//! `repetition`; `--type repetition` only; spec/repetition.md): every run
//! of 3 or more byte-identical non-blank lines becomes its first line and
//! one marker, in one forward scan.

use super::{Compressed, Decline, Input};

/// Smaller inputs are left alone.
const MIN_BYTES: usize = 200;
/// Shorter runs stay as they are.
const MIN_RUN: usize = 3;
/// Lines that start like a marker are never collapsed.
const MARKER_PREFIX: &str = "\u{2026} caveman: ";

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    compress(input.body).map(Compressed::new)
}

pub(crate) fn compress(body: &[u8]) -> Result<Vec<u8>, Decline> {
    if body.len() < MIN_BYTES {
        return Err(Decline("under 200 bytes"));
    }
    let text = std::str::from_utf8(body).map_err(|_| Decline("not valid UTF-8"))?;
    // One pass over the lines, a run at a time (no list of them).
    let mut lines = text.split('\n').peekable();
    let mut out = String::with_capacity(text.len());
    let mut collapsed = false;
    let mut first = true;
    while let Some(line) = lines.next() {
        let mut run = 1;
        while lines.next_if_eq(&line).is_some() {
            run += 1;
        }
        if !first {
            out.push('\n');
        }
        first = false;
        out.push_str(line);
        if run >= MIN_RUN && !line.trim().is_empty() && !line.starts_with(MARKER_PREFIX) {
            out.push_str(&format!(
                "\n\u{2026} caveman: {} identical lines elided \u{2026}",
                run - 1
            ));
            collapsed = true;
        } else {
            for _ in 1..run {
                out.push('\n');
                out.push_str(line);
            }
        }
    }
    if !collapsed {
        return Err(Decline("no run of 3 identical lines"));
    }
    if out.len() >= body.len() {
        return Err(Decline("not smaller"));
    }
    Ok(out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_their_limits() {
        let mut s = String::from("starting build\n");
        s.push_str(&"downloading dependency... please wait\n".repeat(40));
        s.push_str("ERROR: undefined symbol caveman_main\nbuild failed\n");
        assert_eq!(
            String::from_utf8(compress(s.as_bytes()).unwrap()).unwrap(),
            "starting build\ndownloading dependency... please wait\n… caveman: 39 identical lines elided …\nERROR: undefined symbol caveman_main\nbuild failed\n"
        );
        assert!(compress(&b"x\n".repeat(5)).is_err());
        let blank = "0".repeat(150) + "\n" + &"\u{a0}\n".repeat(30);
        assert!(compress(blank.as_bytes()).is_err());
        let fs = "0".repeat(150) + "\n" + &"\x1c\n".repeat(30);
        assert_eq!(
            String::from_utf8(compress(fs.as_bytes()).unwrap()).unwrap(),
            "0".repeat(150) + "\n\x1c\n… caveman: 29 identical lines elided …\n"
        );
    }
}
