//! Lean tables: a reference table (aliases, options, a data dictionary) is
//! read whole without its padding, or lists the keys it hides; a Markdown
//! marker is a row of its table; commas are thousands separators only in
//! strict groups; a `<file>` tag keeps its own line; the whole table's
//! summary has a line of its own. Payloads are rebuilt from the shapes
//! real READMEs, exports and agents' file readers print.

use crate::util::TestCommand;

fn lean(input: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.run(
        &["compress", "--profile", "lean", "--type", "tabular"],
        input.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    String::from_utf8(r.stdout).expect("UTF-8 view")
}

/// An oh-my-zsh style alias table: padded cells, 40 aliases.
fn alias_table(rows: usize, words: usize) -> (String, Vec<String>) {
    let mut s = String::from(
        "| Alias      | Command                          | Description                                        |\n\
         | :--------- | :------------------------------- | :------------------------------------------------- |\n",
    );
    let mut aliases = Vec::new();
    for i in 0..rows {
        let a = format!("dk{}{i:03}", (b'a' + (i % 26) as u8) as char);
        let desc: Vec<String> = (0..words)
            .map(|w| format!("word{}", (i * 7 + w) % 97))
            .collect();
        s.push_str(&format!(
            "| {a:<10} | `docker thing {i:<3}`               | {:<50} |\n",
            desc.join(" ")
        ));
        aliases.push(a);
    }
    (s, aliases)
}

/// A small alias table is read whole, without its padding, even where
/// compat's view of the text is smaller (a cut of a short reference table
/// loses the rows asked for).
#[test]
fn an_alias_table_is_read_whole_without_its_padding() {
    let (s, aliases) = alias_table(40, 6);
    let v = lean(&s);
    assert!(v.len() < s.len(), "{v}");
    assert!(!v.contains("rows elided"), "{v}");
    for a in &aliases {
        assert!(
            v.contains(&format!("| {a} | `docker thing")),
            "{a} lost: {v}"
        );
    }
    assert!(
        v.starts_with("| Alias | Command | Description |\n| :-- | :-- | :-- |\n"),
        "{v}"
    );
}

#[test]
fn a_reference_table_beyond_its_budget_lists_the_keys_it_hides() {
    let (s, aliases) = alias_table(400, 14);
    let v = lean(&s);
    assert!(v.contains("rows elided"), "{v}");
    for a in &aliases {
        assert!(v.contains(a.as_str()), "{a} neither shown nor listed: {v}");
    }
    // Every line is a row of the table, markers included.
    assert!(
        v.lines()
            .filter(|l| !l.contains("caveman: elided parts"))
            .all(|l| l.starts_with('|')),
        "{v}"
    );
}

#[test]
fn a_gfm_header_without_outer_pipes_names_the_columns_and_markers_are_rows() {
    let mut s = String::from("host | cpu | mem\n---|--:|--:\n");
    for i in 0..400 {
        s.push_str(&format!(
            "| node-{i:03} | {} | {} |\n",
            10 + i % 13,
            100 + (i * 37) % 900
        ));
    }
    let v = lean(&s);
    assert!(v.contains("rows elided"), "{v}");
    assert!(v.contains("cpu=") && !v.contains("#2"), "{v}");
    for l in v.lines().filter(|l| !l.contains("caveman: elided parts")) {
        assert!(l.starts_with('|') && l.ends_with('|'), "not a row: {l}");
    }
}

#[test]
fn commas_in_codes_and_lists_are_not_thousands() {
    let mut s = String::from("name,numeric_code,minor_unit,population\n");
    for i in 0..300 {
        let (code, minor) = match i % 10 {
            3 => ("356,064".to_string(), "2,2"),
            7 => ("928,926".to_string(), "2,4"),
            _ => (format!("{:03}", (i * 3) % 990), "2"),
        };
        s.push_str(&format!(
            "Country {i},\"{code}\",\"{minor}\",{}\n",
            1000 + i * 17
        ));
    }
    let v = lean(&s);
    assert!(v.contains("rows elided"), "{v}");
    assert!(
        !v.contains("numeric_code=") && !v.contains("minor_unit="),
        "{v}"
    );
    assert!(v.contains("population=1000..6083"), "{v}");
}

#[test]
fn a_file_tag_keeps_its_own_line() {
    let mut s =
        String::from("<file path=\"tables/weather.csv\">\ndate,precipitation,wind,weather\n");
    for i in 0..400 {
        s.push_str(&format!(
            "2012-{:02}-{:02},{}.{},{}.5,rain\n",
            1 + i / 28 % 12,
            1 + i % 28,
            i % 7,
            i % 10,
            i % 9
        ));
    }
    s.push_str("</file>\n");
    let v = lean(&s);
    assert!(
        v.starts_with("<file path=\"tables/weather.csv\">\ndate,precipitation,wind,weather\n"),
        "{v}"
    );
    assert!(v.contains("\n</file>"), "{v}");
}

#[test]
fn the_whole_tables_summary_has_its_own_line_and_bare_decimals_their_zero() {
    let mut s = String::from("name,share,score\n");
    for i in 0..300 {
        s.push_str(&format!(
            "candy {i},.{:03},{}\n",
            12 + (i * 7) % 290,
            20 + i % 60
        ));
    }
    let v = lean(&s);
    let second = v.lines().nth(1).unwrap();
    assert!(
        second.starts_with("\u{2026} whole table (caveman): 300 total rows;"),
        "{v}"
    );
    assert!(second.contains("share=0.012..0.301"), "{v}");
    assert!(!v.contains("..."), "{v}");
}

/// A TSV printed without its header (`gh pr checks` piped): its first
/// line is a row (counted, summarised), its columns named by position; a
/// status named like a password is no column name hiding the statuses.
#[test]
fn a_headerless_tsv_counts_its_first_line_as_a_row() {
    let tc = TestCommand::new();
    let mut tsv = String::new();
    for i in 0..150 {
        let status = match i {
            97 | 131 => "fail",
            140 => "pending",
            _ => "pass",
        };
        tsv.push_str(&format!(
            "test (ubuntu-latest, 3.{}, part {}/4)\t{status}\t{}m{:02}s\thttps://github.com/acme/fastcsv/actions/runs/118{:08}/job/3{:08}\n",
            9 + i % 4,
            i % 4 + 1,
            1 + i * 7 % 14,
            i * 13 % 60,
            i * 7919 % 99_999_999,
            i * 104_729 % 99_999_999
        ));
    }
    let r = tc.run(&["compress", "--profile", "lean"], tsv.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    let view = String::from_utf8(r.stdout).unwrap();
    assert!(view.contains("150 total rows"), "{view}");
    assert!(
        view.contains("#2: pass\u{d7}147 fail\u{d7}2 pending\u{d7}1"),
        "{view}"
    );
    for l in tsv
        .lines()
        .filter(|l| l.contains("\tfail\t") || l.contains("\tpending\t"))
    {
        assert!(view.contains(l), "lost {l}:\n{view}");
    }
}
