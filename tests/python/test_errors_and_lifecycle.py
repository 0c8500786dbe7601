"""Errors as Python exceptions with the coordinator's message, a dead coordinator, batch mode, and
the embedded cluster's processes: started on free ports, gone after close()."""

import os
import signal

import pytest


def test_parse_error_carries_the_sql_position(env):
    from eddy.util.exceptions import SqlParseException
    with pytest.raises(SqlParseException) as e:
        env.execute_sql("SELECT 1 FROM\n  WHERE")
    assert e.value.message.startswith("SQL parse error at line 2, column 3")
    assert e.value.code == "INVALID_ARGUMENT"


def test_validation_error_names_the_table(env):
    from eddy.util.exceptions import ValidationException
    with pytest.raises(ValidationException, match="no_such_table"):
        env.from_path("no_such_table").execute()
    with pytest.raises(ValidationException, match=r"line 1, column \d+: column 'nope'"):
        env.sql_query("SELECT nope FROM (VALUES (1)) AS t(a)").execute()


def test_batch_mode_runs_bounded_queries_with_final_results(cluster):
    import io
    from eddy.table import EnvironmentSettings, RowKind, TableEnvironment
    from eddy.util.exceptions import ValidationException
    for settings in (EnvironmentSettings.in_batch_mode(),
                     EnvironmentSettings.new_instance().in_batch_mode().build()):
        env = TableEnvironment.connect(cluster.address, settings)
        assert env.get_config().get("execution.runtime-mode") == "BATCH"
        query = ("SELECT w, COUNT(*) AS c FROM (VALUES ('a'), ('b'), ('a'), ('c'), ('a')) AS t(w) "
                 "GROUP BY w ORDER BY c DESC, w")
        # One final row per group, all inserts: no -U/+U as a streaming query would produce.
        with env.execute_sql(query).collect() as rows:
            got = [(r.get_row_kind(), tuple(r)) for r in rows]
        assert got == [(RowKind.INSERT, ("a", 3)), (RowKind.INSERT, ("b", 1)),
                       (RowKind.INSERT, ("c", 1))]
        out = io.StringIO()
        env.execute_sql(query).print(out)
        assert out.getvalue() == ("+---+---+\n"
                                  "| w | c |\n"
                                  "+---+---+\n"
                                  "| a | 3 |\n"
                                  "| b | 1 |\n"
                                  "| c | 1 |\n"
                                  "+---+---+\n"
                                  "3 rows in set\n")
        env.execute_sql("CREATE TEMPORARY TABLE endless (x BIGINT) WITH ('connector' = 'datagen')")
        with pytest.raises(ValidationException, match="Querying an unbounded table "
                           "'default_catalog.default_database.endless' in batch mode"):
            env.execute_sql("SELECT * FROM endless")
        env.close()
    env = TableEnvironment.connect(cluster.address,
                                   EnvironmentSettings.new_instance().in_streaming_mode().build())
    assert env.get_config().get("execution.runtime-mode") == "STREAMING"
    env.close()


def test_nothing_listening_gives_a_clear_exception():
    import socket
    from eddy.table import TableEnvironment
    from eddy.util.exceptions import CoordinatorUnavailableException
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = TableEnvironment.connect("127.0.0.1:%d" % port)
    with pytest.raises(CoordinatorUnavailableException,
                       match="cannot reach the coordinator at 127.0.0.1:%d" % port):
        env.execute_sql("SELECT 1")
    env.close()


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie until its parent reaps it: count it as gone.
    with open("/proc/%d/stat" % pid) as f:
        return f.read().split(")")[-1].split()[0] != "Z"


def test_embedded_mode_starts_and_stops_the_binaries(bin_dir, tmp_path):
    from eddy.table import TableEnvironment
    out = tmp_path / "print.out"
    env = TableEnvironment.create(bin_dir=bin_dir, workers=2, slots=2, print_output=str(out))
    cluster = env._cluster
    pids = cluster.pids()
    assert len(pids) == 3 and all(alive(p) for p in pids)
    assert env.get_address() != "127.0.0.1:8081" and env.get_address().startswith("127.0.0.1:")
    assert len(env._client.list_workers()) == 2
    env.execute_sql("CREATE TABLE p (a INT) WITH ('connector' = 'print')")
    env.execute_sql("INSERT INTO p VALUES (42)").wait(60000)
    assert out.read_text() == "+I[42]\n"
    data_dir = cluster.dir
    env.close()
    assert not any(alive(p) for p in pids)
    assert not os.path.exists(data_dir)
    env.close()  # twice is fine


def test_embedded_mode_without_binaries_says_where_it_looked(monkeypatch):
    from eddy.table import TableEnvironment
    from eddy.util.exceptions import EmbeddedClusterException
    with pytest.raises(EmbeddedClusterException, match="/nonexistent.*eddy-coordinator"):
        TableEnvironment.create(bin_dir="/nonexistent")
    monkeypatch.delenv("EDDY_BIN_DIR", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(EmbeddedClusterException, match="EDDY_BIN_DIR"):
        TableEnvironment.create()


def test_create_connects_to_eddy_coordinator_when_set(cluster, monkeypatch):
    from eddy.table import TableEnvironment
    monkeypatch.setenv("EDDY_COORDINATOR", cluster.address)
    with TableEnvironment.create() as env:
        assert env._cluster is None and env.get_address() == cluster.address


def test_a_dead_coordinator_gives_a_clear_exception(bin_dir):
    from eddy.table import TableEnvironment
    from eddy.util.exceptions import CoordinatorUnavailableException
    env = TableEnvironment.create(bin_dir=bin_dir)
    try:
        env.execute_sql("CREATE TEMPORARY TABLE g (n BIGINT) WITH ('connector' = 'datagen', "
                        "'rows-per-second' = '100')")
        rows = env.execute_sql("SELECT n FROM g").collect()
        next(rows)
        coordinator_pid = env._cluster.pids()[0]
        os.kill(coordinator_pid, signal.SIGKILL)
        address = env.get_address()
        with pytest.raises(CoordinatorUnavailableException,
                           match="cannot reach the coordinator at %s" % address):
            for _ in rows:  # the rows already here, then the fetch that finds no coordinator
                pass
        with pytest.raises(CoordinatorUnavailableException, match=address):
            env.execute_sql("SELECT 1")
        rows.close()  # no job to cancel any more: nothing raised
    finally:
        env.close()
