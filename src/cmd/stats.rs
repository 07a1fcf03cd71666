//! `stats`: the store summary as two-space-indented JSON (spec/cli.md §6).

use super::io::write_stdout;
use crate::error::{Error, Result};
use crate::go::json::json_str;
use crate::go::strconv::format_float;
use crate::store::{Bucket, Stats};

fn ratio(b: &Bucket) -> f64 {
    if b.tokens_before == 0 {
        0.0
    } else {
        (b.tokens_before as f64 - b.tokens_after as f64) / b.tokens_before as f64
    }
}

fn bucket(out: &mut String, b: &Bucket, indent: &str) {
    out.push_str(&format!(
        "{{\n{indent}  \"count\": {},\n{indent}  \"tokens_before\": {},\n{indent}  \"tokens_after\": {},\n{indent}  \"ratio\": {}\n{indent}}}",
        b.count,
        b.tokens_before,
        b.tokens_after,
        format_float(ratio(b))
    ));
}

/// Renders the summary exactly as the reference's indented JSON.
pub fn render(st: &Stats) -> String {
    let mut total = Bucket::default();
    for b in st.by_content_type.values() {
        total.count += b.count;
        total.tokens_before += b.tokens_before;
        total.tokens_after += b.tokens_after;
    }
    let mut out = String::from("{\n  \"totals\": ");
    bucket(&mut out, &total, "  ");
    out.push_str(",\n  \"by_content_type\": ");
    if st.by_content_type.is_empty() {
        out.push_str("{}");
    } else {
        out.push_str("{\n");
        let n = st.by_content_type.len();
        for (i, (k, b)) in st.by_content_type.iter().enumerate() {
            out.push_str("    ");
            out.push_str(&json_str(k));
            out.push_str(": ");
            bucket(&mut out, b, "    ");
            out.push_str(if i + 1 < n { ",\n" } else { "\n" });
        }
        out.push_str("  }");
    }
    out.push_str(",\n  \"basis\": \"inferred\"");
    if st.storage_bytes > 0 {
        out.push_str(&format!(",\n  \"storage_bytes\": {}", st.storage_bytes));
    }
    out.push_str(&format!(
        ",\n  \"max_storage_bytes\": {}",
        st.max_storage_bytes
    ));
    // 0: an object store, which has no byte budget.
    if st.max_storage_bytes > 0 && st.storage_bytes >= st.max_storage_bytes {
        out.push_str(",\n  \"storage_full\": true");
    }
    // Not in the reference (its store cannot hold a damaged row); only
    // present when non-zero, so a healthy store prints the same bytes.
    if st.damaged > 0 {
        out.push_str(&format!(",\n  \"damaged\": {}", st.damaged));
    }
    if st.temp_files > 0 {
        out.push_str(&format!(",\n  \"temp_files\": {}", st.temp_files));
    }
    out.push_str("\n}\n");
    out
}

pub fn run() -> Result<()> {
    let store = super::open_store()?;
    let st = store
        .stats()
        .map_err(|e| Error::fatal(format!("stats: {e}")))?;
    write_stdout(render(&st).as_bytes()).map_err(|e| Error::fatal(format!("stats output: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_spec_example() {
        let mut st = Stats {
            storage_bytes: 2,
            max_storage_bytes: 536870912,
            ..Stats::default()
        };
        st.by_content_type.insert(
            "json".into(),
            Bucket {
                count: 1,
                tokens_before: 100,
                tokens_after: 20,
            },
        );
        st.by_content_type.insert(
            "log".into(),
            Bucket {
                count: 1,
                tokens_before: 200,
                tokens_after: 10,
            },
        );
        let want = "{\n  \"totals\": {\n    \"count\": 2,\n    \"tokens_before\": 300,\n    \"tokens_after\": 30,\n    \"ratio\": 0.9\n  },\n  \"by_content_type\": {\n    \"json\": {\n      \"count\": 1,\n      \"tokens_before\": 100,\n      \"tokens_after\": 20,\n      \"ratio\": 0.8\n    },\n    \"log\": {\n      \"count\": 1,\n      \"tokens_before\": 200,\n      \"tokens_after\": 10,\n      \"ratio\": 0.95\n    }\n  },\n  \"basis\": \"inferred\",\n  \"storage_bytes\": 2,\n  \"max_storage_bytes\": 536870912\n}\n";
        assert_eq!(render(&st), want);
    }

    #[test]
    fn empty_store() {
        let st = Stats {
            max_storage_bytes: 10,
            ..Stats::default()
        };
        assert_eq!(
            render(&st),
            "{\n  \"totals\": {\n    \"count\": 0,\n    \"tokens_before\": 0,\n    \"tokens_after\": 0,\n    \"ratio\": 0\n  },\n  \"by_content_type\": {},\n  \"basis\": \"inferred\",\n  \"max_storage_bytes\": 10\n}\n"
        );
    }
}
