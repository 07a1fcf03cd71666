//! `gain [--since D] [--by type|command|day] [--json]`: what the ledger
//! says was saved — tokens before minus tokens shown, **net of the tokens
//! retrieves gave back** (a view that sent the agent back for the original
//! saved nothing) — with a small chart per day. Reads only the local file.

use std::collections::BTreeMap;

use super::io::write_stdout;
use crate::error::{Error, Result};
use crate::ledger::{self, Record, Source};

const USAGE: &str =
    "usage: caveman-engine gain [--since 7d|24h|YYYY-MM-DD] [--by type|command|day] [--json]";

/// How rows are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum By {
    Type,
    Command,
    Day,
}

/// Totals of one group (or of everything).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Totals {
    pub calls: u64,
    pub before: u64,
    pub after: u64,
    pub retrieves: u64,
    pub retrieved: u64,
}

impl Totals {
    /// Tokens saved net of retrieves (negative when retrieves cost more).
    pub fn saved(&self) -> i64 {
        self.before as i64 - self.after as i64 - self.retrieved as i64
    }

    fn percent(&self) -> f64 {
        if self.before == 0 {
            0.0
        } else {
            self.saved() as f64 * 100.0 / self.before as f64
        }
    }
}

/// The ledger summed: everything, per group, per day.
#[derive(Debug, Default)]
pub(crate) struct Summary {
    pub total: Totals,
    pub groups: BTreeMap<String, Totals>,
    pub days: BTreeMap<String, Totals>,
}

/// `--since`: `N[dhm]` back from `now`, or a UTC date.
fn since_value(v: &str, now: u64) -> Option<u64> {
    let v = v.trim();
    if v == "all" {
        return Some(0);
    }
    if let Some((unit, secs)) = [('d', 86_400u64), ('h', 3_600), ('m', 60)]
        .into_iter()
        .find(|(u, _)| v.ends_with(*u))
    {
        let n: u64 = v[..v.len() - unit.len_utf8()].parse().ok()?;
        return Some(now.saturating_sub(n.saturating_mul(secs)));
    }
    // YYYY-MM-DD: the first day whose date is it.
    let parts: Vec<&str> = v.split('-').collect();
    if let [y, m, d] = parts.as_slice() {
        let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
        // Search is cheap: days since 1970 up to year 9999.
        let mut lo = 0i64;
        let mut hi = 3_000_000i64;
        while lo < hi {
            let mid = (lo + hi) / 2;
            if ledger::civil(mid) < (y, m, d) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if ledger::civil(lo) != (y, m, d) {
            return None;
        }
        return Some(lo as u64 * 86_400);
    }
    None
}

/// Sums `records` from `since` on, grouped `by`. A retrieve counts
/// against the group of the last record before it that printed its
/// handle (else `(unknown)`).
fn summarise(records: &[Record], since: u64, by: By) -> Summary {
    let mut s = Summary::default();
    let mut owner: BTreeMap<&str, String> = BTreeMap::new();
    for r in records {
        let key = match by {
            By::Type => r.content_type.clone(),
            By::Command => match (r.source, r.command.split_whitespace().next()) {
                (_, Some(first)) => first.to_string(),
                (Some(src), None) => format!("({})", src.as_str()),
                (None, None) => "(unknown)".into(),
            },
            By::Day => ledger::date(r.time),
        };
        if r.source == Some(Source::Retrieve) {
            if r.time < since {
                continue;
            }
            let key = match by {
                By::Day => ledger::date(r.time),
                _ => owner
                    .get(r.handle.as_str())
                    .cloned()
                    .unwrap_or_else(|| "(unknown)".into()),
            };
            for t in [
                &mut s.total,
                s.groups.entry(key).or_default(),
                s.days.entry(ledger::date(r.time)).or_default(),
            ] {
                t.retrieves += 1;
                t.retrieved += r.retrieved;
            }
            continue;
        }
        if !r.note.is_empty() {
            continue;
        }
        if !r.handle.is_empty() {
            owner.insert(r.handle.as_str(), key.clone());
        }
        if r.time < since {
            continue;
        }
        for t in [
            &mut s.total,
            s.groups.entry(key.clone()).or_default(),
            s.days.entry(ledger::date(r.time)).or_default(),
        ] {
            t.calls += 1;
            t.before += r.tokens_before;
            t.after += r.tokens_after;
        }
    }
    s
}

/// `1234567` as `1,234,567`.
fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Width of the day chart's longest bar.
const BAR: usize = 30;

fn text(s: &Summary, by: Option<By>, since_label: &str, notes: &[String]) -> String {
    let t = &s.total;
    let mut o = format!("caveman gain ({since_label})\n");
    o.push_str(&format!(
        "  calls            {:>14}\n",
        thousands(t.calls as i64)
    ));
    o.push_str(&format!(
        "  tokens in        {:>14}\n",
        thousands(t.before as i64)
    ));
    o.push_str(&format!(
        "  tokens shown     {:>14}\n",
        thousands(t.after as i64)
    ));
    o.push_str(&format!(
        "  tokens retrieved {:>14}  ({} retrieves)\n",
        thousands(t.retrieved as i64),
        t.retrieves
    ));
    o.push_str(&format!(
        "  saved, net       {:>14}  ({:.1} %)\n",
        thousands(t.saved()),
        t.percent()
    ));
    if let Some(by) = by.filter(|b| *b != By::Day) {
        let name = if by == By::Type { "type" } else { "command" };
        o.push_str(&format!(
            "\n  {name:<16} {:>7} {:>12} {:>12} {:>12} {:>12}\n",
            "calls", "in", "shown", "retrieved", "saved"
        ));
        let mut rows: Vec<(&String, &Totals)> = s.groups.iter().collect();
        rows.sort_by(|a, b| b.1.saved().cmp(&a.1.saved()).then(a.0.cmp(b.0)));
        for (k, g) in rows {
            o.push_str(&format!(
                "  {k:<16} {:>7} {:>12} {:>12} {:>12} {:>12}\n",
                thousands(g.calls as i64),
                thousands(g.before as i64),
                thousands(g.after as i64),
                thousands(g.retrieved as i64),
                thousands(g.saved())
            ));
        }
    }
    if !s.days.is_empty() {
        o.push_str("\n  saved per day\n");
        let max = s.days.values().map(|d| d.saved().max(0)).max().unwrap_or(0);
        for (day, d) in &s.days {
            let len = if max == 0 {
                0
            } else {
                (d.saved().max(0) as u128 * BAR as u128).div_ceil(max as u128) as usize
            };
            o.push_str(&format!(
                "  {day}  {:<BAR$}  {:>12}\n",
                "#".repeat(len),
                thousands(d.saved())
            ));
        }
    }
    for n in notes {
        o.push_str(&format!("note: {n}\n"));
    }
    o
}

fn json(s: &Summary, by: Option<By>, since: u64, notes: &[String], skipped: usize) -> String {
    let t = |t: &Totals| {
        serde_json::json!({
            "calls": t.calls,
            "tokens_before": t.before,
            "tokens_after": t.after,
            "retrieves": t.retrieves,
            "tokens_retrieved": t.retrieved,
            "saved": t.saved(),
        })
    };
    let mut v = t(&s.total);
    let o = v.as_object_mut().expect("object");
    o.insert("since".into(), since.into());
    let groups = match by {
        Some(By::Day) | None => &s.days,
        Some(_) => &s.groups,
    };
    let rows: Vec<serde_json::Value> = groups
        .iter()
        .map(|(k, g)| {
            let mut row = t(g);
            row.as_object_mut()
                .expect("object")
                .insert("key".into(), k.clone().into());
            row
        })
        .collect();
    o.insert(
        "by".into(),
        match by {
            Some(By::Type) => "type",
            Some(By::Command) => "command",
            _ => "day",
        }
        .into(),
    );
    o.insert("groups".into(), rows.into());
    o.insert("skipped_lines".into(), skipped.into());
    o.insert("notes".into(), notes.to_vec().into());
    let mut out = serde_json::to_string(&v).expect("json");
    out.push('\n');
    out
}

pub fn run(args: &[String]) -> Result<()> {
    let mut since = 0u64;
    let mut since_label = "all records".to_string();
    let mut by = None;
    let mut as_json = false;
    let now = ledger::now();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = || -> Result<String> {
            if let Some(v) = &inline {
                return Ok(v.clone());
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| Error::usage(format!("gain: {flag} needs a value\n{USAGE}")))
        };
        match flag {
            "--json" => as_json = true,
            "--since" => {
                let v = value()?;
                since = since_value(&v, now).ok_or_else(|| {
                    Error::usage(format!(
                        "gain: --since {v:?} is not a duration (7d, 24h, 30m) or a date (YYYY-MM-DD)\n{USAGE}"
                    ))
                })?;
                since_label = format!("since {v}");
            }
            "--by" => {
                let v = value()?;
                by = Some(match v.as_str() {
                    "type" => By::Type,
                    "command" => By::Command,
                    "day" => By::Day,
                    _ => {
                        return Err(Error::usage(format!(
                            "gain: --by {v:?}: type, command or day\n{USAGE}"
                        )))
                    }
                });
            }
            "--help" | "-h" => return super::help(&["gain"]),
            _ => {
                return Err(Error::usage(format!(
                    "gain: unknown argument {a:?}\n{USAGE}"
                )))
            }
        }
        i += 1;
    }
    let mut notes = Vec::new();
    let read = match ledger::path() {
        None if ledger::disabled() => {
            notes.push(format!("the ledger is off ({}=off)", ledger::ENV));
            ledger::Read::default()
        }
        None => {
            return Err(Error::fatal(
                "gain: cannot resolve home directory: $HOME is not defined",
            ))
        }
        Some(p) => {
            let r = ledger::read(&p).map_err(|e| {
                Error::fatal(format!(
                    "gain: read {}: {}",
                    p.display(),
                    crate::go::os::errno_text(&e)
                ))
            })?;
            if r.torn_tail {
                notes.push(format!(
                    "skipped the last line of {}: a record cut short (a writer was killed or the disk filled)",
                    p.display()
                ));
            }
            if r.damaged > 0 {
                notes.push(format!(
                    "skipped {} damaged line(s) of {} (bad checksum or not a record)",
                    r.damaged,
                    p.display()
                ));
            }
            r
        }
    };
    let skipped = read.damaged + usize::from(read.torn_tail);
    let s = summarise(&read.records, since, by.unwrap_or(By::Day));
    let out = if as_json {
        json(&s, by, since, &notes, skipped)
    } else {
        text(&s, by, &since_label, &notes)
    };
    write_stdout(out.as_bytes()).map_err(|e| Error::fatal(format!("write stdout: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(src: Source, t: u64, ty: &str, cmd: &str, b: u64, a: u64, h: &str) -> Record {
        Record {
            time: t,
            source: Some(src),
            content_type: ty.into(),
            command: cmd.into(),
            tokens_before: b,
            tokens_after: a,
            handle: h.into(),
            retrieved: if src == Source::Retrieve { b } else { 0 },
            ..Record::default()
        }
    }

    #[test]
    fn net_of_retrieves_per_group() {
        let day = 86_400;
        let recs = vec![
            r(Source::Run, day, "log", "cargo test", 1000, 100, "h1"),
            r(Source::Compress, day, "json", "", 500, 50, "h2"),
            r(Source::Retrieve, 2 * day, "", "", 1000, 0, "h1"),
            r(Source::Hook, 2 * day, "log", "npm test", 300, 300, ""),
        ];
        let s = summarise(&recs, 0, By::Command);
        assert_eq!(s.total.calls, 3);
        assert_eq!(s.total.saved(), 900 + 450 - 1000);
        assert_eq!(s.groups["cargo"].saved(), 900 - 1000);
        assert_eq!(s.groups["(compress)"].saved(), 450);
        assert_eq!(s.groups["npm"].saved(), 0);
        assert_eq!(s.days["1970-01-03"].retrieved, 1000);
        let s = summarise(&recs, 2 * day, By::Type);
        assert_eq!(s.total.calls, 1);
        assert_eq!(s.groups["log"].retrieved, 1000);
    }

    #[test]
    fn since_values() {
        let now = 10 * 86_400;
        assert_eq!(since_value("7d", now), Some(3 * 86_400));
        assert_eq!(since_value("24h", now), Some(9 * 86_400));
        assert_eq!(since_value("1970-01-02", now), Some(86_400));
        assert_eq!(since_value("1970-02-30", now), None);
        assert_eq!(since_value("week", now), None);
        assert_eq!(thousands(-1234567), "-1,234,567");
    }
}
