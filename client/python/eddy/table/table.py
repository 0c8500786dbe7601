"""Table and GroupedTable, as PyFlink's: a Table is a query; each operation wraps the one before it
in SQL (as the C++ Table API, client/table_environment.cc), so Table API and SQL mix freely.
`t.name` is the column `name`; str(t) registers t as a temporary view and is its name, so
`execute_sql("SELECT * FROM %s" % t)` works as in PyFlink.
"""

import enum

from eddy.table.expression import Expression, quote_identifier
from eddy.table.expressions import col
from eddy.table.row import RowKind
from eddy.util.exceptions import TableException


class ExplainDetail(enum.Enum):
    CHANGELOG_MODE = 0


def _items(fields):
    if not fields:
        raise ValueError("select() needs at least one field")
    return ", ".join((col(f) if isinstance(f, str) else f).sql() for f in fields)


def _condition(predicate):
    if not isinstance(predicate, Expression):
        raise TypeError("the condition must be an Expression, e.g. col('a') > 1")
    return predicate.sql()


def _changelog_mode(details):
    for d in details:
        if d != ExplainDetail.CHANGELOG_MODE:
            raise ValueError("explain() supports ExplainDetail.CHANGELOG_MODE only, got %r" % d)
    return bool(details)


class Table:

    def __init__(self, env, sql):
        self._env = env
        self._sql = sql
        self._view = None

    def sql(self):
        """The SQL query this table stands for."""
        return self._sql

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return col(name)

    def __getitem__(self, name):
        return col(name)

    def __str__(self):
        if self._view is None:
            self._view = self._env._next_name("UnnamedTable$")
            self._env.create_temporary_view(self._view, self)
        return quote_identifier(self._view)

    def _wrap(self, items, rest=""):
        sql = "SELECT %s FROM (%s) AS %s" % (items, self._sql, self._env._next_name("t"))
        return Table(self._env, sql + (" " + rest if rest else ""))

    def select(self, *fields):
        return self._wrap(_items(fields))

    def add_columns(self, *fields):
        return self._wrap("*, " + _items(fields))

    def where(self, predicate):
        return self._wrap("*", "WHERE " + _condition(predicate))

    def filter(self, predicate):
        return self.where(predicate)

    def distinct(self):
        return self._wrap("DISTINCT *")

    def group_by(self, *fields):
        if not fields:
            raise ValueError("group_by() needs at least one key")
        return GroupedTable(self, fields)

    def alias(self, field, *fields):
        """Renames every column, in order: t.alias('a', 'b')."""
        names = ", ".join(quote_identifier(n) for n in (field,) + fields)
        return Table(self._env, "SELECT * FROM (%s) AS %s(%s)" %
                     (self._sql, self._env._next_name("t"), names))

    def union_all(self, right):
        return Table(self._env, "SELECT * FROM (%s) AS %s UNION ALL SELECT * FROM (%s) AS %s" %
                     (self._sql, self._env._next_name("t"), right._sql, self._env._next_name("t")))

    def _join(self, right, kind, condition):
        sql = "SELECT * FROM (%s) AS %s %s (%s) AS %s" % (self._sql, self._env._next_name("t"),
                                                          kind, right._sql,
                                                          self._env._next_name("t"))
        if condition is not None:
            sql += " ON " + _condition(condition)
        return Table(self._env, sql)

    def join(self, right, join_predicate=None):
        """Inner join; without a predicate the following where() gives the condition."""
        return self._join(right, "JOIN" if join_predicate is not None else "CROSS JOIN",
                          join_predicate)

    def left_outer_join(self, right, join_predicate):
        return self._join(right, "LEFT JOIN", join_predicate)

    def right_outer_join(self, right, join_predicate):
        return self._join(right, "RIGHT JOIN", join_predicate)

    def full_outer_join(self, right, join_predicate):
        return self._join(right, "FULL JOIN", join_predicate)

    def limit(self, fetch, offset=0):
        """The first `fetch` rows (after skipping `offset`) of an append-only result."""
        rest = "LIMIT %d" % fetch
        if offset:
            rest += " OFFSET %d" % offset
        return self._wrap("*", rest)

    def explain(self, *extra_details):
        """The plan text (EXPLAIN); ExplainDetail.CHANGELOG_MODE adds each node's changelog mode."""
        return self._env._client.explain(self._sql, _changelog_mode(extra_details))

    def execute(self):
        """Runs the query; its rows come through the TableResult (collect, print)."""
        return self._env.execute_sql(self._sql)

    def execute_insert(self, table_path, overwrite=False):
        """INSERT INTO `table_path` this query: submits a job (wait() on the result waits for it)."""
        if overwrite:
            raise TableException("INSERT OVERWRITE is not supported: Eddy's sinks are streaming "
                                 "sinks; use overwrite=False")
        return self._env.execute_sql("INSERT INTO %s %s" % (self._env._path(table_path),
                                                            self._sql))

    def to_pandas(self):
        """The result as a pandas DataFrame: the materialized rows (each -U/-D removes the row it
        retracts), columns typed as the result's (nullable integers as pandas' Int types)."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("to_pandas() needs pandas (Debian: python3-pandas)") from e
        result = self.execute()
        schema = result.get_table_schema()
        rows = []
        with result.collect() as changes:
            for row in changes:
                if row.get_row_kind() in (RowKind.INSERT, RowKind.UPDATE_AFTER):
                    rows.append(tuple(row))
                else:
                    try:
                        rows.remove(tuple(row))
                    except ValueError:
                        pass
        from eddy.table.pandas_types import to_dataframe
        return to_dataframe(pd, schema, rows)

    def get_schema(self):
        """The columns of the result (asks the coordinator to describe the query)."""
        return self._env._describe(self._sql)

    def print_schema(self):
        print(self.get_schema())


class GroupedTable:

    def __init__(self, table, keys):
        self._table = table
        self._keys = keys

    def select(self, *fields):
        return self._table._wrap(_items(fields), "GROUP BY " + _items(self._keys))
