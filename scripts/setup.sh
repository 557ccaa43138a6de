#!/usr/bin/env bash
# Installs what klx needs from Debian, if it is missing. Safe to run again:
# it installs nothing when everything is there.
set -euo pipefail

packages=(
  # compiler: LLVM/MLIR 22 (libMLIR.so, libLLVM.so, mlir-tblgen), clang to
  # build with, lit and FileCheck for the IR tests
  llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 lld-22 llvm-22-tools
  # the layout every C++ file keeps (the format test)
  clang-format-22
  # build
  cmake ninja-build python3
  # klx-run's JSON (header only)
  nlohmann-json3-dev
  # window: GLFW + OpenGL 3 + Dear ImGui 1.86 (+ stb for PNG), a mono font;
  # EGL for klx-bench-lanes-egl (the lanes measured with no display)
  libglfw3-dev libimgui-dev libstb-dev libgl-dev libegl-dev fonts-dejavu-core
  # tests: Catch2, and a real window under Xvfb rendered by Mesa, driven
  # with the mouse and keys (xdotool) and its clipboard read (xclip)
  catch2 xvfb xauth libgl1-mesa-dri xdotool xclip
)
# Extra packages a caller asks for (scripts/sanitize.sh: the sanitizer
# runtimes, libclang-rt-22-dev).
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then
      sudo=(sudo)
    else
      echo "setup: error: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
    # A fresh machine often has stale package lists: refresh once, retry.
    "${sudo[@]}" apt-get update
    if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
      echo "setup: error: apt-get could not install: ${missing[*]}" >&2
      echo "setup: LLVM/MLIR 22 comes from Debian bookworm-security; check" \
           "that it is in /etc/apt/sources.list(.d)." >&2
      exit 1
    fi
  fi
fi

# ptxas is not a Debian package: klx uses the CUDA 13 toolkit's, from PATH
# or /usr/local/cuda/bin. Without it the cubin step reports why and the
# tests that need a cubin fail with that message.
if ! command -v ptxas >/dev/null && [[ ! -x /usr/local/cuda/bin/ptxas ]]; then
  echo "setup: warning: ptxas not found on PATH or in /usr/local/cuda/bin;" \
       "the cubin step needs the CUDA 13 toolkit" >&2
fi
echo "setup: all packages present"
