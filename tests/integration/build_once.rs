//! The README's two commands build the engine once (BENCHMARKS.md "Build"):
//! `cargo test --release` reuses the dependencies, the library and both
//! binaries that `cargo build --release` made.

use std::collections::BTreeSet;
use std::process::Command;

/// Under fat LTO, `cargo build --release` compiles every dependency as
/// bitcode only. A package that is also a staticlib, cdylib or dylib needs
/// object code, and cargo then compiles it and everything it depends on as
/// object code and bitcode: a different build of serde (say), so every
/// crate above it, the engine and both binaries are compiled again. The
/// `bpe` crate (a dev-dependency) did, until it was built as an rlib only
/// (`vendor/bpe`). No package of the host's build graph, dev-dependencies
/// included, may be one.
#[test]
fn no_package_in_the_test_build_needs_object_code() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc).arg("-vV").output().expect("rustc -vV");
    let version = String::from_utf8(version.stdout).unwrap();
    let host = version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(["--filter-platform", host])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut needs_object = BTreeSet::new();
    for package in meta["packages"].as_array().unwrap() {
        for target in package["targets"].as_array().unwrap() {
            let kinds = target["kind"].as_array().unwrap();
            let types = target["crate_types"].as_array().unwrap();
            // A library target (not an example or a test of the package).
            let is_lib = kinds
                .iter()
                .any(|k| k != "example" && k != "test" && k != "bench");
            if is_lib
                && types
                    .iter()
                    .any(|t| t == "staticlib" || t == "cdylib" || t == "dylib")
            {
                needs_object.insert(format!("{} {types:?}", package["name"]));
            }
        }
    }
    assert!(
        needs_object.is_empty(),
        "packages built as object code too: {needs_object:?}"
    );
}
