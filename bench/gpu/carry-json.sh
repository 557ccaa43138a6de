#!/usr/bin/env bash
# Copies nlohmann's JSON headers (Debian's nlohmann-json3-dev, installed by
# scripts/setup.sh) into .deps/include of the tree, for a GPU machine that
# has a compiler but no apt: carry `.deps` with the tree and
# bench/gpu/build-runner.sh finds them there. Prints the folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source=${1:-/usr/include}
if [[ ! -f $source/nlohmann/json.hpp ]]; then
  echo "carry-json: no $source/nlohmann/json.hpp; run scripts/setup.sh" >&2
  exit 1
fi
mkdir -p "$root/.deps/include"
rm -rf "$root/.deps/include/nlohmann"
cp -r "$source/nlohmann" "$root/.deps/include/"
echo "$root/.deps/include"
