#!/usr/bin/env bash
# The main job: set up, build, and open klx on the default sample. With no
# display it says so and prints the CLI summary of that sample instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${KLX_BUILD_DIR:-$root/build}
sample=${1:-$root/samples/nvidia/gemm_ws_persistent.mlir}
if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
  exec "$build/bin/klx" "$sample"
fi
echo "run: no display (DISPLAY is not set), so no window; here is the" \
     "CLI summary of $(basename "$sample") instead:"
echo
exec "$build/bin/klx" pipeline "$sample"
