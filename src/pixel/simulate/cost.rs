//! The image-token cost models (pixel-simulate.md §7) and the
//! profitability gate (§4.2). Each model prices pages from their sizes:
//! Anthropic in 28 px patches with a per-tier cap and a safety margin,
//! OpenAI in 32 px patches or 512 px tiles, Gemini at a flat price per
//! image. The gate compares that with the text's token estimate.

use super::profile::{Profile, Tier};
use super::text::count_visual_rows;

/// The safety margin on Anthropic and Gemini image estimates.
const SAFETY: f64 = 1.10;
/// Anthropic patches are 28 px squares.
const PATCH_PX: usize = 28;

/// ⌈x × 1.10⌉ in IEEE doubles (100 × 1.1 is 110.00000000000001 → 111).
pub fn with_margin(x: usize) -> usize {
    (x as f64 * SAFETY).ceil() as usize
}

/// The profitability gate with no warm cache (§4.2): the image must cost
/// strictly fewer tokens than the text it replaces.
pub fn profitable(image_tokens: f64, text_tokens: f64) -> bool {
    image_tokens < text_tokens
}

/// A text's token estimate: UTF-16 units over characters per token.
pub fn text_tokens(u16_len: usize, chars_per_token: usize) -> f64 {
    u16_len as f64 / chars_per_token as f64
}

/// Anthropic patch tokens of one `w` × `h` image on `tier` (§7.1): a
/// side beyond the tier's limit scales both down (rounded half away from
/// zero, at least 1), then one token per 28 px patch, capped.
pub fn patch_tokens(w: usize, h: usize, tier: Tier) -> usize {
    let (max_px, max_tokens) = tier.patch_limits();
    let (mut w, mut h) = (w, h);
    let long = w.max(h);
    if long > max_px {
        let s = max_px as f64 / long as f64;
        w = ((w as f64 * s).round() as usize).max(1);
        h = ((h as f64 * s).round() as usize).max(1);
    }
    (w.div_ceil(PATCH_PX) * h.div_ceil(PATCH_PX)).min(max_tokens)
}

/// Anthropic image tokens of a text (§7.1), from its visual rows at `k`
/// columns, a per-image char limit `budget` and an image cap (`None` for
/// none), with the margin applied once to the total.
pub fn anthropic_image_tokens(
    text: &str,
    k: usize,
    budget: usize,
    profile: Profile,
    cap: Option<usize>,
) -> usize {
    anthropic_tokens_for_rows(count_visual_rows(text, k), k, budget, profile, cap)
}

/// [`anthropic_image_tokens`] from a row count.
pub fn anthropic_tokens_for_rows(
    rows: usize,
    k: usize,
    budget: usize,
    profile: Profile,
    cap: Option<usize>,
) -> usize {
    let cell = profile.cell();
    let rows_per_image = profile.canvas_rows().min((budget / k.max(1)).max(1));
    let per_image = rows_per_image * cell.layers;
    let mut n = rows.div_ceil(per_image).max(1);
    if let Some(cap) = cap.filter(|&c| c > 0) {
        n = n.min(cap);
    }
    let last = rows
        .saturating_sub((n - 1) * per_image)
        .max(1)
        .min(rows_per_image);
    let w = cell.page_width(k);
    let full = patch_tokens(w, cell.page_height(rows_per_image), profile.tier);
    let t = (n - 1) * full + patch_tokens(w, cell.page_height(last), profile.tier);
    with_margin(t)
}

/// How an OpenAI model is billed for an image (§7.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Vision {
    /// 512 px tiles after scaling into 2048 and then 768 px.
    Tile { base: i64, per_tile: i64 },
    /// 32 px patches, capped, times a multiplier.
    Patch { multiplier: f64, cap: i64 },
}

impl Vision {
    /// `V(w, h)`: the tokens of one `w` × `h` image (no margin).
    pub fn tokens(self, w: usize, h: usize) -> usize {
        match self {
            Vision::Patch { multiplier, cap } => {
                let p = (w.div_ceil(32) * h.div_ceil(32)).min(cap.max(0) as usize);
                (p as f64 * multiplier).ceil() as usize
            }
            Vision::Tile { base, per_tile } => {
                let (mut w, mut h) = (w as f64, h as f64);
                let long = w.max(h);
                if long > 2048.0 {
                    let s = 2048.0 / long;
                    w = (w * s).floor();
                    h = (h * s).floor();
                }
                let short = w.min(h);
                if short > 768.0 {
                    let s = 768.0 / short;
                    w = (w * s).floor();
                    h = (h * s).floor();
                }
                let tiles = (w / 512.0).ceil() * (h / 512.0).ceil();
                (base as f64 + per_tile as f64 * tiles).ceil() as usize
            }
        }
    }
}

/// The Gemini-3 price of one image at default or high media resolution.
pub const GEMINI_IMAGE: usize = 1120;

/// A Gemini page with the margin: ⌈1120 × 1.10⌉ = 1232, charged per page.
pub fn gemini_page_tokens() -> usize {
    with_margin(GEMINI_IMAGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pixel::simulate::profile::Level;

    #[test]
    fn margin_in_doubles() {
        assert_eq!(with_margin(100), 111);
        assert_eq!(with_margin(2968), 3265);
        assert_eq!(with_margin(50), 56);
        assert_eq!(gemini_page_tokens(), 1232);
    }

    #[test]
    fn patches() {
        assert_eq!(patch_tokens(1568, 728, Tier::Standard), 56 * 26);
        assert_eq!(patch_tokens(1568, 24, Tier::Standard), 56);
        // 3008 × 32 scales to 1568 × 17.
        assert_eq!(patch_tokens(3008, 32, Tier::Standard), 56);
        assert_eq!(patch_tokens(2576, 1456, Tier::HiRes), 4784);
        assert_eq!(patch_tokens(1, 1, Tier::Standard), 1);
    }

    #[test]
    fn std_mixed_slab_example() {
        // §7.1: 182 visual rows at 312 columns, conservative standard.
        let p = Profile::CONSERVATIVE_STANDARD;
        assert_eq!(anthropic_tokens_for_rows(182, 312, 28080, p, None), 3265);
        let maxp = Profile {
            level: Level::Max,
            tier: Tier::Standard,
        };
        // Two layers of 119 rows per image.
        assert_eq!(
            anthropic_tokens_for_rows(238, 389, 92582, maxp, None),
            with_margin(patch_tokens(1565, 724, Tier::Standard))
        );
    }

    #[test]
    fn vision_regimes() {
        let tile = Vision::Tile {
            base: 85,
            per_tile: 170,
        };
        assert_eq!(tile.tokens(768, 768), 85 + 170 * 4);
        assert_eq!(tile.tokens(1568, 728), 85 + 170 * 8);
        assert_eq!(tile.tokens(100, 100), 255);
        let patch = Vision::Patch {
            multiplier: 1.62,
            cap: 1536,
        };
        assert_eq!(patch.tokens(64, 64), 7);
        assert_eq!(patch.tokens(5000, 5000), (1536.0f64 * 1.62).ceil() as usize);
    }
}
