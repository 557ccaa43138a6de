#!/usr/bin/env bash
# Every C++ file the repository tracks is formatted as clang-format 22
# (LLVM style, .clang-format) formats it; the files that are not, and the
# command that fixes them, are printed. Exits 77 (skipped, with the reason)
# where clang-format-22 or git is missing.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
format=$(command -v clang-format-22 || true)
[[ -z $format && -x /usr/lib/llvm-22/bin/clang-format ]] &&
  format=/usr/lib/llvm-22/bin/clang-format
if [[ -z $format ]]; then
  echo "SKIPPED: format: clang-format-22 is not installed (scripts/setup.sh installs it)"
  exit 77
fi
if ! git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIPPED: format: $root is not a git work tree"
  exit 77
fi
cd "$root"
bad=()
while IFS= read -r file; do
  [[ -f $file ]] || continue
  "$format" --dry-run -Werror "$file" >/dev/null 2>&1 || bad+=("$file")
done < <(git ls-files '*.cpp' '*.h')
if ((${#bad[@]})); then
  echo "format: ${#bad[@]} file(s) differ from clang-format-22's layout:"
  printf '  %s\n' "${bad[@]}"
  echo "fix: clang-format-22 -i ${bad[*]}"
  exit 1
fi
echo "format: $(git ls-files '*.cpp' '*.h' | wc -l) files as clang-format-22 lays them out"
