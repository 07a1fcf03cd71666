#!/usr/bin/env bash
# Savings and fact survival over ../shared/corpus with ../shared/eval: the
# tables in BENCHMARKS.md.
#   bench/eval.sh [WORK]
# 1. compat and lean side by side (with the naive head+tail cut to compat's
#    token count);
# 2. lean with --budget 2000 and --budget 500, each beside a head+tail cut
#    to the same token count (the budget views stand in for `caveman`'s,
#    whose token counts the naive cuts follow).
# Builds the release binary first. WORK defaults to /tmp/caveman-eval-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/caveman-eval-bench}
eval_run=../shared/eval/run
[ -x "$eval_run" ] || { echo "bench/eval.sh: $eval_run not found (the shared evaluation)" >&2; exit 2; }
cargo build --release --quiet
unset CAVEMAN_ENGINE_PROFILE CAVEMAN_ENGINE_BUDGET CAVE_ENGINE_TOON CAVEMAN_TIMINGS
export CAVEMAN_CCR_DIR="$work/ccr"
rm -rf "$work"
mkdir -p "$work/ccr"
chmod 700 "$work/ccr"
bin=target/release/caveman-engine
table() { grep -E '^(type|code|config|diff|html|json|log|search-result|tabular|terminal|text|ALL) ' | grep -v ALL-common; }
echo "== compat and lean"
"$eval_run" all --bin "$bin" --systems caveman,caveman-lean,headtail --work "$work/profiles" | table
for b in 2000 500; do
  echo
  echo "== lean --budget $b beside head+tail at the same tokens (row 'caveman' is the budget view)"
  sys="caveman:--profile lean --budget $b"
  "$eval_run" gen --bin "$bin" --systems "$sys" --work "$work/b$b" >/dev/null
  mkdir -p "$work/b$b-vs/views"
  cp -r "$work/b$b/views/caveman_--profile_lean_--budget_$b" "$work/b$b-vs/views/caveman"
  "$eval_run" all --bin "$bin" --systems caveman,headtail --work "$work/b$b-vs" | table
done
