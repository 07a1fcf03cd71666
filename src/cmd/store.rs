//! `store list|rm|prune|verify|path`: managing the recovery store (the
//! reference has no such commands, so their output is this project's own).

use std::time::Duration;

use super::io::write_stdout;
use crate::error::{Error, Result};
use crate::go::json::json_str;

const USAGE: &str = "usage: caveman-engine store list [--json] | rm HANDLE... | \
                     prune --older-than DURATION | --max-bytes N | verify [--repair] | path";

fn open() -> Result<crate::store::Store> {
    super::open_store()
}

fn out(text: &str) -> Result<()> {
    write_stdout(text.as_bytes()).map_err(|e| Error::fatal(format!("write stdout: {e}")))
}

pub fn run(args: &[String]) -> Result<()> {
    let verb = args.first().map(String::as_str).unwrap_or("");
    let rest = args.get(1..).unwrap_or(&[]);
    match verb {
        "list" => list(rest),
        "rm" => remove(rest),
        "prune" => prune(rest),
        "verify" => match rest {
            [] => verify(false),
            [f] if f == "--repair" => verify(true),
            _ => Err(Error::usage(USAGE)),
        },
        "path" => out(&format!("{}\n", open()?.dir().display())),
        _ => Err(Error::unknown_command(USAGE)),
    }
}

fn list(args: &[String]) -> Result<()> {
    let json = match args {
        [] => false,
        [f] if f == "--json" => true,
        _ => return Err(Error::usage(USAGE)),
    };
    let entries = open()?
        .list()
        .map_err(|e| Error::fatal(format!("store list: {e}")))?;
    let mut text = String::new();
    // The table: a header and columns padded to their widest cell.
    let rows: Vec<[String; 5]> = entries
        .iter()
        .filter(|e| e.damaged.is_none())
        .map(|e| {
            let created = match (e.created_at.find('.'), e.created_at.ends_with('Z')) {
                (Some(dot), true) => format!("{}Z", &e.created_at[..dot]),
                _ => e.created_at.clone(),
            };
            [
                e.handle.clone(),
                created,
                e.content_type.clone(),
                e.bytes.to_string(),
                format!("{} -> {}", e.tokens_before, e.tokens_after),
            ]
        })
        .collect();
    let header = ["HANDLE", "CREATED", "TYPE", "BYTES", "TOKENS"].map(str::to_string);
    let mut width = [0usize; 5];
    for r in std::iter::once(&header).chain(&rows) {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |r: &[String; 5]| {
        format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}  {}\n",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            w0 = width[0],
            w1 = width[1],
            w2 = width[2],
            w3 = width[3]
        )
    };
    if !json && !entries.is_empty() {
        text.push_str(&line(&header));
    }
    let mut table = rows.iter();
    for e in &entries {
        if json {
            text.push_str(&format!(
                "{{\"handle\":{},\"created_at\":{},\"content_type\":{},\"bytes\":{},\
                 \"tokens_before\":{},\"tokens_after\":{}{}}}\n",
                json_str(&e.handle),
                json_str(&e.created_at),
                json_str(&e.content_type),
                e.bytes,
                e.tokens_before,
                e.tokens_after,
                match &e.damaged {
                    Some(why) => format!(",\"damaged\":{}", json_str(why)),
                    None => String::new(),
                }
            ));
        } else if let Some(why) = &e.damaged {
            text.push_str(&format!("{}  DAMAGED: {why}\n", e.handle));
        } else if let Some(r) = table.next() {
            text.push_str(&line(r));
        }
    }
    out(&text)
}

fn remove(args: &[String]) -> Result<()> {
    if args.is_empty() {
        return Err(Error::usage(USAGE));
    }
    let store = open()?;
    let mut missing = Vec::new();
    for h in args {
        match store.remove(h) {
            Ok(true) => {}
            Ok(false) => missing.push(h.as_str()),
            Err(e) => return Err(Error::fatal(format!("store rm: {e}"))),
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error::fatal(format!(
            "store rm: no such record: {}",
            missing.join(" ")
        )))
    }
}

/// `30d`, `12h`, `90m`, `45s` (or plain seconds).
pub(crate) fn parse_duration(s: &str) -> Option<Duration> {
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let n: u64 = num.parse().ok()?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return None,
    };
    n.checked_mul(secs).map(Duration::from_secs)
}

fn prune(args: &[String]) -> Result<()> {
    let mut older = None;
    let mut max_bytes = None;
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).ok_or_else(|| Error::usage(USAGE))?;
        match args[i].as_str() {
            "--older-than" => {
                older = Some(parse_duration(v).ok_or_else(|| {
                    Error::usage(format!(
                        "store prune: bad duration {v:?} (e.g. 30d, 12h, 90m)"
                    ))
                })?)
            }
            "--max-bytes" => {
                max_bytes = Some(
                    v.parse::<u64>()
                        .map_err(|_| Error::usage(format!("store prune: bad byte count {v:?}")))?,
                )
            }
            _ => return Err(Error::usage(USAGE)),
        }
        i += 2;
    }
    if older.is_none() && max_bytes.is_none() {
        return Err(Error::usage(USAGE));
    }
    let done = open()?
        .prune(older, max_bytes)
        .map_err(|e| Error::fatal(format!("store prune: {e}")))?;
    out(&format!(
        "removed {} records ({} bytes), kept {}\n",
        done.removed.len(),
        done.freed_bytes,
        done.kept
    ))
}

fn verify(repair: bool) -> Result<()> {
    let v = open()?
        .verify(repair)
        .map_err(|e| Error::fatal(format!("store verify: {e}")))?;
    let mut text = String::new();
    for (h, why) in &v.damaged {
        let fate = if v.removed.contains(h) {
            " (removed)"
        } else {
            ""
        };
        text.push_str(&format!("{h}  DAMAGED: {why}{fate}\n"));
    }
    text.push_str(&format!(
        "{} healthy, {} damaged, {} temporary files",
        v.healthy,
        v.damaged.len(),
        v.temp_files
    ));
    if repair {
        text.push_str(&format!("; {} removed", v.removed.len()));
    }
    text.push('\n');
    out(&text)?;
    if v.damaged.len() == v.removed.len() {
        Ok(())
    } else {
        Err(Error::fatal(format!(
            "store verify: {} damaged records",
            v.damaged.len()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(
            parse_duration("30d"),
            Some(Duration::from_secs(30 * 86_400))
        );
        assert_eq!(parse_duration("90m"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_duration("45"), Some(Duration::from_secs(45)));
        assert_eq!(parse_duration("0s"), Some(Duration::ZERO));
        assert_eq!(parse_duration("x"), None);
        assert_eq!(parse_duration("5y"), None);
        assert_eq!(parse_duration(""), None);
    }
}
