"""collect() through a worker failure: a checkpointed aggregation's rows are read by the client
while one of two eddy-worker processes is SIGKILLed at a seeded random moment; the job restarts
from its latest checkpoint and the materialized rows the client read equal the answer without the
failure (the result is exactly-once through the restart). The seed is printed; set
EDDY_TEST_SEED to replay one."""

import os
import random
import signal
import time

N = 8000


def test_collect_through_a_killed_worker(bin_dir):
    from eddy.embedded import EmbeddedCluster
    from eddy.table import RowKind, TableEnvironment
    seed = int(os.environ.get("EDDY_TEST_SEED", random.randrange(1 << 30)))
    print("EDDY_TEST_SEED=%d" % seed)
    rnd = random.Random(seed)
    cluster = EmbeddedCluster.start(bin_dir,
                                    workers=2,
                                    slots=2,
                                    coordinator_args=["--heartbeat-timeout-ms", "1500"])
    env = TableEnvironment.connect(cluster.address)
    try:
        for s in ("SET 'execution.checkpointing.interval' = '300 ms'",
                  "SET 'restart-strategy.type' = 'fixed-delay'",
                  "SET 'restart-strategy.fixed-delay.attempts' = '5'",
                  "SET 'restart-strategy.fixed-delay.delay' = '200 ms'",
                  "SET 'parallelism.default' = '2'",
                  "CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen', "
                  "'rows-per-second' = '2000', 'fields.id.kind' = 'sequence', "
                  "'fields.id.start' = '1', 'fields.id.end' = '%d')" % N):
            env.execute_sql(s)
        result = env.execute_sql(
            "SELECT id % 7 AS k, COUNT(*) AS n, SUM(id) AS s FROM src GROUP BY id % 7")
        kill_after = rnd.uniform(0.3, 2.0)  # the query runs about 4 s
        started = time.monotonic()
        victim = None
        current = {}
        with result.collect() as rows:
            for row in rows:
                if victim is None and time.monotonic() - started > kill_after:
                    victim = rnd.choice(cluster.worker_pids())
                    os.kill(victim, signal.SIGKILL)
                if row.get_row_kind() in (RowKind.INSERT, RowKind.UPDATE_AFTER):
                    current[row[0]] = tuple(row)
                else:
                    assert current.pop(row[0]) == tuple(row), "retracts a row it never had"
        assert victim is not None, "the query ended before the kill (seed %d)" % seed
        expected = {
            k: (k, len(range(k or 7, N + 1, 7)), sum(range(k or 7, N + 1, 7))) for k in range(7)
        }
        assert current == expected, "seed %d" % seed
        assert result.get_job_client().get_job_info().attempt > 1, "the job did not restart"
    finally:
        env.close()
        cluster.close()
