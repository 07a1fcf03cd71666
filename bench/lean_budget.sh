#!/usr/bin/env bash
# Budget keeps the cause (issue 40, item 9): of the corpus files that hold
# an error fact (../shared/eval's fact extractors), how many keep at least
# one error fact in their lean view under `--budget 500` and `--budget 2000`,
# and whether every view that lost error facts says so in a marker
# ("… error lines … the budget had no room for them", "… with errors did
# not fit").
#   bench/lean_budget.sh BIN [WORK]      WORK defaults to /tmp/caveman-lean-budget
# Prints one line per file that misses (no error fact kept, no note of what
# did not fit, or a view over its budget), then the counts; exits 0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "$1")
work=${2:-/tmp/caveman-lean-budget}
eval_run=$here/../../shared/eval/run
[ -x "$eval_run" ] || { echo "bench/lean_budget.sh: $eval_run not found (the shared evaluation)" >&2; exit 2; }
unset CAVEMAN_ENGINE_PROFILE CAVEMAN_ENGINE_BUDGET CAVE_ENGINE_TOON CAVEMAN_TIMINGS
s500="caveman:--profile lean --budget 500"
s2000="caveman:--profile lean --budget 2000"
"$eval_run" all --bin "$bin" --systems "$s500,$s2000" --work "$work" --regen > "$work.log" 2>&1 ||
  { cat "$work.log" >&2; exit 1; }
python3 - "$work" <<'PY'
import csv, os, re, sys
work = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(work, "results.tsv"), encoding="utf-8"), delimiter="\t"))
# A marker that says how many error units the budget could not fit.
NOTE = re.compile(r"\d+ error \w+ are among those elided|\d+ \w+ with errors did not fit")
def view(system, rel):
    p = os.path.join(work, "views", re.sub(r"[^A-Za-z0-9_.-]+", "_", system), rel)
    with open(p, encoding="utf-8", errors="replace") as f:
        return f.read()
for budget in (500, 2000):
    system = "caveman:--profile lean --budget %d" % budget
    sel = [r for r in rows if r["system"] == system and r["status"] == "ok" and int(r["err_facts"]) > 0]
    keep = silent = over = 0
    for r in sorted(sel, key=lambda r: r["file"]):
        ne, ns = int(r["err_facts"]), int(r["err_survived"])
        tokens = int(r["tokens_after"])
        v = view(system, r["file"])
        said = bool(NOTE.search(v))
        problems = []
        if ns == 0:
            problems.append("no error fact kept")
        else:
            keep += 1
        if ns < ne and not said and tokens < int(r["tokens_before"]):
            silent += 1
            problems.append("lost %d error facts without a note" % (ne - ns))
        if tokens > budget:
            over += 1
            problems.append("over budget")
        if problems:
            print("budget %-5d %-60s errors %d/%d tokens %d: %s" % (
                budget, r["file"], ns, ne, tokens, "; ".join(problems)))
    print("budget %d: %d/%d files with an error fact keep one; %d lose some without a note; %d over budget"
          % (budget, keep, len(sel), silent, over))
PY
