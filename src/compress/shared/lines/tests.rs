//! Tests of the line index, pieces and keep flags.

mod index_properties {
    use super::super::*;
    use proptest::prelude::*;

    /// Texts of many short lines, some long ones, CRs and blank lines: the
    /// marks go sparse (shift > 0) for most of them.
    fn texts() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just(String::new()),
                "[a-c]{1,2}",
                "[a-z ]{0,40}",
                Just("x\r".to_string()),
                Just("\u{e9}t\u{e9}".to_string()),
            ],
            0..300,
        )
        .prop_map(|ls| ls.join("\n"))
    }

    proptest! {
        #[test]
        fn the_index_reads_every_line_as_split_does(text in texts(), probes in proptest::collection::vec(0usize..1000, 0..40)) {
            let doc = Lines::split(&text);
            let body = text.strip_suffix('\n').unwrap_or(&text);
            let want: Vec<&str> = body.split('\n').collect();
            prop_assert_eq!(doc.len(), want.len());
            prop_assert_eq!(doc.to_vec(), want.clone());
            // In order, backwards, and at random: the cursor never lies.
            for (i, w) in want.iter().enumerate() {
                prop_assert_eq!(doc.line(i), *w);
            }
            for (i, w) in want.iter().enumerate().rev() {
                prop_assert_eq!(doc.line(i), *w);
            }
            for p in probes {
                let i = p % want.len();
                prop_assert_eq!(doc.line(i), want[i]);
                let j = (i + p / 7).min(want.len());
                let got: Vec<&str> = doc.range(i..j).collect();
                prop_assert_eq!(got, want[i..j].to_vec());
                if j > i {
                    prop_assert_eq!(doc.span(i..j), want[i..j].join("\n"));
                }
            }
            // A second document at once: each has its own cursor entry.
            let other = Lines::split("p\nq\nr\n");
            if !want.is_empty() {
                prop_assert_eq!(doc.line(0), want[0]);
            }
            prop_assert_eq!(other.line(1), "q");
            prop_assert_eq!(doc.line(want.len() - 1), want[want.len() - 1]);
            // Joining every line gives the text back.
            prop_assert_eq!(join_lines(&doc, &Pieces::all(doc.len())), text.as_bytes().to_vec());
        }
    }
}

mod cases {
    use super::super::*;

    #[test]
    fn lines_keep_crs_and_remember_the_final_lf() {
        let d = Lines::split("a\r\nb\r\n");
        assert_eq!(d.to_vec(), ["a\r", "b\r"]);
        assert!(d.trailing_lf);
        assert_eq!(d.cr, "\r");
        let d = Lines::split("a\nb");
        assert_eq!(d.to_vec(), ["a", "b"]);
        assert!(!d.trailing_lf);
        assert_eq!(d.cr, "");
        assert_eq!(Lines::split("").to_vec(), [""]);
        assert_eq!(Lines::split("\n").to_vec(), [""]);
    }

    #[test]
    fn runs_become_markers_or_stay() {
        let doc = Lines::split("a\nb\nc\nd\ne\n");
        let mut keep = Keep::new(5);
        keep.set(0, "head");
        keep.set(3, "signal");
        let (pieces, bytes, trace) =
            keep.collapse(|run| (run.len() > 1).then(|| (format!("<{}>", run.len()), 7)));
        assert_eq!(bytes, 7);
        assert_eq!(
            pieces.0,
            [
                Piece::Units(0..1),
                Piece::Marker("<2>".into()),
                Piece::Units(3..5)
            ]
        );
        assert_eq!(pieces.count(), 4);
        assert_eq!(join_lines(&doc, &pieces), b"a\n<2>\nd\ne\n");
        assert_eq!(trace.dropped, 2);
        assert_eq!(
            trace.kept,
            [("head", 1), ("signal", 1), ("marker would not pay", 1)]
        );
    }
}
