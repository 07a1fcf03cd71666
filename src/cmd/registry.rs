//! `registry`: the transform-capability manifest (spec/registry.md), one
//! compact JSON line made from the registry's advertised rows. Every field
//! is a constant or the SHA-256 of one; arguments are ignored, stdin is
//! not read, no file is touched.

use sha2::{Digest, Sha256};

use super::io::write_stdout;
use crate::error::{Error, Result};

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The manifest line, newline included.
pub fn manifest() -> String {
    let mut rows: Vec<(String, String)> = crate::compress::advertised()
        .map(|(ct, segments)| {
            let id = format!("caveman.engine.{ct}.v1");
            let segs: Vec<String> = segments.iter().map(|s| format!("\"{s}\"")).collect();
            let digest = hex(format!("caveman.engine.{ct}:v1").as_bytes());
            let row = format!(
                "{{\"transform_id\":\"{id}\",\"implementation_version\":\"1\",\"safety_classes\":[\"S4\"],\"deterministic\":true,\"recovery\":\"exact_ccr\",\"eligible_segment_kinds\":[{}],\"requires_eval\":true,\"not_smaller_fallback\":\"original\",\"provenance\":{{\"kind\":\"native\",\"source_manifest_sha256\":null}},\"conformance_digest\":\"{digest}\"}}",
                segs.join(",")
            );
            (id, row)
        })
        .collect();
    rows.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let caps = format!(
        "[{}]",
        rows.iter()
            .map(|r| r.1.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    format!(
        "{{\"schema_version\":1,\"registry_sha256\":\"{}\",\"capabilities\":{caps}}}\n",
        hex(caps.as_bytes())
    )
}

pub fn run() -> Result<()> {
    write_stdout(manifest().as_bytes()).map_err(|e| Error::fatal(format!("write stdout: {e}")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn digest_of_the_spec_example() {
        assert_eq!(
            super::hex(b"caveman.engine.json:v1"),
            "0c3dbce89c118be01ee9d7e9a20f86f4894b4ec259bb6259723aaf0c9ea95663"
        );
        let m = super::manifest();
        assert!(m.starts_with("{\"schema_version\":1,\"registry_sha256\":\"64b06ad2a9c99a5ff6a3ad7029ff9fa439c7435f5d94d01879c9e0e11e29513f\""));
        assert_eq!(m.len(), 5868);
    }
}
