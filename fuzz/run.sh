#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer instrumentation (what `cargo fuzz
# build` does, without needing cargo-fuzz) and runs each for SECONDS
# (default 600) on one core, seeded with fuzz/seeds/<target> and, when
# present, the shared corpus (read in place, never copied).
#   fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}; shift || true
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(compress detect gofmt retrieve_query toon_decode mcp_framing agent png_deflate pixel_render pixel_simulate)
out=${FUZZ_TARGET_DIR:-/tmp/caveman-fuzz-target}
triple=$(rustc -vV | sed -n 's/^host: //p')
RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
 -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions" \
  cargo +nightly build --release --target-dir "$out" --target "$triple"
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  extra=()
  case $t in
    compress|detect|retrieve_query) [ -d ../../shared/corpus ] && extra=(../../shared/corpus) ;;
    gofmt) command -v go >/dev/null && extra=("$(go env GOROOT)/src/go/printer/testdata") ;;
  esac
  echo "== $t for ${secs}s"
  "$out/$triple/release/$t" -max_total_time="$secs" -rss_limit_mb=4096 -max_len=1048576 \
    -artifact_prefix="artifacts/$t/" "corpus/$t" "seeds/$t" "${extra[@]}" 2>&1 | tail -3
done
