# The common structure of a Table API program (PyFlink's "Intro to the Python Table API"), with
# Eddy's imports: an environment, a source and a sink table, a query, its result into the sink.
# Runs on an embedded cluster (eddy-coordinator/eddy-worker from $EDDY_BIN_DIR or $PATH), or on the
# cluster at $EDDY_COORDINATOR.
from eddy.table import EnvironmentSettings, TableEnvironment

# 1. create a TableEnvironment
env_settings = EnvironmentSettings.in_streaming_mode()
table_env = TableEnvironment.create(env_settings)

# 2. create source Table
table_env.execute_sql("""
    CREATE TABLE datagen (
        id INT,
        data STRING
    ) WITH (
        'connector' = 'datagen',
        'fields.id.kind' = 'sequence',
        'fields.id.start' = '1',
        'fields.id.end' = '10'
    )
""")

# 3. create sink Table
table_env.execute_sql("""
    CREATE TABLE print (
        id INT,
        data STRING
    ) WITH (
        'connector' = 'print'
    )
""")

# 4. query from source table and perform calculations
# create a Table from a Table API query:
source_table = table_env.from_path("datagen")
# or create a Table from a SQL query:
source_table = table_env.sql_query("SELECT * FROM datagen")

result_table = source_table.select(source_table.id + 1, source_table.data)

# 5. emit query result to sink table
# emit a Table API result Table to a sink table:
result_table.execute_insert("print").wait()
# or emit results via SQL query:
table_env.execute_sql("INSERT INTO print SELECT * FROM datagen").wait()

table_env.close()
