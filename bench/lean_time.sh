#!/usr/bin/env bash
# CPU time of the two profiles over the shared corpus (issue 39's bar:
# lean within 1.5x compat's time). Runs `compress` and `detect` in each
# profile over every payload (../shared/corpus, read in place), twice, and
# prints the lower user+sys CPU seconds of each and the ratio lean/compat.
#   bench/lean_time.sh BIN
# Every call is a new process, as an agent's hook makes it: per-process
# costs (compiling regexes, building tables) count as they do there.
set -euo pipefail
bin=$(realpath "$1")
corpus=${CORPUS:-$(dirname "$0")/../../shared/corpus}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS)" >&2; exit 2; }
home=$(mktemp -d)
list=$(mktemp)
trap 'rm -rf "$home" "$list"' EXIT
export CAVEMAN_HOME=$home
unset CAVEMAN_CCR_DIR CAVEMAN_CCR_MAX_BYTES CAVE_ENGINE_TOON CAVEMAN_TIMINGS CAVEMAN_ENGINE_PROFILE
find "$corpus" -type f ! -name MANIFEST.tsv | sort > "$list"
# CPU seconds (user+sys, children included) of one pass of `cmd profile`.
pass() {
  /usr/bin/time -f "%U %S" bash -c '
    while IFS= read -r f; do "$0" "$1" --profile "$2" < "$f" > /dev/null 2>&1 || true; done < "$3"
  ' "$bin" "$1" "$2" "$list" 2>&1 >/dev/null | tail -n1 | awk '{printf "%.2f", $1 + $2}'
}
best() {
  local a b
  a=$(pass "$1" "$2"); b=$(pass "$1" "$2")
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (a < b ? a : b) }'
}
n=$(wc -l < "$list")
for cmd in compress detect; do
  c=$(best "$cmd" compat); l=$(best "$cmd" lean)
  awk -v cmd="$cmd" -v n="$n" -v c="$c" -v l="$l" \
    'BEGIN { printf "%-8s %d payloads  compat %6.2f s  lean %6.2f s  lean/compat %.2f\n", cmd, n, c, l, (c > 0 ? l / c : 0) }'
done
