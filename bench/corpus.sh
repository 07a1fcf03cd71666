#!/usr/bin/env bash
# Records what a binary prints for every payload of the shared corpus
# (../shared/corpus, read in place; never copied into the project):
# `compress`, `compress --query error`, `detect`, and the same three under
# `--profile lean` plus `compress --profile lean --budget 500`, stdout and stderr.
#   bench/corpus.sh BIN OUTDIR           record
#   bench/corpus.sh BIN OUTDIR BASEDIR   record, then compare with BASEDIR
# The second form proves a refactor changed no byte: it lists every file
# whose output differs and exits 1 if any does.
set -euo pipefail
bin=$(realpath "$1"); out=$2; base=${3:-}
corpus=${CORPUS:-$(dirname "$0")/../../shared/corpus}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS)" >&2; exit 2; }
mkdir -p "$out"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export CAVEMAN_HOME=$home
unset CAVEMAN_CCR_DIR CAVEMAN_CCR_MAX_BYTES CAVE_ENGINE_TOON CAVEMAN_TIMINGS
n=0
while IFS= read -r -d '' f; do
  rel=${f#"$corpus"/}
  key=${rel//\//__}
  "$bin" compress < "$f" > "$out/$key.c.out" 2> "$out/$key.c.err" || echo "exit $?" >> "$out/$key.c.err"
  "$bin" compress --query error < "$f" > "$out/$key.q.out" 2> "$out/$key.q.err" || echo "exit $?" >> "$out/$key.q.err"
  "$bin" detect < "$f" > "$out/$key.d.out" 2>&1 || echo "exit $?" >> "$out/$key.d.out"
  "$bin" compress --profile lean < "$f" > "$out/$key.lc.out" 2> "$out/$key.lc.err" || echo "exit $?" >> "$out/$key.lc.err"
  "$bin" compress --profile lean --query error < "$f" > "$out/$key.lq.out" 2> "$out/$key.lq.err" || echo "exit $?" >> "$out/$key.lq.err"
  "$bin" compress --profile lean --budget 500 < "$f" > "$out/$key.lb.out" 2> "$out/$key.lb.err" || echo "exit $?" >> "$out/$key.lb.err"
  "$bin" detect --profile lean < "$f" > "$out/$key.ld.out" 2>&1 || echo "exit $?" >> "$out/$key.ld.out"
  n=$((n + 1))
done < <(find "$corpus" -type f ! -name MANIFEST.tsv -print0 | sort -z)
echo "recorded $n payloads into $out"
if [ -n "$base" ]; then
  if diff -rq "$base" "$out"; then
    echo "identical to $base"
  else
    echo "outputs differ from $base" >&2
    exit 1
  fi
fi
