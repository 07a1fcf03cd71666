//! The report's JSON, written as Go's `encoding/json` Encoder writes it
//! with `SetIndent("", "  ")`: HTML-safe strings, shortest floats.

use crate::go::json::write_json_str;
use crate::go::strconv::format_float;

pub enum J {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    /// Indented by two spaces, `": "` after keys; no final newline.
    pub fn pretty(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut Vec<u8>, level: usize) {
        let nl = |out: &mut Vec<u8>, l: usize| {
            out.push(b'\n');
            for _ in 0..l {
                out.extend_from_slice(b"  ");
            }
        };
        match self {
            J::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            J::Int(n) => out.extend_from_slice(n.to_string().as_bytes()),
            J::Float(x) => out.extend_from_slice(format_float(*x).as_bytes()),
            J::Str(s) => write_json_str(out, s.as_bytes()),
            J::Arr(items) if items.is_empty() => out.extend_from_slice(b"[]"),
            J::Arr(items) => {
                out.push(b'[');
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    nl(out, level + 1);
                    it.write(out, level + 1);
                }
                nl(out, level);
                out.push(b']');
            }
            J::Obj(members) if members.is_empty() => out.extend_from_slice(b"{}"),
            J::Obj(members) => {
                out.push(b'{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    nl(out, level + 1);
                    write_json_str(out, k.as_bytes());
                    out.extend_from_slice(b": ");
                    v.write(out, level + 1);
                }
                nl(out, level);
                out.push(b'}');
            }
        }
    }
}
