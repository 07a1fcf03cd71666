//! OpenAI vision profiles (pixel-simulate.md §7.2, §3.2): how a model is
//! billed for an image, the widest strip it is drawn in and the tallest
//! page, from the built-in table or from `CAVE_PIXEL_GPT_PROFILES`.

use crate::go::json::lazy::{Kind, Lazy};
use crate::go::json::scan::check_valid;
use crate::pixel::simulate::cost::Vision;

/// A model's vision profile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GptProfile {
    pub vision: Vision,
    /// Columns of a page at most.
    pub strip_cols: usize,
    /// Page height at most, in pixels.
    pub max_height_px: usize,
}

/// 2^63: numbers at or past it do not fit Go's `int64`.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// Every built-in profile draws at most 152 columns on 1932 px pages.
const STRIP_COLS: usize = 152;
const MAX_HEIGHT_PX: usize = 1932;

/// The built-in profile of a lower-cased model name (§7.2).
pub fn builtin(m: &str) -> GptProfile {
    let vision = if is_small_family(m) {
        Vision::Patch {
            multiplier: if m.contains("nano") { 2.46 } else { 1.62 },
            cap: 1536,
        }
    } else if m.starts_with("gpt-5.6")
        || m.strip_prefix("gpt-5.")
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    {
        Vision::Patch {
            multiplier: 1.0,
            cap: 10000,
        }
    } else if m.starts_with("gpt-5") {
        Vision::Tile {
            base: 70,
            per_tile: 140,
        }
    } else if m.starts_with("o1") || m.starts_with("o3") {
        Vision::Tile {
            base: 75,
            per_tile: 150,
        }
    } else {
        Vision::Tile {
            base: 85,
            per_tile: 170,
        }
    };
    GptProfile {
        vision,
        strip_cols: STRIP_COLS,
        max_height_px: MAX_HEIGHT_PX,
    }
}

/// `gpt-5-mini`, `gpt-5.N-mini`, `gpt-4.1-mini`, their `nano` siblings and
/// `o4-mini`.
fn is_small_family(m: &str) -> bool {
    if [
        "gpt-5-mini",
        "gpt-5-nano",
        "gpt-4.1-mini",
        "gpt-4.1-nano",
        "o4-mini",
    ]
    .iter()
    .any(|p| m.starts_with(p))
    {
        return true;
    }
    let Some(rest) = m.strip_prefix("gpt-5.") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (rest[digits..].starts_with("-mini") || rest[digits..].starts_with("-nano"))
}

/// The profile of `model`: the longest override key that prefixes the
/// lower-cased model, else the built-in table.
pub fn resolve(model: &str, overrides: Option<&str>) -> GptProfile {
    let m = crate::go::unicode::lower(model);
    let table = overrides.and_then(parse_overrides).unwrap_or_default();
    table
        .iter()
        .filter(|(k, _)| m.starts_with(k.as_str()))
        .max_by_key(|(k, _)| k.len())
        .map_or_else(|| builtin(&m), |(_, p)| *p)
}

/// Integers Go's decoder accepts into an `int` field.
fn go_int(v: Lazy<'_>) -> Result<Option<i64>, ()> {
    match v.kind() {
        Kind::Null => Ok(None),
        Kind::Number => std::str::from_utf8(v.text())
            .ok()
            .and_then(|t| t.parse::<i64>().ok())
            .map(Some)
            .ok_or(()),
        _ => Err(()),
    }
}

/// Numbers Go's decoder accepts into a `float64` field.
fn go_float(v: Lazy<'_>) -> Result<Option<f64>, ()> {
    match v.kind() {
        Kind::Null => Ok(None),
        Kind::Number => std::str::from_utf8(v.text())
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|x| x.is_finite())
            .map(Some)
            .ok_or(()),
        _ => Err(()),
    }
}

/// `CAVE_PIXEL_GPT_PROFILES` as (lower-cased key, profile) pairs; `None`
/// when the value is to be ignored as a whole (§3.2).
fn parse_overrides(value: &str) -> Option<Vec<(String, GptProfile)>> {
    if value.trim().is_empty() || check_valid(value.as_bytes()).is_err() {
        return None;
    }
    let top = Lazy::new(value.as_bytes());
    match top.kind() {
        Kind::Object => {}
        Kind::Null => return Some(Vec::new()),
        _ => return None,
    }
    let mut out: Vec<(String, GptProfile)> = Vec::new();
    for (key, entry) in top.map() {
        let key = crate::go::unicode::lower(&key);
        let mut p = builtin(&key);
        if !matches!(entry.kind(), Kind::Object | Kind::Null) {
            return None;
        }
        if let Some(v) = entry.field("vision", true) {
            if v.kind() != Kind::Object {
                return None;
            }
            if let Some(vision) = parse_vision(v)? {
                p.vision = vision;
            }
        }
        for (name, slot) in [
            ("stripcols", &mut p.strip_cols),
            ("maxheightpx", &mut p.max_height_px),
        ] {
            if let Some(v) = entry.field(name, true) {
                if let Some(x) = go_float(v).ok()? {
                    if (1.0..TWO_63).contains(&x) {
                        *slot = x.floor() as usize;
                    }
                }
            }
        }
        out.push((key, p));
    }
    Some(out)
}

/// A `vision` object: `Some(None)` when it is well-typed but invalid (the
/// built-in vision stays), `None` when a member has the wrong type.
fn parse_vision(v: Lazy<'_>) -> Option<Option<Vision>> {
    let regime = match v.field("regime", true) {
        Some(r) if r.kind() != Kind::String => return None,
        Some(r) => r.str().unwrap_or_default().into_owned(),
        None => String::new(),
    };
    let int = |name: &str| -> Option<i64> {
        match v.field(name, true) {
            Some(x) => go_int(x).ok().map(|n| n.unwrap_or(0)),
            None => Some(0),
        }
    };
    let (base, per_tile, cap) = (int("base")?, int("pertile")?, int("patchcap")?);
    let multiplier = match v.field("multiplier", true) {
        Some(x) => go_float(x).ok()?.unwrap_or(0.0),
        None => 0.0,
    };
    Some(match regime.as_str() {
        "tile" => (base >= 0
            && per_tile >= 0
            && (base, per_tile) != (0, 0)
            && (base as f64 + 16.0 * per_tile as f64) < TWO_63)
            .then_some(Vision::Tile { base, per_tile }),
        "patch" => (multiplier > 0.0 && cap > 0 && multiplier * (cap as f64) < TWO_63)
            .then_some(Vision::Patch { multiplier, cap }),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table() {
        let v = |m: &str| builtin(m).vision;
        assert_eq!(
            v("gpt-4.1-mini"),
            Vision::Patch {
                multiplier: 1.62,
                cap: 1536
            }
        );
        assert_eq!(
            v("gpt-5.2-nano"),
            Vision::Patch {
                multiplier: 2.46,
                cap: 1536
            }
        );
        assert_eq!(
            v("o4-mini"),
            Vision::Patch {
                multiplier: 1.62,
                cap: 1536
            }
        );
        assert_eq!(
            v("gpt-5.6"),
            Vision::Patch {
                multiplier: 1.0,
                cap: 10000
            }
        );
        assert_eq!(
            v("gpt-5.1"),
            Vision::Patch {
                multiplier: 1.0,
                cap: 10000
            }
        );
        assert_eq!(
            v("gpt-5"),
            Vision::Tile {
                base: 70,
                per_tile: 140
            }
        );
        assert_eq!(
            v("o3-pro"),
            Vision::Tile {
                base: 75,
                per_tile: 150
            }
        );
        assert_eq!(
            v("gpt-4o"),
            Vision::Tile {
                base: 85,
                per_tile: 170
            }
        );
        assert_eq!(
            v(""),
            Vision::Tile {
                base: 85,
                per_tile: 170
            }
        );
    }

    #[test]
    fn overrides_case() {
        // Case responses-gpt-profiles-env.
        let env = r#"{"gpt-4o": {"vision": {"regime": "patch", "multiplier": 1.3, "patchCap": 700}, "stripCols": 120.9, "maxHeightPx": 1200}, "GPT-4O-2024": {"vision": {"regime": "tile", "base": 0, "perTile": 0}, "stripCols": 100, "maxHeightPx": 0.5}}"#;
        let p = resolve("gpt-4o-2024-08-06", Some(env));
        assert_eq!(
            p,
            GptProfile {
                vision: Vision::Tile {
                    base: 85,
                    per_tile: 170
                },
                strip_cols: 100,
                max_height_px: 1932
            }
        );
        let p = resolve("GPT-4o-mini", Some(env));
        assert_eq!(
            p,
            GptProfile {
                vision: Vision::Patch {
                    multiplier: 1.3,
                    cap: 700
                },
                strip_cols: 120,
                max_height_px: 1200
            }
        );
    }

    #[test]
    fn bad_overrides_are_ignored_whole() {
        for env in [
            r#"{"gpt-4o": {"stripCols": "9"}}"#,
            r#"{"gpt-4o": {"vision": {"regime": "patch", "multiplier": 2, "patchCap": 1.5}}}"#,
            r#"["gpt-4o"]"#,
            "not json",
        ] {
            assert_eq!(resolve("gpt-4o", Some(env)), builtin("gpt-4o"), "{env}");
        }
        assert_eq!(resolve("gpt-4o", Some("  ")), builtin("gpt-4o"));
    }
}
