//! Pages as the transform draws them (pixel-simulate.md §6.3, §6.4): which
//! of the renderer's variants a candidate is drawn with, and the totals the
//! counters take from the encoded pages. The layout and the drawing are
//! `pixel render`'s ([`crate::pixel::render`]); one candidate's pages are
//! drawn at a time, and only their sizes are kept.

use super::info::PageTotals;
use super::profile::{Cell, CONSERVATIVE};
use crate::pixel::render::{overlay_pages, pages, role_pages, Page, Style};

/// How a candidate is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// 1-bit glyphs at 5 / 8, gray PNG.
    Mono,
    /// Coverage glyphs at 5 / 8, darkest ink wins, gray PNG.
    Gray,
    /// Coverage glyphs at 4 / 6, rows inked in a three-colour cycle, RGB.
    Zebra,
    /// Two coverage layers at 4 / 6, red over blue, RGB; a page with one
    /// layer is a plain gray page at 4 / 6.
    Overlay,
    /// Coverage glyphs at 5 / 8, speaker tags in the speaker's colour
    /// (history transcripts), RGB.
    Role,
}

impl Variant {
    pub fn cell(self) -> Cell {
        match self {
            Variant::Mono | Variant::Gray | Variant::Role => CONSERVATIVE,
            Variant::Zebra | Variant::Overlay => Cell {
                advance: 4,
                pitch: 6,
                layers: 1,
            },
        }
    }
}

/// What to draw: the text, the variant, and the layout limits.
#[derive(Debug, Clone, Copy)]
pub struct Layout<'a> {
    pub text: &'a str,
    /// The role variant's colour slot of each `↵`-segment of `text`.
    pub roles: Option<&'a [u8]>,
    pub variant: Variant,
    /// Columns.
    pub cols: usize,
    /// Characters per image (UTF-16 units, joins counted).
    pub budget: usize,
    /// Canvas height in pixels.
    pub height: usize,
}

/// The drawn pages of one candidate, as the counters see them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageSet {
    /// Width and height of each page.
    pub sizes: Vec<(usize, usize)>,
    pub totals: PageTotals,
    /// Some page has two layers.
    pub two_layer: bool,
}

impl PageSet {
    fn add(&mut self, page: &Page) {
        self.sizes.push((page.width, page.height));
        self.two_layer |= page.layers == 2;
        self.totals.pages += 1;
        self.totals.pixels += page.width * page.height;
        self.totals.dropped += page.dropped_chars;
        self.totals.bytes += page.png.len();
    }

    /// Adds another set's pages after these.
    pub fn extend(&mut self, other: PageSet) {
        self.sizes.extend(other.sizes);
        self.two_layer |= other.two_layer;
        self.totals.pages += other.totals.pages;
        self.totals.bytes += other.totals.bytes;
        self.totals.pixels += other.totals.pixels;
        self.totals.dropped += other.totals.dropped;
    }
}

/// Draws and encodes every page of `l`.
pub fn render(l: &Layout<'_>) -> PageSet {
    let k = l.cols.max(1);
    let drawn = match l.variant {
        Variant::Mono => pages(l.text, k, l.budget, Style::MONO, l.height),
        Variant::Gray => pages(l.text, k, l.budget, Style::GRAY, l.height),
        Variant::Zebra => pages(l.text, k, l.budget, Style::ZEBRA, l.height),
        Variant::Overlay => overlay_pages(l.text, k, l.budget, l.height),
        Variant::Role => role_pages(l.text, l.roles.unwrap_or_default(), k, l.budget, l.height),
    };
    let mut set = PageSet::default();
    for page in &drawn {
        set.add(page);
    }
    set
}

/// The colour slot of each `↵`-segment of a reflowed slot text (§6.4): 1
/// or 2 where the segment holds that mark (a tag line), else 0.
pub fn segment_roles(slots: &str) -> Vec<u8> {
    slots
        .split(crate::pixel::simulate::text::RETURN_MARK)
        .map(|seg| {
            if seg.contains('\u{1}') {
                1
            } else if seg.contains('\u{2}') {
                2
            } else {
                0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(text: &str, variant: Variant, cols: usize, budget: usize) -> PageSet {
        render(&Layout {
            text,
            roles: None,
            variant,
            cols,
            budget,
            height: 728,
        })
    }

    #[test]
    fn paging_chars_example() {
        // pixel-render.md §9 example 2: 90 lines of 312 and a final newline.
        let text = format!("{}\n", vec!["x".repeat(312); 90].join("\n"));
        let set = layout(&text, Variant::Mono, 312, 28080);
        assert_eq!(set.sizes, [(1568, 720), (1568, 24)]);
    }

    #[test]
    fn max_two_layer_example() {
        // pixel-render.md §9 example 3: 250 numbered lines at 48 columns.
        let text: String = (1..=250)
            .map(|i| format!("line {i:>3} {}\n", "x".repeat(i % 39)))
            .collect();
        let set = layout(&text, Variant::Overlay, 48, 92582);
        assert_eq!(set.sizes, [(201, 724), (201, 88)]);
        assert!(set.two_layer);
    }

    #[test]
    fn empty_text_is_one_small_page() {
        assert_eq!(layout("", Variant::Zebra, 1, 46291).sizes, [(13, 16)]);
    }

    #[test]
    fn roles_of_slot_segments() {
        assert_eq!(
            segment_roles("\u{1}\u{1}\u{21b5}b\u{3}dy\u{21b5}\u{2}"),
            [1, 0, 2]
        );
    }
}
