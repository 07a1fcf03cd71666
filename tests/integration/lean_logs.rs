//! Lean log views: the closing marker's counts are the lines its patterns
//! match, syslog's padded days are one kind, package-manager sessions and
//! removals stay, strace keeps the files a program opened. Each payload
//! is rebuilt from the shapes real tools print.

use crate::util::TestCommand;

fn lean(input: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.run(&["compress", "--profile", "lean"], input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    String::from_utf8(r.stdout).expect("UTF-8 view")
}

/// The closing marker's "most frequent" kinds: (count, pattern).
fn frequent(view: &str) -> Vec<(usize, String)> {
    let close = view
        .lines()
        .find(|l| l.contains(" in all"))
        .expect("closing marker");
    let list = close
        .split_once("most frequent")
        .and_then(|(_, rest)| rest.split_once(':'))
        .expect("a most frequent list")
        .1
        .trim_end_matches(" \u{2026}");
    // A pattern may hold "; " itself: kinds start at "; N× ".
    let rx = regex::Regex::new("(?:^|; )(\\d+)\u{d7} ").unwrap();
    let at: Vec<(usize, usize, usize)> = rx
        .captures_iter(list.trim_start())
        .map(|c| {
            let m = c.get(0).unwrap();
            (m.start(), m.end(), c[1].parse().unwrap())
        })
        .collect();
    let list = list.trim_start();
    at.iter()
        .enumerate()
        .map(|(k, &(_, end, n))| {
            let stop = at.get(k + 1).map_or(list.len(), |next| next.0);
            (n, list[end..stop].trim().to_string())
        })
        .collect()
}

/// True when `pattern` (each `<*>` any text) matches all of `line`.
fn glob(pattern: &str, line: &str) -> bool {
    let rx: Vec<String> = pattern.split("<*>").map(regex::escape).collect();
    regex::Regex::new(&format!("^{}$", rx.join(".*")))
        .unwrap()
        .is_match(line)
}

#[test]
fn a_kinds_count_is_every_line_its_pattern_matches() {
    let mut log = String::new();
    let hosts = ["www.google.com", "www.evernote.com", "mail.yahoo.com"];
    for i in 0..900 {
        let ts = format!(
            "[10.30 {:02}:{:02}:{:02}]",
            (i / 3600) % 24,
            (i / 60) % 60,
            i % 60
        );
        let line = match i % 3 {
            0 => format!("{ts} chrome.exe - proxy.example.edu:5070 open through proxy proxy.example.edu:5070 HTTPS"),
            // A literal host name (no digit) is a narrower template.
            1 if i % 9 == 1 => format!(
                "{ts} chrome.exe *64 - {}:443 open through proxy proxy.example.edu:5070 HTTPS",
                hosts[i % hosts.len()]
            ),
            1 => format!("{ts} chrome.exe *64 - cdn{}.example.com:443 open through proxy proxy.example.edu:5070 HTTPS", i % 7),
            // A lifetime past an hour reads as a time of day: its line's
            // template differs, its text still matches `lifetime <*>:<*>`.
            _ => format!(
                "{ts} chrome.exe - proxy.example.edu:5070 close, {} bytes sent, {} bytes received, lifetime {}",
                i * 3,
                i * 5,
                if i == 2 || i == 5 { "01:02:03" } else { "00:07" }
            ),
        };
        log.push_str(&line);
        log.push('\n');
    }
    let view = lean(&log);
    let kinds = frequent(&view);
    assert!(!kinds.is_empty(), "{view}");
    let lines: Vec<&str> = log.lines().collect();
    for (n, t) in &kinds {
        let matched = lines.iter().filter(|l| glob(t, l)).count();
        assert_eq!(*n, matched, "{t}\n{view}");
    }
    // The `*64` lines are one kind of 300, not 200 and three narrower ones.
    assert!(
        kinds
            .iter()
            .any(|(n, t)| *n == 300 && t.contains("chrome.exe <*> -")),
        "{kinds:?}"
    );
    // No line counted under two listed kinds.
    for l in &lines {
        let under = kinds.iter().filter(|(_, t)| glob(t, l)).count();
        assert!(under <= 1, "{l}: {kinds:?}");
    }
}

#[test]
fn a_syslog_day_padded_with_a_space_is_the_same_kind() {
    let mut log = String::new();
    for i in 0..400 {
        // Days 1–9 print as `Jul  2`, two spaces.
        let day = 1 + i / 25;
        let line = if i % 4 == 0 {
            format!(
                "Jul {day:>2} 04:{:02}:43 combo sshd(pam_unix)[{}]: check pass; user unknown",
                i % 60,
                1000 + i
            )
        } else {
            format!("Jul {day:>2} 04:{:02}:44 combo ftpd[{}]: connection from 10.0.0.{} () at Mon Jul {day:>2} 04:15:43 2005", i % 60, 2000 + i, i % 250)
        };
        log.push_str(&line);
        log.push('\n');
    }
    let view = lean(&log);
    let kinds = frequent(&view);
    assert!(
        kinds.contains(&(
            100,
            "combo sshd(pam_unix)[<*>]: check pass; user unknown".to_string()
        )),
        "{kinds:?}\n{view}"
    );
    assert!(
        kinds
            .iter()
            .any(|(n, t)| *n == 300 && t.starts_with("combo ftpd[<*>]")),
        "{kinds:?}"
    );
}

#[test]
fn package_manager_sessions_and_removals_stay() {
    let mut dpkg = String::new();
    let mut keep = Vec::new();
    let names = [
        "libssl", "zlib", "curl", "git", "make", "gcc", "perl", "python",
    ];
    for s in 0..6 {
        let ts = format!("2025-06-2{s} 14:36:{:02}", s * 7);
        let l = format!("{ts} startup archives unpack");
        dpkg.push_str(&l);
        dpkg.push('\n');
        keep.push(l);
        for k in 0..120 {
            let p = format!("{}{}-dev:amd64 {}.{}-1", names[k % 8], k, s, k);
            for st in ["half-installed", "unpacked", "half-configured", "installed"] {
                dpkg.push_str(&format!("{ts} status {st} {p}\n"));
            }
            dpkg.push_str(&format!("{ts} install {p} <none>\n"));
        }
        let l = format!("{ts} remove {}-old:amd64 1.{s} <none>", names[s]);
        dpkg.push_str(&l);
        dpkg.push('\n');
        keep.push(l);
        let l = format!("{ts} upgrade base-files:amd64 12.{s} 12.{}", s + 1);
        dpkg.push_str(&l);
        dpkg.push('\n');
        keep.push(l);
    }
    let view = lean(&dpkg);
    for l in &keep {
        assert!(view.lines().any(|v| v == l), "{l} missing\n{view}");
    }

    let mut term = String::new();
    let mut keep = Vec::new();
    for s in 0..10 {
        let l = format!("Log started: 2025-06-2{}  14:36:2{s}", s % 10);
        term.push_str(&l);
        term.push('\n');
        keep.push(l);
        for k in 0..60 {
            term.push_str(&format!(
                "Selecting previously unselected package lib{k}x.\n"
            ));
            term.push_str(&format!(
                "Preparing to unpack .../lib{k}x_{s}.{k}_amd64.deb ...\n"
            ));
            term.push_str(&format!("Unpacking lib{k}x ({s}.{k}) ...\n"));
            term.push_str(&format!("Setting up lib{k}x ({s}.{k}) ...\n"));
        }
        let l = format!("Removing oldpkg{s} (1.{s}) ...");
        term.push_str(&l);
        term.push('\n');
        keep.push(l);
        let l = format!("Log ended: 2025-06-2{}  14:37:0{s}", s % 10);
        term.push_str(&l);
        term.push_str("\n\n");
        keep.push(l);
    }
    let view = lean(&term);
    for l in &keep {
        assert!(view.lines().any(|v| v == l), "{l} missing\n{view}");
    }
}

#[test]
fn strace_keeps_the_fallback_open_and_every_file_opened() {
    let mut t = String::new();
    t.push_str(
        "execve(\"/usr/bin/sha256sum\", [\"sha256sum\", \"big.iso\"], 0x7ffd /* 20 vars */) = 0\n",
    );
    let mut keep = vec![];
    for cat in [
        "LC_IDENTIFICATION",
        "LC_MEASUREMENT",
        "LC_TELEPHONE",
        "LC_ADDRESS",
        "LC_NAME",
        "LC_PAPER",
    ] {
        t.push_str(&format!("openat(AT_FDCWD, \"/usr/lib/locale/C.UTF-8/{cat}\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n"));
        let ok =
            format!("openat(AT_FDCWD, \"/usr/lib/locale/C.utf8/{cat}\", O_RDONLY|O_CLOEXEC) = 3");
        t.push_str(&ok);
        t.push('\n');
        keep.push(ok);
        t.push_str("close(3)                                = 0\n");
    }
    let ok = "openat(AT_FDCWD, \"big.iso\", O_RDONLY)  = 3".to_string();
    t.push_str(&ok);
    t.push('\n');
    keep.push(ok);
    for _ in 0..120 {
        t.push_str("read(3, \"\\x7fELF\\x02\"..., 32768)     = 32768\n");
    }
    t.push_str("close(3)                                = 0\n+++ exited with 0 +++\n");
    let view = lean(&t);
    // Each file opened is shown, or (within compat's size) named by the
    // marker over its lines.
    for l in &keep {
        let path = l.split('"').nth(1).unwrap();
        let leaf = path.rsplit('/').next().unwrap();
        let named = view
            .lines()
            .any(|v| v.starts_with('\u{2026}') && v.contains(leaf));
        assert!(view.lines().any(|v| v == l) || named, "{l} missing\n{view}");
    }
    assert!(
        view.lines().filter(|l| l.starts_with("read(")).count() <= 2,
        "{view}"
    );
}

#[test]
fn a_marker_over_lines_without_fields_names_their_first_words() {
    let mut log = String::from("2025-06-24 14:36:25 startup packages configure\n");
    for k in 0..200 {
        log.push_str(&format!(
            "2025-06-24 14:36:{:02} status installed lib{k}x:amd64 1.{k}\n",
            k % 60
        ));
    }
    log.push_str("2025-06-24 14:37:00 startup packages configure done\n");
    let view = lean(&log);
    let marker = view
        .lines()
        .find(|l| l.contains("lines elided (caveman)") && l.contains("status"))
        .unwrap_or_else(|| panic!("no marker naming its lines\n{view}"));
    let k: usize = marker
        .trim_start_matches("\u{2026} ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(k > 100, "{marker}");
    assert_eq!(
        marker,
        format!("\u{2026} {k} lines elided (caveman): first words: status\u{d7}{k} \u{2026}")
    );
}

/// 1,500 copies of one INFO line that differ only in their timestamp and
/// pid (issue 40 §3): the first stays, the marker after it counts the
/// copies and states their time span, first to last; the rare lines
/// around them and the error line stay. Copies of a warning or an error
/// each stay: each is an event with its own time.
#[test]
fn copies_that_differ_only_in_their_timestamp_fold_into_first_and_last() {
    let mut log = String::new();
    for i in 0..40 {
        log.push_str(&format!(
            "2024-03-05T09:59:{:02}Z INFO [http] served /api/items/{i} in {} ms\n",
            i % 60,
            i % 7
        ));
    }
    log.push_str("2024-03-05T09:59:50Z INFO [config] reloaded settings from /etc/app.yaml\n");
    for i in 0..1_500 {
        log.push_str(&format!(
            "2024-03-05T10:{:02}:{:02}Z INFO [pool] worker[{}]: connection pool exhausted, waiting for a free slot\n",
            i / 60,
            i % 60,
            1000 + i % 9
        ));
    }
    let warns: Vec<String> = (0..12)
        .map(|i| format!("2024-03-05T10:25:{i:02}Z WARN [pool] pool still exhausted after retry"))
        .collect();
    for w in &warns {
        log.push_str(w);
        log.push('\n');
    }
    log.push_str("2024-03-05T10:25:30Z ERROR [main] request timed out after 30 s\n");
    log.push_str("2024-03-05T10:25:31Z INFO [main] shutting down\n");
    let view = lean(&log);
    assert!(
        view.contains("\n2024-03-05T10:00:00Z INFO [pool] worker[1000]: connection pool exhausted, waiting for a free slot\n\u{2026} 1499 lines elided (caveman): the line above again \u{d7}1499 (only timestamps and ids differ), 2024-03-05T10:00:01Z \u{2192} 2024-03-05T10:24:59Z \u{2026}\n"),
        "{view}"
    );
    for w in &warns {
        assert!(view.contains(w.as_str()), "{w}\n{view}");
    }
    assert!(
        view.contains("reloaded settings from /etc/app.yaml"),
        "{view}"
    );
    assert!(
        view.contains("ERROR [main] request timed out after 30 s"),
        "{view}"
    );
}

/// A terraform plan: every resource's address and action, the changed
/// attributes, `forces replacement`, the summary and the warning block
/// stay; unchanged attributes, `(known after apply)` values and the
/// refresh lines fold into markers that count them.
#[test]
fn a_terraform_plan_keeps_each_resource_its_changes_and_the_summary() {
    let mut plan = String::new();
    for i in 0..30 {
        plan.push_str(&format!(
            "aws_subnet.private[{i}]: Refreshing state... [id=subnet-0{i:016x}]\n"
        ));
    }
    plan.push_str("\nTerraform will perform the following actions:\n\n");
    plan.push_str("  # aws_instance.web must be replaced\n-/+ resource \"aws_instance\" \"web\" {\n      ~ ami                = \"ami-0c55b159\" -> \"ami-0d5eff06\" # forces replacement\n");
    for a in [
        "arn",
        "private_dns",
        "private_ip",
        "public_dns",
        "public_ip",
        "host_id",
        "ipv6_addresses",
    ] {
        plan.push_str(&format!(
            "      ~ {a:18} = \"old-{a}\" -> (known after apply)\n"
        ));
    }
    plan.push_str("        instance_type      = \"t3.micro\"\n        tags               = {\n            \"Name\" = \"web\"\n        }\n        # (4 unchanged attributes hidden)\n    }\n\n");
    plan.push_str("  # aws_s3_bucket.logs will be created\n  + resource \"aws_s3_bucket\" \"logs\" {\n      + bucket        = \"acme-prod-logs\"\n");
    for a in [
        "acl",
        "arn",
        "bucket_domain_name",
        "hosted_zone_id",
        "id",
        "policy",
        "region",
    ] {
        plan.push_str(&format!("      + {a:13} = (known after apply)\n"));
    }
    plan.push_str("    }\n\n  # aws_security_group_rule.old_ssh will be destroyed\n  - resource \"aws_security_group_rule\" \"old_ssh\" {\n      - from_port = 22 -> null\n      - id        = \"sgrule-1234567890\" -> null\n      - protocol  = \"tcp\" -> null\n      - to_port   = 22 -> null\n      - type      = \"ingress\" -> null\n    }\n\n");
    plan.push_str("Plan: 2 to add, 0 to change, 2 to destroy.\n\u{2577}\n\u{2502} Warning: Argument is deprecated\n\u{2502}\n\u{2502}   on main.tf line 40, in resource \"aws_s3_bucket\" \"logs\":\n\u{2502}   40:   acl = \"private\"\n\u{2575}\n");
    let view = lean(&plan);
    for kept in [
        "  # aws_instance.web must be replaced",
        "-/+ resource \"aws_instance\" \"web\" {",
        "      ~ ami                = \"ami-0c55b159\" -> \"ami-0d5eff06\" # forces replacement",
        "  # aws_s3_bucket.logs will be created",
        "      + bucket        = \"acme-prod-logs\"",
        "  - resource \"aws_security_group_rule\" \"old_ssh\" {",
        "      - id        = \"sgrule-1234567890\" -> null",
        "Plan: 2 to add, 0 to change, 2 to destroy.",
        "\u{2502} Warning: Argument is deprecated",
        "\u{2502}   40:   acl = \"private\"",
        "        # (4 unchanged attributes hidden)",
    ] {
        assert!(view.lines().any(|l| l == kept), "{kept}\n{view}");
    }
    for folded in [
        "\u{2026} 30 lines elided (caveman): 30 refreshed resources' states \u{2026}",
        "      \u{2026} 11 lines elided (caveman): 7 known after apply, 4 unchanged \u{2026}",
        "      \u{2026} 7 lines elided (caveman): 7 known after apply \u{2026}",
        "      \u{2026} 3 lines elided (caveman): 3 attributes of the destroyed resource \u{2026}",
    ] {
        assert!(view.contains(&format!("{folded}\n")), "{folded}\n{view}");
    }
}

/// A kind whose lines are one unbroken run (a training run's epochs, a
/// progress bar's lines) shows its first and its last line: where the run
/// ended is the answer.
#[test]
fn a_run_of_one_kind_shows_where_it_ended() {
    let tc = TestCommand::new();
    let mut log = String::from(
        "loading dataset shards from /data/train (64 shards)\nmodel: resnet50, params 25.6M\n",
    );
    for e in 1..=80 {
        log.push_str(&format!(
            "Epoch {e}/80 - loss: {:.4} - accuracy: {:.4} - val_loss: {:.4}\n",
            2.0 / f64::from(e),
            1.0 - 0.5 / f64::from(e),
            2.2 / f64::from(e)
        ));
    }
    log.push_str("saved checkpoint to /models/run-7/final.pt\n");
    let r = tc.run(&["compress", "--profile", "lean"], log.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    let view = String::from_utf8(r.stdout).unwrap();
    assert!(view.contains("Epoch 1/80 - loss: 2.0000"), "{view}");
    assert!(
        view.contains("Epoch 80/80 - loss: 0.0250 - accuracy: 0.9938 - val_loss: 0.0275"),
        "{view}"
    );
    assert!(view.contains("elided"), "{view}");
}
