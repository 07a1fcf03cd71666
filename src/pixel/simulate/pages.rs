//! Pages as the transform draws them (pixel-simulate.md §6.3, §6.4): the
//! five renderer variants' layout — wrap, page split, the page renderer's
//! re-wrap — and the totals the counters take from the encoded pages.
//!
//! Pages are laid out, drawn and encoded one at a time, and only their
//! sizes are kept: a request's images never sit in memory together.

use super::atlas::{cells, has_glyph};
use super::draw;
use super::info::PageTotals;
use super::profile::{Cell, CONSERVATIVE};
use super::text::{rows, u16_len, wrap, RETURN_MARK};

/// How a page is drawn.
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
    /// Coverage glyphs at 5 / 8 coloured by a parallel slot text (history
    /// transcripts), RGB.
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

/// One page ready to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub width: usize,
    pub height: usize,
    /// The style the page is drawn in (an overlay page with one layer is
    /// [`Style::Gray46`]).
    pub style: Style,
    /// Columns of the layout (glyphs past it are not drawn).
    pub cols: usize,
    /// The lines of the page; for a two-layer page, the red layer.
    pub lines: Vec<String>,
    /// The blue layer of a two-layer page.
    pub blue: Vec<String>,
    /// Role pages: the colour slot of each `↵`-segment drawn on the page,
    /// from the first (a segment ends after its `↵`). Glyphs of a segment
    /// with slot 1 or 2 take that role's colour (§6.4).
    pub roles: Vec<u8>,
}

/// The drawing style of one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Mono,
    Gray,
    Zebra,
    /// A single-layer page of the overlay variant: gray at 4 / 6.
    Gray46,
    TwoLayer,
    Role,
}

impl Page {
    /// Drawn characters that have no glyph, in every layer.
    pub fn dropped(&self) -> usize {
        self.lines
            .iter()
            .chain(&self.blue)
            .map(|l| dropped_in(l, self.cols))
            .sum()
    }
}

/// Characters of `line` the renderer reaches (it stops at `cols`) that are
/// not in the atlas.
fn dropped_in(line: &str, cols: usize) -> usize {
    let mut col = 0;
    let mut dropped = 0;
    for c in line.chars() {
        if col >= cols {
            break;
        }
        if has_glyph(c) {
            col += cells(c);
        } else {
            dropped += 1;
            col += 1;
        }
    }
    dropped
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

/// The pages of a layout, drawn and encoded one at a time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageSet {
    /// Width and height of each page.
    pub sizes: Vec<(usize, usize)>,
    pub totals: PageTotals,
    /// Some page has two layers.
    pub two_layer: bool,
}

impl PageSet {
    /// Draws and encodes `page`, and counts it.
    fn add(&mut self, page: &Page) {
        self.sizes.push((page.width, page.height));
        self.two_layer |= page.style == Style::TwoLayer;
        self.totals.pages += 1;
        self.totals.pixels += page.width * page.height;
        self.totals.dropped += page.dropped();
        self.totals.bytes += draw::encoded_len(page);
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

/// Lays out, draws and encodes every page of `l`.
pub fn render(l: &Layout<'_>) -> PageSet {
    let mut set = PageSet::default();
    for_each_page(l, |page| set.add(&page));
    set
}

/// Draws and encodes pages already laid out.
pub fn draw_all(pages: Vec<Page>) -> PageSet {
    let mut set = PageSet::default();
    for page in pages {
        set.add(&page);
    }
    set
}

/// The page split of §9.1 over a stream of rows: `f` gets each page's rows
/// as soon as the page is complete, so only one page is held at a time.
pub fn for_each_split(
    rows: impl Iterator<Item = String>,
    max_rows: usize,
    max_chars: usize,
    mut f: impl FnMut(Vec<String>),
) {
    let mut page: Vec<String> = Vec::new();
    let mut chars = 0;
    for row in rows {
        let len = u16_len(&row);
        if !page.is_empty() && (page.len() >= max_rows || chars + len + 1 > max_chars) {
            f(std::mem::take(&mut page));
            chars = 0;
        }
        chars += len + usize::from(!page.is_empty());
        page.push(row);
    }
    f(page);
}

/// Calls `f` with each page of `l`, in order.
pub fn for_each_page(l: &Layout<'_>, mut f: impl FnMut(Page)) {
    let k = l.cols.max(1);
    let cell = l.variant.cell();
    let canvas_rows = cell.rows_for(l.height);
    let width = cell.page_width(k);
    let overlay = l.variant == Variant::Overlay;
    let per_page = if overlay {
        2 * canvas_rows
    } else {
        canvas_rows.min((l.budget / k).max(1))
    };
    let style = match l.variant {
        Variant::Mono => Style::Mono,
        Variant::Gray => Style::Gray,
        Variant::Zebra => Style::Zebra,
        Variant::Role => Style::Role,
        Variant::Overlay => Style::Gray46,
    };
    let mut segment = 0;
    for_each_split(rows(l.text, k), per_page, l.budget, |page_rows| {
        if overlay && page_rows.len() > canvas_rows {
            let (red, blue) = page_rows.split_at(canvas_rows);
            f(Page {
                width,
                height: cell.page_height(canvas_rows),
                style: Style::TwoLayer,
                cols: k,
                lines: red.to_vec(),
                blue: blue.to_vec(),
                roles: Vec::new(),
            });
            return;
        }
        let marks: usize = page_rows
            .iter()
            .map(|r| r.matches(RETURN_MARK).count())
            .sum();
        let roles = l
            .roles
            .map(|all| {
                (segment..=segment + marks)
                    .map(|i| all.get(i).copied().unwrap_or(0))
                    .collect()
            })
            .unwrap_or_default();
        segment += marks;
        let mut lines = wrap(&page_rows.join("\n"), k);
        lines.truncate(canvas_rows);
        f(Page {
            width,
            height: cell.page_height(lines.len()),
            style,
            cols: k,
            lines,
            blue: Vec::new(),
            roles,
        });
    });
}

/// The number of rows `text` wraps into at `k` columns.
pub fn wrapped_rows(text: &str, k: usize) -> usize {
    rows(text, k.max(1)).count()
}

/// The colour slot of each `↵`-segment of a reflowed slot text (§6.4): 1
/// or 2 where the segment holds that mark (a tag line), else 0.
pub fn segment_roles(slots: &str) -> Vec<u8> {
    slots
        .split(RETURN_MARK)
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

    fn layout(text: &str, variant: Variant, cols: usize, budget: usize) -> Vec<Page> {
        let mut pages = Vec::new();
        for_each_page(
            &Layout {
                text,
                roles: None,
                variant,
                cols,
                budget,
                height: 728,
            },
            |p| pages.push(p),
        );
        pages
    }

    fn split(rows: &[&str], max_rows: usize, max_chars: usize) -> Vec<usize> {
        let mut sizes = Vec::new();
        let rows = rows.iter().map(|r| r.to_string());
        for_each_split(rows, max_rows, max_chars, |p| sizes.push(p.len()));
        sizes
    }

    #[test]
    fn pages_count_joins() {
        let row = "x".repeat(312);
        assert_eq!(split(&vec![row.as_str(); 91], 90, 28080), [89, 2]);
        assert_eq!(split(&[], 5, 10), [0]);
        assert_eq!(split(&["a", "b", "c"], 2, 100), [2, 1]);
    }

    #[test]
    fn paging_chars_example() {
        // pixel-render.md §9 example 2: 90 lines of 312 and a final newline.
        let text = format!("{}\n", vec!["x".repeat(312); 90].join("\n"));
        let pages = layout(&text, Variant::Mono, 312, 28080);
        let sizes: Vec<_> = pages.iter().map(|p| (p.width, p.height)).collect();
        assert_eq!(sizes, [(1568, 720), (1568, 24)]);
    }

    #[test]
    fn max_two_layer_example() {
        // pixel-render.md §9 example 3: 250 numbered lines at 48 columns.
        let text: String = (1..=250)
            .map(|i| format!("line {i:>3} {}\n", "x".repeat(i % 39)))
            .collect();
        let pages = layout(&text, Variant::Overlay, 48, 92582);
        assert_eq!(pages.len(), 2);
        assert_eq!(
            (pages[0].width, pages[0].height, pages[0].style),
            (201, 724, Style::TwoLayer)
        );
        assert_eq!((pages[0].lines.len(), pages[0].blue.len()), (119, 119));
        assert_eq!((pages[1].height, pages[1].style), (88, Style::Gray46));
    }

    #[test]
    fn empty_text_is_one_small_page() {
        let pages = layout("", Variant::Zebra, 1, 46291);
        assert_eq!(pages.len(), 1);
        assert_eq!((pages[0].width, pages[0].height), (13, 16));
    }

    #[test]
    fn dropped_counts_reached_characters() {
        assert_eq!(dropped_in("a\rb😀", 10), 2);
        assert_eq!(dropped_in("ab\r", 2), 0);
    }
}
