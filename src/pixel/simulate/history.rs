//! What the three history collapses share (pixel-simulate.md §9.2, §10.4,
//! §11.4): their outcomes and how a collapse enters the counters. Their
//! plans differ (protected prefixes, closing tool calls by id or by name,
//! pins, sections, chunks), so each provider keeps its own plan.

use super::info::TransformInfo;
use super::pages::PageSet;

/// How a history collapse ended (HistoryReason).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Collapsed,
    /// Fewer turns than a collapse needs.
    PrefixTooShort,
    /// No point where every tool call has its result.
    NoClosedPrefix,
    NotProfitable,
    /// Nothing to draw.
    RenderEmpty,
    /// OpenAI: the old turns hold too few tokens.
    BelowMinTokens,
    /// OpenAI: not even one section fits the image cap.
    TooManyImages,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Collapsed => "collapsed",
            Reason::PrefixTooShort => "prefix_too_short",
            Reason::NoClosedPrefix => "no_closed_prefix",
            Reason::NotProfitable => "not_profitable",
            Reason::RenderEmpty => "render_empty",
            Reason::BelowMinTokens => "below_min_tokens",
            Reason::TooManyImages => "too_many_images",
        }
    }
}

/// A collapse that produced images.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Collapse {
    pub turns: usize,
    /// Size of the collapsed transcript (UTF-16 units or bytes, per provider).
    pub chars: usize,
    pub pages: PageSet,
    pub text_tokens: usize,
    pub image_tokens: usize,
}

/// Records the outcome of a history step.
pub fn record(info: &mut TransformInfo, outcome: Result<Collapse, Reason>) {
    match outcome {
        Ok(c) => {
            info.collapsed_turns += c.turns;
            info.collapsed_chars += c.chars;
            info.collapsed_images += c.pages.totals.pages;
            info.add_pages(&c.pages.totals);
            info.text_tokens_estimate += c.text_tokens;
            info.image_tokens_estimate += c.image_tokens;
            info.history_reason = Reason::Collapsed.name().to_string();
        }
        Err(r) => info.history_reason = r.name().to_string(),
    }
}
