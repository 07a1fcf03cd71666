//! Issue 40 rule 8 for tables, within rule 5: a lean view is no larger
//! (tokens, as the report counts them) than compat's view of the same
//! payload but for what rule 5 keeps (errors, extremes, the summary). The
//! payloads are the shapes the corpus's tables have: a short price series
//! (once read whole under 2,000 tokens; under 1 KiB too), a long-format
//! table of groups, a TSV of hosts, a log exported as CSV with wide rows
//! and an error every few rows.

use crate::util::TestCommand;

/// Tokens of the view `args` print for `input`, from the report.
fn tokens_after(tc: &TestCommand, args: &[&str], input: &str) -> u64 {
    let r = tc.expect(args, input.as_bytes(), 0);
    r.report()["tokens_after"].as_u64().expect("tokens_after")
}

fn series(n: usize) -> String {
    let mut s = String::from("date,price\n");
    for i in 0..n {
        let p = 1400.0 + ((i * 37) % 23) as f64 * 31.7 - i as f64 * 2.5;
        let month = ["Jan", "Apr", "Jul", "Oct"][i % 4];
        s.push_str(&format!("{month} 1 {},{p:.2}\n", 2000 + i / 4));
    }
    s
}

fn long_format(years: usize) -> String {
    let mut s = String::from("year,source,net_generation\n");
    for src in ["Fossil Fuels", "Nuclear Energy", "Renewables"] {
        for y in 0..years {
            let v = ((2001 + y) * 7919 + src.len() * 131) % 40_000 + 1000;
            s.push_str(&format!("{}-01-01,{src},{v}\n", 2001 + y));
        }
    }
    s
}

fn hosts(n: usize) -> String {
    let mut s = String::from("host\tregion\tcpu\tmem\n");
    for i in 0..n {
        s.push_str(&format!(
            "node-{i:03}\t{}\t{}\t{}\n",
            ["eu", "us", "ap"][i % 3],
            (i * 13) % 97,
            (i * 71) % 1000 + 100
        ));
    }
    s
}

fn events(n: usize) -> String {
    let mut s = String::from("LineId,Time,Level,Content,EventId\n");
    for i in 1..=n {
        let (level, content) = if i % 4 == 1 {
            (
                "error",
                format!("mod_jk child workerEnv in error state {}", 6 + i % 2),
            )
        } else {
            (
                "notice",
                format!(
                    "jk2_init() Found child {} in scoreboard slot {}",
                    6000 + i,
                    i % 11
                ),
            )
        };
        s.push_str(&format!(
            "{i},Sun Dec 04 04:{:02}:{:02} 2005,{level},{content},E{}\n",
            40 + i / 60 % 20,
            i % 60,
            1 + i % 3
        ));
    }
    s
}

/// Tokens of a line, as the report counts them.
fn count(line: &str) -> u64 {
    caveman_engine::tokens::count(format!("{line}\n").as_bytes()) as u64
}

/// A generated table, its delimiter, its numeric columns and whether it
/// must fit within compat's size whole (a larger table: its summary and
/// retrieve line are paid for by the rows it drops beyond compat's).
struct Payload {
    name: String,
    input: String,
    delim: char,
    numeric: Vec<usize>,
    within: bool,
}

/// Issue 40 rule 8 within rule 5: every lean view of a table is smaller
/// than the table, keeps every error row, a row with the least and one
/// with the greatest value of every numeric column and the whole table's
/// summary (its total), and is no larger than compat's view but for the
/// two lines lean adds (the summary and the retrieve line); a table large
/// enough is no larger than compat's view at all.
#[test]
fn no_lean_table_view_is_larger_than_compats() {
    let tc = TestCommand::new();
    let mut payloads: Vec<Payload> = Vec::new();
    let mut add = |name: String, input: String, delim, numeric: &[usize], within| {
        payloads.push(Payload {
            name,
            input,
            delim,
            numeric: numeric.to_vec(),
            within,
        });
    };
    for n in [40, 123, 300] {
        add(format!("series {n}"), series(n), ',', &[1], false);
    }
    for y in [17, 40] {
        add(format!("long format {y}"), long_format(y), ',', &[2], false);
    }
    for n in [60, 200] {
        add(format!("hosts {n}"), hosts(n), '\t', &[2, 3], false);
    }
    add("events 400".to_string(), events(400), ',', &[0], true);
    for p in &payloads {
        let (name, input) = (&p.name, &p.input);
        let compat = tokens_after(&tc, &["compress"], input);
        let r = tc.expect(&["compress", "--profile", "lean"], input.as_bytes(), 0);
        let lean = r.report()["tokens_after"].as_u64().expect("tokens_after");
        let view = String::from_utf8(r.stdout.clone()).unwrap();
        assert!(lean < count(input), "{name}: {view}");
        let rows = input.lines().count() - 1;
        assert!(
            view.contains(&format!("(caveman): {rows} total rows; ")),
            "{name}: {view}"
        );
        let cells = |l: &str| l.split(p.delim).map(str::to_string).collect::<Vec<_>>();
        let table: Vec<Vec<String>> = input.lines().skip(1).map(cells).collect();
        for line in input.lines().filter(|l| l.contains(",error,")) {
            assert!(view.lines().any(|v| v == line), "{name}: {line} dropped");
        }
        let shown: Vec<Vec<String>> = view
            .lines()
            .filter(|l| input.lines().skip(1).any(|i| i == *l))
            .map(cells)
            .collect();
        for &c in &p.numeric {
            let value = |r: &Vec<String>| r[c].parse::<f64>().unwrap();
            let (lo, hi) = table
                .iter()
                .map(value)
                .fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
            for x in [lo, hi] {
                assert!(
                    shown.iter().any(|r| value(r) == x),
                    "{name}: no row of {x}: {view}"
                );
            }
        }
        let own: u64 = view
            .lines()
            .filter(|l| {
                let l = l.trim_start_matches('"');
                l.starts_with("\u{2026} whole table (caveman)")
                    || l.starts_with("\u{2026} caveman: elided parts")
            })
            .map(count)
            .sum();
        let ceiling = if p.within { compat } else { compat + own };
        assert!(
            lean <= ceiling,
            "{name}: lean {lean} tokens, compat {compat} (+{own}): {view}"
        );
    }
}
