//! Lean log views are never larger than compat's (issue 40 rule 8): a
//! routine line alone between kept ones becomes a marker when it costs
//! twice as much, rare lines take a share of a longer log, a kind is a
//! template with its runs of variables folded, and a kind seen twice is
//! shown before lines seen once. Payloads are rebuilt from the shapes
//! real tools print (sshd auth logs, syslog, Java logs). (A scanner's
//! burst of distinct 404s in an access log still costs lean more than
//! compat's cut: left for a fold of lines differing in one field.)

use crate::util::TestCommand;

/// The view and the report's `tokens_after` under `profile`.
fn compress(profile: &str, input: &str) -> (String, usize) {
    compress_with(&["--profile", profile], input)
}

/// The view and the report's `tokens_after` with `args`.
fn compress_with(args: &[&str], input: &str) -> (String, usize) {
    let tc = TestCommand::new();
    let r = tc.run(&[&["compress"], args].concat(), input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    let report = r.stderr_str();
    let rx = regex::Regex::new(r#""tokens_after":(\d+)"#).unwrap();
    let after = rx.captures(&report).expect("tokens_after")[1]
        .parse()
        .unwrap();
    (String::from_utf8(r.stdout).expect("UTF-8 view"), after)
}

const USERS: [&str; 6] = ["admin", "test", "oracle", "support", "guest", "ubnt"];

/// An sshd auth log: brute-force sessions from many hosts, most of them
/// trying root, one in four an invalid user (with PAM's lines), each
/// ending in a failed password and a disconnect.
fn auth_log(sessions: usize) -> String {
    let mut s = String::new();
    for k in 0..sessions {
        let u = USERS[k % 6];
        let ip = format!(
            "{}.{}.{}.{}",
            5 + k % 200,
            188 + k % 7,
            k % 250,
            180 - k % 90
        );
        let pid = 24200 + 2 * k;
        let (m, sec) = (k / 20, (k * 7) % 60);
        let at = format!("Dec 10 07:{m:02}:{sec:02} LabSZ sshd[{pid}]:");
        if k % 4 == 0 {
            s.push_str(&format!("{at} Invalid user {u} from {ip}\n"));
            s.push_str(&format!(
                "{at} input_userauth_request: invalid user {u} [preauth]\n"
            ));
            s.push_str(&format!(
                "{at} pam_unix(sshd:auth): check pass; user unknown\n"
            ));
            s.push_str(&format!("{at} pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost={ip}\n"));
            s.push_str(&format!(
                "{at} Failed password for invalid user {u} from {ip} port {} ssh2\n",
                30000 + k * 13
            ));
        } else {
            s.push_str(&format!("{at} pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost={ip}  user=root\n"));
            s.push_str(&format!(
                "{at} Failed password for root from {ip} port {} ssh2\n",
                30000 + k * 13
            ));
        }
        s.push_str(&format!(
            "{at} Received disconnect from {ip}: 11: Bye Bye [preauth]\n"
        ));
    }
    s
}

/// A ZooKeeper-style Java log: warnings of a broken quorum connection
/// with INFO lines alone between them.
fn java_log() -> String {
    let mut s = String::new();
    for k in 0..800 {
        let at = format!(
            "2015-07-29 19:{:02}:{:02},{:03}",
            k / 60 % 60,
            k % 60,
            (k * 37) % 1000
        );
        match k % 4 {
            0 => s.push_str(&format!("{at} - WARN  [RecvWorker:188978561024:QuorumCnxManager$RecvWorker@765] - Interrupting SendWorker\n")),
            1 => s.push_str(&format!("{at} - INFO  [/10.10.34.11:3888:QuorumCnxManager$Listener@493] - Received connection request /10.10.34.{}:{}\n", 11 + k % 3, 47000 + k)),
            2 => s.push_str(&format!("{at} - WARN  [SendWorker:188978561024:QuorumCnxManager$SendWorker@679] - Interrupted while waiting for message on queue\n")),
            _ => s.push_str(&format!("{at} - WARN  [RecvWorker:188978561024:QuorumCnxManager$RecvWorker@762] - Connection broken for id 188978561024, my id = 1, error = \n")),
        }
    }
    s
}

/// The bar of issue 40 rule 8 over the log shapes: lean's view never has
/// more tokens than compat's.
#[test]
fn lean_log_views_are_never_larger_than_compat() {
    for (name, payload) in [
        ("auth log", auth_log(300)),
        ("java log", java_log()),
        // Many one-off kinds: rare lines stay one by one, within compat's
        // size (the cut presses until it fits).
        ("syslog of one-off kinds", one_off_syslog()),
    ] {
        let (_, compat) = compress("compat", &payload);
        let (view, lean) = compress("lean", &payload);
        assert!(
            lean <= compat,
            "{name}: lean {lean} > compat {compat}\n{view}"
        );
    }
}

/// An INFO line alone between warnings (its kind shown elsewhere) costs
/// four times its marker: it becomes one; every warning stays.
#[test]
fn a_routine_line_alone_between_kept_ones_becomes_a_marker() {
    let payload = java_log();
    let (view, _) = compress("lean", &payload);
    assert!(
        view.contains("\u{2026} 1 lines elided (caveman) \u{2026}\n"),
        "{view}"
    );
    for l in payload.lines().filter(|l| l.contains(" WARN ")).take(50) {
        assert!(view.contains(l), "{l}");
    }
    // A short line alone costs about as much as its marker: it stays.
    let mut short = String::new();
    for k in 0..40 {
        short.push_str(&format!("ERROR disk {k} failed\nok {}\n", k % 2));
    }
    let (view, _) = compress("lean", &short);
    assert!(!view.contains("1 lines elided"), "{view}");
}

/// Lines of a kind that differ only in how many variables stand in a row
/// (`ask … to delete blk_1` and `… blk_2 blk_3 … blk_90`) are one kind:
/// the long ones are not kept as rare lines once the kind is shown.
#[test]
fn a_line_naming_more_ids_is_the_same_kind() {
    let mut s = String::new();
    for k in 0..400 {
        s.push_str(&format!(
            "081109 2036{:02} 148 INFO dfs.DataNode$PacketResponder: PacketResponder {} for block blk_{} terminating\n",
            k % 60,
            k % 3,
            1000 + k
        ));
        if k % 100 == 50 || k == 7 {
            // One block, then ever more: each line a template of its own.
            let many = if k == 7 { 1 } else { 10 + k / 10 };
            let ids: Vec<String> = (0..many)
                .map(|j| format!("blk_-{}", 9_000_000 + k * 40 + j))
                .collect();
            s.push_str(&format!(
                "081109 2036{:02} 19 INFO dfs.FSNamesystem: BLOCK* ask 10.250.18.{}:50010 to delete  {}\n",
                k % 60,
                k % 200,
                ids.join(" ")
            ));
        }
    }
    let (view, _) = compress("lean", &s);
    let shown: Vec<&str> = view
        .lines()
        .filter(|l| l.contains("to delete") && !l.starts_with('\u{2026}'))
        .collect();
    assert_eq!(shown.len(), 1, "{view}");
    assert!(shown[0].ends_with("to delete  blk_-9000280"), "{view}");
}

/// A document of mostly distinct lines shows a line of each kind seen
/// twice before lines seen once, and its rare lines take a share of it.
#[test]
fn kinds_seen_twice_come_before_lines_seen_once() {
    let mut s = String::new();
    let names = [
        "pager", "editor", "java", "javac", "jar", "keytool", "rmid", "jdb", "jps", "jcmd",
    ];
    let flavours = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m",
    ];
    for k in 0..130 {
        let name = format!("{}-{}", names[k % 10], flavours[k / 10]);
        s.push_str(&format!(
            "update-alternatives 2025-06-24 14:{:02}:{:02}: run with --install /usr/bin/{name} {name} /usr/lib/jvm/bin/{name} 1711\n",
            k / 60,
            k % 60,
        ));
    }
    let twice = ["awk", "vi", "nc", "ftp"];
    for (k, name) in twice.iter().enumerate() {
        for _ in 0..2 {
            s.push_str(&format!("update-alternatives 2026-09-22 04:51:{k:02}: link group {name} updated to point to /usr/bin/{name}-alt\n"));
        }
    }
    let (view, _) = compress("lean", &s);
    for name in twice {
        assert!(
            view.contains(&format!("/usr/bin/{name}-alt\n")),
            "{name}: {view}"
        );
    }
    assert!(
        view.contains("more lines of rare kinds are among the elided"),
        "{view}"
    );
    assert!(view.len() < s.len() / 2, "{view}");
}

/// A step counter's app log (pipe-separated fields): two frequent lines a
/// second, and every four minutes a sync cycle of a rarer component whose
/// lines are the same each time.
fn sync_cycles() -> String {
    let mut s = String::new();
    let cycle = [
        "startTimer start autoSync",
        "getBinderPackageName packageName = com.example.health",
        "getBinderPackageName packageName = com.example.health",
        "initDataPrivacy the dataPrivacy switch is open, start push health data!",
        "initDataPrivacy the dataPrivacy is true",
        "initUserPrivacy the userPrivacy switch is open, start push user data!",
        "initUserPrivacy the userPrivacy is true",
        "ifCanSync not! no cloud version",
        "sendSyncFailedBroadcast",
    ];
    for k in 0..1200 {
        let at = format!(
            "20171223-{}:{}:{}:{}",
            22 + k / 3600,
            (k / 60) % 60,
            k % 60,
            (k * 37) % 1000
        );
        s.push_str(&format!(
            "{at}|Step_LSC|30002312|onStandStepChanged {}\n",
            3579 + k
        ));
        s.push_str(&format!(
            "{at}|Step_ExtSDM|30002312|calculateCaloriesWithCache totalCalories={}\n",
            126775 + k * 3
        ));
        if k % 240 == 100 {
            for l in cycle {
                s.push_str(&format!("{at}|HiH_Sync|30002312|{l}\n"));
            }
        }
    }
    s
}

/// A rare component's cycle seen again after the same lines is the same
/// event again: its first run shows every line, each later run its start
/// (the line after other lines).
#[test]
fn a_cycle_seen_again_shows_its_start_only() {
    let payload = sync_cycles();
    let (view, _) = compress_with(&["--type", "log", "--profile", "lean"], &payload);
    let shown = |what: &str| {
        view.lines()
            .filter(|l| !l.starts_with('\u{2026}') && l.ends_with(what))
            .count()
    };
    assert_eq!(shown("|startTimer start autoSync"), 5, "{view}");
    assert_eq!(
        shown("|initDataPrivacy the dataPrivacy is true"),
        1,
        "{view}"
    );
    assert_eq!(shown("|sendSyncFailedBroadcast"), 1, "{view}");
    assert_eq!(
        shown("|getBinderPackageName packageName = com.example.health"),
        2,
        "{view}"
    );
}

/// A syslog of many one-off kinds: daemons that each log a line of their
/// own, once and again later (another pid, another time), among cron,
/// kernel and session lines. The later copy is the same event again: the
/// first stays, the copy is counted with the rare lines elided.
fn one_off_syslog() -> String {
    let progs = [
        "acpid",
        "anacron",
        "avahi-daemon",
        "bluetoothd",
        "colord",
        "cups-browsed",
        "dbus-daemon",
        "dhclient",
        "dnsmasq",
        "fwupd",
        "gdm3",
        "kerneloops",
        "lightdm",
        "ModemManager",
        "NetworkManager",
        "ntpd",
        "polkitd",
        "postfix",
        "rsyslogd",
        "rtkit-daemon",
        "smartd",
        "snapd",
        "thermald",
        "udisksd",
        "upowerd",
        "whoopsie",
        "wpa_supplicant",
        "xinetd",
        "zed",
        "irqbalance",
    ];
    let msgs = [
        "starting up",
        "configuration reloaded",
        "received signal, reloading",
        "listening on socket",
        "client connected",
        "lease renewed",
        "device added",
        "device removed",
        "cache flushed",
        "policy updated",
    ];
    let mut s = String::new();
    for k in 0..600 {
        let at = format!(
            "Jun {:2} {:02}:{:02}:{:02} combo",
            9 + k / 200,
            k % 24,
            k % 60,
            (k * 7) % 60
        );
        let line = if k % 10 == 9 {
            let p = progs[(k / 10) % progs.len()];
            let m = msgs[(k / 10 * 7) % msgs.len()];
            format!("{at} {p}[{}]: {m}", 500 + k)
        } else {
            match k % 5 {
                0 => format!(
                    "{at} CRON[{}]: (root) CMD (run-parts /etc/cron.hourly)",
                    1000 + k
                ),
                1 => format!(
                    "{at} kernel: [{k}.{:03}] eth0: link up, 100Mbps, full-duplex",
                    k % 1000
                ),
                2 => format!("{at} systemd[1]: Started Session {k} of user cyrus."),
                3 => format!(
                    "{at} sshd(pam_unix)[{}]: session opened for user cyrus by (uid=0)",
                    2000 + k
                ),
                _ => format!(
                    "{at} su(pam_unix)[{}]: session closed for user news",
                    3000 + k
                ),
            }
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

#[test]
fn a_one_off_line_again_is_counted_not_shown_again() {
    let payload = one_off_syslog();
    let (view, _) = compress("lean", &payload);
    // The first copy of each daemon's line stays, the later one goes.
    assert!(view.contains("combo acpid[509]: starting up\n"), "{view}");
    assert!(!view.contains("acpid[809]"), "{view}");
    assert!(view.contains("dhclient[579]: policy updated\n"), "{view}");
    assert!(!view.contains("dhclient[879]"), "{view}");
    assert!(
        view.contains("more lines of rare kinds are among the elided"),
        "{view}"
    );
}

/// What a few lines share is stated only when it is short beside them
/// (four lines of ten fields between warnings: a marker listing the ten
/// costs as much as the lines); a long run still says it.
#[test]
fn a_marker_over_a_few_lines_states_no_long_summary() {
    let mut s = String::new();
    for k in 0..60 {
        let at = format!("2024-03-05T10:{:02}:{:02}Z", k / 60, k % 60);
        s.push_str(&format!(
            "{at} WARN slow frame number {k} took {}ms\n",
            k * 3
        ));
        for j in 0..4 {
            s.push_str(&format!("{at} INFO panel state vis={j}00500 oldVal=508 newVal=40000500 diff=40000008 fullscreenStackVis=0 dockedStackVis=0 lock=189667585 policy=3\n"));
        }
    }
    for k in 0..100 {
        s.push_str(&format!(
            "2024-03-05T11:{:02}:{:02}Z INFO tick n={k}\n",
            k / 60,
            k % 60
        ));
    }
    s.push_str("2024-03-05T12:00:00Z INFO done\n");
    let (view, _) = compress("lean", &s);
    // The panel line shown once; no marker repeats its fields.
    assert_eq!(
        view.lines().filter(|l| l.contains("policy=3")).count(),
        1,
        "{view}"
    );
    assert!(
        view.contains("\u{2026} 4 lines elided (caveman) \u{2026}\n"),
        "{view}"
    );
    assert!(
        view.contains("\u{2026} 98 lines elided (caveman): all level=INFO; n=1..98 \u{2026}"),
        "{view}"
    );
}

/// An strace of a program loading its locale: each category tried under
/// one spelling (`ENOENT`), then opened under the other, read and closed;
/// then a library read in blocks.
fn strace_locale() -> String {
    let mut s = String::from(
        "execve(\"/usr/bin/sha256sum\", [\"sha256sum\", \"x\"], 0x7ffd2a3b4c50 /* 24 vars */) = 0\n",
    );
    s.push_str("openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\nclose(3)                                = 0\n");
    for (k, c) in [
        "IDENTIFICATION",
        "MEASUREMENT",
        "TELEPHONE",
        "ADDRESS",
        "NAME",
        "PAPER",
        "MESSAGES",
        "MONETARY",
        "COLLATE",
        "TIME",
        "NUMERIC",
        "CTYPE",
    ]
    .iter()
    .enumerate()
    {
        s.push_str(&format!("openat(AT_FDCWD, \"/usr/lib/locale/C.UTF-8/LC_{c}\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n"));
        s.push_str(&format!(
            "openat(AT_FDCWD, \"/usr/lib/locale/C.utf8/LC_{c}\", O_RDONLY|O_CLOEXEC) = 3\n"
        ));
        s.push_str(&format!(
            "read(3, \"\\0\\0\\0\\1\"..., {}) = {}\n",
            4096,
            300 + k * 17
        ));
        s.push_str("close(3)                                = 0\n");
    }
    s.push_str("openat(AT_FDCWD, \"/usr/lib/x86_64-linux-gnu/libicuuc.so.72.1\", O_RDONLY) = 3\n");
    for k in 0..80 {
        s.push_str(&format!(
            "read(3, \"\\x{:02x}\\x00\\x01\"..., 16384) = 16384\n",
            k % 256
        ));
    }
    s.push_str("close(3)                                = 0\n+++ exited with 0 +++\n");
    s
}

/// Issue 40 rule 8 with compat's view as the ceiling: an strace whose
/// every open is an answer (which files it read) keeps one open of each
/// kind when keeping them all would cost more than compat's view; every
/// failed open (an error) stays.
#[test]
fn an_strace_stays_within_compat_and_keeps_every_failed_open() {
    let payload = strace_locale();
    let (_, compat) = compress("compat", &payload);
    let (view, lean) = compress("lean", &payload);
    assert!(lean <= compat, "lean {lean} > compat {compat}\n{view}");
    // Each failed open is shown, or named by its marker.
    for l in payload.lines().filter(|l| l.contains("ENOENT")) {
        let leaf = l.split('"').nth(1).unwrap().rsplit('/').next().unwrap();
        assert!(view.contains(l) || view.contains(leaf), "{l}\n{view}");
    }
    assert!(
        view.contains(" ENOENT: /usr/lib/locale/C.UTF-8/{"),
        "{view}"
    );
    assert!(
        view.contains("openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3"),
        "{view}"
    );
    assert!(view.contains("+++ exited with 0 +++"), "{view}");
}

/// One JSON object a line, the same program started twice: the second
/// start's lines differ from the first's in their `"ts"` epoch seconds
/// only, and are the same events again (counted, not shown again).
#[test]
fn a_time_fields_epoch_seconds_are_a_timestamp() {
    let start = [
        r#"{"level":"info","ts":@T@,"msg":"using config from file","file":"/etc/app/app.conf"}"#,
        r#"{"level":"info","ts":@T@,"msg":"GOMEMLIMIT is updated","GOMEMLIMIT":29511419904,"previous":9223372036854775807}"#,
        r#"{"level":"info","ts":@T@,"logger":"admin","msg":"admin endpoint started","address":"localhost:2019"}"#,
        r#"{"level":"info","ts":@T@,"logger":"http","msg":"server running","name":"srv0","protocols":["h1","h2"]}"#,
    ];
    let mut s = String::new();
    let mut t = 1_761_019_822.315_f64;
    for run in 0..2 {
        for l in start {
            t += 0.000_17;
            s.push_str("app  | ");
            s.push_str(&l.replace("@T@", &format!("{t:.7}")));
            s.push('\n');
        }
        for k in 0..12 {
            t += 1.5;
            s.push_str(&format!(
                r#"app  | {{"level":"info","ts":{t:.7},"logger":"http.log.access","msg":"handled request","uri":"/item/{}","status":200,"size":{}}}"#,
                k + run * 12,
                100 + k * 7
            ));
            s.push('\n');
        }
        t += 0.2;
        s.push_str(&format!(
            r#"app  | {{"level":"info","ts":{t:.7},"msg":"shutdown complete","exit_code":0}}"#
        ));
        s.push('\n');
    }
    let (view, _) = compress("lean", &s);
    assert_eq!(view.matches("GOMEMLIMIT is updated").count(), 1, "{view}");
    assert_eq!(view.matches("admin endpoint started").count(), 1, "{view}");
}

/// A run of lines without fields states its first words even when it
/// is short (a package manager's `Unpacking`/`Setting up` lines): the
/// share that bars a long field summary over a few lines is for fields.
#[test]
fn a_short_runs_first_words_are_stated() {
    let mut s = String::new();
    for k in 0..40 {
        s.push_str(&format!("Get:{k} http://deb.example.org/debian bookworm/main amd64 libfoo{k} amd64 1.{k}-1 [{} kB]\n", 10 + k));
    }
    for k in 0..6 {
        s.push_str(&format!(
            "Unpacking libfoo{k}:amd64 (1.{k}-1) ...\nSetting up libfoo{k}:amd64 (1.{k}-1) ...\n"
        ));
    }
    s.push_str("Processing triggers for man-db (2.11.2-2) ...\n");
    s.push_str("Processing triggers for libc-bin (2.36-9) ...\n");
    let (view, _) = compress("lean", &s);
    assert!(view.contains("first words: "), "{view}");
}
