#!/usr/bin/env bash
# What recording a whole kernel's timeline costs, for every GEMM sample
# that can record one, at 2048^3 and 8192^3 (bf16 in, each sample's own
# output type): the kernel's median time without and with recording, from
# several klx-run processes (one launch series each), and the overhead's
# median [min, max] over the processes.
#   trace-overhead.sh export DIR             klx export --trace into DIR/NAME
#   trace-overhead.sh run DIR KLX_RUN [N]    N processes per size (3)
# The run writes each process's trace to $TMPDIR and keeps the 2048^3 ones
# under DIR/traces.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# TRACE_SIZES="2048x2048x2048" measures fewer sizes.
read -ra sizes <<<"${TRACE_SIZES:-2048x2048x2048 8192x8192x8192}"

export_bundles() {
  local out=$1 klx=${KLX:-$root/build/bin/klx} nv=$root/samples/nvidia
  rm -rf "$out" && mkdir -p "$out"
  "$klx" export $nv/gemm_ws_persistent.mlir -D dtype=bf16 --trace -o "$out/ws_persistent" >/dev/null
  "$klx" export $nv/gemm_ws_persistent.mlir -D dtype=bf16 -D warp_specialize=0 --trace -o "$out/no_roles" >/dev/null
  "$klx" export $nv/gemm_pingpong.mlir -D dtype=bf16 --trace -o "$out/pingpong" >/dev/null
  "$klx" export $nv/gemm_two_producers.mlir -D dtype=bf16 --trace -o "$out/two_producers" >/dev/null
  "$klx" export $nv/gemm_ws_persistent.mlir -D dtype=bf16 -D cluster_m=2 --trace -o "$out/ws_cluster_m2" >/dev/null
  echo "exported $(ls "$out" | wc -l) traced bundles into $out"
}

run_bundles() {
  local dir=$1 run=$2 procs=${3:-3} tmp
  tmp=$(mktemp -d)
  mkdir -p "$dir/traces"
  printf '| bundle | size | klx ms | recording ms | overhead, median [min, max] | events | CTAs | SMs | events/warp | result |\n'
  printf '|---|---|---:|---:|---|---:|---:|---:|---:|---|\n'
  for bundle in "$dir"/*/; do
    [[ -f $bundle/manifest.json ]] || continue
    local name
    name=$(basename "$bundle")
    for size in "${sizes[@]}"; do
      for ((p = 0; p < procs; ++p)); do
        "$run" "$bundle" --size="$size" --no-baseline --json \
          --trace="$tmp/$name-$size-$p.json" >"$tmp/$name-$size-$p.out" 2>&1 || true
      done
      python3 - "$tmp" "$name" "$size" "$procs" <<'PY'
import json, statistics, sys
tmp, name, size, procs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
plain, traced, ratios, last, status = [], [], [], None, []
for p in range(procs):
    try:
        r = json.loads(open(f"{tmp}/{name}-{size}-{p}.out").read().strip().splitlines()[-1])
    except Exception as e:
        status.append("no JSON"); continue
    status.append(r["status"])
    if r["status"] != "passed" or "trace" not in r:
        continue
    a, b = r["time"]["median_ms"], r["trace"]["instrumented_time"]["median_ms"]
    plain.append(a); traced.append(b); ratios.append(b / a - 1); last = r["trace"]
if not ratios:
    print(f"| {name} | {size} | | | | | | | | {', '.join(status)} |"); sys.exit()
again = " (recorded again)" if last["recorded_again"] else ""
print(f"| {name} | {size} | {statistics.median(plain):.4f} | {statistics.median(traced):.4f} | "
      f"{100*statistics.median(ratios):+.1f}% [{100*min(ratios):+.1f}, {100*max(ratios):+.1f}] | "
      f"{last['events']} | {last['ctas']} | {last['sms']} | {last['capacity']}{again} | "
      f"{', '.join(status)}, {last['dropped']} dropped |")
PY
      if [[ $size == 2048x2048x2048 ]]; then
        cp "$tmp/$name-$size-0.json" "$dir/traces/$name-$size.json" 2>/dev/null || true
      else
        { ls -l "$tmp/$name-$size-0.json" 2>/dev/null || true; } | awk '{printf "  (%s: %d MB of trace JSON)\n", "'"$name $size"'", $5/1048576}' >&2
      fi
      rm -f "$tmp/$name-$size-"*.json
    done
  done
  rm -rf "$tmp"
}

case ${1:-} in
export) export_bundles "$2" ;;
run) run_bundles "$2" "$3" "${4:-3}" ;;
*) sed -n '2,11p' "$0"; exit 2 ;;
esac
