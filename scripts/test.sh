#!/usr/bin/env bash
# Set up, build, and run every test (lit, Catch2, GUI screenshots) through
# one ctest. Test outputs (screenshots) land in build/test-output/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${KLX_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure --timeout 1200 "$@"
# ctest hides the output of skipped tests; say why each was skipped.
grep -h "^SKIPPED: " "$build/Testing/Temporary/LastTest.log" 2>/dev/null || true
