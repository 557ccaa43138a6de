#!/usr/bin/env bash
# The performance goal of klx's GEMM schedules: builds klx-run here (the
# GPU machine), runs every bundle under ${1:-bench-bundles} at 8192^3 bf16
# with f32 accumulation, and cuBLAS on the same shape in the same run, and
# prints one table. Bundles come from bench/gpu/export-gemm-bundles.sh.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bundles=${1:-$root/bench-bundles}
logs=${2:-/tmp/klx-bench}
mkdir -p "$logs"
KLX_CUBLAS=$(bash "$root/bench/gpu/build-runner.sh" /tmp/klx-build-run) || exit 2
export KLX_CUBLAS
run=/tmp/klx-build-run/bin/klx-run
for dir in "$bundles"/*/; do
  name=$(basename "$dir")
  timeout 300 "$run" "$dir" --size=8192x8192x8192 --repeat=20 --json \
    >"$logs/$name.json" 2>"$logs/$name.err"
  echo "$name rc=$?" >>"$logs/rc.txt"
done
python3 - "$logs" <<'PY'
import json, os, sys, glob
logs = sys.argv[1]
rows = []
for path in sorted(glob.glob(os.path.join(logs, "*.json"))):
    name = os.path.basename(path)[:-5]
    try:
        r = json.load(open(path))
    except Exception as e:
        rows.append((name, None)); continue
    rows.append((name, r))
first = next((r for _, r in rows if r and r.get("device")), {})
print(f"device: {first.get('device', '?')}, 8192x8192x8192 bf16 -> f32, 20 timed runs, median")
print(f"peak: {first.get('peak_tflops', 0):.0f} TFLOP/s ({first.get('peak_formula', '?')})")
print("ms, TFLOP/s, % peak: klx alone; the ratio: klx and cuBLAS alternating launch by launch")
print(f"| schedule | ms | TFLOP/s | % peak | alternating: klx TFLOP/s | cuBLAS TFLOP/s | klx / cuBLAS | rel. error vs CPU (16 rows) | vs cuBLAS (all) | status |")
print("|---|---|---|---|---|---|---|---|---|---|")
for name, r in rows:
    if not r:
        print(f"| {name} | | | | | | | | | no output |"); continue
    t = r.get("time", {}).get("median_ms", 0)
    tf = r.get("tflops", 0); peak = r.get("peak_tflops", 0) or 1
    bt = r.get("cublas_tflops", 0)
    cpu = r.get("cpu_check", {}).get("relative_error", float("nan"))
    blas = r.get("cublas_check", {}).get("relative_error", float("nan"))
    at = r.get("alternating_tflops", 0)
    ratio = f"{at / bt:.2f}x" if bt else "-"
    print(f"| {name} | {t:.3f} | {tf:.1f} | {100 * tf / peak:.1f} | {at:.1f} | {bt:.1f} | {ratio} | {cpu:.2e} | {blas:.2e} | {r['status']} {r.get('message', '')} |")
PY
