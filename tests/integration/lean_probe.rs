//! Lean views of tools' output the corpus does not hold, rebuilt from the
//! shapes of stop 50's unseen-style probe (`bench/probe.py`): `ss -tanp`,
//! `git blame`, an nginx error log, `ruff`, an Ansible recap, `kubectl get
//! pods -o wide` over ragged rows, `gh run view --log-failed`, a gdb
//! backtrace of every thread, markers that shed statements. Each test
//! states what a reader of the view must see.

use crate::util::TestCommand;

fn lean(input: &str, ty: Option<&str>) -> String {
    let tc = TestCommand::new();
    let mut args = vec!["compress", "--profile", "lean"];
    if let Some(t) = ty {
        args.extend(["--type", t]);
    }
    let r = tc.run(&args, input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    String::from_utf8(r.stdout).expect("UTF-8 view")
}

/// A small deterministic generator (no clock, no hash-map order).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Every line of `lines` is a line of `view`.
fn all_kept(view: &str, lines: &[String]) {
    let shown: std::collections::HashSet<&str> = view.lines().collect();
    for l in lines {
        assert!(shown.contains(l.as_str()), "lost {l:?}:\n{view}");
    }
}

#[test]
fn ss_keeps_every_listening_socket_among_established_ones() {
    let mut r = Lcg(7);
    let mut s = String::from("State  Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess\n");
    let mut listen = Vec::new();
    for (port, prog) in [
        (22, "sshd"),
        (80, "nginx"),
        (443, "nginx"),
        (5432, "postgres"),
        (6379, "redis-server"),
        (8080, "java"),
        (9090, "prometheus"),
        (9100, "node_exporter"),
        (3000, "grafana"),
        (2379, "etcd"),
        (6380, "redis-server"),
    ] {
        let l = format!(
            "LISTEN 0      128    0.0.0.0:{port:<6}      0.0.0.0:*    users:((\"{prog}\",pid={},fd={}))",
            100 + r.next(9000),
            3 + r.next(20)
        );
        s.push_str(&l);
        s.push('\n');
        listen.push(l);
    }
    for _ in 0..120 {
        let port = [443, 8080, 5432][r.next(3) as usize];
        s.push_str(&format!(
            "ESTAB  0      0      10.0.1.5:{port:<5}       10.0.{}.{}:{} users:((\"java\",pid={},fd={}))\n",
            r.next(8),
            r.next(250),
            30000 + r.next(30000),
            100 + r.next(9000),
            10 + r.next(900)
        ));
    }
    let v = lean(&s, None);
    assert!(v.contains("rows elided"), "{v}");
    all_kept(&v, &listen);
}

/// `git blame` of a file whose commits each wrote runs of lines.
fn blame(lines: usize) -> (String, Vec<String>) {
    let mut r = Lcg(11);
    let commits = [
        ("a1b2c3d4", "Carol White", "2026-04-16 10:12:09 +0000"),
        ("5a5b5c5d", "Bob Jones", "2026-02-14 08:01:44 +0000"),
        ("9f8e7d6c", "Alice Smith", "2026-05-19 17:30:00 +0000"),
        ("deadbeef", "Mallory Intern", "2026-09-19 23:59:01 +0000"),
    ];
    let code = [
        "def total(cart):",
        "    subtotal = sum(i.price * i.qty for i in cart.items)",
        "    if cart.coupon:",
        "        subtotal -= cart.coupon.amount",
        "    tax = subtotal * TAX_RATE",
        "    return round(subtotal + tax, 2)",
        "",
    ];
    let (mut s, mut tails) = (String::new(), Vec::new());
    let mut n = 1;
    while n <= lines {
        let (h, who, date) = commits[r.next(4) as usize];
        for _ in 0..(1 + r.next(12)) {
            if n > lines {
                break;
            }
            let c = code[n % code.len()];
            s.push_str(&format!("{h} ({who:<14} {date} {n:>3}) {c}\n"));
            tails.push(format!("{n:>3}) {c}"));
            n += 1;
        }
    }
    (s, tails)
}

#[test]
fn git_blame_keeps_every_source_line_under_one_header_per_commit_run() {
    let (s, tails) = blame(299);
    let v = lean(&s, None);
    assert!(v.len() < s.len(), "{v}");
    assert!(!v.contains("lines elided"), "{v}");
    all_kept(&v, &tails);
    // Each run's header once, as the blame wrote its fields.
    assert!(
        v.contains("\na1b2c3d4 (Carol White 2026-04-16 10:12:09 +0000)\n"),
        "{v}"
    );
    assert!(v.contains("nothing elided, lines regrouped"), "{v}");
}

#[test]
fn routine_nginx_lines_are_not_errors_for_the_words_of_their_message() {
    let mut r = Lcg(5);
    let mut s = String::new();
    let mut errors = Vec::new();
    for i in 0..600 {
        let t = format!("2026/12/05 09:{:02}:{:02}", 14 + i / 60 % 40, i % 60);
        let l = match i % 7 {
            _ if i == 200 || i == 401 || i == 555 => {
                let l = format!("{t} [error] 1044#1011: *{} connect() failed (111: Connection refused) while connecting to upstream, client: 10.1.1.{}, server: shop", 1000 + i, r.next(250));
                errors.push(l.clone());
                l
            }
            0 | 3 => format!("{t} [notice] 10{:02}#1011: *{} client 10.9.{}.{} closed keepalive connection", r.next(99), r.next(999_999), r.next(250), r.next(250)),
            _ => format!("{t} [info] 10{:02}#10{:02}: *{} client timed out (110: Connection timed out) while waiting for request, client: 10.1.{}.{}, server: 0.0.0.0:443", r.next(99), r.next(99), r.next(999_999), r.next(8), r.next(250)),
        };
        s.push_str(&l);
        s.push('\n');
    }
    let v = lean(&s, None);
    all_kept(&v, &errors);
    let info = v.lines().filter(|l| l.contains(" [info] ")).count();
    assert!(info <= 10, "{info} [info] lines kept:\n{v}");
    assert!(v.len() * 4 < s.len(), "{} of {} bytes", v.len(), s.len());
}

#[test]
fn regrouped_lint_findings_do_not_claim_an_elision() {
    let mut s = String::new();
    let mut findings = Vec::new();
    for f in [
        "app/api/models.py",
        "app/api/routes.py",
        "app/core/utils.py",
    ] {
        for k in 0..6 {
            let l = format!(
                "{f}:{}:{}: E501 Line too long (112 > 100)",
                10 + 17 * k,
                1 + k
            );
            s.push_str(&l);
            s.push('\n');
            findings.push(format!(
                "{}:{}: E501 Line too long (112 > 100)",
                10 + 17 * k,
                1 + k
            ));
        }
    }
    s.push_str("Found 18 errors.\n");
    let v = lean(&s, Some("search-result"));
    all_kept(&v, &findings);
    assert!(!v.contains("elided parts"), "{v}");
    assert!(
        v.contains("nothing elided, lines regrouped; original: caveman-engine retrieve ccr_"),
        "{v}"
    );
}

#[test]
fn an_ansible_recap_row_with_a_failure_is_kept() {
    let mut s = String::new();
    for h in 1..=30 {
        s.push_str(&format!(
            "\nTASK [deploy : step {h}] ***\nchanged: [web{h:02}.prod]\n"
        ));
    }
    s.push_str(
        "\nPLAY RECAP *********************************************************************\n",
    );
    let mut failed = String::new();
    for h in 1..=30 {
        let f = usize::from(h == 17);
        let l = format!(
            "web{h:02}.prod                : ok={}    changed={}    unreachable=0    failed={f}    skipped=0    rescued=0    ignored=0   ",
            7 - f,
            h % 4
        );
        if f == 1 {
            failed = l.clone();
        }
        s.push_str(&l);
        s.push('\n');
    }
    let v = lean(&s, Some("terminal"));
    assert!(v.contains("elided"), "{v}");
    all_kept(&v, &[failed]);
}

#[test]
fn ragged_rows_under_a_header_keep_its_names() {
    let mut r = Lcg(3);
    let mut s = String::from("NAME                                READY   STATUS             RESTARTS        AGE   IP            NODE                         NOMINATED NODE   READINESS GATES\n");
    for i in 0..200 {
        // Ages and node names of different lengths shift the last
        // columns, as the rows of a real `-o wide` listing never do but
        // rebuilt ones may.
        let name = format!("svc{i:03}-{:05x}-{:05x}", r.next(0xfffff), r.next(0xfffff));
        s.push_str(&format!(
            "{name:<36}1/1     Running            {:<16}{}d   10.0.{}.{:<4}  ip-10-0-{}-{}.ec2.internal   <none>           <none>\n",
            r.next(3),
            1 + r.next(40),
            r.next(8),
            2 + r.next(248),
            r.next(8),
            2 + r.next(248),
        ));
    }
    let v = lean(&s, None);
    assert!(v.contains("rows elided"), "{v}");
    assert!(!v.contains("\"NODE   READINESS GATES\""), "{v}");
    assert!(v.contains("\"READINESS GATES\"=<none>"), "{v}");
}

#[test]
fn a_failed_job_log_keeps_the_assertion_lines() {
    let mut s = String::new();
    let pre = "integration\tRun integration tests\t2026-12-05T09:14:03.8211322Z";
    for i in 0..400 {
        s.push_str(&format!(
            "{pre} tests/integration/test_m{:02}.py::test_case_{i} PASSED          [{:>3}%]\n",
            i % 40,
            i / 4
        ));
    }
    let evidence = [
        format!("{pre} E       assert 3 == 5"),
        format!("{pre} E        +  where 3 = len([<Attempt 1>, <Attempt 2>, <Attempt 3>])"),
    ];
    for l in &evidence {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(&format!(
        "{pre} FAILED tests/integration/test_webhooks.py::test_retry_backoff - assert 3 == 5\n"
    ));
    let v = lean(&s, None);
    assert!(v.contains("elided"), "{v}");
    all_kept(&v, &evidence);
}

#[test]
fn kept_frames_stay_under_their_own_thread() {
    let mut s = String::from("(gdb) thread apply all bt\n");
    let mut thread_of: Vec<(String, usize)> = Vec::new();
    for t in 1..=16 {
        s.push_str(&format!(
            "\nThread {t} (Thread 0x7f1e{:08x} (LWP {})):\n",
            t * 7919,
            4410 + t
        ));
        let frames = [
            "#0  0x00007f1e2e8e0e2e in __futex_abstimed_wait_common64 (private=0, cancel=true, abstime=0x0, op=393) at ./nptl/futex-internal.c:57".to_string(),
            format!("#1  0x000055d1c2a4c0aa in queue_pop (q=0x55d1c3f0a2a0) at src/pool.c:{}", 30 + t % 5),
            format!("#2  0x000055d1c2a4c012 in worker_main (arg=0x55d1c3f0a{t:03x}) at src/pool.c:48"),
            format!("#3  0x00007f1e2e894ac3 in start_thread (arg=0x7f1e{:08x}) at ./nptl/pthread_create.c:442", t * 7919),
        ];
        for f in frames {
            s.push_str(&f);
            s.push('\n');
            thread_of.push((f, t));
        }
    }
    let v = lean(&s, Some("log"));
    assert!(v.contains("elided"), "{v}");
    let mut current: Option<usize> = None;
    for l in v.lines() {
        if let Some(rest) = l.strip_prefix("Thread ") {
            current = rest.split(' ').next().and_then(|n| n.parse().ok());
        } else if l.starts_with('#') {
            let t = current.unwrap_or_else(|| panic!("{l:?} under no thread header:\n{v}"));
            assert!(
                thread_of.iter().any(|(f, u)| f == l && *u == t),
                "{l:?} is not a frame of thread {t}:\n{v}"
            );
        }
    }
}
