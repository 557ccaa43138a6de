#!/usr/bin/env bash
# Fuzzes "source text -> parse -> the whole MLIR pipeline -> PTX/AMDGCN"
# with libFuzzer for SECONDS (default 600), seeded with every sample and
# the kept regressions. Needs the sanitizer build (scripts/sanitize.sh
# build). Crashes are written to tests/fuzz/regressions/ (crash-*,
# timeout-*, oom-*), which the unit tests replay once they are fixed.
#   scripts/fuzz.sh [SECONDS] [JOBS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KLX_ASAN_BUILD_DIR:-$root/build-asan}
seconds=${1:-600}
jobs=${2:-1}
fuzzer=$build/bin/klx-fuzz-pipeline
[[ -x $fuzzer ]] || bash "$root/scripts/sanitize.sh" build
corpus=${KLX_FUZZ_CORPUS:-$build/fuzz-corpus}
mkdir -p "$corpus"
# Seeds: every sample (an AMD one also as "// gfx" input), the regressions.
cp "$root"/samples/*/*.mlir "$corpus"/
for f in "$root"/samples/amd/*.mlir; do
  { echo "// gfx942"; cat "$f"; } > "$corpus/gfx-$(basename "$f")"
done
cp "$root"/tests/fuzz/regressions/* "$corpus"/ 2>/dev/null || true
# allow_user_poisoning=0: see scripts/sanitize.sh.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
parallel=()
((jobs > 1)) && parallel=(-jobs="$jobs" -workers="$jobs")
mkdir -p "$build/fuzz-work" && cd "$build/fuzz-work"
exec "$fuzzer" "$corpus" -max_total_time="$seconds" -timeout=30 \
  -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$root/tests/fuzz/regressions/" \
  -dict="$root/tests/fuzz/mlir.dict" "${parallel[@]}"
