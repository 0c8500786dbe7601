# Explaining tables (PyFlink's "Intro to the Python Table API"): the plan of a Table and of a
# statement set, with Eddy's imports.
from eddy.table import EnvironmentSettings, TableEnvironment
from eddy.table.expressions import col

env_settings = EnvironmentSettings.in_streaming_mode()
table_env = TableEnvironment.create(env_settings)

table1 = table_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])
table2 = table_env.from_elements([(1, 'Hi'), (2, 'Hello')], ['id', 'data'])
table = table1 \
    .where(col('data').like('H%')) \
    .union_all(table2)
print(table.explain())

table_env.execute_sql("""
    CREATE TABLE print_sink_table (
        id BIGINT,
        data VARCHAR
    ) WITH (
        'connector' = 'print'
    )
""")
table_env.execute_sql("""
    CREATE TABLE black_hole_sink_table (
        id BIGINT,
        data VARCHAR
    ) WITH (
        'connector' = 'blackhole'
    )
""")

statement_set = table_env.create_statement_set()

statement_set.add_insert("print_sink_table", table1.where(col('data').like('H%')))
statement_set.add_insert("black_hole_sink_table", table2)

print(statement_set.explain())

table_env.close()
