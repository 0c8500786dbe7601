"""A statement set, as PyFlink's StatementSet: INSERTs added one by one (a Table into a sink, or
INSERT SQL) are explained or executed together as one job, in which identical sub-plans run once.
"""

from eddy.table.table import Table, _changelog_mode
from eddy.table.table_result import TableResult
from eddy.util.exceptions import TableException


class StatementSet:

    def __init__(self, env):
        self._env = env
        self._inserts = []

    def add_insert(self, target_path, table, overwrite=False):
        """INSERT INTO `target_path` the query `table` (a Table)."""
        if not isinstance(table, Table):
            raise TypeError("add_insert() takes a Table; add INSERT SQL with add_insert_sql()")
        if overwrite:
            raise TableException("INSERT OVERWRITE is not supported; use overwrite=False")
        self._inserts.append("INSERT INTO %s %s" % (self._env._path(target_path), table.sql()))
        return self

    def add_insert_sql(self, stmt):
        """An `INSERT INTO ...` statement (a trailing ';' is allowed)."""
        self._inserts.append(stmt)
        return self

    def _sql(self):
        if not self._inserts:
            raise TableException("the statement set is empty: add at least one INSERT")
        body = ""
        for s in self._inserts:
            s = s.strip()
            while s.endswith(";"):
                s = s[:-1].rstrip()
            body += s + ";\n"
        return "STATEMENT SET BEGIN\n" + body + "END"

    def explain(self, *extra_details):
        """The plan of every INSERT together (EXPLAIN STATEMENT SET ...)."""
        return self._env._client.explain(self._sql(), _changelog_mode(extra_details))

    def execute(self):
        """Submits every INSERT as one job; wait() on the result waits for it."""
        return TableResult(self._env._client, self._env._client.execute("EXECUTE " + self._sql()))
