//! The renderer's entry points: the four layout paths of `pixel render`
//! behind one call ([`render`]), and the single-layer and two-layer
//! variants on their own ([`pages`], [`overlay_pages`]) for callers that
//! choose geometry themselves, as `pixel simulate` does
//! (spec/pixel-simulate.md §6.3).

use super::draw::{page_width, Ink};
use super::layout::{grid_columns, multi_column, role_layer, single_layer, two_layer};
use super::text::{measure, reflow};

/// The standard canvas: 1568 × 728 pixels.
pub const CANVAS_WIDTH: usize = 1568;
pub const CANVAS_HEIGHT: usize = 728;
/// Images are billed in 28 × 28 patches, at most this many per image.
const PATCH: usize = 28;
const MAX_PATCH_TOKENS: usize = 1568;
/// The estimate's safety margin, applied as an f64 product.
const MARGIN: f64 = 1.1;

/// A density level (spec/pixel-render.md §2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Density {
    /// Mono 5 × 8 cells, black on white.
    Conservative,
    /// Coverage glyphs at 4 × 6, zebra colours by row.
    Balanced,
    /// Balanced, plus pages of two layers (red over blue).
    Max,
}

impl Density {
    /// The level's name in the JSON lines.
    pub fn name(self) -> &'static str {
        match self {
            Density::Conservative => "conservative",
            Density::Balanced => "balanced",
            Density::Max => "max",
        }
    }

    /// The level's single-layer drawing style.
    pub fn style(self) -> Style {
        match self {
            Density::Conservative => Style::MONO,
            Density::Balanced | Density::Max => Style::ZEBRA,
        }
    }

    /// Layers a page of this level holds.
    pub fn layers(self) -> usize {
        if self == Density::Max {
            2
        } else {
            1
        }
    }

    /// Columns that fill a canvas `width` pixels wide.
    pub fn cols_for(self, width: usize) -> usize {
        let a = self.style().advance;
        (width.saturating_sub(8 + super::atlas::GLYPH_W.saturating_sub(a)) / a).max(1)
    }

    /// The per-page character budget on a `width` × `height` canvas:
    /// columns × rows × layers (28080, 46291 and 92582 on the standard one).
    pub fn budget_for(self, width: usize, height: usize) -> usize {
        let rows = super::layout::rows_per_canvas(height, self.style().pitch);
        self.cols_for(width) * rows * self.layers()
    }
}

/// How a single layer is drawn: the ink, the cell advance and the line
/// pitch in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub ink: Ink,
    pub advance: usize,
    pub pitch: usize,
}

impl Style {
    /// 1-bit glyphs at 5 × 8 (conservative; simulate's "mono").
    pub const MONO: Style = Style {
        ink: Ink::Mono,
        advance: 5,
        pitch: 8,
    };
    /// Coverage glyphs at 5 × 8 (dense conservative; simulate's "gray").
    pub const GRAY: Style = Style {
        ink: Ink::Gray,
        advance: 5,
        pitch: 8,
    };
    /// Coverage glyphs at 4 × 6 with zebra rows (balanced; simulate's
    /// "zebra").
    pub const ZEBRA: Style = Style {
        ink: Ink::Zebra,
        advance: 4,
        pitch: 6,
    };
}

/// One rendered page: its PNG and the numbers `pixel render` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    pub width: usize,
    pub height: usize,
    /// Code points the page stands for (spec §4.2–§4.4).
    pub chars_rendered: usize,
    /// Characters drawn as nothing because the atlas has no glyph.
    pub dropped_chars: usize,
    /// 2 for a red/blue page, else 1.
    pub layers: usize,
    pub png: Vec<u8>,
}

impl Page {
    pub(super) fn new(
        width: usize,
        height: usize,
        chars: usize,
        dropped: usize,
        layers: usize,
        png: Vec<u8>,
    ) -> Page {
        Page {
            width,
            height,
            chars_rendered: chars,
            dropped_chars: dropped,
            layers,
            png,
        }
    }

    /// The image-token estimate of the page (spec §6).
    pub fn est_tokens(&self) -> usize {
        est_tokens(self.width, self.height)
    }
}

/// Image tokens of a `w` × `h` page: scaled to fit 1568 px, 28-px patches
/// (at most 1568), times 1.1 in f64, rounded up.
pub fn est_tokens(w: usize, h: usize) -> usize {
    let (mut w2, mut h2) = (w, h);
    let longest = w.max(h);
    if longest > CANVAS_WIDTH {
        let s = CANVAS_WIDTH as f64 / longest as f64;
        w2 = ((w as f64 * s).round() as usize).max(1);
        h2 = ((h as f64 * s).round() as usize).max(1);
    }
    let t = (w2.div_ceil(PATCH) * h2.div_ceil(PATCH)).min(MAX_PATCH_TOKENS);
    (t as f64 * MARGIN).ceil() as usize
}

/// What `pixel render` was asked for, after the command line and the
/// environment are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The density level before `multicol` is applied.
    pub density: Density,
    /// `--cols N`, if given (else the level's default).
    pub cols: Option<usize>,
    /// `--multicol N` (1 = off).
    pub multicol: usize,
    /// `--dense`: content shrink and multi-column packing.
    pub dense: bool,
    /// Reflow into one `↵`-joined line (on unless `--no-reflow`).
    pub reflow: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            density: Density::Balanced,
            cols: None,
            multicol: 1,
            dense: false,
            reflow: true,
        }
    }
}

impl Options {
    /// The level drawn and reported: `--multicol 2` or more forces
    /// conservative (spec §2.1 step 3).
    pub fn level(&self) -> Density {
        if self.multicol >= 2 {
            Density::Conservative
        } else {
            self.density
        }
    }
}

/// The most pixels a page may have: a wider page is refused before
/// anything is drawn (the reference allocates whatever `--cols` asks for).
pub const MAX_PAGE_PIXELS: usize = 1 << 27;

/// A page too large to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    pub width: usize,
    pub height: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pixel render: pages would be {} pixels wide, larger than the {MAX_PAGE_PIXELS} pixels a page may have; use a smaller --cols",
            self.width
        )
    }
}

/// Refuses a path whose pages can be `width` wide and up to a canvas high.
fn check(width: usize) -> Result<(), TooLarge> {
    if width.saturating_mul(CANVAS_HEIGHT) > MAX_PAGE_PIXELS {
        return Err(TooLarge {
            width,
            height: CANVAS_HEIGHT,
        });
    }
    Ok(())
}

/// Renders `text` (already decoded) as `pixel render` does: reflow, then
/// the first matching layout path of spec §4.1. Refused, before anything
/// is drawn, when a page would pass [`MAX_PAGE_PIXELS`].
pub fn render(text: &str, opts: &Options) -> Result<Vec<Page>, TooLarge> {
    let level = opts.level();
    let cols = opts.cols.unwrap_or_else(|| level.cols_for(CANVAS_WIDTH));
    let reflowed;
    let source = match opts.reflow.then(|| reflow(text)).flatten() {
        Some(r) => {
            reflowed = r;
            reflowed.as_str()
        }
        None => text,
    };
    let budget = level.budget_for(CANVAS_WIDTH, CANVAS_HEIGHT);
    if level == Density::Max {
        let measured = measure(source, cols);
        check(page_width(measured, Style::ZEBRA.advance))?;
        return Ok(overlay_pages(source, measured, budget, CANVAS_HEIGHT));
    }
    let grid = |c: usize, n: usize| {
        if grid_columns(c, n) == 1 {
            check(page_width(c, Style::MONO.advance))?;
        }
        Ok(multi_column(source, c, n))
    };
    if opts.dense {
        let style = match level {
            Density::Conservative => Style::GRAY,
            _ => level.style(),
        };
        let measured = measure(source, cols);
        let n = if measured < cols { 1 } else { opts.multicol };
        if n >= 2 {
            return grid(measured, n);
        }
        check(page_width(measured, style.advance))?;
        return Ok(pages(source, measured, budget, style, CANVAS_HEIGHT));
    }
    if opts.multicol >= 2 {
        return grid(cols, opts.multicol);
    }
    let measured = measure(source, cols);
    check(page_width(measured, level.style().advance))?;
    Ok(pages(
        source,
        measured,
        budget,
        level.style(),
        CANVAS_HEIGHT,
    ))
}

/// Single-layer pages of `source` (already reflowed or not, as the caller
/// wants): wrapped at `cols` cells, at most `budget` UTF-16 units and
/// (canvas_h − 16)/pitch + 1 rows per page, each page re-wrapped and drawn
/// in `style`. `pixel simulate`'s mono, gray and zebra variants.
pub fn pages(source: &str, cols: usize, budget: usize, style: Style, canvas_h: usize) -> Vec<Page> {
    single_layer(source, cols.max(1), budget, style, canvas_h)
}

/// Two-layer pages (spec §4.3): 2·((canvas_h − 16)/6 + 1) rows per page
/// within `budget`, the first half red and the rest blue over it; a page
/// with no blue rows is a single-layer gray page at 4 × 6.
/// `pixel simulate`'s overlay variant.
pub fn overlay_pages(source: &str, cols: usize, budget: usize, canvas_h: usize) -> Vec<Page> {
    two_layer(source, cols.max(1), budget, canvas_h)
}

/// Role pages: single-layer pages at 5 × 8 in the coverage atlas whose
/// glyphs take the colour slot of their `↵`-ended segment (`roles`, 1 =
/// user, 2 = assistant, 0 = none). `pixel simulate`'s history variant
/// (spec/pixel-simulate.md §6.4).
pub fn role_pages(
    source: &str,
    roles: &[u8],
    cols: usize,
    budget: usize,
    canvas_h: usize,
) -> Vec<Page> {
    role_layer(source, roles, cols.max(1), budget, canvas_h)
}

/// Width of a single-layer page of `cols` cells in `style`.
pub fn width_of(cols: usize, style: Style) -> usize {
    page_width(cols, style.advance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates() {
        assert_eq!(est_tokens(157, 16), 7);
        assert_eq!(est_tokens(193, 16), 8);
        assert_eq!(est_tokens(253, 130), 56);
        assert_eq!(est_tokens(3008, 32), 62);
        assert_eq!(est_tokens(13, 16), 2);
    }

    /// Pages are the same, bytes included, on one thread and on several
    /// (more threads than this machine has cores, too), for every layout
    /// path.
    #[test]
    fn pages_do_not_depend_on_the_thread_count() {
        let text: String = (0..3000)
            .map(|i| {
                format!(
                    "line {i}: the quick brown fox {} jumps\n",
                    "x".repeat(i % 97)
                )
            })
            .collect();
        let options = [
            Options::default(),
            Options {
                density: Density::Conservative,
                ..Options::default()
            },
            Options {
                density: Density::Max,
                ..Options::default()
            },
            Options {
                multicol: 3,
                cols: Some(80),
                ..Options::default()
            },
            Options {
                dense: true,
                reflow: false,
                ..Options::default()
            },
        ];
        for opts in options {
            let mut runs = [1, 3, 7].map(|n| {
                super::super::layout::threads::set(n);
                render(&text, &opts).unwrap()
            });
            assert!(runs[0].len() >= 3, "{opts:?} made {} pages", runs[0].len());
            let one = std::mem::take(&mut runs[0]);
            assert!(runs.iter().skip(1).all(|r| *r == one), "{opts:?}");
        }
    }

    #[test]
    fn level_geometry() {
        assert_eq!(Density::Conservative.cols_for(1568), 312);
        assert_eq!(Density::Balanced.cols_for(1568), 389);
        assert_eq!(Density::Conservative.budget_for(1568, 728), 28080);
        assert_eq!(Density::Balanced.budget_for(1568, 728), 46291);
        assert_eq!(Density::Max.budget_for(1568, 728), 92582);
        assert_eq!(Density::Balanced.budget_for(2576, 1456), 154481);
        assert_eq!(Density::Conservative.budget_for(2576, 1456), 92853);
    }
}
