#!/usr/bin/env bash
# Whole-process benchmarks: builds the payloads (bench/gen.py and, when
# ../shared is there, ../shared/bench/gen_perf.py: orders30m.json,
# small8k.json, app30m.log, term30m.txt; on demand), the release binary,
# then times `compress`, `compress --profile lean` and `detect` on every
# payload with hyperfine and prints medians and peak RSS.
#   bench/run.sh            all payloads
#   bench/run.sh json-30m   payloads whose name matches
# Honours CARGO_TARGET_DIR; fails on the first error; leaves no temp files.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "bench/run.sh: hyperfine is required (apt-get install hyperfine)" >&2; exit 1; }
filter=${1:-.}
python3 bench/gen.py bench/data "$filter" >/dev/null
perf=../shared/bench/gen_perf.py
if [ -f "$perf" ]; then python3 "$perf" bench/data; else echo "bench/run.sh: $perf not found: its four payloads skipped" >&2; fi
cargo build --release -q
BIN=${CARGO_TARGET_DIR:-$PWD/target}/release/caveman-engine
[ -x "$BIN" ] || { echo "bench/run.sh: no binary at $BIN" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CAVEMAN_HOME=$work/home
unset CAVEMAN_CCR_DIR CAVEMAN_CCR_MAX_BYTES CAVE_ENGINE_TOON CAVEMAN_TIMINGS
for f in bench/data/*; do
  name=$(basename "$f")
  [[ $name =~ $filter ]] || continue
  size=$(stat -c %s "$f")
  runs=10; [ "$size" -gt 20000000 ] && runs=5
  for cmd in compress "compress --profile lean" detect; do
    hyperfine --warmup 1 --runs $runs --export-json "$work/r.json" \
      "$BIN $cmd < $f > /dev/null 2>&1" >/dev/null 2>&1
    median=$(python3 -c "import json; r=json.load(open('$work/r.json'))['results'][0]; print('%.1f' % (r['median']*1000))")
    /usr/bin/time -f %M -o "$work/mem" "$BIN" $cmd < "$f" >/dev/null 2>&1
    peak=$(tail -1 "$work/mem")
    printf "%-24s %-24s %10s bytes  median %9s ms  peak %8s KB\n" "$name" "$cmd" "$size" "$median" "$peak"
  done
done
