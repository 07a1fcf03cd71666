//! The status of a collection's records (a job's `color`, a pod's
//! `status.phase`, a check's `conclusion`): one categorical field every
//! member holds, most of them one default value. Members with another
//! value are what an agent asks for ("which jobs failed"): the view keeps
//! them as rows while they are few, and each marker names the ones it
//! hides, grouped by value, and says what the rest it hides share
//! (`all color=blue`, `color=blue×60`), counted over exactly the members
//! that marker hides.

use super::select::Ids;
use super::shape::{self, id_of};
use crate::compress::shared::stats::{statable, Stats};
use crate::go::json::Json;

/// Last words of a key that names a record's state.
const STATUS_WORDS: [&str; 11] = [
    "status",
    "state",
    "color",
    "colour",
    "result",
    "phase",
    "level",
    "health",
    "conclusion",
    "outcome",
    "severity",
];

/// Values of a status that report a failure without an error word (a red
/// build, an unhealthy node).
const FAILING: [&str; 7] = [
    "red",
    "down",
    "unhealthy",
    "degraded",
    "broken",
    "unstable",
    "unavailable",
];

/// The status field of a collection and each member's value.
pub(super) struct Status {
    /// The field's path (`color`, `status.phase`).
    pub path: String,
    /// Distinct values in order of first appearance.
    pub values: Vec<String>,
    /// Each member's value (an index into `values`).
    pub of: Vec<usize>,
    /// The value most members hold.
    pub default: usize,
    /// Values whose hidden members a marker names (the rest it counts).
    pub named: Vec<bool>,
}

/// A key that names a state: one of [`STATUS_WORDS`] (`color`,
/// `conclusion`), or a key ending in a status or state
/// (`DBInstanceStatus`, `health_status`); a code (`statusCode`) and a
/// decoration (`profile_background_color`) are not one.
fn status_key(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path).to_ascii_lowercase();
    STATUS_WORDS.contains(&last.as_str()) || last.ends_with("status") || last.ends_with("state")
}

/// The value reports a failure: an error word, or a failing state.
pub(super) fn failing(v: &str) -> bool {
    FAILING.contains(&v.to_ascii_lowercase().as_str()) || shape::text_is_error(v)
}

impl Status {
    /// The first status field of `items` (as `st` read them): a string
    /// every member holds, a category of at least two statable values,
    /// one held by at least half of the members.
    pub(super) fn find(st: &Stats<'_>, items: &[Json<'_>]) -> Option<Status> {
        let n = items.len();
        let f = st.fields.iter().find(|f| {
            !f.pooled
                && f.strings == n
                && f.present == n
                && f.categorical()
                && f.values.len() >= 2
                && status_key(&f.name)
                && f.values.iter().all(|v| statable(v.text))
                && 2 * f.values.iter().map(|v| v.count).max().unwrap_or(0) >= n
        })?;
        let values: Vec<String> = f.values.iter().map(|v| v.text.to_string()).collect();
        let of = items
            .iter()
            .map(|x| {
                let v = id_of(*x, &f.name)?;
                values.iter().position(|s| s == v)
            })
            .collect::<Option<Vec<usize>>>()?;
        let mut counts = vec![0; values.len()];
        for &v in &of {
            counts[v] += 1;
        }
        let default = (0..values.len()).max_by_key(|&v| (counts[v], usize::MAX - v))?;
        Some(Status {
            path: f.name.clone(),
            named: vec![false; values.len()],
            values,
            of,
            default,
        })
    }

    /// The values other than the default, failing ones first, then the
    /// rarest, with their members.
    pub(super) fn others(&self) -> Vec<(usize, Vec<usize>)> {
        let mut out: Vec<(usize, Vec<usize>)> = (0..self.values.len())
            .filter(|&v| v != self.default)
            .map(|v| {
                let units = (0..self.of.len()).filter(|&i| self.of[i] == v).collect();
                (v, units)
            })
            .collect();
        out.sort_by_key(|(v, units)| (!failing(&self.values[*v]), units.len(), *v));
        out
    }

    /// What a marker says of the members it hides (`hidden`), scoped to
    /// them (`of these N, …`: a first marker's summary speaks of the whole
    /// collection): the members of each named value by their identifiers
    /// (`ids`: what they are, each member's), the others counted by
    /// value; `all path=v` when they share one value.
    pub(super) fn describe(&self, hidden: &[usize], ids: Option<&Ids>) -> Vec<String> {
        let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
        for &i in hidden {
            let v = self.of[i];
            match groups.iter_mut().find(|g| g.0 == v) {
                Some(g) => g.1.push(i),
                None => groups.push((v, vec![i])),
            }
        }
        let path = &self.path;
        let scope = format!("of these {}, ", hidden.len());
        if let [(v, _)] = groups.as_slice() {
            if !self.named[*v] {
                return vec![format!("{scope}all {path}={}", self.values[*v])];
            }
        }
        // The values named first, the default last.
        groups.sort_by_key(|(v, _)| (*v == self.default, !self.named[*v], *v));
        let mut parts: Vec<String> = groups
            .iter()
            .map(|(v, members)| {
                let value = &self.values[*v];
                let listed = ids.filter(|_| self.named[*v]).and_then(|ids| {
                    let l: Vec<&str> = members.iter().map(|&i| ids.names[i].as_str()).collect();
                    l.iter().all(|s| !s.is_empty()).then_some((&ids.label, l))
                });
                match listed {
                    Some((label, l)) => format!("{path}={value}: {label} = {}", l.join(", ")),
                    None => format!("{path}={value}×{}", members.len()),
                }
            })
            .collect();
        parts[0].insert_str(0, &scope);
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::status_key;

    #[test]
    fn a_status_key_names_a_state_not_a_decoration() {
        for k in [
            "color",
            "status",
            "status.phase",
            "DBInstanceStatus",
            "health_status",
            "conclusion",
            "jobs.state",
        ] {
            assert!(status_key(k), "{k}");
        }
        for k in [
            "user.profile_background_color",
            "statusCode",
            "log_level_name",
            "link_color",
        ] {
            assert!(!status_key(k), "{k}");
        }
    }
}
