#!/usr/bin/env python3
"""Builds the benchmark payloads deterministically into bench/data/ (git-ignored).

usage: bench/gen.py [OUTDIR]
"""
import json, os, random, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data")
os.makedirs(out, exist_ok=True)

def orders_json(n, seed):
    r = random.Random(seed)
    statuses = ["fulfilled"] * 17 + ["shipped", "processing", "error"]
    regions = ["eu-west-1", "us-east-1", "ap-south-1"]
    recs = []
    for i in range(n):
        recs.append({
            "order_id": "ord-%07d" % i,
            "customer": "cust-%04d" % r.randrange(5000),
            "status": r.choice(statuses),
            "total_cents": r.randrange(100, 100000),
            "region": r.choice(regions),
            "currency": "EUR",
            "items": r.randrange(1, 9),
            "created_at": "2026-%02d-%02dT%02d:%02d:%02dZ" % (r.randrange(1, 13), r.randrange(1, 29), r.randrange(24), r.randrange(60), r.randrange(60)),
            "shipping": {"method": r.choice(["ground", "air", "pickup"]), "days": r.randrange(1, 10)},
        })
    return json.dumps({"query": "orders", "page": 1, "orders": recs}, indent=2)

def low_repetition_json(n, seed):
    r = random.Random(seed)
    words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randrange(3, 12))) for _ in range(5000)]
    recs = [{w: " ".join(r.choice(words) for _ in range(r.randrange(1, 8))) for w in r.sample(words, r.randrange(3, 9))} for _ in range(n)]
    return json.dumps(recs, indent=2)

def orders_csv(n, seed):
    r = random.Random(seed)
    lines = ["order_id,region,status,items,total_eur,customer,created_at"]
    for i in range(n):
        lines.append("ord-%07d,%s,%s,%d,%d,cust-%04d,2026-%02d-%02d" % (
            i, r.choice(["amer", "emea", "apac"]), r.choice(["fulfilled"] * 30 + ["shipped", "processing", "failed"]),
            r.randrange(1, 7), r.randrange(10, 900), r.randrange(5000), r.randrange(1, 13), r.randrange(1, 29)))
    return "\n".join(lines) + "\n"

def write(name, text):
    data = text.encode() if isinstance(text, str) else text
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    print("%-22s %10d bytes" % (name, len(data)))

def sized(gen, target, seed, per_record):
    return gen(max(10, target // per_record), seed)

write("json-8k.json", orders_json(24, 1))
write("json-1m.json", orders_json(3400, 2))
write("json-8m.json", orders_json(27000, 3))
write("json-30m.json", orders_json(100000, 4))
write("json-64m.json", orders_json(205000, 5))
write("json-lowrep-8m.json", low_repetition_json(40000, 6))
write("csv-1m.csv", orders_csv(17000, 7))
write("csv-10m.csv", orders_csv(170000, 8))
write("csv-64m.csv", orders_csv(1100000, 9))
def log_lines(n, seed):
    r = random.Random(seed)
    levels = ["INFO"] * 12 + ["WARN", "DEBUG", "ERROR"]
    comps = ["dfs.DataNode", "dfs.FSNamesystem", "ipc.Server", "mapred.TaskTracker"]
    out = []
    for i in range(n):
        out.append("2026-11-%02d %02d:%02d:%02d,%03d %s %s: block blk_%d from /10.%d.%d.%d:%d terminating" % (
            1 + i // 200000, r.randrange(24), r.randrange(60), r.randrange(60), r.randrange(1000),
            r.choice(levels), r.choice(comps), r.randrange(10**12), r.randrange(256), r.randrange(256), r.randrange(256), r.randrange(1024, 65535)))
    return "\n".join(out) + "\n"

write("log-30m.log", log_lines(300000, 11))
write("adv-one-char-8m.txt", "a" * (8 << 20))
r = random.Random(10)
write("adv-cjk-emoji-8m.txt", "".join(r.choice("日本語中文字漢字のテキスト한국어😀🎉🚀、。 ") for _ in range(2_600_000)))
write("adv-invalid-8m.bin", bytes(r.randrange(256) for _ in range(8 << 20)))
write("adv-spaces-8m.txt", " " * (8 << 20))
# 64 MiB of the adversarial texts (the 8 MiB ones repeated): "64 MiB of any
# input under 2.5 s" holds for the hardest inputs, not only for JSON and CSV.
cjk = open(os.path.join(out, "adv-cjk-emoji-8m.txt"), "rb").read()
write("adv-cjk-emoji-64m.txt", cjk * 8)
inv = open(os.path.join(out, "adv-invalid-8m.bin"), "rb").read()
write("adv-invalid-64m.bin", inv * 8)
# One 64 MiB pre-tokenizer piece (a run of one class of characters): random
# lowercase letters, and a DNA-like sequence (uppercase ACGT, as an
# unwrapped genome in an API response would be). Counted in windows.
r = random.Random(12)
raw = r.randbytes(64 << 20)
write("adv-letters-64m.txt", raw.translate(bytes(b"abcdefghijklmnopqrstuvwxyz"[i % 26] for i in range(256))))
write("adv-dna-64m.txt", raw.translate(bytes(b"ACGT"[i % 4] for i in range(256))))
write("adv-one-char-64m.txt", "a" * (64 << 20))
# Mostly valid text with a bad byte every 100 kB: converted, cut at letter
# boundaries, counted on both cores without the long-piece encoder.
write("adv-cjk-badbytes-64m.bin", b"\xff".join(cjk[i:i + 100_000] for i in range(0, len(cjk), 100_000)) * 8)
