#!/usr/bin/env bash
# Runs a test command in an environment of its own: an allowlist, not what
# this machine happens to have. Passed through: where the tools are (PATH,
# CUDA_HOME and LD_LIBRARY_PATH: ptxas, xvfb-run, lit's tools, the CUDA
# driver and cuBLAS on a GPU machine) and the sanitizers' options that
# scripts/sanitize.sh sets. Made fresh, in a folder removed afterwards:
# HOME, every XDG_* folder klx or a library could keep settings, state or
# caches in, KLX_STATE_DIR (the window's autosave) and TMPDIR. Nothing
# else: a DISPLAY, a CUDA_VISIBLE_DEVICES, a KLX_RUN or an imgui.ini left
# on the machine cannot change what a test sees.
#   clean-env.sh COMMAND [ARGS...]
set -euo pipefail
fresh=$(mktemp -d "${TMPDIR:-/tmp}/klx-env.XXXXXX")
trap 'rm -rf "$fresh"' EXIT
mkdir -p "$fresh"/{home,config,state,data,cache,klx-state,tmp}
mkdir -m 700 "$fresh/runtime"
vars=(
  "PATH=$PATH"
  "LANG=C.UTF-8"
  "HOME=$fresh/home"
  "XDG_CONFIG_HOME=$fresh/config"
  "XDG_STATE_HOME=$fresh/state"
  "XDG_DATA_HOME=$fresh/data"
  "XDG_CACHE_HOME=$fresh/cache"
  "XDG_RUNTIME_DIR=$fresh/runtime"
  "KLX_STATE_DIR=$fresh/klx-state"
  "TMPDIR=$fresh/tmp"
)
for name in CUDA_HOME LD_LIBRARY_PATH ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
  if [[ -n ${!name:-} ]]; then
    vars+=("$name=${!name}")
  fi
done
# Not exec: the trap removes the folder when the command is done.
env -i "${vars[@]}" "$@"
