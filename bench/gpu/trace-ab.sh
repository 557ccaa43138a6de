#!/usr/bin/env bash
# Compares the recording overhead of two or more builds of the same traced
# bundles, measured in one sitting with the builds alternating: a lease's
# GPU differs from the next by more than many changes gain, so only
# figures from one run of this script compare.
#   trace-ab.sh KLX_RUN PROCS SIZE DIR...
# Each DIR holds bundles as `trace-overhead.sh export DIR` writes them
# (one build of klx each; the same bundle names in every DIR). For each of
# PROCS rounds, every DIR's every bundle runs once in its own klx-run
# process (one launch series). Prints, per bundle and DIR, the overhead's
# median [min, max] over the processes, the kernel's median time without
# recording, the events of the last run, and every run's status with its
# dropped events.
set -euo pipefail
if (($# < 4)); then
  sed -n '2,13p' "$0"
  exit 2
fi
run=$1 procs=$2 size=$3
shift 3
results=$(mktemp)
trap 'rm -f "$results" "$results.trace"' EXIT
for ((p = 0; p < procs; ++p)); do
  for dir in "$@"; do
    for bundle in "$dir"/*/; do
      [[ -f $bundle/manifest.json ]] || continue
      line=$("$run" "$bundle" --size="$size" --no-baseline --json \
        --trace="$results.trace" 2>/dev/null | tail -1) || true
      printf '%s\t%s\t%s\n' "$(basename "$dir")" "$(basename "$bundle")" \
        "${line:-null}" >>"$results"
    done
  done
done
python3 - "$results" "$size" <<'PY'
import collections, json, statistics, sys
ratios, plain = collections.defaultdict(list), collections.defaultdict(list)
status, events, order = collections.defaultdict(list), {}, []
for row in open(sys.argv[1]):
    build, bundle, text = row.rstrip("\n").split("\t", 2)
    key = (bundle, build)
    if key not in order:
        order.append(key)
    try:
        r = json.loads(text)
    except ValueError:
        r = None
    if not isinstance(r, dict):
        status[key].append("no JSON")
        continue
    trace = r.get("trace", {})
    status[key].append(f"{r.get('status')}/{trace.get('dropped', '?')} dropped")
    if r.get("status") != "passed" or "instrumented_time" not in trace:
        continue
    a, b = r["time"]["median_ms"], trace["instrumented_time"]["median_ms"]
    ratios[key].append(b / a - 1)
    plain[key].append(a)
    events[key] = trace.get("events")
print(f"| bundle | build | {sys.argv[2]} overhead, median [min, max] | "
      "klx ms | events | runs |")
print("|---|---|---|---:|---:|---|")
for key in sorted(order):
    r = ratios[key]
    cell = (f"{100*statistics.median(r):+.1f}% [{100*min(r):+.1f}, "
            f"{100*max(r):+.1f}]" if r else "")
    ms = f"{statistics.median(plain[key]):.4f}" if r else ""
    runs = ", ".join(f"{s} x{n}" for s, n in
                     collections.Counter(status[key]).items())
    print(f"| {key[0]} | {key[1]} | {cell} | {ms} | {events.get(key, '')} "
          f"| {runs} |")
PY
