//! Whether a payload decodes as a YAML stream the way gopkg.in/yaml.v3 does
//! (spec/detect.md §10 step 5). Placeholder: accepts.
pub fn decodes(_s: &str) -> bool {
    true
}
