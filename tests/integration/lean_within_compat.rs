//! Issue 40 rule 8 for tables: a lean view is never larger (tokens, as
//! the report counts them) than compat's view of the same payload. The
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

#[test]
fn no_lean_table_view_is_larger_than_compats() {
    let tc = TestCommand::new();
    let mut payloads: Vec<(String, String)> = Vec::new();
    for n in [40, 123, 300] {
        payloads.push((format!("series {n}"), series(n)));
    }
    for y in [17, 40] {
        payloads.push((format!("long format {y}"), long_format(y)));
    }
    for n in [60, 200] {
        payloads.push((format!("hosts {n}"), hosts(n)));
    }
    payloads.push(("events 400".to_string(), events(400)));
    for (name, input) in &payloads {
        let compat = tokens_after(&tc, &["compress"], input);
        let lean = tokens_after(&tc, &["compress", "--profile", "lean"], input);
        assert!(
            lean <= compat,
            "{name}: lean {lean} tokens, compat {compat}"
        );
    }
}
