//! Issue 40 rule 8 over documents, HTML pages, configs and diffs: a lean
//! view is never larger than compat's view of the same payload. A package
//! index (links set one a line with `<br>`) folds its names to one
//! pattern; a policy config that repeats a block of install scripts
//! points at its first copy. Each payload is rebuilt here from the shapes
//! real tools and sites print.

use yaml_rust2::YamlLoader;

use crate::util::TestCommand;

/// A PEP 503 "simple" index page: one link a line, set with `<br>`.
fn package_index() -> String {
    let mut page = String::new();
    for pkg in ["mmcv", "mmcv_full"] {
        for v in ["1.6.0", "1.6.1", "1.6.2", "1.7.0", "1.7.1", "1.7.2"] {
            for py in ["cp38", "cp39", "cp310"] {
                for plat in ["manylinux1_x86_64", "win_amd64"] {
                    let f = format!("../torch1.12.0/{pkg}-{v}-{py}-{py}-{plat}.whl");
                    page.push_str(&format!("<a href=\"{f}\">{f}</a><br>\n"));
                }
            }
        }
    }
    page
}

/// An OS policy: for each OS version a group that waits for cloud-init
/// and installs an agent with the same two scripts.
fn os_policy() -> String {
    let mut s = String::from("id: ops-agent-policy\nmode: ENFORCEMENT\nresourceGroups:\n");
    for ver in ["18.04", "20.04", "22.04", "23.10", "24.04"] {
        s.push_str(&format!(
            "- inventoryFilters:\n  - osShortName: ubuntu\n    osVersion: '{ver}'\n  resources:\n\
             \x20 - id: wait-for-cloud-init\n    exec:\n      validate:\n        script: \"cloud-init status --wait; echo {ver}; exit 100;\"\n        interpreter: SHELL\n      enforce:\n        script: \"echo hello\"\n        interpreter: SHELL\n\
             \x20 - id: install-agent\n    exec:\n      validate:\n        script: \"[ $(dpkg-query --show --showformat '${{Version}}' 'google-cloud-ops-agent' | cut -d~ -f 1) == '$agent_version' ] && exit 100 || exit 101;\"\n        interpreter: SHELL\n      enforce:\n        script: curl -sSO https://dl.google.com/cloudagents/add-google-cloud-ops-agent-repo.sh; sudo bash add-google-cloud-ops-agent-repo.sh --also-install --version=$agent_version;\n        interpreter: SHELL\n"
        ));
    }
    s
}

/// A README: headings, prose and examples.
fn readme() -> String {
    let mut s = String::from("# widget\n\nA small library that draws widgets.\n\n");
    for k in 0..12 {
        s.push_str(&format!(
            "## Feature {k}\n\nFeature {k} draws a widget of kind {k}. It takes a size and a colour, and it returns the widget it drew so that callers can place it. The default size is {k}0 pixels; a size over 4096 is refused with an error.\n\n```rust\nlet w = widget::draw_{k}(Size::px({k}0), Colour::Red)?;\n```\n\n"
        ));
    }
    s
}

fn after(tc: &TestCommand, args: &[&str], input: &str) -> (u64, String) {
    let r = tc.run(args, input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    let n = r.report()["tokens_after"].as_u64().expect("tokens_after");
    (n, String::from_utf8(r.stdout).expect("UTF-8 view"))
}

#[test]
fn lean_views_of_documents_pages_and_configs_are_never_larger_than_compat() {
    let tc = TestCommand::new();
    for (what, p) in [
        ("package index", package_index()),
        ("os policy", os_policy()),
        ("readme", readme()),
    ] {
        let (c, _) = after(&tc, &["compress"], &p);
        let (l, view) = after(&tc, &["compress", "--profile", "lean"], &p);
        assert!(l <= c, "{what}: lean {l} > compat {c} tokens\n{view}");
    }
}

#[test]
fn a_package_index_folds_its_names_to_one_pattern() {
    let tc = TestCommand::new();
    let (_, v) = after(&tc, &["compress", "--profile", "lean"], &package_index());
    let mut lines = v.lines();
    assert_eq!(
        lines.next(),
        Some("../torch1.12.0/mmcv-1.6.0-cp38-cp38-manylinux1_x86_64.whl")
    );
    assert!(
        v.contains("\u{2026} 69 lines elided (caveman): names ../torch1.12.0/{mmcv|mmcv_full}-{1.6.0|1.6.1|1.6.2|1.7.0|1.7.1|1.7.2}-{cp38|cp39|cp310}-{cp38|cp39|cp310}-{win_amd64.whl|manylinux1_x86_64.whl} \u{2026}\n"),
        "{v}"
    );
    assert!(
        v.contains("../torch1.12.0/mmcv_full-1.7.2-cp310-cp310-win_amd64.whl\n"),
        "{v}"
    );
}

#[test]
fn a_repeated_block_of_install_scripts_points_at_its_first_copy() {
    let tc = TestCommand::new();
    let orig = os_policy();
    let (_, v) = after(&tc, &["compress", "--profile", "lean"], &orig);
    // The first copy stays whole, each later one is a marker at its
    // column that names it; every OS version stays.
    assert_eq!(v.matches("script: curl -sSO").count(), 1, "{v}");
    assert_eq!(
        v.matches("  # \u{2026} 8 lines elided (caveman) \u{2026} the same as resourceGroups[0].resources[1]\n").count(),
        4,
        "{v}"
    );
    for ver in ["18.04", "20.04", "22.04", "23.10", "24.04"] {
        assert!(v.contains(&format!("osVersion: '{ver}'")), "{v}");
    }
    let body: String = v
        .lines()
        .filter(|l| !l.contains("caveman-engine retrieve"))
        .map(|l| format!("{l}\n"))
        .collect();
    let parsed = YamlLoader::load_from_str(&body).expect("the view parses as YAML");
    let groups = parsed[0]["resourceGroups"].as_vec().expect("groups");
    assert_eq!(groups.len(), 5);
}
