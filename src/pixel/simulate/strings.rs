//! The transform's fixed texts (pixel-simulate.md Appendix A). They are
//! drawn into the images and their lengths enter the counters, so they are
//! interface: every byte is checked against the spec's SHA-256 prefixes.

/// Opens the Anthropic slab's header.
pub const FRAME_START: &str = "=================== SESSION CONFIGURATION PAGES ===================\npxpipe (this user's local proxy) rendered this session's configuration into the following images to reduce token cost. Read the pages carefully and follow them as your operating instructions for this session.";

/// Closes every slab header.
pub const FRAME_END: &str =
    "\n====================== BEGIN RENDERED CONTEXT ======================\n";

/// The Anthropic header's note on `↵`.
pub const REFLOW_NOTE_A: &str = " The glyph \u{21b5} (U+21B5) marks an original hard line break in content \u{2014} treat as a real newline.";

/// The ink note of zebra pages.
pub const ZEBRA_NOTE: &str = " Consecutive text rows are inked in a repeating dark-red/dark-blue/black cycle; the colour only marks which row a character belongs to when rows sit close together and carries no other meaning.";

/// The ink note of two-layer pages (a tool result's note block drops the
/// leading space).
pub const TWO_LAYER_NOTE: &str = " Each of these images packs two interleaved text layers: dark-RED ink and dark-BLUE ink. Read every RED row top-to-bottom first, then every BLUE row top-to-bottom, before moving to the next image \u{2014} the row order simply continues from the red layer into the blue layer. A page printed only in black holds a single layer; read it normally.";

/// The introduction of the Anthropic tool reference.
pub const INTRO: &str = "pxpipe (this user's local proxy) moved the full tool documentation for this session here to reduce token cost. Each tool in the tools list carries a short stub description pointing here; the entry under the matching \"## Tool: <name>\" heading below is the complete description for that tool.";

/// The OpenAI Responses slab header (FRAME_END included).
pub const RESPONSES_HEADER: &str = "================= RENDERED GPT SYSTEM + TOOL CONTEXT =================\nThese images were injected by pxpipe, not by the end user. They contain instructions and full tool/schema documentation rendered for token efficiency. Treat rendered instructions with the same priority as the originals. OCR carefully and treat the rendered content as authoritative. For tool calls, use the native JSON tool definitions; the image is supplemental documentation.\n====================== BEGIN RENDERED CONTEXT ======================\n";

/// The OpenAI Chat Completions slab header (FRAME_END included).
pub const CHAT_HEADER: &str = "================= RENDERED GPT SYSTEM + TOOL CONTEXT =================\nThese images were injected by pxpipe, not by the end user. They contain system/developer instructions and full tool/schema documentation rendered for token efficiency. Treat rendered system/developer instructions with the same priority as their original messages. OCR carefully and treat the rendered content as authoritative. For tool calls, use the native JSON tool definitions; the image is supplemental documentation.\n====================== BEGIN RENDERED CONTEXT ======================\n";

/// The OpenAI and Gemini note on `↵`.
pub const REFLOW_NOTE_O: &str = " The glyph \u{21b5} (U+21B5) marks an original hard line break in content; treat it as a real newline.";

/// What a Responses system/developer item holds once its text is imaged.
pub const RESPONSES_POINTER: &str = "The full instructions were rendered into image(s) attached to the first user message by pxpipe. Treat them with the same priority. Tool definitions remain in native JSON; rendered tool docs are supplemental.";

/// What a Chat system/developer message holds once its text is imaged.
pub const CHAT_POINTER: &str = "The full instructions for this message were rendered into image(s) attached to the first user message by pxpipe. Treat those rendered instructions as if they appeared here with the same priority. Tool definitions remain in native JSON; rendered tool docs are supplemental.";

/// The Gemini system slab header (REFLOW_NOTE_O and FRAME_END included).
pub const G_HEADER: &str = "=================== SESSION CONFIGURATION PAGES ===================\nCaveman pixel rendered this session configuration into the following image(s) to reduce token cost. Read the pages carefully and follow them as operating instructions for this session. The glyph \u{21b5} (U+21B5) marks an original hard line break in content; treat it as a real newline.\n====================== BEGIN RENDERED CONTEXT ======================\n";

/// Opens a fact sheet whose tokens each occur once.
pub const FACT_HEAD: &str = "[Exact identifiers from the rendered context above (paths, ids, versions, numbers) \u{2014} quote these verbatim instead of transcribing them from the image: ";

/// Opens a fact sheet with occurrence counts.
pub const FACT_HEAD_COUNTS: &str = "[Exact identifiers from the rendered context above (paths, ids, versions, numbers) \u{2014} quote these verbatim instead of transcribing them from the image; \u{00d7}N marks a token that occurs N times within the imaged content: ";

/// The Gemini text part after the system pages.
pub const G_END_MARKER: &str = "[End of rendered context.]";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pixel::simulate::text::u16_len;

    fn sha_prefix(s: &str) -> String {
        use sha2::Digest;
        sha2::Sha256::digest(s.as_bytes())[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn appendix_a_checksums() {
        for (s, bytes, u16s, sha) in [
            (FRAME_START, 276, 276, "ec1e8d0f33535fad"),
            (FRAME_END, 70, 70, "d048f96c2296bdb0"),
            (REFLOW_NOTE_A, 97, 93, "6850c549c404b26c"),
            (ZEBRA_NOTE, 193, 193, "c3968ff46c41765e"),
            (TWO_LAYER_NOTE, 339, 337, "e0fa9353b332fa13"),
            (INTRO, 290, 290, "85db4ce95d0dcb52"),
            (RESPONSES_HEADER, 518, 518, "1836c390ed40ee42"),
            (CHAT_HEADER, 562, 562, "8f9cec4995d263df"),
            (REFLOW_NOTE_O, 97, 95, "f685ad80a0c0ef9f"),
            (RESPONSES_POINTER, 207, 207, "6ada52071154f989"),
            (CHAT_POINTER, 272, 272, "d7bd1b0d06a96165"),
            (G_HEADER, 419, 417, "bdba3e738213a74f"),
            (FACT_HEAD, 153, 151, "903a400d0a4472c7"),
            (FACT_HEAD_COUNTS, 218, 215, "0881e4dc5696fca8"),
        ] {
            assert_eq!(
                (s.len(), u16_len(s), sha_prefix(s)),
                (bytes, u16s, sha.to_string()),
                "{s}"
            );
        }
    }
}
