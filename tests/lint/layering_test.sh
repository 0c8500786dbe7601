#!/usr/bin/env bash
# Checks the layering rules (docs/contributing.md) on every C++ file: common/ includes nothing
# above it; worker/ never includes common/sql or coordinator/ (workers receive plans, not SQL);
# coordinator/ never includes worker/; the thin client (client/ outside client/embedded and its
# tests) includes neither. Prints each violation as file:line and exits 1 if there is one.
# Usage: layering_test.sh [REPO_ROOT]
set -euo pipefail
root="${1:-$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../..}"
cd "$root"

violations=0
# check DIR PATTERN WHY [EXCLUDED_DIR...]: no file under DIR includes a header matching PATTERN.
check() {
  local dir="$1" pattern="$2" why="$3"
  shift 3
  local excludes=()
  for e in "$@"; do excludes+=(--exclude-dir="$e"); done
  local hits
  hits="$(grep -rnE --include='*.cc' --include='*.h' "${excludes[@]}" \
            "^#include \"($pattern)" "$dir" || true)"
  if [[ -n "$hits" ]]; then
    echo "FAIL: $why:" >&2
    echo "$hits" >&2
    violations=1
  fi
}

check common 'coordinator/|worker/|client/' "common/ includes a layer above it"
check worker 'common/sql/|coordinator/|client/' "worker/ includes SQL, coordinator or client code"
check coordinator 'worker/|client/' "coordinator/ includes worker or client code"
check client 'coordinator/|worker/' "the thin client includes coordinator or worker code" \
  embedded tests cli

if [[ "$violations" == 0 ]]; then
  echo "PASS: the layering rules hold"
fi
exit "$violations"
