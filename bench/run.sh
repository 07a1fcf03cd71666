#!/usr/bin/env bash
# Whole-process benchmarks: builds the payloads (bench/gen.py), the release
# binary, then times every command with hyperfine and prints medians.
#   bench/run.sh            all payloads
#   bench/run.sh json-30m   payloads whose name matches
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hyperfine is required (apt-get install hyperfine)"; exit 1; }
[ -f bench/data/json-30m.json ] || python3 bench/gen.py
cargo build --release -q
BIN=$PWD/target/release/caveman-engine
export CAVEMAN_HOME=$(mktemp -d)
trap 'rm -rf "$CAVEMAN_HOME"' EXIT
filter=${1:-.}
results=$(mktemp)
for f in bench/data/*; do
  name=$(basename "$f")
  [[ $name =~ $filter ]] || continue
  size=$(stat -c %s "$f")
  runs=10; [ "$size" -gt 20000000 ] && runs=5
  for cmd in compress detect; do
    hyperfine --warmup 1 --runs $runs --export-json "$results" \
      "$BIN $cmd < $f > /dev/null 2>&1" >/dev/null 2>&1
    median=$(python3 -c "import json,sys; r=json.load(open('$results'))['results'][0]; print('%.1f' % (r['median']*1000))")
    /usr/bin/time -f %M -o "$results.mem" "$BIN" $cmd < "$f" >/dev/null 2>&1
    peak=$(tail -1 "$results.mem")
    printf "%-24s %-9s %10s bytes  median %9s ms  peak %8s KB\n" "$name" "$cmd" "$size" "$median" "$peak"
  done
done
rm -f "$results" "$results.mem"
