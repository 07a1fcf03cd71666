//! Pricing a candidate text before it is drawn, and the gate that decides
//! whether its images are worth it (pixel-simulate.md §4.2, §7). Every
//! provider asks the same question — would these pages cost fewer tokens
//! than this text? — with one of two estimates of the pages:
//!
//! * **rows**: Anthropic's visual-row count (UTF-16 units per line) turned
//!   into full pages and one last page, margin applied once (§7.1);
//! * **pages**: the text wrapped and split the way the renderer will, each
//!   page priced by its size (OpenAI) or at a flat rate (Gemini).

use super::cost::{anthropic_image_tokens, gemini_page_tokens, profitable, text_tokens, Vision};
use super::profile::{Cell, Profile};
use super::text::{u16_len, wrap};
use crate::pixel::layout::paginate;

/// How a page set is priced.
#[derive(Debug, Clone, Copy)]
pub enum Pricing {
    /// Anthropic patch tokens over visual rows (§7.1).
    Rows {
        profile: Profile,
        budget: usize,
        cap: Option<usize>,
    },
    /// The wrapped text split into pages of `cell` geometry on a canvas
    /// `height` high, each page priced by `per_page`.
    Pages {
        cell: Cell,
        height: usize,
        budget: usize,
        cap: Option<usize>,
        per_page: PagePrice,
    },
}

/// The price of one page.
#[derive(Debug, Clone, Copy)]
pub enum PagePrice {
    /// OpenAI `V(w, h)`.
    Vision(Vision),
    /// Gemini: the same for every page, margin included.
    Flat(usize),
}

impl PagePrice {
    pub fn tokens(self, w: usize, h: usize) -> usize {
        match self {
            PagePrice::Vision(v) => v.tokens(w, h),
            PagePrice::Flat(n) => n,
        }
    }

    /// The Gemini price.
    pub fn gemini() -> PagePrice {
        PagePrice::Flat(gemini_page_tokens())
    }
}

/// A candidate's two estimates and the gate's verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quote {
    /// The text's tokens: UTF-16 units over characters per token.
    pub text: f64,
    /// The images' tokens.
    pub image: usize,
}

impl Quote {
    /// The images cost strictly fewer tokens than the text.
    pub fn profitable(&self) -> bool {
        profitable(self.image as f64, self.text)
    }
}

/// Prices `text` drawn at `k` columns against its own tokens at
/// `chars_per_token`.
pub fn quote(text: &str, k: usize, chars_per_token: usize, pricing: Pricing) -> Quote {
    Quote {
        text: text_tokens(u16_len(text), chars_per_token),
        image: image_tokens(text, k, pricing),
    }
}

/// The image tokens of `text` at `k` columns.
pub fn image_tokens(text: &str, k: usize, pricing: Pricing) -> usize {
    match pricing {
        Pricing::Rows {
            profile,
            budget,
            cap,
        } => anthropic_image_tokens(text, k, budget, profile, cap),
        Pricing::Pages {
            cell,
            height,
            budget,
            cap,
            per_page,
        } => {
            let k = k.max(1);
            let per = cell.rows_for(height).min((budget / k).max(1));
            let w = cell.page_width(k);
            let rows = wrap(text, k);
            let pages = paginate(&rows, per, budget);
            let n = cap.map_or(pages.len(), |c| pages.len().min(c));
            pages[..n]
                .iter()
                .map(|r| per_page.tokens(w, cell.page_height(r.len())))
                .sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pixel::simulate::profile::CONSERVATIVE;

    #[test]
    fn a_tie_is_not_profitable() {
        assert!(!Quote {
            text: 10.0,
            image: 10
        }
        .profitable());
        assert!(Quote {
            text: 10.5,
            image: 10
        }
        .profitable());
    }

    #[test]
    fn flat_pages_are_counted_and_capped() {
        let text = "x".repeat(312 * 200);
        let pricing = |cap| Pricing::Pages {
            cell: CONSERVATIVE,
            height: 728,
            budget: 28080,
            cap,
            per_page: PagePrice::gemini(),
        };
        // 200 rows of 312: 90, 90 and 20 rows.
        assert_eq!(image_tokens(&text, 312, pricing(None)), 3 * 1232);
        assert_eq!(image_tokens(&text, 312, pricing(Some(2))), 2 * 1232);
    }
}
