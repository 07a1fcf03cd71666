//! Text as a terminal shows it, for lean detection and every lean
//! compressor: a colour diff is then a diff, a coloured table a table, a
//! man page rendered by nroff plain text. The stored original keeps every
//! byte; the view shows the clean text.
//!
//! - escape sequences are removed: CSI (`ESC [ … final`), OSC, DCS, SOS,
//!   PM and APC strings (ended by BEL or `ESC \`), charset designations
//!   (`ESC ( B`), and two-byte escapes (`ESC 7`, `ESC M`, `ESC =`); the
//!   shift and bell controls (SO, SI, BEL) go with them;
//! - overstrike is resolved: `X BS Y` shows `Y` (nroff's bold `N\bN` and
//!   underline `_\bN`);
//! - carriage-return redraws inside a line keep the last non-empty frame
//!   (a CR before LF is a line ending and stays);
//! - a text whose lines end in bare CRs and that holds no LF (classic Mac
//!   files, some serial logs) gets LF line endings;
//! - output that moves the cursor up to redraw (progress of `docker push`,
//!   buildah, test runners) is replayed on a screen ([`super::screen`]):
//!   the view shows the final screen, not the stale frames;
//! - output that homes the cursor or clears the screen to draw again
//!   (PowerShell's progress bar, `top`-style full-screen redraws) keeps
//!   what came before the first such escape and the last frame that
//!   shows anything ([`last_frame`]): frames that reported an error stay,
//!   each as its own line, and frames that spanned lines are counted.

use std::borrow::Cow;

const ESC: u8 = 0x1b;
const BS: u8 = 0x08;
const CR: u8 = b'\r';

/// `body` as a terminal shows it (module doc); borrowed when nothing
/// changes.
pub fn clean(body: &[u8]) -> Cow<'_, [u8]> {
    let has_escape = memchr::memchr3(ESC, BS, 0x07, body).is_some()
        || memchr::memchr2(0x0e, 0x0f, body).is_some();
    let cr_lines = cr_line_endings(body);
    let redraw = !cr_lines && has_lone_cr(body);
    if !has_escape && !cr_lines && !redraw {
        return Cow::Borrowed(body);
    }
    if has_escape {
        if let Some(framed) = last_frame(body) {
            return Cow::Owned(clean(&framed).into_owned());
        }
    }
    if has_escape && !cr_lines && super::screen::moves_up(body) {
        if let Some(screen) = super::screen::replay(body) {
            return Cow::Owned(screen);
        }
    }
    let mut out = Vec::with_capacity(body.len());
    if cr_lines {
        // Every bare CR ends a line.
        let mut text: Vec<u8> = Vec::with_capacity(body.len());
        for (i, &b) in body.iter().enumerate() {
            if b == CR && body.get(i + 1) == Some(&b'\n') {
                continue;
            }
            text.push(if b == CR { b'\n' } else { b });
        }
        for line in text.split_inclusive(|&b| b == b'\n') {
            clean_line(line, &mut out);
        }
    } else {
        for line in body.split_inclusive(|&b| b == b'\n') {
            clean_line(line, &mut out);
        }
    }
    if out == body {
        Cow::Borrowed(body)
    } else {
        Cow::Owned(out)
    }
}

/// Whether the escape of `len` bytes at `b[at]` homes the cursor
/// (`ESC[H`, `ESC[1;1H`, `ESC[;H`, `ESC[1H`, the same with `f`) or clears
/// the screen (`ESC[2J`, `ESC[3J`): a full-screen redraw starts.
fn homes(b: &[u8], at: usize, len: usize) -> bool {
    if len < 3 || b[at + 1] != b'[' {
        return false;
    }
    let (params, fin) = b[at + 2..at + len].split_at(len - 3);
    match fin {
        b"H" | b"f" => matches!(params, b"" | b"1" | b";" | b"1;1" | b";1" | b"1;"),
        b"J" => matches!(params, b"2" | b"3"),
        _ => false,
    }
}

/// Error lines kept from the frames a redraw drew over, at most.
const MAX_OVERDRAWN_ERRORS: usize = 64;

/// `body` with its full-screen redraws resolved, or `None` when fewer
/// than two frames were drawn (a single `clear` changes nothing). Frames
/// are the text between escapes that home the cursor or clear the
/// screen; the text before the first is kept, then every distinct error
/// line of the frames drawn over, then (when those frames spanned lines)
/// a line that counts them, then the last frame that is not blank and
/// everything after it.
fn last_frame(body: &[u8]) -> Option<Vec<u8>> {
    // (start of the escape, end of it) of every home or clear, read as
    // they come: only the first, and the last two frames, are needed.
    let mut first: Option<usize> = None;
    let mut frames = 0usize;
    // The start of the last non-blank frame (just past its escape).
    let mut last: Option<usize> = None;
    let mut frame_start = 0usize;
    let mut blank = true;
    let mut i = 0;
    let close = |start: usize, blank: bool, last: &mut Option<usize>, frames: &mut usize| {
        if !blank {
            *last = Some(start);
            *frames += 1;
        }
    };
    while i < body.len() {
        let c = body[i];
        if c == ESC {
            let len = escape_len(body, i);
            if homes(body, i, len) {
                if first.is_none() {
                    first = Some(i);
                } else {
                    close(frame_start, blank, &mut last, &mut frames);
                }
                frame_start = i + len;
                blank = true;
            }
            i += len;
            continue;
        }
        if first.is_some() && !c.is_ascii_whitespace() && c >= 0x20 {
            blank = false;
        }
        i += 1;
    }
    let first = first?;
    close(frame_start, blank, &mut last, &mut frames);
    let last = last?;
    if frames < 2 {
        return None;
    }
    let over = &body[first..last];
    let mut out = Vec::with_capacity(body.len() - over.len() + 128);
    out.extend_from_slice(&body[..first]);
    let mut errors: Vec<Vec<u8>> = Vec::new();
    for line in over.split(|&b| b == b'\n' || b == CR) {
        let mut cleaned = Vec::new();
        // Each frame's text apart: a home between two texts ends one.
        let mut k = 0;
        while k < line.len() {
            if line[k] == ESC {
                let len = escape_len(line, k);
                if homes(line, k, len) {
                    cleaned.push(b'\n');
                }
                k += len;
            } else {
                cleaned.push(line[k]);
                k += 1;
            }
        }
        for piece in cleaned.split(|&b| b == b'\n') {
            let mut text = Vec::new();
            strip(piece, &mut text);
            let t = text.trim_ascii();
            let error = std::str::from_utf8(t).is_ok_and(crate::compress::shared::signal::is_error);
            if error && errors.len() < MAX_OVERDRAWN_ERRORS && !errors.iter().any(|e| e == t) {
                errors.push(t.to_vec());
            }
        }
    }
    let lines = memchr::memchr_iter(b'\n', over).count();
    if (!errors.is_empty() || lines > 0) && !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    for e in &errors {
        out.extend_from_slice(e);
        out.push(b'\n');
    }
    if lines > 0 {
        out.extend_from_slice(
            format!(
                "\u{2026} caveman: {} earlier screen frames ({lines} lines) drawn over by the last \u{2026}\n",
                frames - 1
            )
            .as_bytes(),
        );
    }
    out.extend_from_slice(&body[last..]);
    Some(out)
}

/// Lines end in bare CRs: two or more of them, and at most one LF (a
/// final one).
fn cr_line_endings(b: &[u8]) -> bool {
    let lfs = memchr::memchr_iter(b'\n', b).take(2).count();
    lfs <= 1
        && (lfs == 0 || b.ends_with(b"\n"))
        && memchr::memchr_iter(CR, b)
            .filter(|&i| i + 1 < b.len() && b[i + 1] != b'\n')
            .take(2)
            .count()
            >= 2
}

/// A CR that is not followed by LF (nor ends the text).
fn has_lone_cr(b: &[u8]) -> bool {
    memchr::memchr_iter(CR, b).any(|i| i + 1 < b.len() && b[i + 1] != b'\n')
}

/// One line (with its LF, if any) cleaned onto `out`.
fn clean_line(line: &[u8], out: &mut Vec<u8>) {
    let (body, ending): (&[u8], &[u8]) = if let Some(b) = line.strip_suffix(b"\r\n") {
        (b, b"\r\n")
    } else if let Some(b) = line.strip_suffix(b"\n") {
        (b, b"\n")
    } else {
        (line, b"")
    };
    // The last non-empty carriage-return frame (frames are read after
    // escapes are gone: `50%\r\x1b[K` ends with an empty frame).
    let start = out.len();
    if memchr::memchr(CR, body).is_some() {
        // A frame that reports an error and was drawn over stays, as its
        // own line before the last frame: a terminal showed it.
        let mut last: Option<Vec<u8>> = None;
        for frame in body.split(|&b| b == CR) {
            let mut f = Vec::with_capacity(frame.len());
            strip(frame, &mut f);
            if !f.is_empty() {
                if let Some(prev) = last.replace(f) {
                    if std::str::from_utf8(&prev)
                        .is_ok_and(crate::compress::shared::signal::is_error)
                    {
                        out.extend_from_slice(&prev);
                        out.push(b'\n');
                    }
                }
            }
        }
        if let Some(f) = last {
            out.extend_from_slice(&f);
        }
    } else {
        strip(body, out);
    }
    debug_assert!(out.len() >= start);
    out.extend_from_slice(ending);
}

/// Escapes removed and overstrike resolved, appended to `out`.
fn strip(b: &[u8], out: &mut Vec<u8>) {
    let line_start = out.len();
    // After a BS: the next character replaces the one before the BS.
    let mut overstrike = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            ESC => {
                i += escape_len(b, i);
                continue;
            }
            0x07 | 0x0e | 0x0f => {
                i += 1;
                continue;
            }
            BS => {
                overstrike = out.len() > line_start;
                i += 1;
                continue;
            }
            _ => {}
        }
        let len = utf8_len(c).min(b.len() - i);
        if overstrike {
            // Remove the character before the BS.
            let mut k = out.len() - 1;
            while k > line_start && (out[k] & 0xC0) == 0x80 {
                k -= 1;
            }
            out.truncate(k);
            overstrike = false;
        }
        out.extend_from_slice(&b[i..i + len]);
        i += len;
    }
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// Bytes of the escape sequence at `b[at]` (an ESC); a lone ESC is one.
pub(super) fn escape_len(b: &[u8], at: usize) -> usize {
    let Some(&next) = b.get(at + 1) else {
        return 1;
    };
    match next {
        b'[' => {
            let mut j = at + 2;
            while j < b.len() && (0x30..=0x3f).contains(&b[j]) {
                j += 1;
            }
            while j < b.len() && (0x20..=0x2f).contains(&b[j]) {
                j += 1;
            }
            if j < b.len() && (0x40..=0x7e).contains(&b[j]) {
                j + 1 - at
            } else {
                j - at
            }
        }
        // OSC, DCS, SOS, PM, APC: a string ended by BEL or ST (ESC \).
        b']' | b'P' | b'X' | b'^' | b'_' => {
            let mut j = at + 2;
            while j < b.len() {
                if b[j] == 0x07 {
                    return j + 1 - at;
                }
                if b[j] == ESC {
                    return if b.get(j + 1) == Some(&b'\\') {
                        j + 2 - at
                    } else {
                        j - at
                    };
                }
                if b[j] == b'\n' {
                    return j - at;
                }
                j += 1;
            }
            j - at
        }
        // Charset designations and line attributes: ESC ( B, ESC # 8.
        b'(' | b')' | b'*' | b'+' | b'-' | b'.' | b'/' | b'#' | b'%' => {
            if at + 2 < b.len() && b[at + 2] != b'\n' {
                3
            } else {
                2
            }
        }
        // Two-byte escapes (Fp, Fe, Fs).
        0x30..=0x7e => 2,
        _ => 1,
    }
}

/// Bytes read as Windows-1252 (Latin-1 where they agree): what exports
/// that are not UTF-8 most often are. Every byte is a character, so
/// nothing is replaced.
pub fn windows_1252(bytes: &[u8]) -> String {
    const HIGH: [char; 32] = [
        '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}',
        '\u{8f}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}',
        '\u{178}',
    ];
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9f => HIGH[usize::from(b - 0x80)],
            _ => char::from(b),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_reads_every_byte() {
        assert_eq!(
            windows_1252(b"Caf\xe9 \x93q\x94 \x80"),
            "Caf\u{e9} \u{201c}q\u{201d} \u{20ac}"
        );
        assert_eq!(windows_1252(b"\x81\xff").chars().count(), 2);
    }

    fn c(s: &str) -> String {
        String::from_utf8(clean(s.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn colour_diff_is_a_diff() {
        let s = "\x1b[1mdiff --git a/x b/x\x1b[m\n\x1b[36m@@ -1 +1 @@\x1b[m\n\x1b[31m-a\x1b[m\n\x1b[32m+b\x1b[m\n";
        assert_eq!(c(s), "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n");
    }

    #[test]
    fn escapes_of_every_kind() {
        assert_eq!(c("a\x1b]0;title\x07b\x1b]8;;http://x\x1b\\c"), "abc");
        assert_eq!(c("\x1b(Bx\x1b)0y\x1b7z\x1b8"), "xyz");
        assert_eq!(c("\x1b[38;5;196mred\x1b[0m \x1b[?25lok\x1b[?25h"), "red ok");
        assert_eq!(c("\x1bPq#0;2;0;0;0\x1b\\after"), "after");
        assert_eq!(c("bell\x07 \x0eshift\x0f"), "bell shift");
        assert_eq!(c("lone\x1b"), "lone");
    }

    #[test]
    fn overstrike_resolves() {
        assert_eq!(c("N\x08NA\x08AM\x08ME\x08E"), "NAME");
        assert_eq!(c("_\x08f_\x08i_\x08l_\x08e"), "file");
        assert_eq!(c("\u{e9}\x08\u{e9}t\u{e9}"), "\u{e9}t\u{e9}");
        assert_eq!(c("\x08x"), "x");
    }

    #[test]
    fn full_screen_redraws_keep_the_last_frame() {
        // PowerShell's progress bar: drawn at the top again and again,
        // then blanked; the text before and the last frame stay.
        let bar = |s: &str| format!("\x1b[1;1H\x1b[33;1mInstalling [{s}]\x1b[0m\x1b[?25h");
        let s = format!(
            "$ pwsh -c install\n{}{}{}\x1b[1;1H      \x1b[1;1Hnext step\r\nlast\n",
            bar("10%"),
            bar("50%"),
            bar("done")
        );
        assert_eq!(c(&s), "$ pwsh -c install\nnext step\r\nlast\n");
        // `top`: screens of several lines; an error drawn over stays.
        let s = "$ top\n\x1b[H\x1b[2Jload 1\ntask a\n\x1b[H\x1b[2Jload 2\nERROR: task b died\n\x1b[H\x1b[2Jload 3\ntask c\n";
        assert_eq!(
            c(s),
            "$ top\nERROR: task b died\n\u{2026} caveman: 2 earlier screen frames (4 lines) drawn over by the last \u{2026}\nload 3\ntask c\n"
        );
        // One clear is no redraw.
        assert_eq!(c("\x1b[H\x1b[2Jhello\nworld\n"), "hello\nworld\n");
    }

    #[test]
    fn redraws_keep_the_last_frame() {
        assert_eq!(c("10%\r50%\r100% done\nnext\n"), "100% done\nnext\n");
        assert_eq!(c("a 50%\r\x1b[2K\nb\n"), "a 50%\nb\n");
        assert_eq!(c("line\r\nline2\r\n"), "line\r\nline2\r\n");
    }

    #[test]
    fn bare_cr_line_endings_become_lf() {
        assert_eq!(c("a,b\rc,d\re,f\r"), "a,b\nc,d\ne,f\n");
        assert_eq!(c("a,b\rc,d\re,f\r\n"), "a,b\nc,d\ne,f\n");
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(clean(b"plain\ntext\n"), Cow::Borrowed(_)));
        assert!(matches!(clean(b"crlf\r\ntext\r\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn cursor_up_redraws_show_the_final_screen() {
        let s = "push\n\n\x1b[1A\x1b[2K\ra: Preparing \r\x1b[1B\n\x1b[1A\x1b[2K\rb: Waiting \r\x1b[1B\x1b[2A\x1b[2K\ra: Pushed \r\x1b[2B\x1b[1A\x1b[2K\rb: Pushed \r\x1b[1Bdone\n";
        assert_eq!(c(s), "push\na: Pushed \nb: Pushed \ndone\n");
    }

    proptest::proptest! {
        /// Replaying cursor moves never grows the text, keeps it valid
        /// UTF-8, and a second clean changes nothing.
        #[test]
        fn replay_is_idempotent_and_shrinking(s in "[a-z \\n\\r\\x08\\x1b\\[0-9ABCDEFGJKM;é]{0,80}") {
            let once = clean(s.as_bytes()).into_owned();
            proptest::prop_assert!(once.len() <= s.len());
            proptest::prop_assert!(std::str::from_utf8(&once).is_ok());
            let twice = clean(&once).into_owned();
            proptest::prop_assert_eq!(&twice, &once);
        }

        /// Cleaning is idempotent, keeps valid UTF-8 valid, never grows
        /// the text (but for CR→LF, which keeps its length).
        #[test]
        fn idempotent_and_shrinking(s in "[a-z \\n\\r\\x08\\x1b\\[;0-9m\\]\\x07é]{0,60}") {
            let once = clean(s.as_bytes()).into_owned();
            proptest::prop_assert!(once.len() <= s.len());
            proptest::prop_assert!(std::str::from_utf8(&once).is_ok());
            let twice = clean(&once).into_owned();
            proptest::prop_assert_eq!(&twice, &once);
        }
    }
}
