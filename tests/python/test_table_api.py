"""TableEnvironment and Table calls against a real cluster: each builds a query and checks the rows
it gives (row kinds included)."""

import datetime
import decimal
import time

import pytest


def rows_of(table_or_result):
    from eddy.table import Table
    result = table_or_result.execute() if isinstance(table_or_result, Table) else table_or_result
    with result.collect() as rows:
        return [(r.get_row_kind().short_string(),) + tuple(r) for r in rows]


def test_from_elements_infers_types(env):
    t = env.from_elements([(1, 'Hi', 1.5, True), (2, 'Hello', -0.25, False)],
                          ['id', 'data', 'x', 'b'])
    schema = t.get_schema()
    assert schema.get_field_names() == ['id', 'data', 'x', 'b']
    assert [d.sql().replace(" NOT NULL", "") for d in schema.get_field_data_types()] == \
        ['BIGINT', 'STRING', 'DOUBLE', 'BOOLEAN']
    assert rows_of(t) == [('+I', 1, 'Hi', 1.5, True), ('+I', 2, 'Hello', -0.25, False)]


def test_from_elements_default_names_and_given_types(env):
    from eddy.table import DataTypes
    assert env.from_elements([(1, 'Hi')]).get_schema().get_field_names() == ['_1', '_2']
    t = env.from_elements(
        [(1, 'Hi', decimal.Decimal('1.50'), datetime.date(2024, 2, 29),
          datetime.datetime(2024, 1, 2, 3, 4, 5, 123000)), (2, None, None, None, None)],
        DataTypes.ROW([
            DataTypes.FIELD('id', DataTypes.TINYINT()),
            DataTypes.FIELD('data', DataTypes.STRING()),
            DataTypes.FIELD('price', DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD('day', DataTypes.DATE()),
            DataTypes.FIELD('ts', DataTypes.TIMESTAMP(3)),
        ]))
    types = [d.sql() for d in t.get_schema().get_field_data_types()]
    assert types[0].startswith('TINYINT') and types[2].startswith('DECIMAL(10, 2)')
    assert rows_of(t) == [
        ('+I', 1, 'Hi', decimal.Decimal('1.50'), datetime.date(2024, 2, 29),
         datetime.datetime(2024, 1, 2, 3, 4, 5, 123000)),
        ('+I', 2, None, None, None, None),
    ]
    frame = t.to_pandas()
    assert str(frame['id'].dtype) == 'int8'


def test_from_elements_rejects_what_it_cannot_type(env):
    from eddy.util.exceptions import TableException
    with pytest.raises(TableException, match="only None"):
        env.from_elements([(1, None)], ['a', 'b'])
    with pytest.raises(TableException, match="both BIGINT and STRING"):
        env.from_elements([(1,), ('x',)], ['a'])


def test_views_from_path_and_sql_query(env):
    t = env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])
    env.create_temporary_view('source_table', t)
    assert rows_of(env.from_path('source_table')) == [('+I', 1, 'Hi'), ('+I', 2, 'Hello')]
    q = env.sql_query("SELECT id * 10 AS id10 FROM source_table WHERE data = 'Hello'")
    assert rows_of(q) == [('+I', 20)]
    # str(table) registers it as a view, as PyFlink's `"... from %s" % table`.
    assert rows_of(env.execute_sql("SELECT data FROM %s WHERE id = 1" % t)) == [('+I', 'Hi')]
    assert 'source_table' in env.list_views()
    env.drop_temporary_view('source_table')
    assert 'source_table' not in env.list_views()
    env.execute_sql("CREATE TEMPORARY TABLE listed (a INT) WITH ('connector' = 'blackhole')")
    assert 'listed' in env.list_tables()
    env.drop_temporary_table('listed')
    assert 'listed' not in env.list_tables()


def test_select_where_filter_expressions(env):
    from eddy.table.expressions import call, call_sql, col, lit
    t = env.from_elements([(1, 'Hi'), (2, 'Hello'), (3, 'Bye')], ['id', 'data'])
    r = t.where(col('data').like('H%')).select(
        (t.id * 2 + 1).alias('odd'), lit('x').alias('x'), call('UPPER', t.data).alias('up'),
        call_sql("CHAR_LENGTH(data)").alias('n'), (-t.id).alias('neg'), (10 - t.id).alias('r'))
    assert rows_of(r) == [('+I', 3, 'x', 'HI', 2, -1, 9), ('+I', 5, 'x', 'HELLO', 5, -2, 8)]
    f = t.filter((t.id > 1) & ~(t.data == 'Bye') | t.id.in_(3, 4).is_null)
    assert rows_of(f) == [('+I', 2, 'Hello')]
    assert rows_of(t.filter(t.id.between(2, 3) & (t.id != 3) & (t.id >= 2) & (t.id <= 2) &
                            (t.id < 3) & (t.id % 2 == 0) & (t.id / 2 == 1))) == [('+I', 2, 'Hello')]
    with pytest.raises(TypeError, match="& | ~"):
        t.where(t.id > 1 and t.id < 3)


def test_group_by_select_with_updates(env):
    orders = env.from_elements([('Jack', 'FRANCE', 10), ('Rose', 'ENGLAND', 30),
                                ('Jack', 'FRANCE', 20)], ['name', 'country', 'revenue'])
    revenue = orders.select(orders.name, orders.country, orders.revenue) \
        .where(orders.country == 'FRANCE') \
        .group_by(orders.name) \
        .select(orders.name, orders.revenue.sum.alias('rev_sum'), orders.revenue.count.alias('n'))
    assert rows_of(revenue) == [('+I', 'Jack', 10, 1), ('-U', 'Jack', 10, 1),
                                ('+U', 'Jack', 30, 2)]
    frame = revenue.to_pandas()
    assert list(frame.columns) == ['name', 'rev_sum', 'n']
    assert frame.values.tolist() == [['Jack', 30, 2]]


def test_union_all_limit_alias(env):
    t1 = env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])
    t2 = env.from_elements([(3, 'Bye')], ['id', 'data'])
    u = t1.union_all(t2)
    assert sorted(rows_of(u)) == [('+I', 1, 'Hi'), ('+I', 2, 'Hello'), ('+I', 3, 'Bye')]
    a = t1.alias('k', 'v')
    assert a.get_schema().get_field_names() == ['k', 'v']
    assert rows_of(a.where(a.k == 2).select(a.v)) == [('+I', 'Hello')]
    assert len(rows_of(u.limit(2))) == 2


def test_explain(env):
    from eddy.table import ExplainDetail
    t1 = env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])
    t2 = env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])
    plan = t1.where(t1.data.like('H%')).union_all(t2).explain()
    assert '== Abstract Syntax Tree ==' in plan and '== Optimized Physical Plan ==' in plan
    assert 'Union' in plan
    assert 'changelogMode=[I]' in t1.explain(ExplainDetail.CHANGELOG_MODE)
    assert env.explain_sql("SELECT 1") == env._client.explain("SELECT 1")


def test_config_set_and_get(env):
    config = env.get_config()
    assert config.get('parallelism.default') == '1'
    config.set('parallelism.default', '3')
    assert config.get('parallelism.default') == '3'
    assert config.get('no.such.key', 'fallback') == 'fallback'
    from eddy.util.exceptions import TableException
    with pytest.raises(TableException, match="execution.checkpointing.mode"):
        config.set('execution.checkpointing.mode', 'SOMETIMES')


def test_execute_insert_and_wait(env, printed):
    env.execute_sql("CREATE TEMPORARY TABLE sink_t (id BIGINT, data STRING) "
                    "WITH ('connector' = 'print', 'print-identifier' = 'insert_wait')")
    t = env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])
    result = t.execute_insert('sink_t')
    job = result.get_job_client()
    assert job is not None and len(job.get_job_id()) == 32
    result.wait()
    from eddy.table import JobStatus
    assert job.get_job_status() == JobStatus.FINISHED
    assert sorted(l for l in printed() if l.startswith('insert_wait')) == \
        ['insert_wait> +I[1, Hi]', 'insert_wait> +I[2, Hello]']


def test_wait_timeout_and_cancel(env):
    from eddy.table import JobStatus
    from eddy.util.exceptions import JobExecutionException, JobTimeoutException
    env.execute_sql("CREATE TEMPORARY TABLE endless (n BIGINT) WITH ('connector' = 'datagen', "
                    "'rows-per-second' = '10')")
    env.execute_sql("CREATE TEMPORARY TABLE hole (n BIGINT) WITH ('connector' = 'blackhole')")
    result = env.execute_sql("INSERT INTO hole SELECT n FROM endless")
    started = time.monotonic()
    with pytest.raises(JobTimeoutException, match="still running after 500 ms"):
        result.wait(500)
    assert time.monotonic() - started < 10
    job = result.get_job_client()
    assert job.get_job_status() in (JobStatus.CREATED, JobStatus.RUNNING)
    job.cancel()
    with pytest.raises(JobExecutionException, match="was cancelled"):
        result.wait(30000)
    assert job.get_job_status() == JobStatus.CANCELED


def test_statement_set(env, printed):
    from eddy.table.expressions import col
    env.execute_sql("CREATE TEMPORARY TABLE first_sink (id BIGINT, data STRING) "
                    "WITH ('connector' = 'print', 'print-identifier' = 'ss_first')")
    env.execute_sql("CREATE TEMPORARY TABLE second_sink (id BIGINT, data STRING) "
                    "WITH ('connector' = 'print', 'print-identifier' = 'ss_second')")
    table = env.from_elements([(1, 'Hi'), (2, 'Hello'), (3, 'Bye')], ['id', 'data'])
    env.create_temporary_view('simple_source', table)
    ss = env.create_statement_set()
    ss.add_insert('first_sink', table.where(col('data').like('H%')))
    ss.add_insert_sql("INSERT INTO second_sink SELECT * FROM simple_source WHERE id > 2;")
    plan = ss.explain()
    assert 'first_sink' in plan and 'second_sink' in plan
    result = ss.execute()
    result.wait()
    lines = printed()
    assert sorted(l for l in lines if l.startswith('ss_')) == \
        ['ss_first> +I[1, Hi]', 'ss_first> +I[2, Hello]', 'ss_second> +I[3, Bye]']
    from eddy.util.exceptions import TableException
    with pytest.raises(TableException, match="empty"):
        env.create_statement_set().execute()
    with pytest.raises(TypeError, match="add_insert_sql"):
        env.create_statement_set().add_insert('first_sink', "SELECT 1")


def test_more_operations_and_expressions(env):
    from eddy.table import DataTypes
    from eddy.table.expressions import col, lit
    left = env.from_elements([(1, ' a '), (2, 'bb'), (2, 'bb'), (3, None)], ['k', 's'])
    right = env.from_elements([(1, 'x'), (2, 'y'), (4, 'z')], ['rk', 'rv'])
    assert sorted(rows_of(left.distinct().select(left.k))) == [('+I', 1), ('+I', 2), ('+I', 3)]
    assert rows_of(left.limit(1).add_columns((col('k') * 10).alias('k10'))) == \
        [('+I', 1, ' a ', 10)]
    assert rows_of(left.where(left.k == 1).select(
        left.s.trim.alias('t'), left.s.substring(2, 1).alias('sub'), left.s.upper_case,
        left.s.lower_case, left.s.char_length, (-left.k).abs, lit(2.567).round(1),
        left.k.cast(DataTypes.STRING()), left.s.if_null('none'),
        left.k.not_between(5, 6), left.s.is_not_null)) == \
        [('+I', 'a', 'a', ' A ', ' a ', 3, 1, 2.6, '1', ' a ', True, True)]
    assert rows_of(left.where(left.s.is_null).select(left.s.if_null('none'))) == \
        [('+I', 'none')]
    inner = left.distinct().join(right, left.k == right.rk).select(col('k'), col('rv'))
    assert sorted(rows_of(inner)) == [('+I', 1, 'x'), ('+I', 2, 'y')]
    cross = left.where(left.k == 1).join(right).where(col('rk') == 4).select(col('s'), col('rv'))
    assert rows_of(cross) == [('+I', ' a ', 'z')]
    outer = left.where(left.k == 3).left_outer_join(right, col('k') == col('rk'))
    assert rows_of(outer) == [('+I', 3, None, None, None)]
    assert ('+I', None, None, 4, 'z') in rows_of(left.right_outer_join(right,
                                                                        col('k') == col('rk')))
    assert len([r for r in rows_of(left.full_outer_join(right, col('k') == col('rk')))
                if r[0] == '+I']) >= 5
    flags = env.from_elements([(True,), (False,)], ['b'])
    assert rows_of(flags.where(flags.b.is_true)) == [('+I', True)]
    assert rows_of(flags.where(flags.b.is_false)) == [('+I', False)]


def test_from_elements_widens_decimals(env):
    t = env.from_elements([(decimal.Decimal('1.5'),), (decimal.Decimal('123.25'),),
                           (decimal.Decimal('1E+2'),)], ['d'])
    assert t.get_schema().get_field_data_types()[0].sql().startswith('DECIMAL(5, 2)')
    assert rows_of(t) == [('+I', decimal.Decimal('1.50')), ('+I', decimal.Decimal('123.25')),
                          ('+I', decimal.Decimal('100.00'))]


def test_a_failing_job_raises_with_its_error(env):
    from eddy.table import JobStatus
    from eddy.util.exceptions import JobExecutionException, TableException
    env.execute_sql("CREATE TEMPORARY TABLE fail_sink (a INT) WITH ('connector' = 'blackhole')")
    t = env.from_elements([(0,)], ['a'])
    result = env.sql_query("SELECT CAST(10 / a AS INT) AS a FROM %s" % t).execute_insert('fail_sink')
    with pytest.raises(JobExecutionException, match=r"Job [0-9a-f]{32} failed: Division by zero"):
        result.wait(60000)
    assert result.get_job_client().get_job_status() == JobStatus.FAILED
    # A query's rows: the failure comes out of the iterator.
    with pytest.raises(TableException, match="Division by zero"):
        with env.execute_sql("SELECT 10 / a FROM %s" % t).collect() as rows:
            list(rows)


def test_from_pandas(env):
    import pandas as pd
    frame = pd.DataFrame({'id': pd.Series([1, 2], dtype='int8'), 'x': [0.5, float('nan')],
                          'name': ['a', 'b']})
    t = env.from_pandas(frame)
    assert t.get_schema().get_field_names() == ['id', 'x', 'name']
    assert rows_of(t) == [('+I', 1, 0.5, 'a'), ('+I', 2, None, 'b')]
    back = t.to_pandas()
    assert str(back['id'].dtype) == 'int8' and back['name'].tolist() == ['a', 'b']
    typed = env.from_pandas(pd.DataFrame({'n': [1, 2]}), ['m'])
    assert rows_of(typed.select(typed.m.sum)) == [('+I', 1), ('-U', 1), ('+U', 3)]
