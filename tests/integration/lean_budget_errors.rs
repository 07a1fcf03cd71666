//! Budget keeps the cause (issue 40, rule 9), the counting half: under
//! `--budget N` a view that leaves errors out says how many, whichever
//! compressor cut it (a table's rows, a JSON collection's elements), and
//! the surest errors go in first. Payloads are rebuilt from the shapes of
//! a survey export, a film catalogue and a tool list's import schemas.

use crate::util::TestCommand;

fn lean(input: &str, extra: &[&str]) -> (serde_json::Value, String) {
    let tc = TestCommand::new();
    let mut args = vec!["compress", "--profile", "lean"];
    args.extend_from_slice(extra);
    let r = tc.run(&args, input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    let view = String::from_utf8(r.stdout.clone()).expect("UTF-8 view");
    (r.report(), view)
}

/// The numbers the view's notes give for `pattern` (`N error rows are
/// among those elided`), summed.
fn noted(view: &str, pattern: &str) -> usize {
    let re = regex::Regex::new(pattern).unwrap();
    re.captures_iter(view)
        .map(|c| c[1].parse::<usize>().unwrap())
        .sum()
}

/// A survey export: 600 answers in free text, every 20th one telling of a
/// plan that failed.
fn survey() -> (String, usize) {
    let mut s = String::from("id,score,group,answer\n");
    let mut errors = 0;
    for i in 0..600 {
        let answer = if i % 20 == 7 {
            errors += 1;
            format!("My first plan failed in round {i}, so I kept score and tried again")
        } else {
            format!(
                "Spread the troops evenly over the castles number {} and hoped for the best outcome",
                i % 13
            )
        };
        s.push_str(&format!(
            "{i},{},{},\"{answer}\"\n",
            (i * 37) % 101,
            ["a", "b"][i % 2]
        ));
    }
    (s, errors)
}

#[test]
fn a_table_under_a_budget_counts_the_error_rows_it_left_out() {
    let (s, errors) = survey();
    let (r, view) = lean(&s, &["--budget", "500"]);
    assert!(r["tokens_after"].as_u64().unwrap() <= 500, "{view}");
    let kept = view.matches("My first plan failed in round").count();
    assert!(kept > 0 && kept < errors, "{view}");
    // Every error row is either in the view or counted by a note.
    let left = noted(
        &view,
        r"(\d+) error (?:rows|lines) are among those elided: the budget had no room for them",
    );
    assert_eq!(kept + left, errors, "{view}");
}

/// A film catalogue: 2,000 records, every 50th one's title holding an
/// error word.
fn films() -> (String, usize) {
    let mut errors = 0;
    let recs: Vec<String> = (0..2000)
        .map(|i| {
            let title = if i % 50 == 13 {
                errors += 1;
                format!("Fatal night number {i}")
            } else {
                format!("Quiet film number {i}")
            };
            format!(
                r#"{{"Title":"{title}","Gross":{},"Year":{},"Distributor":"{}"}}"#,
                (i * 7919) % 100_000,
                1950 + i % 70,
                ["Paramount", "Sony", "Fox"][i % 3]
            )
        })
        .collect();
    (format!("[{}]", recs.join(",")), errors)
}

#[test]
fn a_json_collection_under_a_budget_counts_the_error_elements_it_left_out() {
    let (body, errors) = films();
    for budget in ["500", "2000"] {
        let (r, view) = lean(&body, &["--budget", budget]);
        assert!(
            r["tokens_after"].as_u64().unwrap() <= budget.parse().unwrap(),
            "{view}"
        );
        let v: serde_json::Value = serde_json::from_str(&view).expect("the view is JSON");
        let kept = v
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["Title"].as_str().is_some_and(|t| t.starts_with("Fatal")))
            .count();
        assert!(kept > 0, "{view}");
        let left = noted(&view, r"(\d+) elements with errors did not fit");
        assert_eq!(kept + left, errors, "budget {budget}: {view}");
    }
}

/// Import schemas of ten resources, each larger than the budget: every
/// field's description holds a weak word (`cannot be empty`), one field
/// of the seventh tells of a failure.
fn import_schemas() -> String {
    let tools: Vec<String> = (0..10)
        .map(|i| {
            let mut props: Vec<String> = (0..12)
                .map(|j| {
                    format!(
                        r#""field{j}":{{"type":"string","description":"Field {j} of resource {i}: a value the server keeps for the record; it cannot be empty and it is compared byte for byte on every import"}}"#
                    )
                })
                .collect();
            if i == 6 {
                props.push(
                    r#""deadline":{"type":"integer","description":"The call fails with a timeout after this many seconds"}"#
                        .to_string(),
                );
            }
            format!(
                r#"{{"name":"resource_{i}_import","description":"Import schema {i}","input_schema":{{"type":"object","properties":{{{}}}}}}}"#,
                props.join(",")
            )
        })
        .collect();
    format!("[{}]", tools.join(","))
}

#[test]
fn the_budget_takes_a_failure_before_a_weak_word() {
    let (r, view) = lean(&import_schemas(), &["--budget", "500"]);
    assert!(r["tokens_after"].as_u64().unwrap() <= 500, "{view}");
    serde_json::from_str::<serde_json::Value>(&view).expect("the view is JSON");
    assert!(
        view.contains(
            r#""deadline":{"type":"integer","description":"The call fails with a timeout after this many seconds"}"#
        ),
        "{view}"
    );
    assert!(view.contains("\"name\":\"resource_6_import\""), "{view}");
}
