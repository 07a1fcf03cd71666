//! Go's texts for operating-system errors (`*PathError`, errno strings),
//! which the reference prints in its messages.

/// Go's text for an OS error: the errno string, lowercase, without Rust's
/// ` (os error N)` suffix.
pub fn errno_text(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(code) => {
            let s = std::io::Error::from_raw_os_error(code).to_string();
            let s = match s.rfind(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            };
            let mut cs = s.chars();
            match cs.next() {
                Some(f) => f.to_lowercase().collect::<String>() + cs.as_str(),
                None => s,
            }
        }
        None => e.to_string(),
    }
}

/// Go's `*PathError` text: `op path: errno`.
pub fn path_error(op: &str, path: &std::path::Path, e: &std::io::Error) -> String {
    format!("{op} {}: {}", path.display(), errno_text(e))
}
