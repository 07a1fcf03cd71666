#!/usr/bin/env bash
# Savings and fact survival of compat and lean (and lean with budgets) over
# ../shared/corpus with ../shared/eval: the table in BENCHMARKS.md.
#   bench/eval.sh [WORK] [SYSTEMS]
# Builds the release binary first. WORK defaults to /tmp/caveman-eval-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/caveman-eval-bench}
systems=${2:-caveman,caveman-lean,caveman:--profile lean --budget 2000,caveman:--profile lean --budget 500,headtail}
eval_run=../shared/eval/run
[ -x "$eval_run" ] || { echo "bench/eval.sh: $eval_run not found (the shared evaluation)" >&2; exit 2; }
cargo build --release --quiet
unset CAVEMAN_ENGINE_PROFILE CAVEMAN_ENGINE_BUDGET CAVE_ENGINE_TOON CAVEMAN_TIMINGS
export CAVEMAN_CCR_DIR="$work/ccr"
rm -rf "$work"
mkdir -p "$work/ccr"
chmod 700 "$work/ccr"
"$eval_run" all --bin target/release/caveman-engine --systems "$systems" --work "$work"
