//! The levels of the lean JSON view: how hard it cuts (level 0 is the
//! lean view; each level after it keeps fewer representatives and states
//! less, for `--budget`), and the levels the compat floor may take.

use super::{HEAD, TAIL};

/// How hard the view cuts: level 0 is the lean view; each level after it
/// keeps fewer representatives and states less, for `--budget` (and to
/// stay within compat's view).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Level {
    pub(super) head: usize,
    pub(super) tail: usize,
    /// Keep the elements holding what the summary cannot state, the
    /// extremes and one of each key set; keep a collection whole when
    /// cutting it would not pay.
    pub(super) holders: bool,
    /// Keep the elements holding a rare value of a field with a default
    /// (a non-zero count among zeros, a `pending` among `ok`).
    pub(super) rare: bool,
    /// Markers list the identifiers of the members they replace.
    pub(super) ids: bool,
    /// Summary room: `None` in proportion to what was dropped.
    pub(super) room: Option<usize>,
    /// Error elements kept per array, at most.
    pub(super) errors: usize,
    /// Wrappers of long lists (a matrix's rows, pages of results) keep
    /// every element, each cut inside; else they are cut as any array.
    pub(super) nest: bool,
}

impl Level {
    /// A budget level: `head` and `tail` representatives, no holders,
    /// rare values or identifiers, `room` bytes of summary, `errors`
    /// error elements per array.
    const fn bare(head: usize, tail: usize, room: usize, errors: usize) -> Level {
        Level {
            head,
            tail,
            holders: false,
            rare: false,
            ids: false,
            room: Some(room),
            errors,
            nest: true,
        }
    }

    pub(crate) const ALL: [Level; 8] = [
        Level {
            head: HEAD,
            tail: TAIL,
            holders: true,
            rare: true,
            ids: true,
            room: None,
            errors: usize::MAX,
            nest: true,
        },
        Level {
            head: HEAD,
            tail: TAIL,
            holders: false,
            rare: true,
            ids: true,
            room: None,
            errors: usize::MAX,
            nest: true,
        },
        Level::bare(1, 1, 1200, usize::MAX),
        Level::bare(1, 1, 600, usize::MAX),
        Level::bare(1, 0, 200, usize::MAX),
        Level::bare(0, 0, 80, 16),
        Level::bare(0, 0, 0, 3),
        Level::bare(0, 0, 0, 0),
    ];
}

impl Level {
    /// The levels the compat floor may take: they cut harder but keep
    /// every promise of the lean view (errors, contracts, the names of a
    /// short list's members). No level drops the summaries to get under
    /// compat: a distance matrix whose markers lost `all status=OK` and
    /// the ranges read worse than one a few hundred tokens larger.
    ///
    /// The last cuts the wrappers of long lists too (a distance matrix's
    /// rows, each cut inside, repeat their summaries row by row): their
    /// marker states the pooled ranges and categories of the rows'
    /// elements.
    pub(crate) const FLOOR: [Level; 3] = [
        Level::ALL[1],
        Level {
            head: 1,
            tail: 1,
            holders: false,
            rare: true,
            ids: true,
            room: Some(300),
            errors: usize::MAX,
            nest: true,
        },
        Level {
            head: HEAD,
            tail: TAIL,
            holders: false,
            rare: true,
            ids: true,
            room: Some(300),
            errors: usize::MAX,
            nest: false,
        },
    ];
}
