#!/usr/bin/env bash
# The lean floor (issue 40, item 8): "a lean view is never larger than
# compat's view of the same file nor than the lossless minification".
# Lists every corpus file whose lean view has more tokens than compat's, with
# the reason, from the views ../shared/eval wrote:
#   retrieve line   the lean view without its closing retrieve line (item 7:
#                   the handle in the view; compat has none) is not larger
#   keeps facts     lean keeps facts (error facts) compat drops
#   whole           lean shows the file whole (a small file read whole, a
#                   config lean does not cut) where compat cuts
#   markers         the kept lines cost no more than compat's; lean's markers
#                   state more (item 6: levels, fields, ranges, run summary)
#   code bodies     a source file whose lean view keeps bodies compat's
#                   skeleton cuts (the eval counts signatures only)
#   repeats         the view holds consecutive identical lines (provable
#                   repetition lean could fold)
#   waste           none of the above: larger for nothing the eval counts
# and every JSON view larger than the body minified (a waste by definition).
#   bench/lean_floor.sh BIN [WORK]     WORK defaults to /tmp/caveman-lean-floor
#   bench/lean_floor.sh --views WORK   only read WORK's views (already made)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval_run=$here/../../shared/eval/run
[ -x "$eval_run" ] || { echo "bench/lean_floor.sh: $eval_run not found (the shared evaluation)" >&2; exit 2; }
if [ "$1" = --views ]; then
  work=$2
else
  bin=$(realpath "$1")
  work=${2:-/tmp/caveman-lean-floor}
  unset CAVEMAN_ENGINE_PROFILE CAVEMAN_ENGINE_BUDGET CAVE_ENGINE_TOON CAVEMAN_TIMINGS
  "$eval_run" all --bin "$bin" --systems caveman,caveman-lean --work "$work" --regen > "$work.log" 2>&1 ||
    { cat "$work.log" >&2; exit 1; }
fi
venv=${CAVEMAN_EVAL_VENV:-$HOME/.cache/caveman-eval/venv}
export TIKTOKEN_CACHE_DIR=${TIKTOKEN_CACHE_DIR:-$HOME/.cache/caveman-eval/tiktoken}
"$venv/bin/python" - "$work" "$here/../../shared/corpus" <<'PY'
import csv, json, os, re, sys
import tiktoken
work, corpus = sys.argv[1], sys.argv[2]
enc = tiktoken.get_encoding("o200k_base")
ntok = lambda s: len(enc.encode(s, disallowed_special=()))
rows = list(csv.DictReader(open(os.path.join(work, "results.tsv"), encoding="utf-8"), delimiter="\t"))
by = {}
for r in rows:
    by.setdefault(r["file"], {})[r["system"]] = r
def view(system, rel):
    p = os.path.join(work, "views", system, rel)
    with open(p, encoding="utf-8", errors="replace") as f:
        return f.read()
RETRIEVE = re.compile(r'[^\n]*caveman-engine retrieve ccr_[0-9a-f]+ \[QUERY\][^\n]*')
def without_note(v):
    # A JSON member/element or a line: the note and the separator before it.
    v = re.sub(r',?\{?"__caveman_retrieve__":"[^"]*"\}?', "", v)
    return RETRIEVE.sub("", v)
def repeats(v):
    lines = v.split("\n")
    return sum(1 for a, b in zip(lines, lines[1:]) if a == b and a.strip())
larger = []
for f, d in sorted(by.items()):
    c, l = d.get("caveman"), d.get("caveman-lean")
    if not c or not l or c["status"] != "ok" or l["status"] != "ok":
        continue
    ct, lt = int(c["tokens_after"]), int(l["tokens_after"])
    if lt <= ct:
        continue
    lv = view("caveman-lean", f)
    orig = open(os.path.join(corpus, f), encoding="utf-8", errors="replace").read()
    reasons = []
    if ntok(without_note(lv).rstrip()) <= ct:
        reasons.append("retrieve line")
    if int(l["survived"]) > int(c["survived"]) or int(l["err_survived"]) > int(c["err_survived"]):
        reasons.append("keeps facts (%s/%s vs %s/%s, errors %s vs %s)" % (
            l["survived"], l["facts"], c["survived"], c["facts"], l["err_survived"], c["err_survived"]))
    if lt >= int(l["tokens_before"]) or lv.strip() == orig.strip():
        reasons.append("whole")
    cv = view("caveman", f)
    content = lambda v: "\n".join(x for x in without_note(v).split("\n") if "(caveman)" not in x and "caveman:" not in x)
    if not reasons and ntok(content(lv)) <= ntok(content(cv)):
        reasons.append("markers (the same kept lines; lean's markers state what the dropped lines share)")
    if l["type"] == "code" and "whole" not in reasons:
        reasons.append("code bodies (lean keeps what the eval does not count: bodies compat cuts)")
    rep = repeats(lv)
    if rep:
        reasons.append("repeats (%d lines repeat the line before)" % rep)
    if not reasons:
        reasons.append("waste")
    larger.append((f, l["type"], int(l["tokens_before"]), ct, lt, reasons))
for f, t, tb, ct, lt, rs in sorted(larger, key=lambda x: x[3] - x[4]):
    print("%-52s %-10s before %7d compat %7d lean %7d (+%d): %s" % (f, t, tb, ct, lt, lt - ct, "; ".join(rs)))
print("%d files: lean view larger than compat's" % len(larger))
kinds = {}
for *_, rs in larger:
    k = rs[0].split(" (")[0]
    kinds[k] = kinds.get(k, 0) + 1
print("  by first reason: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
# The minification floor (JSON: the body minified, in input order).
over = 0
for f, d in sorted(by.items()):
    l = d.get("caveman-lean")
    if not l or l["status"] != "ok" or l["type"] != "json":
        continue
    orig = open(os.path.join(corpus, f), encoding="utf-8", errors="replace").read()
    try:
        docs = [json.loads(orig)]
    except ValueError:
        try:
            docs = [json.loads(x) for x in orig.splitlines() if x.strip()]
        except ValueError:
            continue
    mini = "\n".join(json.dumps(x, separators=(",", ":"), ensure_ascii=False) for x in docs)
    mt = ntok(mini)
    if int(l["tokens_after"]) > mt:
        over += 1
        print("%-52s json       lean %7d > minified %7d" % (f, int(l["tokens_after"]), mt))
print("%d JSON files: lean view larger than the body minified" % over)
PY
