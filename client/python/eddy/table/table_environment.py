"""TableEnvironment, as PyFlink's: the entry point of a Table API program. It holds a session on a
coordinator, either one already running (TableEnvironment.connect('host:8081')) or an embedded
cluster this program starts (TableEnvironment.create(): eddy-coordinator and eddy-worker as child
processes on free ports, stopped by close() or at exit). With $EDDY_COORDINATOR set, create()
connects to that address instead, so a PyFlink-style program runs unchanged on a real cluster.
"""

import datetime
import decimal
import itertools
import os
import uuid

from eddy.client import EddyClient
from eddy.embedded import EmbeddedCluster
from eddy.table.environment_settings import EnvironmentSettings
from eddy.table.expression import decimal_precision_scale, literal_sql, quote_identifier
from eddy.table.statement_set import StatementSet
from eddy.table.table import Table
from eddy.table.table_config import TableConfig
from eddy.table.table_result import TableResult, TableSchema
from eddy.table.types import DataType, DataTypes, RowType
from eddy.util.exceptions import TableException

_names = itertools.count(1)


def _infer_type(v):
    """The type PyFlink infers for a Python value."""
    if isinstance(v, bool):
        return DataTypes.BOOLEAN()
    if isinstance(v, int):
        return DataTypes.BIGINT()
    if isinstance(v, float):
        return DataTypes.DOUBLE()
    if isinstance(v, str):
        return DataTypes.STRING()
    if isinstance(v, decimal.Decimal):
        return DataTypes.DECIMAL(*decimal_precision_scale(v))
    if isinstance(v, datetime.datetime):
        return DataTypes.TIMESTAMP(3)
    if isinstance(v, datetime.date):
        return DataTypes.DATE()
    raise TypeError("from_elements cannot infer a type for %r (%s); give the schema as "
                    "DataTypes.ROW([...])" % (v, type(v).__name__))


def _widest_decimal(values):
    """The DECIMAL type that holds every one of `values` (Decimals)."""
    integer_digits = scale = 0
    for v in values:
        if not isinstance(v, decimal.Decimal):
            raise TableException("from_elements: a column mixes DECIMAL and other values")
        p, s = decimal_precision_scale(v)
        scale = max(scale, s)
        integer_digits = max(integer_digits, p - s)
    return DataTypes.DECIMAL(min(max(integer_digits + scale, 1), 38), scale)


def _inferred_types(rows, names, verify_schema=True):
    """The type of each column of `rows`, inferred from its values."""
    types = []
    for c in range(len(names)):
        values = [r[c] for r in rows if r[c] is not None]
        if not values:
            raise TableException(
                "from_elements: column '%s' holds only None, so its type cannot be "
                "inferred; give the schema as DataTypes.ROW([...])" % names[c])
        t = _infer_type(values[0])
        for v in values[1:]:
            u = _infer_type(v)
            if u != t and isinstance(v, decimal.Decimal) and \
                    isinstance(values[0], decimal.Decimal):
                t = _widest_decimal(values)
                break
            if u != t and verify_schema:
                raise TableException("from_elements: column '%s' holds both %s and %s "
                                     "values" % (names[c], t.sql(), u.sql()))
        types.append(t)
    return types


class TableEnvironment:

    def __init__(self, address, settings=None, cluster=None):
        self._cluster = cluster
        self._client = EddyClient(address, "python-" + uuid.uuid4().hex)
        self._config = TableConfig(self)
        self._closed = False
        settings = settings or EnvironmentSettings.in_streaming_mode()
        if not settings.is_streaming_mode():
            try:
                # The coordinator refuses what it does not run, with its own message.
                self.execute_sql("SET 'execution.runtime-mode' = 'batch'")
            except BaseException:
                self.close()
                raise

    @staticmethod
    def create(environment_settings=None, bin_dir=None, workers=1, slots=4, print_output=None):
        """An environment on an embedded cluster (or on $EDDY_COORDINATOR when set).

        bin_dir: where eddy-coordinator and eddy-worker are (default $EDDY_BIN_DIR, else $PATH);
        print_output: a file the workers' standard output (the print connector) goes to, default
        this process's standard output."""
        address = os.environ.get("EDDY_COORDINATOR")
        if address:
            return TableEnvironment(address, environment_settings)
        cluster = EmbeddedCluster.start(bin_dir, workers, slots, print_output)
        try:
            return TableEnvironment(cluster.address, environment_settings, cluster)
        except BaseException:
            cluster.close()
            raise

    @staticmethod
    def connect(address, environment_settings=None):
        """An environment on the running coordinator at `address` (host:port)."""
        return TableEnvironment(address, environment_settings)

    def close(self):
        """Ends the session; stops the embedded cluster, if this environment started one."""
        if self._closed:
            return
        self._closed = True
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def get_address(self):
        """The coordinator's host:port."""
        return self._client.address

    def get_config(self):
        return self._config

    def _next_name(self, prefix):
        return "%s%d" % (prefix, next(_names))

    def _path(self, path):
        """An object path as SQL: 'db.t' -> `db`.`t`; a path already quoted stays as it is."""
        if "`" in path:
            return path
        return ".".join(quote_identifier(p) for p in path.split("."))

    def execute_sql(self, stmt):
        """Runs any statement (DDL, SET, SHOW, EXPLAIN, INSERT, a query) and returns its result;
        an INSERT is submitted as a job and not waited for (result.wait() does)."""
        return TableResult(self._client, self._client.execute(stmt))

    def sql_query(self, query):
        """A query as a Table (validated when it runs or is explained)."""
        return Table(self, query)

    def from_path(self, path):
        """The table or view at `path` ('t', 'db.t', 'catalog.db.t')."""
        return Table(self, "SELECT * FROM " + self._path(path))

    def from_elements(self, elements, schema=None, verify_schema=True):
        """A table of the given rows (tuples, lists, Rows, or single values). `schema`: column
        names (types inferred from the values, as PyFlink: int BIGINT, float DOUBLE, str STRING,
        bool BOOLEAN, Decimal DECIMAL, date DATE, datetime TIMESTAMP(3)), or DataTypes.ROW([...])
        with names and types; default names _1, _2, ..."""
        rows = [tuple(e) if isinstance(e, (tuple, list)) else (e,) for e in elements]
        if not rows:
            raise TableException("from_elements needs at least one element")
        width = len(rows[0])
        for i, r in enumerate(rows):
            if len(r) != width:
                raise TableException("from_elements: element %d has %d fields, element 0 has %d" %
                                     (i, len(r), width))
        if isinstance(schema, RowType):
            names, types = schema.field_names(), schema.field_types()
            if len(names) != width:
                raise TableException("from_elements: the schema has %d fields, the elements %d" %
                                     (len(names), width))
        else:
            names = list(schema) if schema is not None else ["_%d" % (i + 1) for i in range(width)]
            if len(names) != width:
                raise TableException("from_elements: %d names for %d fields" % (len(names), width))
            types = _inferred_types(rows, names, verify_schema)
        tuples = ", ".join(
            "(%s)" % ", ".join(literal_sql(v, t.nullable()) for v, t in zip(r, types))
            for r in rows)
        return Table(
            self, "SELECT * FROM (VALUES %s) AS %s(%s)" %
            (tuples, self._next_name("t"), ", ".join(quote_identifier(n) for n in names)))

    def from_pandas(self, pdf, schema=None):
        """A table of a pandas DataFrame's rows; column names and types from the DataFrame (int8
        TINYINT ... int64 BIGINT, float32 FLOAT, float64 DOUBLE, bool BOOLEAN, others inferred from
        the values; NaN/None is NULL), or from `schema` (names, or DataTypes.ROW([...]))."""
        import math
        by_dtype = {
            "int8": DataTypes.TINYINT(),
            "int16": DataTypes.SMALLINT(),
            "int32": DataTypes.INT(),
            "int64": DataTypes.BIGINT(),
            "float32": DataTypes.FLOAT(),
            "float64": DataTypes.DOUBLE(),
            "bool": DataTypes.BOOLEAN(),
        }
        names = [str(c) for c in pdf.columns]

        def python_value(v):
            if hasattr(v, "item"):  # a numpy scalar
                v = v.item()
            if isinstance(v, float) and math.isnan(v):
                return None
            return v

        rows = [tuple(python_value(v) for v in row) for row in pdf.itertuples(index=False)]
        if schema is None:
            # Columns of a numeric or bool dtype keep it; the others are inferred from values.
            types = [by_dtype.get(str(t).lower()) for t in pdf.dtypes]
            unknown = [i for i, t in enumerate(types) if t is None]
            if unknown:
                inferred = _inferred_types([tuple(r[i] for i in unknown) for r in rows],
                                           [names[i] for i in unknown])
                for i, t in zip(unknown, inferred):
                    types[i] = t
            schema = DataTypes.ROW([DataTypes.FIELD(n, t) for n, t in zip(names, types)])
        return self.from_elements(rows, schema)

    def create_temporary_view(self, view_path, table):
        """Registers `table` as a temporary view, readable from SQL and from_path."""
        self.execute_sql("CREATE TEMPORARY VIEW %s AS %s" % (self._path(view_path), table.sql()))

    def drop_temporary_view(self, view_path):
        self.execute_sql("DROP TEMPORARY VIEW %s" % self._path(view_path))
        return True

    def drop_temporary_table(self, table_path):
        self.execute_sql("DROP TEMPORARY TABLE %s" % self._path(table_path))
        return True

    def list_tables(self):
        return [r.cells[0] for r in self._client.execute("SHOW TABLES").table.rows]

    def list_views(self):
        return [r.cells[0] for r in self._client.execute("SHOW VIEWS").table.rows]

    def explain_sql(self, stmt, *extra_details):
        from eddy.table.table import _changelog_mode
        return self._client.explain(stmt, _changelog_mode(extra_details))

    def create_statement_set(self):
        return StatementSet(self)

    def _describe(self, query):
        view = self._next_name("schema_probe")
        self.execute_sql("CREATE TEMPORARY VIEW %s AS %s" % (quote_identifier(view), query))
        try:
            table = self._client.execute("DESCRIBE " + quote_identifier(view)).table
        finally:
            self.execute_sql("DROP TEMPORARY VIEW " + quote_identifier(view))
        names, types = [], []
        for r in table.rows:
            names.append(r.cells[0])
            nullable = len(r.cells) < 3 or r.cells[2] != "FALSE"
            types.append(DataType(r.cells[1], nullable))
        return TableSchema(names, types)
