//! The `toon` registry row (`--type toon`): JSON re-encoded as TOON
//! (spec/toon.md §2), lossless to the model. No size check of its own: the
//! engine's token test decides.

use super::{Compressed, Decline, Input};

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    crate::toon::encode(input.body)
        .map(Compressed::new)
        .map_err(|_| Decline("not losslessly TOON-encodable"))
}
