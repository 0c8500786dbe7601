#!/usr/bin/env bash
# Failover soak, outside `make test`: runs the failover, savepoint and standby-coordinator tests (a
# coordinator and three worker processes, a worker or the coordinator killed with SIGKILL at a seeded
# moment, the result compared with the fault-free answer) again and again with fresh seeds, for
# MINUTES minutes (default 10), and stops at the first failure, printing its seed. Replay one with
# EDDY_TEST_SEED=<seed>.
#
# Usage: tests/soak/failover_soak.sh [MINUTES] [BUILD_DIR]
set -euo pipefail
minutes="${1:-10}"
build="${2:-$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../build}"
binary="$build/tests/eddy_integration_test"
if [[ ! -x "$binary" ]]; then
  echo "failover_soak: $binary not found; build first (make build)" >&2
  exit 2
fi
end=$(( $(date +%s) + minutes * 60 ))
runs=0
while (( $(date +%s) < end )); do
  seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  runs=$((runs + 1))
  if ! out=$(EDDY_TEST_SEED="$seed" "$binary" --gtest_filter='FailoverTest.*:CoordinatorFailoverTest.*:SavepointTest.*:StuckSavepointTest.*:StandbyCoordinatorTest.*' 2>&1); then
    echo "$out" | tail -40
    echo "failover_soak: run $runs FAILED with seed $seed (EDDY_TEST_SEED=$seed replays it)" >&2
    exit 1
  fi
  echo "failover_soak: run $runs passed (seed $seed)"
done
echo "failover_soak: $runs runs passed in $minutes minutes"
