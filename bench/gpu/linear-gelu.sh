#!/usr/bin/env bash
# The linear layer's figures (issue: fused epilogues at cuBLASLt speed), on
# the GPU machine: builds klx-run, then in $PROCS rounds (default 3) runs
# each bundle under ${1:-bench-linear} with klx-run (checked against the
# CPU and every element against cuBLAS's A x B with the epilogue applied
# on the CPU, then timed alternating launch by launch with cuBLASLt's
# GELU_BIAS matmul) and PyTorch's unfused and fused layers
# (bench/gpu/torch-linear.py), process by process, at each size of $SIZES,
# and prints the medians over processes with the card's state before and
# after. Bundles: `klx export samples/nvidia/linear_gelu.mlir -o DIR/NAME`.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bundles=${1:-$root/bench-linear}
logs=${2:-/tmp/klx-linear}
sizes=${SIZES:-8192x8192x8192 4096x4096x4096}
procs=${PROCS:-3}
mkdir -p "$logs"
source "$root/bench/gpu/gpu-common.sh"
run=$KLX_RUN
echo "before: $(card)" >"$logs/card.txt"
for ((p = 1; p <= procs; p++)); do
  for size in $sizes; do
    for dir in "$bundles"/*/; do
      name=$(basename "$dir")
      timeout 300 "$run" "$dir" --size="$size" --repeat=20 --json \
        >"$logs/$name@$size@$p.json" 2>"$logs/$name@$size@$p.err"
    done
    timeout 300 python3 "$root/bench/gpu/torch-linear.py" "$size" \
      >"$logs/torch@$size@$p.jsonl" 2>"$logs/torch@$size@$p.err"
  done
done
echo "after: $(card)" >>"$logs/card.txt"
cat "$logs/card.txt"
python3 - "$logs" <<'PY'
import glob, json, os, statistics, sys
from collections import defaultdict
logs = sys.argv[1]
med = lambda xs: statistics.median(xs) if xs else float("nan")
klx, torch = defaultdict(list), defaultdict(list)
for path in sorted(glob.glob(os.path.join(logs, "*@*@*.json"))):
    name, size, _ = os.path.basename(path)[:-5].split("@")
    try:
        klx[(name, size)].append(json.load(open(path)))
    except Exception:
        klx[(name, size)].append({"status": "no output"})
for path in sorted(glob.glob(os.path.join(logs, "torch@*@*.jsonl"))):
    for line in open(path):
        r = json.loads(line)
        torch[r["size"]].append(r)
print("| bundle | size | processes ok | klx ms | reference | reference ms | klx / reference (alternating) | epilogue ulps vs CPU, vs cuBLAS | PyTorch unfused ms | addmm+gelu ms | fused (cuBLASLt) ms | klx vs unfused |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for (name, size), rs in sorted(klx.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    ok = [r for r in rs if r.get("status") == "passed"]
    bad = "; ".join(r.get("status", "?") + " " + r.get("message", "") for r in rs if r not in ok)
    ms = med([r["time"]["median_ms"] for r in ok if "time" in r])
    ref = next((r.get("reference") for r in ok), "?")
    ref_ms = med([r["cublas_time"]["median_ms"] for r in ok if "cublas_time" in r])
    ratios = [r["alternating_tflops"] / r["cublas_tflops"] for r in ok if r.get("cublas_tflops")]
    ratio = f"{med(ratios):.3f}x [{min(ratios):.3f}, {max(ratios):.3f}]" if ratios else "-"
    ulps = [(r.get("epilogue_ulps") or {}) for r in ok]
    ulp = f"{max((u.get('cpu') or 0) for u in ulps):.2f}, {max((u.get('cublas') or 0) for u in ulps):.2f}" if ulps else "-"
    t = torch.get(size, [])
    tm = {w: med([r[w]["ms"] for r in t]) for w in ("unfused", "addmm+gelu", "fused")}
    print(f"| {name} | {size} | {len(ok)}/{len(rs)}{' (' + bad + ')' if bad else ''} | {ms:.4f} | {ref} | {ref_ms:.4f} | {ratio} | {ulp} | "
          f"{tm['unfused']:.4f} | {tm['addmm+gelu']:.4f} | {tm['fused']:.4f} | {tm['unfused'] / ms:.2f}x |")
dev = next((r.get("device") for rs in klx.values() for r in rs if r.get("device")), "?")
tv = next((r.get("torch") for rs in torch.values() for r in rs), "?")
print(f"device: {dev}; PyTorch {tv}; medians over processes of each process's median of 20 launches")
for size, rs in sorted(torch.items()):
    print(f"PyTorch {size} rel. errors vs float64: " + ", ".join(f"{w} {max(r[w]['rel_error'] for r in rs):.1e}" for w in ("unfused", "addmm+gelu", "fused")))
PY
