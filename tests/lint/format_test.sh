#!/usr/bin/env bash
# Checks that every C++ file the repository tracks is formatted as .clang-format says (clang-format
# from Debian's clang-format package; `git clang-format` or `clang-format -i FILE` fixes a file).
# Prints each file that is not and exits 1 if there is one.
# Usage: format_test.sh [REPO_ROOT]
set -euo pipefail
root="${1:-$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../..}"
cd "$root"

if ! command -v clang-format >/dev/null 2>&1; then
  echo "FAIL: clang-format is not installed (make deps --with-test-tools, or apt-get install clang-format)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.cc' '*.h' 2>/dev/null || find . -path ./build -prune -o \( -name '*.cc' -o -name '*.h' \) -print)
# One clang-format run over every file; its warnings name the files that differ.
mapfile -t unformatted < <(clang-format --dry-run "${files[@]}" 2>&1 |
                           sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' |
                           sort -u)
if [[ ${#unformatted[@]} -gt 0 ]]; then
  echo "FAIL: ${#unformatted[@]} file(s) not formatted as .clang-format says:" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "PASS: ${#files[@]} files formatted"
