#!/usr/bin/env bash
# A sweep stopped half way and resumed, on the GPU: klx-run --sweep runs
# in a process group of its own, which gets SIGINT (as a terminal's Ctrl+C
# sends it to the runner and its children) after its fourth finished run.
# Checks: exit 130 and the interrupted message; DIR/runs.jsonl holds the
# runs that finished and nothing twice; --resume runs only the rest and
# ends with every variant's every process, exit 0.
#   sweep-interrupt.sh export DIR            klx sweep into DIR
#   sweep-interrupt.sh run DIR [KLX_RUN]     the stop and the resume
#   sweep-interrupt.sh all BUILD_BIN         both; exits 77 (skipped) with
#                                            the reason when there is no GPU
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

export_sweep() {
  "$1" sweep "$root/samples/nvidia/gemm_ws_persistent.mlir" -D stages=3,4 \
    --size=2048x2048x2048 --size=1024x1024x1024 -o "$2" >/dev/null
}

fail() {
  echo "sweep-interrupt: FAILED: $*" >&2
  exit 1
}

run_sweep() {
  local dir=$1 run=$2 total=8 # 2 variants x 2 sizes x 2 processes
  rm -f "$dir/runs.jsonl"
  setsid "$run" --sweep "$dir" --procs=2 --gpus=0 >"$dir.first.out" 2>"$dir.first.err" &
  local pid=$!
  for _ in $(seq 1200); do
    [[ $(grep -c '^\[' "$dir.first.err") -ge 4 ]] && break
    sleep 0.1
  done
  kill -INT -- "-$pid"
  wait "$pid"
  local rc=$?
  cat "$dir.first.err"
  [[ $rc -eq 130 ]] || fail "the stopped sweep exited $rc, not 130"
  grep -q "interrupted: .* klx-run --sweep $dir --resume runs the rest" "$dir.first.err" ||
    fail "no 'interrupted' line"
  local kept
  kept=$(wc -l <"$dir/runs.jsonl")
  [[ $kept -ge 4 && $kept -lt $total ]] || fail "$kept runs kept of $total"
  echo "sweep-interrupt: stopped after $kept of $total runs; resuming"
  "$run" --sweep "$dir" --procs=2 --gpus=0 --resume >"$dir.second.out" 2>"$dir.second.err"
  rc=$?
  cat "$dir.second.err" "$dir.second.out"
  [[ $rc -eq 0 ]] || fail "the resumed sweep exited $rc"
  [[ $(grep -c '^\[' "$dir.second.err") -eq $((total - kept)) ]] ||
    fail "the resumed sweep ran $(grep -c '^\[' "$dir.second.err") runs, not $((total - kept))"
  [[ $(wc -l <"$dir/runs.jsonl") -eq $total ]] || fail "runs.jsonl does not hold all $total runs"
  local keys
  keys=$(python3 -c 'import json,sys; print(len({(l["variant"],l["size"],l["process"]) for l in map(json.loads, open(sys.argv[1]))}))' "$dir/runs.jsonl")
  [[ $keys -eq $total ]] || fail "$keys distinct runs in runs.jsonl, not $total"
  # Every row (2 variants x 2 sizes): both processes ran and passed.
  [[ $(grep -c '| 2/2 |' "$dir.second.out") -eq 4 ]] || fail "not every variant and size passed with both processes"
  echo "sweep-interrupt: passed ($kept runs before the stop, $((total - kept)) resumed)"
}

case ${1:-} in
export) export_sweep "${KLX:-$root/build/bin/klx}" "${2:?the sweep folder}" ;;
run) run_sweep "${2:?the sweep folder}" "${3:-${KLX_RUN:-klx-run}}" ;;
all)
  bin=${2:?the build bin folder}
  if ! why=$("$bin/klx-run" --device 2>&1); then
    echo "SKIPPED: $why"
    exit 77
  fi
  dir=$(mktemp -d)/sweep
  export_sweep "$bin/klx" "$dir" && run_sweep "$dir" "$bin/klx-run"
  ;;
*)
  echo "usage: sweep-interrupt.sh export DIR | run DIR [KLX_RUN] | all BUILD_BIN" >&2
  exit 2
  ;;
esac
