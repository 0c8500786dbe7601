"""The session's configuration, as PyFlink's TableConfig: set(key, value) is SET 'key' = 'value' on
the coordinator (which checks the key and value, as the shell's SET), get(key) reads it back."""

from eddy.table.expression import literal_sql


class TableConfig:

    def __init__(self, env):
        self._env = env

    def set(self, key, value):
        """Sets `key` for every later statement of this environment; returns the config."""
        if isinstance(value, bool):
            value = "true" if value else "false"
        self._env.execute_sql("SET %s = %s" % (literal_sql(str(key)), literal_sql(str(value))))
        return self

    def get(self, key, default_value=None):
        """The value the session has for `key` (as SET lists it), or `default_value`."""
        table = self._env._client.execute("SET").table
        for row in table.rows:
            if len(row.cells) >= 2 and row.cells[0] == key:
                return row.cells[1]
        return default_value

    def get_configuration(self):
        """Every key the session set, as a dict."""
        table = self._env._client.execute("SET").table
        return {r.cells[0]: r.cells[1] for r in table.rows if len(r.cells) >= 2}
