//! Lean keeps members by name and rows by value (issue 40, items 4, 5 and 8): the
//! adversarial JSON and table payloads of the issue, rebuilt. Each test
//! names what the view must still let an agent answer.

use crate::util::TestCommand;

/// The lean view of `input` and its report.
fn lean(input: &str) -> (String, serde_json::Value) {
    lean_as(input, "auto")
}

/// The lean view of `input` as content type `ct`.
fn lean_as(input: &str, ct: &str) -> (String, serde_json::Value) {
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", ct],
        input.as_bytes(),
        0,
    );
    let view = String::from_utf8(r.stdout.clone()).expect("UTF-8 view");
    (view, r.report())
}

/// A word-ish description of `n` bytes that says nothing twice.
fn prose(seed: usize, n: usize) -> String {
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
    ];
    let mut s = String::new();
    let mut i = seed;
    while s.len() < n {
        s.push_str(words[i % words.len()]);
        s.push_str(&format!("{} ", i * 7 % 1000));
        i += 3;
    }
    s
}

#[test]
fn mcp_tool_list_names_every_tool_its_description_and_required_parameters() {
    let regions: Vec<String> = (0..22).map(|i| format!("\"region-{i:02}\"")).collect();
    let tools: Vec<String> = (0..26)
        .map(|i| {
            let extra = if i == 13 {
                format!(
                    ",\"region\":{{\"type\":\"string\",\"enum\":[{}]}}",
                    regions.join(",")
                )
            } else {
                String::new()
            };
            format!(
                "{{\"name\":\"tool_{i:02}\",\"description\":\"Does task {i} well. {}\",\"inputSchema\":{{\"type\":\"object\",\"properties\":{{\"target_{i}\":{{\"type\":\"string\",\"description\":\"{}\"}},\"limit\":{{\"type\":\"integer\"}}{extra}}},\"required\":[\"target_{i}\"]}}}}",
                prose(i, 200),
                prose(i + 1, 300)
            )
        })
        .collect();
    let input = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"tools\":[\n{}\n]}}}}",
        tools.join(",\n  ")
    );
    let (view, _) = lean(&input);
    for i in 0..26 {
        assert!(
            view.contains(&format!("\"tool_{i:02}\"")),
            "tool_{i:02} unnamed:\n{view}"
        );
        assert!(
            view.contains(&format!("Does task {i} well.")),
            "tool_{i:02} undescribed"
        );
        assert!(
            view.contains(&format!("\"required\":[\"target_{i}\"]")),
            "tool_{i:02} contract"
        );
    }
    for r in &regions {
        assert!(view.contains(r.as_str()), "enum value {r} cut:\n{view}");
    }
}

#[test]
fn a_release_list_names_every_release() {
    let releases: Vec<String> = (0..30)
        .map(|i| {
            format!(
                "{{\"id\":{},\"name\":\"v2.{i}.0\",\"draft\":false,\"body\":\"{}\",\"assets\":[]}}",
                9000 + i,
                prose(i, 600)
            )
        })
        .collect();
    let (view, _) = lean(&format!("[{}]", releases.join(",")));
    for i in 0..30 {
        assert!(
            view.contains(&format!("v2.{i}.0")),
            "v2.{i}.0 unnamed:\n{view}"
        );
    }
}

#[test]
fn a_container_keeps_the_names_of_its_env_vars_and_its_command() {
    let env: Vec<String> = (0..22)
        .map(|i| {
            format!(
                "{{\"name\":\"SETTING_{i:02}\",\"value\":\"{}\"}}",
                prose(i, 40)
            )
        })
        .collect();
    let args: Vec<String> = (0..12).map(|i| format!("\"--flag-{i}\"")).collect();
    let pod = format!(
        "{{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{{\"name\":\"api-0\"}},\"spec\":{{\"containers\":[{{\"name\":\"api\",\"image\":\"api:1.2\",\"args\":[{}],\"env\":[{}]}}]}}}}",
        args.join(","),
        env.join(",")
    );
    let (view, _) = lean(&pod);
    for i in 0..22 {
        assert!(
            view.contains(&format!("SETTING_{i:02}")),
            "SETTING_{i:02} unnamed:\n{view}"
        );
    }
    assert!(
        view.contains(&format!("\"args\":[{}]", args.join(","))),
        "{view}"
    );
}

#[test]
fn the_one_failed_request_among_two_hundred_is_kept() {
    let mut items: Vec<String> = (0..200)
        .map(|i| {
            format!(
                "{{\"id\":{i},\"path\":\"/api/items/{}\",\"status\":200,\"ms\":{}}}",
                i % 17,
                10 + i % 13
            )
        })
        .collect();
    items[137] = "{\"id\":137,\"path\":\"/api/pay\",\"status\":500,\"ms\":3}".to_string();
    let (view, _) = lean(&format!("[{}]", items.join(",")));
    assert!(view.contains(&items[137]), "{view}");
    assert!(!view.contains("all status=200"), "{view}");
}

#[test]
fn non_zero_counts_among_zeros_are_kept() {
    // An aggregation's buckets (records with a nested object: no table).
    let bucket = |i: usize, n: u32| {
        format!(
            "{{\"key\":\"s{i}\",\"doc_count\":{n},\"range\":{{\"from\":{},\"to\":{}}}}}",
            i * 10,
            i * 10 + 9
        )
    };
    let mut items: Vec<String> = (0..10).map(|i| bucket(i, 0)).collect();
    items[3] = bucket(3, 41);
    items[6] = bucket(6, 2);
    let input = format!(
        "{{\"buckets\":[{}],\"note\":\"{}\"}}",
        items.join(","),
        prose(1, 400)
    );
    let (view, _) = lean(&input);
    assert!(
        view.contains(&items[3]) && view.contains(&items[6]),
        "{view}"
    );
}

#[test]
fn big_integers_are_told_apart() {
    let items: Vec<String> = (0..40)
        .map(|i| {
            format!(
                "{{\"span_id\":{},\"op\":\"db.query\",\"detail\":\"{}\"}}",
                1_700_000_000_000_000_000u64 + i,
                prose(i as usize, 60)
            )
        })
        .collect();
    let (view, _) = lean(&format!("[{}]", items.join(",")));
    assert!(!view.contains("all span_id"), "{view}");
    assert!(
        view.contains("span_id=1700000000000000000..1700000000000000039"),
        "{view}"
    );
}

#[test]
fn json_with_nothing_to_cut_comes_back_minified() {
    let mut input = String::from("{\n");
    for i in 0..6 {
        input.push_str(&format!(
            "    \"key_{i}\": {{\n        \"enabled\": true,\n        \"label\": \"value {i}\",\n        \"tags\": [\n            \"a\",\n            \"b\"\n        ]\n    }},\n"
        ));
    }
    input.push_str("    \"last\": null\n}\n");
    let (view, report) = lean(&input);
    assert!(
        view.starts_with("{\"key_0\":{\"enabled\":true,\"label\":\"value 0\""),
        "{view}"
    );
    assert_eq!(report["lossless_to_model"], true);
    let (a, b) = (&input, &view);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(a).unwrap(),
        serde_json::from_str::<serde_json::Value>(b).unwrap()
    );
}

#[test]
fn kubectl_top_shows_the_pods_near_a_gibibyte() {
    let mut s = format!("{:<34}{:<13}{}\n", "NAME", "CPU(cores)", "MEMORY(bytes)");
    for i in 0..40 {
        let (name, cpu, mem) = match i {
            17 => (
                "search-indexer-7d9f8-xk2lp".to_string(),
                "850m".to_string(),
                "1005Mi".to_string(),
            ),
            23 => (
                "search-indexer-7d9f8-qq81z".to_string(),
                "912m".to_string(),
                "998Mi".to_string(),
            ),
            31 => (
                "ml-batch-5c77d-0pz9k".to_string(),
                "1200m".to_string(),
                "1012Mi".to_string(),
            ),
            _ => (
                format!("api-web-{i:02}-x"),
                format!("{}m", 3 + i * 7 % 37),
                format!("{}Mi", 40 + i * 13 % 61),
            ),
        };
        s.push_str(&format!("{name:<34}{cpu:<13}{mem}\n"));
    }
    let (view, _) = lean(&s);
    for pod in [
        "search-indexer-7d9f8-xk2lp",
        "search-indexer-7d9f8-qq81z",
        "ml-batch-5c77d-0pz9k",
    ] {
        assert!(view.contains(pod), "{pod} hidden:\n{view}");
    }
}

#[test]
fn kubectl_get_keeps_every_pod_that_is_not_running() {
    let mut s = format!(
        "{:<22}{:<8}{:<19}{:<11}{}\n",
        "NAME", "READY", "STATUS", "RESTARTS", "AGE"
    );
    // Past the threshold of reading whole (2000 tokens).
    for i in 0..300 {
        let (ready, status, restarts) = match i {
            12 => ("0/1", "Pending", "0"),
            41 => ("0/1", "CrashLoopBackOff", "37 (2m ago)"),
            _ => ("1/1", "Running", "0"),
        };
        s.push_str(&format!(
            "{:<22}{ready:<8}{status:<19}{restarts:<11}{}d\n",
            format!("web-{i:03}"),
            i % 9 + 1
        ));
    }
    let (view, _) = lean(&s);
    assert!(
        view.contains("web-012               0/1     Pending"),
        "{view}"
    );
    assert!(
        view.contains("web-041               0/1     CrashLoopBackOff"),
        "{view}"
    );
    assert!(view.contains("STATUS=Running"), "{view}");
}

#[test]
fn a_csv_keeps_its_server_error_row() {
    let mut s = String::from("ts,path,status,ms\n");
    for i in 0..120 {
        let status = if i == 77 { 503 } else { 200 };
        s.push_str(&format!(
            "2024-05-01T10:{:02}:00Z,/v1/items/{},{status},{}\n",
            i % 60,
            i % 7,
            30 + i % 11
        ));
    }
    let (view, _) = lean(&s);
    assert!(view.contains("/v1/items/0,503,"), "{view}");
}

#[test]
fn docker_ps_keeps_the_container_that_exited_with_an_error() {
    let mut s = String::from(
        "CONTAINER ID   IMAGE          COMMAND                  CREATED        STATUS                       PORTS     NAMES\n",
    );
    for i in 0..24 {
        let status = if i == 9 {
            "Exited (137) 3 minutes ago".to_string()
        } else {
            format!("Up {} minutes", 10 + i * 3)
        };
        let status = format!("{status:<28}");
        s.push_str(&format!(
            "{:012x}   nginx:1.25     \"/docker-entrypoint.…\"   2 hours ago    {status}  80/tcp    web-{i:02}\n",
            0xabc000 + i
        ));
    }
    let (view, _) = lean(&s);
    assert!(view.contains("Exited (137)"), "{view}");
    assert!(view.contains("web-09"), "{view}");
}

#[test]
fn df_keeps_the_fullest_filesystem() {
    let mut s = String::from("Filesystem      Size  Used Avail Use% Mounted on\n");
    for i in 0..30 {
        let (used, avail, pct) = if i == 21 {
            ("49G".to_string(), "1.0G".to_string(), "98%".to_string())
        } else {
            let u = 5 + i * 7 % 31;
            (
                format!("{u}G"),
                format!("{}G", 50 - u),
                format!("{}%", u * 2),
            )
        };
        s.push_str(&format!(
            "/dev/sd{}{:<10} 50G  {used:>4}  {avail:>4} {pct:>4} /mnt/disk{i:02}\n",
            (b'a' + (i / 10) as u8) as char,
            i % 10
        ));
    }
    // Lean detection names this `log` today (detection is not this
    // test's subject): the table rules are asked for by name.
    let (view, _) = lean_as(&s, "tabular");
    assert!(view.contains("98% /mnt/disk21"), "{view}");
}

/// The counts of every `… N rows elided` marker of a view, added up.
fn elided_rows(view: &str) -> usize {
    view.lines()
        .filter_map(|l| l.strip_prefix("\u{2026} "))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum()
}

#[test]
fn a_table_after_a_preamble_keeps_the_preamble_the_header_and_the_odd_pods() {
    let mut s = String::from(
        "Warning: kubectl apply should be used on resource created by either kubectl create --save-config or kubectl apply\n\
         NAME                         READY   STATUS             RESTARTS      AGE\n",
    );
    // Past the threshold of reading whole (2000 tokens).
    for i in 0..200 {
        let (ready, status, restarts) = match i {
            17 => ("0/1", "CrashLoopBackOff", "12 (40s ago)"),
            29 => ("1/1", "Running", "7 (1d ago)"),
            _ => ("1/1", "Running", "0"),
        };
        s.push_str(&format!(
            "{:<28} {ready:<7} {status:<18} {restarts:<13} {}d\n",
            format!("api-{i:03}-7d9f8b6c5"),
            3 + i % 4
        ));
    }
    let (view, _) = lean_as(&s, "tabular");
    assert!(view.len() < s.len(), "{view}");
    assert!(view.starts_with("Warning: kubectl apply"), "{view}");
    assert!(
        view.contains("NAME                         READY   STATUS"),
        "{view}"
    );
    assert!(
        view.contains("api-017-7d9f8b6c5            0/1     CrashLoopBackOff"),
        "{view}"
    );
    assert!(view.contains("7 (1d ago)"), "{view}");
    let rows = view.lines().filter(|l| l.starts_with("api-")).count();
    assert_eq!(rows + elided_rows(&view), 200, "{view}");
}

#[test]
fn an_ls_lr_listing_keeps_every_directory_every_name_and_the_largest_file() {
    let dirs = [(".", 25), ("./bin", 3), ("./lib", 30), ("./share/doc", 20)];
    let mut s = String::new();
    for (n, (dir, k)) in dirs.iter().enumerate() {
        if n > 0 {
            s.push('\n');
        }
        s.push_str(&format!("{dir}:\ntotal {}\n", k * 4));
        for j in 0..*k {
            let size = match (*dir, j) {
                ("./lib", 11) => 98_765_432,
                (".", 5) => 0,
                _ => 1000 + j * 37,
            };
            let name = if *dir == "./lib" && j == 3 {
                "libgpg-error.so.0".to_string()
            } else {
                format!("file{j:02}.txt")
            };
            s.push_str(&format!(
                "-rw-r--r-- 1 root root {size:>9} Jan  1 00:00 {name}\n"
            ));
        }
    }
    let (view, _) = lean_as(&s, "tabular");
    assert!(view.len() < s.len(), "{view}");
    for (dir, k) in dirs {
        assert!(
            view.contains(&format!("\n{dir}:\ntotal {}\n", k * 4))
                || view.starts_with(&format!("{dir}:\ntotal {}\n", k * 4)),
            "{dir}: {view}"
        );
    }
    assert!(view.contains(" 98765432 Jan  1 00:00 file11.txt"), "{view}");
    // Every name stays, with its size; the shared mode and owner are said
    // once per run.
    for j in 0..30 {
        assert!(view.contains(&format!("file{j:02}.txt")), "{j}: {view}");
    }
    assert!(view.contains("file05.txt 0, "), "{view}");
    assert!(
        view.contains("all -rw-r--r-- root root; as name size"),
        "{view}"
    );
    // A file named after an error is not an error row.
    assert!(view.contains(" libgpg-error.so.0 "), "{view}");
    assert!(!view.contains("00:00 libgpg-error.so.0"), "{view}");
    let rows = view.lines().filter(|l| l.starts_with("-rw-")).count();
    assert_eq!(rows + elided_rows(&view), 78, "{view}");
}

#[test]
fn a_plain_ls_l_listing_hides_no_name() {
    // `ls -l` of a system directory: mostly alike directories, a few
    // symlinks and files, one large directory; no directory header.
    let mut s = String::from("total 272\n");
    let mut names = Vec::new();
    for j in 0..60 {
        let name = format!("dir-{j:02}.d");
        let line = match j {
            7 => format!(
                "lrwxrwxrwx  1 root root    21 Jan  8  2023 {name} -> /etc/alternatives/cpp\n"
            ),
            31 => format!("-rw-r--r--  1 root root   267 May  9  2025 {name}\n"),
            59 => format!("drwxr-xr-x 41 root root 40960 Sep 22 04:51 {name}\n"),
            _ => format!(
                "drwxr-xr-x {:>2} root root  4096 Jun {:>2}  2025 {name}\n",
                2 + j % 5,
                1 + j % 28
            ),
        };
        s.push_str(&line);
        names.push(name);
    }
    let (view, _) = lean_as(&s, "tabular");
    assert!(view.len() < s.len(), "{view}");
    for name in &names {
        assert!(view.contains(name.as_str()), "{name}: {view}");
    }
    assert!(
        view.contains(
            "lrwxrwxrwx  1 root root    21 Jan  8  2023 dir-07.d -> /etc/alternatives/cpp"
        ),
        "{view}"
    );
    assert!(
        view.contains("-rw-r--r--  1 root root   267 May  9  2025 dir-31.d"),
        "{view}"
    );
    assert!(
        view.contains("drwxr-xr-x 41 root root 40960 Sep 22 04:51 dir-59.d"),
        "{view}"
    );
    assert!(
        view.contains("entries: all drwxr-xr-x root root size 4096; links and dates elided"),
        "{view}"
    );
    let rows = view
        .lines()
        .filter(|l| l.starts_with(['d', 'l', '-']))
        .count();
    assert_eq!(rows + elided_rows(&view), 60, "{view}");
}

#[test]
fn a_markdown_table_without_outer_pipes_keeps_its_header_its_failure_and_its_largest_row() {
    let mut s =
        String::from("## Packages\n\nname | version | size_kb | status\n--- | --- | --- | ---\n");
    // Past the threshold of reading whole (2000 tokens).
    for i in 0..400 {
        let status = if i == 83 { "failed" } else { "ok" };
        let size = if i == 101 { 99_999 } else { 100 + i * 3 };
        s.push_str(&format!("pkg{i:03} | 1.{i}.0 | {size} | {status}\n"));
    }
    let (view, _) = lean_as(&s, "tabular");
    assert!(view.len() < s.len(), "{view}");
    assert!(view.starts_with("## Packages\n"), "{view}");
    assert!(
        view.contains("name | version | size_kb | status\n--- | --- | --- | ---\n"),
        "{view}"
    );
    assert!(view.contains("pkg083 | 1.83.0 | 349 | failed"), "{view}");
    assert!(view.contains("pkg101 | 1.101.0 | 99999 | ok"), "{view}");
    let rows = view.lines().filter(|l| l.starts_with("pkg")).count();
    assert_eq!(rows + elided_rows(&view), 400, "{view}");
}

#[test]
fn a_latin1_csv_is_cut_and_shown_in_utf8() {
    let mut s: Vec<u8> = b"city,venue,status,visitors\n".to_vec();
    for i in 0..400 {
        let status: &[u8] = if i == 57 { b"500" } else { b"200" };
        s.extend_from_slice(b"M\xfcnchen,Caf\xe9 ");
        s.extend_from_slice(format!("{i:03},").as_bytes());
        s.extend_from_slice(status);
        s.extend_from_slice(format!(",{}\n", 100 + i * 7 % 50).as_bytes());
    }
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", "tabular"],
        &s,
        0,
    );
    let view = String::from_utf8(r.stdout.clone()).expect("the view is UTF-8");
    assert!(view.len() < s.len(), "{view}");
    assert!(view.starts_with("city,venue,status,visitors\n"), "{view}");
    assert!(view.contains("M\u{fc}nchen,Caf\u{e9} 057,500,"), "{view}");
    assert!(view.contains("rows elided"), "{view}");
}

#[test]
fn requests_that_failed_under_any_status_key_are_kept() {
    let mut s = String::new();
    // As many 4xx as 200s: no status is rare, only the key says error.
    for i in 0..40 {
        let status = match i % 4 {
            1 => 403,
            3 if i > 20 => 404,
            _ => 200,
        };
        s.push_str(&format!(
            "{{\"ClientIP\":\"10.0.0.{i}\",\"ClientRequestURI\":\"/page/{}\",\"EdgeResponseStatus\":{status},\"RayID\":\"ray-{i:03}\",\"EdgeResponseBytes\":{}}}\n",
            i % 5,
            1000 + i * 37 % 400
        ));
    }
    let (view, _) = lean(&s);
    assert!(view.len() < s.len(), "{view}");
    for ray in ["ray-001", "ray-021", "ray-037", "ray-023", "ray-039"] {
        assert!(view.contains(ray), "{ray} hidden:\n{view}");
    }
}
