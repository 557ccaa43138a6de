#!/usr/bin/env bash
# Set up, build, and run every test (lit, Catch2, GUI screenshots) through
# one ctest. Test outputs (screenshots) land in build/test-output/. Then
# the same suite again under ASan + UBSan (scripts/sanitize.sh, in
# build-asan/); KLX_SKIP_SANITIZE=1 leaves that out for a quick run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${KLX_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure --timeout 1200 "$@"
# ctest hides the output of skipped tests; say why each was skipped.
grep -h "^SKIPPED: " "$build/Testing/Temporary/LastTest.log" 2>/dev/null || true
if [[ ${KLX_SKIP_SANITIZE:-0} != 1 ]]; then
  echo "test: the suite again under AddressSanitizer + UndefinedBehaviorSanitizer"
  "$root/scripts/sanitize.sh"
fi
