//! Drawing lines of text into a page (spec/pixel-render.md §5): a
//! coverage framebuffer, the glyph stamp of each ink, the zebra slots,
//! the two-layer composite, and the conversion to PNG samples.

use super::atlas::{Glyph, GLYPH_H, GLYPH_W};
use crate::png::{encode_rows, ColorType};

/// How glyph pixels become framebuffer values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// 1-bit atlas, black on white (PNG gray).
    Mono,
    /// Coverage atlas, darkest ink wins (PNG gray).
    Gray,
    /// Coverage atlas with a colour per row, cycling through three (PNG RGB).
    Zebra,
    /// Coverage atlas, each glyph coloured by a slot its caller gives
    /// (`pixel simulate`'s history transcripts: speaker tags in the
    /// speaker's colour, spec/pixel-simulate.md §6.4; PNG RGB).
    Role,
}

/// Zebra palette: the colour of slot 1, 2 and 3.
const ZEBRA: [[u8; 3]; 3] = [[165, 15, 15], [15, 30, 175], [15, 15, 15]];
/// Role palette: the colour of slot 1 (user) and 2 (assistant).
const ROLE: [[u8; 3]; 2] = [[20, 120, 50], [30, 70, 180]];
/// Two-layer colours: red (layer 1) and blue (layer 2).
const LAYER_RED: [u8; 3] = [215, 15, 15];
const LAYER_BLUE: [u8; 3] = [15, 15, 215];
/// Coverage of a multi-column divider (shows as 191 after inversion).
const DIVIDER: u8 = 64;

/// One layer of a page being drawn.
pub(super) struct Canvas {
    pub(super) width: usize,
    pub(super) height: usize,
    ink: Ink,
    /// Coverage, row-major.
    cov: Vec<u8>,
    /// Zebra slot per pixel (0 = none); empty unless the ink is zebra.
    slot: Vec<u8>,
    /// Pixels beyond the right edge are dropped (two-layer pages) instead
    /// of landing at the start of the next row (the linear-index quirk).
    clip: bool,
    pub(super) dropped: usize,
}

impl Canvas {
    pub(super) fn new(width: usize, height: usize, ink: Ink, clip: bool) -> Canvas {
        let n = width * height;
        Canvas {
            width,
            height,
            ink,
            cov: vec![0; n],
            slot: if matches!(ink, Ink::Zebra | Ink::Role) {
                vec![0; n]
            } else {
                Vec::new()
            },
            clip,
            dropped: 0,
        }
    }

    /// Draws `line` with its first cell at (`x0`, `y0`), `advance` pixels
    /// per cell, at most `cols` cells; `row` is the line's index on the
    /// page (for the zebra colour).
    pub(super) fn line(
        &mut self,
        line: &str,
        x0: usize,
        y0: usize,
        advance: usize,
        cols: usize,
        row: usize,
    ) {
        let slot = if self.ink == Ink::Zebra {
            (row % 3) as u8 + 1
        } else {
            0
        };
        self.line_slots(line, x0, y0, advance, cols, |_| slot);
    }

    /// [`Canvas::line`] with the colour slot of each drawn glyph from
    /// `slot_of` (called once per glyph, in order; 0 = none).
    pub(super) fn line_slots(
        &mut self,
        line: &str,
        x0: usize,
        y0: usize,
        advance: usize,
        cols: usize,
        mut slot_of: impl FnMut(char) -> u8,
    ) {
        let mut col = 0;
        for c in line.chars() {
            if col >= cols {
                break;
            }
            let x = x0 + col * advance;
            match Glyph::of(c) {
                Some(g) => {
                    self.stamp(g, x, y0);
                    let slot = slot_of(c);
                    if slot > 0 && !self.slot.is_empty() {
                        self.paint_slot(x, y0, g.width(), slot);
                    }
                    col += g.cells();
                }
                None => {
                    self.dropped += 1;
                    col += 1;
                }
            }
        }
    }

    fn stamp(&mut self, g: Glyph, x: usize, y: usize) {
        let (n, width, height, clip) = (self.cov.len(), self.width, self.height, self.clip);
        let cov = &mut self.cov;
        g.each_ink(self.ink != Ink::Mono, |gx, gy, v| {
            let (px, py) = (x + gx, y + gy);
            if clip && (px >= width || py >= height) {
                return;
            }
            // Unclipped, a pixel past the right edge lands at the start of
            // the next row (the linear-index quirk, §5.1).
            let i = py * width + px;
            if i < n && cov[i] < v {
                cov[i] = v;
            }
        });
    }

    /// Sets the slot of every inked pixel in the box of `w` × 8 pixels at
    /// (x, y), clipped to the page.
    fn paint_slot(&mut self, x: usize, y: usize, w: usize, slot: u8) {
        for py in y..(y + GLYPH_H).min(self.height) {
            for px in x..(x + w).min(self.width) {
                let i = py * self.width + px;
                if self.cov[i] > 0 {
                    self.slot[i] = slot;
                }
            }
        }
    }

    /// A multi-column divider at `x`: value 64 on every row from 2 to
    /// height − 3 where nothing is drawn yet.
    pub(super) fn divider(&mut self, x: usize) {
        for y in 2..self.height.saturating_sub(2) {
            let i = y * self.width + x;
            if self.cov[i] == 0 {
                self.cov[i] = DIVIDER;
            }
        }
    }

    /// The finished layer as PNG bytes, its samples made a row at a time.
    pub(super) fn png(&self) -> Vec<u8> {
        let w = self.width;
        match self.ink {
            Ink::Mono | Ink::Gray => encode_rows(w, self.height, ColorType::Gray, |y, row| {
                for (o, &v) in row.iter_mut().zip(&self.cov[y * w..(y + 1) * w]) {
                    *o = 255 - v;
                }
            }),
            Ink::Zebra | Ink::Role => {
                let tints = if self.ink == Ink::Zebra {
                    &TINTS[..ZEBRA.len()]
                } else {
                    &TINTS[ZEBRA.len()..]
                };
                encode_rows(w, self.height, ColorType::Rgb, |y, row| {
                    let cov = &self.cov[y * w..(y + 1) * w];
                    let slot = &self.slot[y * w..(y + 1) * w];
                    for ((o, &c), &s) in row.chunks_exact_mut(3).zip(cov).zip(slot) {
                        if s == 0 {
                            o.fill(255 - c);
                        } else {
                            o.copy_from_slice(&tints[s as usize - 1][c as usize]);
                        }
                    }
                })
            }
        }
    }

    /// The red/blue composite of two layers of the same size (§5.5), as
    /// PNG bytes.
    pub(super) fn composite_png(red: &Canvas, blue: &Canvas) -> Vec<u8> {
        let w = red.width;
        encode_rows(w, red.height, ColorType::Rgb, |y, row| {
            let c1s = &red.cov[y * w..(y + 1) * w];
            let c2s = &blue.cov[y * w..(y + 1) * w];
            for ((o, &c1), &c2) in row.chunks_exact_mut(3).zip(c1s).zip(c2s) {
                if c1 == 0 && c2 == 0 {
                    o.fill(255);
                    continue;
                }
                o.copy_from_slice(&COMPOSITES[(c1 as usize) << 8 | c2 as usize]);
            }
        })
    }
}

/// The composite colour of red coverage `c1` over blue coverage `c2`
/// (§5.5), in f64 as the reference computes it.
fn composite(c1: u8, c2: u8) -> [u8; 3] {
    let (a1, a2) = (c1 as f64 / 255.0, c2 as f64 / 255.0);
    let mut o = [0u8; 3];
    for (k, o) in o.iter_mut().enumerate() {
        let l1 = 255.0 * (1.0 - a1) + LAYER_RED[k] as f64 * a1;
        let l2 = 255.0 * (1.0 - a2) + LAYER_BLUE[k] as f64 * a2;
        *o = (l1 * l2 / 255.0).round().clamp(0.0, 255.0) as u8;
    }
    o
}

/// [`composite`] of every pair of coverages, index `c1 << 8 | c2`: built
/// the first time a two-layer page is drawn.
static COMPOSITES: std::sync::LazyLock<Vec<[u8; 3]>> = std::sync::LazyLock::new(|| {
    (0..1 << 16)
        .map(|i: usize| composite((i >> 8) as u8, i as u8))
        .collect()
});

/// A colour channel `p` at coverage `c`: round(255 − c·(255 − p)/255).
#[inline]
fn tint(c: u8, p: u8) -> u8 {
    (255.0 - c as f64 * (255.0 - p as f64) / 255.0).round() as u8
}

/// [`tint`] of every coverage for each colour of the zebra palette, then
/// of the role palette: one table look-up per inked pixel.
static TINTS: std::sync::LazyLock<Vec<[[u8; 3]; 256]>> = std::sync::LazyLock::new(|| {
    ZEBRA
        .iter()
        .chain(&ROLE)
        .map(|colour| {
            let mut t = [[0u8; 3]; 256];
            for (c, px) in t.iter_mut().enumerate() {
                for (o, &p) in px.iter_mut().zip(colour) {
                    *o = tint(c as u8, p);
                }
            }
            t
        })
        .collect()
});

/// Page width for `cols` cells at `advance` pixels: the 4 px margins, and
/// the last glyph's overhang when cells are narrower than glyphs.
pub fn page_width(cols: usize, advance: usize) -> usize {
    cols.saturating_mul(advance)
        .saturating_add(8 + GLYPH_W.saturating_sub(advance))
}

/// Page height for `rows` lines at `pitch` pixels (8 for no rows).
pub fn page_height(rows: usize, pitch: usize) -> usize {
    if rows == 0 {
        8
    } else {
        8 + (rows - 1) * pitch + GLYPH_H
    }
}
