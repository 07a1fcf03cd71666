//! Render profiles (pixel-simulate.md §3.1, §6.1, §6.2): the requested
//! density level, how the reader model gates it (hi-res tier, GPT-5.6,
//! everything else conservative), and the page geometry that follows.

/// A density level: how tightly text is packed on a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// 5 × 8 px cells, black ink.
    Conservative,
    /// 4 × 6 px cells, zebra ink.
    Balanced,
    /// 4 × 6 px cells, two red/blue layers per page.
    Max,
}

impl Level {
    /// `conservative`, `balanced` or `max` (already trimmed and lower-cased).
    pub fn from_name(name: &str) -> Option<Level> {
        match name {
            "conservative" => Some(Level::Conservative),
            "balanced" => Some(Level::Balanced),
            "max" => Some(Level::Max),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Level::Conservative => "conservative",
            Level::Balanced => "balanced",
            Level::Max => "max",
        }
    }

    /// The level `CAVE_PIXEL_DENSITY` asks for (§3.1): unset or blank is
    /// balanced, a falsey word or any unknown value conservative.
    pub fn from_env_value(value: Option<&str>) -> Level {
        let v = value
            .map(|v| crate::go::unicode::lower(trim(v)))
            .unwrap_or_default();
        if v.is_empty() {
            return Level::Balanced;
        }
        if matches!(v.as_str(), "0" | "false" | "no" | "off" | "none") {
            return Level::Conservative;
        }
        Level::from_name(&v).unwrap_or(Level::Conservative)
    }

    /// The `--density` flag's value (§1 step 2): trimmed, lower-cased, one
    /// of the three names; `None` otherwise.
    pub fn from_flag(value: &str) -> Option<Level> {
        Level::from_name(&crate::go::unicode::lower(trim(value)))
    }

    /// Cell advance and row pitch in pixels, ink layers per page.
    fn cell(self) -> (usize, usize, usize) {
        match self {
            Level::Conservative => (5, 8, 1),
            Level::Balanced => (4, 6, 1),
            Level::Max => (4, 6, 2),
        }
    }
}

/// Go `strings.TrimSpace`.
fn trim(s: &str) -> &str {
    super::text::trim_space(s)
}

/// The canvas a profile draws on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// 1568 × 728, patch tokens capped at 1568.
    Standard,
    /// 2576 × 1456, patch tokens capped at 4784 (the newest Claude models).
    HiRes,
}

impl Tier {
    pub fn canvas(self) -> (usize, usize) {
        match self {
            Tier::Standard => (1568, 728),
            Tier::HiRes => (2576, 1456),
        }
    }

    /// Longest side before the patch count scales down, and its cap.
    pub fn patch_limits(self) -> (usize, usize) {
        match self {
            Tier::Standard => (1568, 1568),
            Tier::HiRes => (2576, 4784),
        }
    }
}

/// Glyph boxes are 5 px wide (10 wide) and 8 px high.
pub const GLYPH_W: usize = 5;
pub const GLYPH_H: usize = 8;
/// Margin on each side of a page.
pub const PAD: usize = 4;

/// Cell geometry: advance, pitch and layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub advance: usize,
    pub pitch: usize,
    pub layers: usize,
}

impl Cell {
    /// Width of a page of `k` columns.
    pub fn page_width(self, k: usize) -> usize {
        2 * PAD + k * self.advance + GLYPH_W.saturating_sub(self.advance)
    }

    /// Height of a page of `rows` rows (8 for none).
    pub fn page_height(self, rows: usize) -> usize {
        if rows == 0 {
            return 2 * PAD;
        }
        2 * PAD + (rows - 1) * self.pitch + GLYPH_H
    }

    /// Columns that fill a canvas `width` wide.
    pub fn cols_for(self, width: usize) -> usize {
        (width.saturating_sub(2 * PAD + GLYPH_W.saturating_sub(self.advance)) / self.advance).max(1)
    }

    /// Rows that fill a canvas `height` high.
    pub fn rows_for(self, height: usize) -> usize {
        (height.saturating_sub(2 * PAD + GLYPH_H) / self.pitch + 1).max(1)
    }
}

/// The conservative cell (mono and gray pages, every history page).
pub const CONSERVATIVE: Cell = Cell {
    advance: 5,
    pitch: 8,
    layers: 1,
};

/// A level on a tier: the Anthropic page geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    pub level: Level,
    pub tier: Tier,
}

impl Profile {
    /// Conservative on the standard tier: what the history gates price.
    pub const CONSERVATIVE_STANDARD: Profile = Profile {
        level: Level::Conservative,
        tier: Tier::Standard,
    };

    /// §6.1: the requested level on the reader model's tier, or
    /// conservative standard for a model that is neither hi-res nor GPT-5.6.
    pub fn for_model(level: Level, model: &str) -> Profile {
        let candidates = model_candidates(model);
        if candidates.iter().any(|c| is_hi_res(c)) {
            Profile {
                level,
                tier: Tier::HiRes,
            }
        } else if candidates.iter().any(|c| c.starts_with("gpt-5.6")) {
            Profile {
                level,
                tier: Tier::Standard,
            }
        } else {
            Profile::CONSERVATIVE_STANDARD
        }
    }

    pub fn cell(self) -> Cell {
        let (advance, pitch, layers) = self.level.cell();
        Cell {
            advance,
            pitch,
            layers,
        }
    }

    pub fn canvas(self) -> (usize, usize) {
        self.tier.canvas()
    }

    /// Columns of a full page.
    pub fn page_cols(self) -> usize {
        self.cell().cols_for(self.canvas().0)
    }

    /// Rows of one layer of a full page.
    pub fn canvas_rows(self) -> usize {
        self.cell().rows_for(self.canvas().1)
    }

    /// Characters one image holds: columns × rows × layers.
    pub fn page_budget(self) -> usize {
        self.page_cols() * self.canvas_rows() * self.cell().layers
    }
}

/// The names a model string is matched under (§6.1), lower-cased: the
/// whole name (without `[…]` tags), every dotted or slashed tail of it,
/// the last segment, and each of those cut at its first `@`.
pub fn model_candidates(model: &str) -> Vec<String> {
    let mut stripped = String::with_capacity(model.len());
    let mut rest = model;
    while let Some(open) = rest.find('[') {
        stripped.push_str(&rest[..open]);
        match rest[open..].find(']') {
            Some(close) => rest = &rest[open + close + 1..],
            // An unclosed bracket is not a tag.
            None => {
                stripped.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    stripped.push_str(rest);
    let m = crate::go::unicode::lower(&stripped);
    let segments: Vec<&str> = m.split(['.', '/']).filter(|s| !s.is_empty()).collect();
    let mut list = vec![m.clone()];
    for i in 0..segments.len() {
        list.push(segments[i..].join("."));
        list.push(segments[i..].join("/"));
    }
    if let Some(last) = segments.last() {
        list.push(last.to_string());
    }
    let mut out = Vec::with_capacity(list.len() * 2);
    for c in list {
        let head = c
            .split('@')
            .next()
            .filter(|h| !h.is_empty() && c.contains('@'))
            .map(str::to_string);
        out.push(c);
        out.extend(head);
    }
    out
}

/// The hi-res Claude families (§6.1), for one lower-cased candidate.
fn is_hi_res(c: &str) -> bool {
    for family in ["claude-fable-5", "claude-mythos-5", "claude-sonnet-5"] {
        if c == family || c.strip_prefix(family).is_some_and(|r| r.starts_with('-')) {
            return true;
        }
    }
    let Some(rest) = c.strip_prefix("claude-opus-") else {
        return false;
    };
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let n = digits(rest);
    if n == 0 {
        return false;
    }
    let major = parse_capped(&rest[..n]);
    let after = &rest[n..];
    let minor = match after.strip_prefix(['-', '.']) {
        Some(m) if digits(m) > 0 => parse_capped(&m[..digits(m)]),
        _ => 0,
    };
    major > 4 || (major == 4 && minor >= 8)
}

/// A decimal digit run as a number, saturating (only its size matters).
fn parse_capped(d: &str) -> u64 {
    d.bytes().fold(0u64, |v, b| {
        v.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_table() {
        // §6.2: page cols, rows per layer and budget of every profile.
        for (level, tier, cols, rows, budget) in [
            (Level::Conservative, Tier::Standard, 312, 90, 28080),
            (Level::Balanced, Tier::Standard, 389, 119, 46291),
            (Level::Max, Tier::Standard, 389, 119, 92582),
            (Level::Conservative, Tier::HiRes, 513, 181, 92853),
            (Level::Balanced, Tier::HiRes, 641, 241, 154481),
            (Level::Max, Tier::HiRes, 641, 241, 308962),
        ] {
            let p = Profile { level, tier };
            assert_eq!(
                (p.page_cols(), p.canvas_rows(), p.page_budget()),
                (cols, rows, budget)
            );
        }
        assert_eq!(CONSERVATIVE.page_width(312), 1568);
        assert_eq!(
            Profile {
                level: Level::Max,
                tier: Tier::Standard
            }
            .cell()
            .page_height(119),
            724
        );
        assert_eq!(CONSERVATIVE.page_height(0), 8);
        assert_eq!(CONSERVATIVE.page_height(1), 16);
    }

    #[test]
    fn env_and_flag_levels() {
        assert_eq!(Level::from_env_value(None), Level::Balanced);
        assert_eq!(Level::from_env_value(Some(" \t")), Level::Balanced);
        assert_eq!(Level::from_env_value(Some("Off")), Level::Conservative);
        assert_eq!(Level::from_env_value(Some(" NONE ")), Level::Conservative);
        assert_eq!(Level::from_env_value(Some("turbo")), Level::Conservative);
        assert_eq!(Level::from_env_value(Some("MAX")), Level::Max);
        assert_eq!(Level::from_flag(" MAX "), Some(Level::Max));
        assert_eq!(Level::from_flag("CONSERVATİVE"), Some(Level::Conservative));
        assert_eq!(Level::from_flag("ultra"), None);
        assert_eq!(Level::from_flag(" "), None);
    }

    #[test]
    fn model_gating() {
        let tier = |m: &str| {
            let p = Profile::for_model(Level::Max, m);
            (p.level, p.tier)
        };
        use Level::*;
        use Tier::*;
        for (model, want) in [
            ("claude-opus-4-8", (Max, HiRes)),
            ("claude-opus-4.8", (Max, HiRes)),
            ("claude-opus-4-7", (Conservative, Standard)),
            ("claude-opus-4", (Conservative, Standard)),
            ("claude-opus-5", (Max, HiRes)),
            (
                "bedrock/anthropic.claude-opus-4-20250514-v1:0[1m]",
                (Max, HiRes),
            ),
            ("claude-sonnet-5-20260101", (Max, HiRes)),
            ("claude-sonnet-50", (Conservative, Standard)),
            ("Claude-Fable-5", (Max, HiRes)),
            ("vertex/claude-mythos-5@20260101", (Max, HiRes)),
            ("gpt-5.6", (Max, Standard)),
            ("openai/gpt-5.6-mini", (Max, Standard)),
            ("gpt-5.5", (Conservative, Standard)),
            ("claude-3-7-sonnet", (Conservative, Standard)),
            ("", (Conservative, Standard)),
        ] {
            assert_eq!(tier(model), want, "{model}");
        }
    }

    #[test]
    fn candidates_of_a_routed_name() {
        let c = model_candidates("a/b.c@v[x]");
        assert_eq!(c[0], "a/b.c@v");
        assert!(c.contains(&"a/b.c".to_string()));
        assert!(c.contains(&"b.c@v".to_string()) && c.contains(&"b.c".to_string()));
        assert!(c.contains(&"c@v".to_string()) && c.contains(&"c".to_string()));
    }
}
