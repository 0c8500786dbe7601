"""TableResult: print() writes exactly what the eddy shell writes for the same statement, collect()
gives each change with its RowKind and cancels the query when left early."""

import io
import time

import pytest

# Every kind of column and cell the tableau has: widths by type, NULLs, TRUE/FALSE, approximate
# numbers in plain and scientific notation, decimals, dates, timestamps, intervals, non-ASCII text
# and a cell cut with '...'.
TYPES_QUERY = """SELECT CAST(1.5 AS FLOAT) AS f, CAST(NULL AS DECIMAL(10, 2)) AS d_null,
  CAST(-12.05 AS DECIMAL(6, 2)) AS d, CAST(1e20 AS DOUBLE) AS big, CAST(0.0001 AS DOUBLE) AS small,
  CAST(1.0 / 3 AS DOUBLE) AS third, TRUE AS yes, CAST(NULL AS BOOLEAN) AS unknown,
  CAST('2024-02-29' AS DATE) AS day, CAST('2024-01-02 03:04:05.123' AS TIMESTAMP(3)) AS ts,
  CAST('1999-12-31 23:59:59' AS TIMESTAMP(0)) AS ts0, INTERVAL '2' DAY AS span,
  CAST(7 AS TINYINT) AS tiny, CAST(-300 AS SMALLINT) AS small_int, 2147483647 AS i,
  'héllo wörld ✓' AS unicode, 'a string that is much longer than thirty characters' AS long_text,
  CAST(NULL AS STRING) AS s_null"""

# TIMESTAMP_LTZ columns at precisions 3 and 9, and a NULL one: shown in the session zone.
LTZ_QUERY = """SELECT TO_TIMESTAMP_LTZ(4001, 3) AS ltz,
  CAST(TIMESTAMP '1970-01-01 08:00:00.123456789' AS TIMESTAMP_LTZ(9)) AS ltz9,
  CAST(NULL AS TIMESTAMP_LTZ(3)) AS ltz_null"""

CHANGELOG_QUERY = """SELECT word, COUNT(*) AS cnt FROM (VALUES ('a'), ('a'), ('b'), ('a'), ('c'),
  ('b')) AS t(word) GROUP BY word"""


def python_print(env, statements):
    *setup, last = statements
    for s in setup:
        env.execute_sql(s)
    out = io.StringIO()
    env.execute_sql(last).print(out)
    return out.getvalue()


@pytest.mark.parametrize("statements", [
    [TYPES_QUERY],
    ["SET 'parallelism.default' = '1'", CHANGELOG_QUERY],
    ["SET 'parallelism.default' = '1'", "SET 'sql-client.execution.result-mode' = 'table'",
     CHANGELOG_QUERY],
    ["SET 'sql-client.execution.result-mode' = 'changelog'", "SELECT 'x' AS only_one"],
    ["SELECT a FROM (VALUES (1)) AS t(a) WHERE a > 1"],
    ["SET 'sql-client.execution.result-mode' = 'table'",
     "SELECT a FROM (VALUES (1)) AS t(a) WHERE a > 1"],
    ["SET 'pipeline.name' = 'naïve ✓ name'", "SET"],
    ["SHOW TABLES"],
    ["EXPLAIN " + CHANGELOG_QUERY],
    ["SET 'sql-client.display.max-column-width' = '8'", TYPES_QUERY],
    ["SELECT TIMESTAMP '2021-04-13 20:12:11.123456789' AS t9, CAST('1969-12-31 23:59:59.999999' "
     "AS TIMESTAMP(6)) AS t6, TIMESTAMP '2021-04-13 20:12:11.5' AS t1"],
    ["SET 'table.local-time-zone' = 'GMT+08:00'", LTZ_QUERY],
],
                         ids=[
                             "types", "changelog", "table-mode", "changelog-mode", "empty",
                             "empty-table-mode", "set-listing", "show-empty", "explain",
                             "max-column-width", "timestamp-precisions", "timestamp-ltz"
                         ])
def test_print_matches_the_shell_byte_for_byte(env, shell, statements):
    expected = shell(";\n".join(statements) + ";")
    assert python_print(env, statements) == expected


def test_print_of_other_statements(env):
    out = io.StringIO()
    env.execute_sql("CREATE TEMPORARY VIEW pv AS SELECT 1 AS a").print(out)
    assert out.getvalue() == "Execute statement succeeded.\n"
    env.execute_sql("CREATE TEMPORARY TABLE ph (a INT) WITH ('connector' = 'blackhole')")
    out = io.StringIO()
    result = env.execute_sql("INSERT INTO ph SELECT a FROM pv")
    result.print(out)
    assert out.getvalue() == "Job ID: %s\n" % result.get_job_client().get_job_id()
    result.wait()


def test_collect_gives_row_kinds(env):
    from eddy.table import ResultKind, Row, RowKind
    env.get_config().set('parallelism.default', '1')
    result = env.execute_sql(CHANGELOG_QUERY)
    assert result.get_result_kind() == ResultKind.SUCCESS_WITH_CONTENT
    assert result.get_table_schema().get_field_names() == ['word', 'cnt']
    with result.collect() as rows:
        got = [(r.get_row_kind(), tuple(r)) for r in rows]
    assert got == [(RowKind.INSERT, ('a', 1)), (RowKind.UPDATE_BEFORE, ('a', 1)),
                   (RowKind.UPDATE_AFTER, ('a', 2)), (RowKind.INSERT, ('b', 1)),
                   (RowKind.UPDATE_BEFORE, ('a', 2)), (RowKind.UPDATE_AFTER, ('a', 3)),
                   (RowKind.INSERT, ('c', 1)), (RowKind.UPDATE_BEFORE, ('b', 1)),
                   (RowKind.UPDATE_AFTER, ('b', 2))]
    assert repr(Row(1, 'Hi')) == "<Row(1, 'Hi')>"
    assert Row(id=1, data='Hi').data == 'Hi'
    assert str(RowKind.UPDATE_BEFORE) == '-U'


def test_collect_gives_timestamp_ltz_as_aware_utc_datetimes(env):
    import datetime
    env.execute_sql("SET 'table.local-time-zone' = 'GMT+08:00'")
    result = env.execute_sql(LTZ_QUERY)
    assert [t.nullable().sql() for t in result.get_table_schema().get_field_data_types()] == [
        "TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(9)", "TIMESTAMP_LTZ(3)"]
    with result.collect() as rows:
        (row,) = list(rows)
    utc = datetime.timezone.utc
    assert row[0] == datetime.datetime(1970, 1, 1, 0, 0, 4, 1000, tzinfo=utc)
    # 08:00:00.123456789 in GMT+08:00 is midnight UTC; nanoseconds kept.
    assert row[1] == datetime.datetime(1970, 1, 1, 0, 0, 0, 123456, tzinfo=utc)
    assert row[1].nanosecond == 789
    assert row[2] is None


def wait_for_status(job, wanted, timeout_s=30):
    deadline = time.monotonic() + timeout_s
    status = job.get_job_status()
    while status not in wanted and time.monotonic() < deadline:
        time.sleep(0.1)
        status = job.get_job_status()
    return status


def test_collect_left_early_cancels_the_job(env):
    from eddy.table import JobStatus
    env.execute_sql("CREATE TEMPORARY TABLE forever (n BIGINT) WITH ('connector' = 'datagen', "
                    "'rows-per-second' = '100', 'fields.n.kind' = 'random')")
    result = env.execute_sql("SELECT n FROM forever")
    job = result.get_job_client()
    with result.collect() as rows:
        first = [next(rows) for _ in range(3)]
        assert all(r.get_row_kind().short_string() == '+I' for r in first)
        assert job.get_job_status() == JobStatus.RUNNING
    assert wait_for_status(job, (JobStatus.CANCELED,)) == JobStatus.CANCELED


def test_query_wait_and_limit(env):
    from eddy.table import JobStatus
    env.execute_sql("CREATE TEMPORARY TABLE forever2 (n BIGINT) WITH ('connector' = 'datagen', "
                    "'rows-per-second' = '50')")
    result = env.execute_sql("SELECT n FROM forever2 LIMIT 5")
    result.wait(30000)  # a query: until its first row is here
    with result.collect() as rows:
        assert len(list(rows)) == 5
    assert wait_for_status(result.get_job_client(),
                           (JobStatus.CANCELED, JobStatus.FINISHED)) in (JobStatus.CANCELED,
                                                                         JobStatus.FINISHED)


def test_collect_of_statements_without_a_query(env):
    from eddy.util.exceptions import TableException
    with env.execute_sql("CREATE TEMPORARY VIEW cv AS SELECT 1 AS a").collect() as rows:
        assert [tuple(r) for r in rows] == [('OK',)]
    with env.execute_sql("SHOW VIEWS").collect() as rows:
        assert ('cv',) in [tuple(r) for r in rows]
    with env.execute_sql("EXPLAIN SELECT a FROM cv").collect() as rows:
        (plan,) = list(rows)
        assert plan[0].startswith("== Abstract Syntax Tree ==")
    env.execute_sql("CREATE TEMPORARY TABLE ch (a INT) WITH ('connector' = 'blackhole')")
    insert = env.execute_sql("INSERT INTO ch SELECT a FROM cv")
    with pytest.raises(TableException, match="only a query's result has rows"):
        insert.collect()
    insert.wait()
