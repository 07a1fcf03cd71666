//! The page layouts (spec/pixel-render.md §4): greedy paging, single-layer
//! pages (re-wrapped per page), two-layer red/blue pages and the
//! multi-column grid. Each returns finished [`Page`]s.

use super::draw::{page_height, page_width, Canvas, Ink};
use super::render::{Page, Style};
use super::text::{cp_len, u16_len, wrap};

/// The page margin on every side.
const PAD: usize = 4;
/// Pitch and advance of the two-layer pages.
const OVERLAY_ADVANCE: usize = 4;
const OVERLAY_PITCH: usize = 6;
/// Multi-column grid: cell advance and pitch (the mono geometry), the
/// gutter between columns, the canvas width and the per-column budget.
const GRID_ADVANCE: usize = 5;
const GRID_PITCH: usize = 8;
const GUTTER: usize = 20;
const GRID_MAX_WIDTH: usize = 1568;
const GRID_MAX_ROWS: usize = 90;
const GRID_BUDGET: usize = 28080;

/// Rows that fit a canvas `height` pixels high at `pitch`: (H − 16)/P + 1.
pub fn rows_per_canvas(height: usize, pitch: usize) -> usize {
    height.saturating_sub(2 * PAD + 8) / pitch + 1
}

/// Greedy paging (§4.2 step 3): a page closes before a line that would
/// make it hold more than `max_lines` lines or more than `budget` UTF-16
/// units, counting one for each join newline. Returns the line ranges.
pub fn paginate(lines: &[String], max_lines: usize, budget: usize) -> Vec<std::ops::Range<usize>> {
    let mut pages = Vec::new();
    let mut start = 0;
    let mut chars = 0;
    for (i, line) in lines.iter().enumerate() {
        let len = u16_len(line);
        let open = i > start;
        let cost = len + open as usize;
        if open && (i - start >= max_lines || chars + cost > budget) {
            pages.push(start..i);
            start = i;
            chars = len;
        } else {
            chars += cost;
        }
    }
    pages.push(start..lines.len());
    pages
}

/// `f` of every item, in order, the items shared out in runs among the
/// cores (one page per core is in memory at a time). The pages are the
/// same whatever the number of threads: each is a function of its item.
fn each_page<T: Sync>(items: &[T], f: impl Fn(&T) -> Page + Sync) -> Vec<Page> {
    let parts = threads::get();
    crate::par::map_chunks(items, parts, |run| run.iter().map(&f).collect::<Vec<_>>())
        .into_iter()
        .flatten()
        .collect()
}

/// The threads pages are drawn on: every core ([`crate::par::workers`]),
/// or in tests any number the calling thread sets.
pub(super) mod threads {
    #[cfg(test)]
    thread_local! {
        static SET: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    }

    pub(in crate::pixel) fn get() -> usize {
        #[cfg(test)]
        if let Some(n) = SET.with(|s| s.get()) {
            return n;
        }
        crate::par::workers()
    }

    /// Draws pages on `n` threads on this thread from now on.
    #[cfg(test)]
    pub(in crate::pixel) fn set(n: usize) {
        SET.with(|s| s.set(Some(n)));
    }
}

/// Single-layer pages (§4.2): wrap, page, and draw each page with the
/// page renderer.
pub(super) fn single_layer(
    source: &str,
    cols: usize,
    budget: usize,
    style: Style,
    canvas_h: usize,
) -> Vec<Page> {
    let lines = wrap(source, cols);
    let m = rows_per_canvas(canvas_h, style.pitch);
    let per_page = m.min((budget / cols).max(1));
    each_page(&paginate(&lines, per_page, budget), |r| {
        page_of(&lines[r.clone()].join("\n"), cols, style, m)
    })
}

/// The page renderer (§4.2 step 4): re-wraps the page text, keeps at most
/// `max_rows` lines and draws them.
fn page_of(text: &str, cols: usize, style: Style, max_rows: usize) -> Page {
    let lines = wrap(text, cols);
    let kept = &lines[..lines.len().min(max_rows)];
    let chars = if kept.len() == lines.len() {
        cp_len(text)
    } else {
        kept.iter().map(|l| cp_len(l)).sum::<usize>() + kept.len() - 1
    };
    let width = page_width(cols, style.advance);
    let height = page_height(kept.len(), style.pitch);
    let mut canvas = Canvas::new(width, height, style.ink, false);
    for (j, line) in kept.iter().enumerate() {
        canvas.line(line, PAD, PAD + j * style.pitch, style.advance, cols, j);
    }
    Page::new(width, height, chars, canvas.dropped, 1, canvas.png())
}

/// Role pages (spec/pixel-simulate.md §6.4): single-layer pages at 5 × 8
/// in the coverage atlas, where every glyph of a line whose role is 1 or
/// 2 (`roles`, one entry per `↵`-ended segment of `source`) takes that
/// role's colour. Each page starts at the segment its first line is in.
pub(super) fn role_layer(
    source: &str,
    roles: &[u8],
    cols: usize,
    budget: usize,
    canvas_h: usize,
) -> Vec<Page> {
    const MARK: char = '\u{21B5}';
    let style = Style {
        ink: Ink::Role,
        advance: GRID_ADVANCE,
        pitch: GRID_PITCH,
    };
    let lines = wrap(source, cols);
    let m = rows_per_canvas(canvas_h, style.pitch);
    let per_page = m.min((budget / cols).max(1));
    let mut segment = 0;
    let pages: Vec<(std::ops::Range<usize>, usize)> = paginate(&lines, per_page, budget)
        .into_iter()
        .map(|r| {
            let first = segment;
            segment += lines[r.clone()]
                .iter()
                .map(|l| l.matches(MARK).count())
                .sum::<usize>();
            (r, first)
        })
        .collect();
    each_page(&pages, |(r, first)| {
        let text = lines[r.clone()].join("\n");
        let all = wrap(&text, cols);
        let kept = &all[..all.len().min(m)];
        let (width, height) = (
            page_width(cols, style.advance),
            page_height(kept.len(), style.pitch),
        );
        let mut canvas = Canvas::new(width, height, style.ink, false);
        let mut seg = *first;
        for (j, line) in kept.iter().enumerate() {
            canvas.line_slots(line, PAD, PAD + j * style.pitch, style.advance, cols, |c| {
                if c == MARK {
                    seg += 1;
                    0
                } else {
                    roles.get(seg).copied().unwrap_or(0)
                }
            });
        }
        let chars = if kept.len() == all.len() {
            cp_len(&text)
        } else {
            kept.iter().map(|l| cp_len(l)).sum::<usize>() + kept.len() - 1
        };
        Page::new(width, height, chars, canvas.dropped, 1, canvas.png())
    })
}

/// Two-layer pages (§4.3): up to `2N` lines a page, the first N drawn in
/// red and the rest in blue over them; a page without blue lines is a
/// plain gray single-layer page.
pub(super) fn two_layer(source: &str, cols: usize, budget: usize, canvas_h: usize) -> Vec<Page> {
    let lines = wrap(source, cols);
    let n = rows_per_canvas(canvas_h, OVERLAY_PITCH);
    let gray = Style {
        ink: Ink::Gray,
        advance: OVERLAY_ADVANCE,
        pitch: OVERLAY_PITCH,
    };
    each_page(&paginate(&lines, 2 * n, budget), |r| {
        let page = &lines[r.clone()];
        let (red, blue) = page.split_at(page.len().min(n));
        if blue.is_empty() {
            return page_of(&red.join("\n"), cols, gray, n);
        }
        let width = page_width(cols, OVERLAY_ADVANCE);
        let height = page_height(n, OVERLAY_PITCH);
        let layer = |rows: &[String]| {
            let mut c = Canvas::new(width, height, Ink::Gray, true);
            for (j, line) in rows.iter().enumerate() {
                c.line(line, PAD, PAD + j * OVERLAY_PITCH, OVERLAY_ADVANCE, cols, j);
            }
            c
        };
        let (r, b) = (layer(red), layer(blue));
        let dropped = r.dropped + b.dropped;
        let chars = cp_len(&red.join("\n")) + 1 + cp_len(&blue.join("\n"));
        let png = Canvas::composite_png(&r, &b);
        Page::new(width, height, chars, dropped, 2, png)
    })
}

/// Width of a grid of `k` columns of `c` cells (saturating: `c` may be
/// any `--cols`).
fn grid_width(c: usize, k: usize) -> usize {
    k.saturating_mul(c)
        .saturating_mul(GRID_ADVANCE)
        .saturating_add(8 + (k - 1) * GUTTER)
}

/// Columns of the grid for `n` requested columns of `c` cells: `n`, or
/// the most that fit the canvas width, at least 1 (§4.4 step 1).
pub fn grid_columns(c: usize, n: usize) -> usize {
    if grid_width(c, n) <= GRID_MAX_WIDTH {
        return n;
    }
    (1..n)
        .rev()
        .find(|&k| grid_width(c, k) <= GRID_MAX_WIDTH)
        .unwrap_or(1)
}

/// The multi-column grid (§4.4) of `n` columns of `c` cells, clamped to
/// the canvas; one column falls back to single-layer mono pages.
pub(super) fn multi_column(source: &str, c: usize, n: usize) -> Vec<Page> {
    let n = grid_columns(c, n);
    if n == 1 {
        let mono = Style {
            ink: Ink::Mono,
            advance: GRID_ADVANCE,
            pitch: GRID_PITCH,
        };
        return single_layer(source, c, GRID_BUDGET, mono, super::render::CANVAS_HEIGHT);
    }
    let lines = wrap(source, c);
    let rows = GRID_MAX_ROWS.min((GRID_BUDGET / c).max(1));
    let ranges = paginate(&lines, rows * n, GRID_BUDGET * n);
    // Characters per page: each page's own, and the rest of the source
    // for the last one (§4.4 step 6).
    let mut chars: Vec<usize> = ranges
        .iter()
        .map(|r| {
            let page = &lines[r.clone()];
            page.iter().map(|l| cp_len(l)).sum::<usize>() + page.len().saturating_sub(1)
        })
        .collect();
    let earlier: usize = chars[..chars.len() - 1].iter().sum();
    if let Some(last) = chars.last_mut() {
        *last = cp_len(source).saturating_sub(earlier);
    }
    let col_step = c * GRID_ADVANCE + GUTTER;
    let pages: Vec<(std::ops::Range<usize>, usize)> = ranges.into_iter().zip(chars).collect();
    each_page(&pages, |(r, chars)| {
        let page = &lines[r.clone()];
        let width = grid_width(c, n);
        let height = 8 + GRID_PITCH * page.len().min(rows).max(1);
        let mut canvas = Canvas::new(width, height, Ink::Mono, false);
        for (i, line) in page.iter().enumerate() {
            let x0 = PAD + (i / rows) * col_step;
            let y0 = PAD + (i % rows) * GRID_PITCH;
            canvas.line(line, x0, y0, GRID_ADVANCE, c, i);
        }
        for k in 0..n - 1 {
            canvas.divider(PAD + k * col_step + c * GRID_ADVANCE + GUTTER / 2);
        }
        let chars = *chars;
        Page::new(width, height, chars, canvas.dropped, 1, canvas.png())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_counts_join_newlines() {
        let lines: Vec<String> = (0..91)
            .map(|i| {
                if i < 90 {
                    "x".repeat(312)
                } else {
                    String::new()
                }
            })
            .collect();
        let pages = paginate(&lines, 90, 28080);
        assert_eq!(pages, vec![0..89, 89..91]);
    }

    #[test]
    fn rows() {
        assert_eq!(rows_per_canvas(728, 8), 90);
        assert_eq!(rows_per_canvas(728, 6), 119);
        assert_eq!(rows_per_canvas(1456, 6), 241);
    }
}
