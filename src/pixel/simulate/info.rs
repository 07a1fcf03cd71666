//! The TransformInfo: every counter a transform reports (pixel-simulate.md
//! §5), and its one-line JSON exactly as Go's `encoding/json` writes the
//! reference's struct: members in declaration order, `unknownStaticTags`
//! only when non-empty, PassthroughReasons as a sorted object or `null`.

use std::collections::BTreeMap;

use crate::go::json::write_json_str;

/// Why a candidate stayed text (the PassthroughReasons keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
/// Declared in the order of their keys, which is the order Go prints a map in.
pub enum Passthrough {
    /// Shorter than the candidate's minimum.
    BelowThreshold,
    /// Gemini: no user content to attach the images to.
    NoUserContent,
    /// The images would cost at least as much as the text.
    NotProfitable,
}

impl Passthrough {
    pub fn key(self) -> &'static str {
        match self {
            Passthrough::BelowThreshold => "below_threshold",
            Passthrough::NotProfitable => "not_profitable",
            Passthrough::NoUserContent => "no_user_content",
        }
    }
}

/// The counters of one transform.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TransformInfo {
    pub compressed: bool,
    pub reason: String,
    pub orig_chars: usize,
    pub compressed_chars: usize,
    pub image_count: usize,
    pub image_bytes: usize,
    pub image_pixels: usize,
    pub text_tokens_estimate: usize,
    pub image_tokens_estimate: usize,
    pub static_chars: usize,
    pub dynamic_chars: usize,
    pub dynamic_block_count: usize,
    /// Sorted and distinct.
    pub unknown_static_tags: Vec<String>,
    pub reminder_imgs: usize,
    pub tool_result_imgs: usize,
    pub dropped_chars: usize,
    /// Reason → count; [`PassthroughMap::Null`] prints `null`.
    pub passthrough: PassthroughMap,
    pub truncated_tool_results: usize,
    pub omitted_chars: usize,
    pub collapsed_turns: usize,
    pub collapsed_chars: usize,
    pub collapsed_images: usize,
    pub history_reason: String,
}

/// The PassthroughReasons map. Go prints a nil map as `null` and an
/// allocated empty one as `{}`; which one an empty map is depends on the
/// path (§5.2), so the two are kept apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PassthroughMap {
    Null,
    Map(BTreeMap<Passthrough, usize>),
}

impl Default for PassthroughMap {
    fn default() -> Self {
        PassthroughMap::Map(BTreeMap::new())
    }
}

impl PassthroughMap {
    pub fn add(&mut self, reason: Passthrough) {
        if let PassthroughMap::Null = self {
            *self = PassthroughMap::default();
        }
        if let PassthroughMap::Map(m) = self {
            *m.entry(reason).or_default() += 1;
        }
    }

    pub fn get(&self, reason: Passthrough) -> usize {
        match self {
            PassthroughMap::Map(m) => m.get(&reason).copied().unwrap_or(0),
            PassthroughMap::Null => 0,
        }
    }

    /// An empty map becomes `null` (the paths that end normally).
    pub fn null_if_empty(&mut self) {
        if matches!(self, PassthroughMap::Map(m) if m.is_empty()) {
            *self = PassthroughMap::Null;
        }
    }
}

/// What the pages of one image set add to the counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageTotals {
    pub pages: usize,
    pub bytes: usize,
    pub pixels: usize,
    pub dropped: usize,
}

impl TransformInfo {
    /// Counts pages as images: ImageCount, ImageBytes, ImagePixels and
    /// DroppedChars grow.
    pub fn add_pages(&mut self, t: &PageTotals) {
        self.image_count += t.pages;
        self.image_bytes += t.bytes;
        self.image_pixels += t.pixels;
        self.dropped_chars += t.dropped;
    }

    /// The one-line JSON (with its newline), as the reference prints it.
    pub fn to_json(&self) -> Vec<u8> {
        let mut o = Vec::with_capacity(640);
        let mut first = true;
        let mut key = |o: &mut Vec<u8>, k: &str| {
            o.push(if first { b'{' } else { b',' });
            first = false;
            o.push(b'"');
            o.extend_from_slice(k.as_bytes());
            o.extend_from_slice(b"\":");
        };
        let num = |o: &mut Vec<u8>, n: usize| o.extend_from_slice(n.to_string().as_bytes());
        key(&mut o, "Compressed");
        o.extend_from_slice(if self.compressed { b"true" } else { b"false" });
        key(&mut o, "Reason");
        write_json_str(&mut o, self.reason.as_bytes());
        for (k, v) in [
            ("OrigChars", self.orig_chars),
            ("CompressedChars", self.compressed_chars),
            ("ImageCount", self.image_count),
            ("ImageBytes", self.image_bytes),
            ("ImagePixels", self.image_pixels),
            ("TextTokensEstimate", self.text_tokens_estimate),
            ("ImageTokensEstimate", self.image_tokens_estimate),
            ("StaticChars", self.static_chars),
            ("DynamicChars", self.dynamic_chars),
            ("DynamicBlockCount", self.dynamic_block_count),
        ] {
            key(&mut o, k);
            num(&mut o, v);
        }
        if !self.unknown_static_tags.is_empty() {
            key(&mut o, "unknownStaticTags");
            o.push(b'[');
            for (i, t) in self.unknown_static_tags.iter().enumerate() {
                if i > 0 {
                    o.push(b',');
                }
                write_json_str(&mut o, t.as_bytes());
            }
            o.push(b']');
        }
        for (k, v) in [
            ("ReminderImgs", self.reminder_imgs),
            ("ToolResultImgs", self.tool_result_imgs),
            ("DroppedChars", self.dropped_chars),
        ] {
            key(&mut o, k);
            num(&mut o, v);
        }
        key(&mut o, "PassthroughReasons");
        match &self.passthrough {
            PassthroughMap::Null => o.extend_from_slice(b"null"),
            PassthroughMap::Map(m) => {
                o.push(b'{');
                for (i, (r, n)) in m.iter().enumerate() {
                    if i > 0 {
                        o.push(b',');
                    }
                    write_json_str(&mut o, r.key().as_bytes());
                    o.push(b':');
                    num(&mut o, *n);
                }
                o.push(b'}');
            }
        }
        for (k, v) in [
            // No keep-sharp callback in simulate (§4.1).
            ("KeptSharpBlocks", 0),
            ("TruncatedToolResults", self.truncated_tool_results),
            ("OmittedChars", self.omitted_chars),
            ("CollapsedTurns", self.collapsed_turns),
            ("CollapsedChars", self.collapsed_chars),
            ("CollapsedImages", self.collapsed_images),
        ] {
            key(&mut o, k);
            num(&mut o, v);
        }
        key(&mut o, "HistoryReason");
        write_json_str(&mut o, self.history_reason.as_bytes());
        // The recoverable list is off in simulate (§4.1).
        key(&mut o, "Recoverable");
        o.extend_from_slice(b"null}\n");
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_info_as_the_reference_prints_it() {
        let mut i = TransformInfo {
            reason: "below_min_chars (0 < 2000)".into(),
            history_reason: "no_closed_prefix".into(),
            ..Default::default()
        };
        assert_eq!(
            String::from_utf8(i.to_json()).unwrap(),
            "{\"Compressed\":false,\"Reason\":\"below_min_chars (0 \\u003c 2000)\",\"OrigChars\":0,\"CompressedChars\":0,\"ImageCount\":0,\"ImageBytes\":0,\"ImagePixels\":0,\"TextTokensEstimate\":0,\"ImageTokensEstimate\":0,\"StaticChars\":0,\"DynamicChars\":0,\"DynamicBlockCount\":0,\"ReminderImgs\":0,\"ToolResultImgs\":0,\"DroppedChars\":0,\"PassthroughReasons\":{},\"KeptSharpBlocks\":0,\"TruncatedToolResults\":0,\"OmittedChars\":0,\"CollapsedTurns\":0,\"CollapsedChars\":0,\"CollapsedImages\":0,\"HistoryReason\":\"no_closed_prefix\",\"Recoverable\":null}\n"
        );
        i.unknown_static_tags = vec!["a".into(), "b".into()];
        i.passthrough.add(Passthrough::NotProfitable);
        i.passthrough.add(Passthrough::BelowThreshold);
        i.passthrough.add(Passthrough::NotProfitable);
        let s = String::from_utf8(i.to_json()).unwrap();
        assert!(s.contains(
            "\"DynamicBlockCount\":0,\"unknownStaticTags\":[\"a\",\"b\"],\"ReminderImgs\""
        ));
        assert!(s.contains("\"PassthroughReasons\":{\"below_threshold\":1,\"not_profitable\":2}"));
        i.passthrough = PassthroughMap::default();
        i.passthrough.null_if_empty();
        assert!(String::from_utf8(i.to_json())
            .unwrap()
            .contains("\"PassthroughReasons\":null"));
    }
}
