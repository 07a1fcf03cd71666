//! `retrieve <handle> [query]` (spec/cli.md §5, store.md §4 and §6).

use super::io::write_stdout;
use crate::error::{Error, Result};

pub fn run(args: &[String]) -> Result<()> {
    let Some(handle) = args.first() else {
        return Err(Error::fatal(
            "usage: caveman-engine retrieve <handle> [query]",
        ));
    };
    let store = super::open_store()?;
    let original = store
        .get(handle)
        .map_err(|e| Error::fatal(format!("retrieve: {e}")))?;
    let query = args.get(1).map(String::as_str).unwrap_or("");
    // Under lean a query that matches nothing says so and exits 1, as
    // grep does (compat prints the whole original, as the reference).
    let profile = crate::profile::Profile::from_env().unwrap_or_default();
    let lean = profile.is_lean();
    if lean && !query.trim().is_empty() && crate::narrow::matches_nothing(&original, query) {
        return Err(Error::fatal(format!(
            "retrieve: nothing in {handle} matches {}",
            crate::go::strconv::quote(query)
        )));
    }
    let view = if query.trim().is_empty() {
        original
    } else {
        crate::narrow::narrow_as(original, query, profile)
    };
    write_stdout(&view).map_err(|e| Error::fatal(format!("write stdout: {e}")))?;
    crate::ledger::retrieved(handle, crate::tokens::count(&view));
    Ok(())
}
