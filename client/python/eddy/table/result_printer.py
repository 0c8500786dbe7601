"""Prints results exactly as Eddy's shell prints them (client/result_printer.cc and
client/table_printer.cc), so TableResult.print() writes the same bytes as `eddy -e`:
a query in the session's result mode (TABLEAU/CHANGELOG: an `op` column and one row per change,
ending with `Received a total of N rows`; TABLE: the materialized result once the query ends,
ending with `N rows in set` or `Empty set`; a batch query's TABLEAU: no op column, widths from the
data, `N rows in set`), and small text tables (SHOW, DESCRIBE) padded by bytes.
"""

from eddy.table import value_format as vf

_MAX_COLUMN_WIDTH = 30
_NULL = "<NULL>"
_TRUNCATED = "..."


def _timestamp_width(precision):
    if precision == 0:
        return 19
    if precision <= 3:
        return 23
    if precision <= 6:
        return 26
    return 29


def tableau_column_width(name, t, max_column_width=_MAX_COLUMN_WIDTH):
    """The name, or the widest text of the type (<NULL> included), variable-width types
    `max_column_width` (sql-client.display.max-column-width)."""
    widths = {
        vf.TINYINT: 4,
        vf.SMALLINT: 6,
        vf.INT: 11,
        vf.BIGINT: 20,
        vf.BOOLEAN: 5,
        vf.DATE: 10,
    }
    if t.id == vf.DECIMAL:
        n = t.precision + 2
    elif t.id in (vf.TIMESTAMP, vf.TIMESTAMP_LTZ):
        n = _timestamp_width(t.precision)
    else:
        n = widths.get(t.id, max_column_width)
    return max(n, len(_NULL), len(name))


def _cell(text, width):
    # Widths count code points, as the C++ printer counts UTF-8 lead bytes.
    if len(text) <= width:
        return " " * (width - len(text)) + text
    keep = max(0, width - len(_TRUNCATED))
    return text[:keep] + _TRUNCATED


class _Tableau:

    def __init__(self, names, widths, out):
        self.names = names
        self.widths = widths
        self.out = out

    def border(self):
        self.out.write("+" + "".join("-" * (w + 2) + "+" for w in self.widths) + "\n")

    def row(self, cells):
        self.out.write("|" + "".join(" " + _cell(c, w) + " |" for c, w in zip(cells, self.widths)) +
                       "\n")

    def header(self):
        self.border()
        self.row(self.names)
        self.border()


class ChangelogTableau:
    """TABLEAU and CHANGELOG: one line per change as it arrives."""

    def __init__(self, fields, out, max_column_width):
        self._tableau = _Tableau(["op"] + [n for n, _ in fields],
                                 [2] + [tableau_column_width(n, t, max_column_width)
                                        for n, t in fields], out)
        self._types = [t for _, t in fields]
        self._out = out
        self.rows_received = 0

    def begin(self):
        self._tableau.header()
        self._out.flush()

    def add(self, kind, values):
        self._tableau.row([("+I", "-U", "+U", "-D")[kind]] +
                          [vf.cell_text(v, t) for v, t in zip(values, self._types)])
        self.rows_received += 1

    def flush(self):
        self._out.flush()

    def end(self):
        self._tableau.border()
        n = self.rows_received
        self._out.write("Received a total of %d %s\n" % (n, "rows" if n > 1 else "row"))
        self._out.flush()


class MaterializedTable:
    """TABLE: the current result (each -U/-D removes the row it retracts), printed at the end;
    beyond `max_rows` rows (when positive) the oldest goes for each new one."""

    def __init__(self, fields, out, max_column_width, max_rows=0):
        self._tableau = _Tableau([n for n, _ in fields],
                                 [tableau_column_width(n, t, max_column_width)
                                  for n, t in fields], out)
        self._types = [t for _, t in fields]
        self._out = out
        self._rows = []
        self._max_rows = max_rows
        self.rows_received = 0

    def begin(self):
        pass

    def add(self, kind, values):
        cells = [vf.cell_text(v, t) for v, t in zip(values, self._types)]
        self.rows_received += 1
        if kind in (0, 2):
            if 0 < self._max_rows <= len(self._rows):
                del self._rows[0]
            self._rows.append(cells)
        elif cells in self._rows:
            self._rows.remove(cells)

    def flush(self):
        pass

    def end(self):
        if not self._rows:
            self._out.write("Empty set\n")
        else:
            self._tableau.header()
            for r in self._rows:
                self._tableau.row(r)
            self._tableau.border()
            n = len(self._rows)
            self._out.write("%d %s in set\n" % (n, "rows" if n > 1 else "row"))
        self._out.flush()


class BatchTableau:
    """A batch query's TABLEAU: final rows, printed at the end without an op column, each column
    as wide as its name or widest cell (at most sql-client.display.max-column-width), ending with
    `N rows in set` or `Empty set`."""

    def __init__(self, fields, out, max_column_width):
        self._max_column_width = max_column_width
        self._names = [n for n, _ in fields]
        self._types = [t for _, t in fields]
        self._out = out
        self._rows = []

    @property
    def rows_received(self):
        return len(self._rows)

    def begin(self):
        pass

    def add(self, kind, values):
        self._rows.append([vf.cell_text(v, t) for v, t in zip(values, self._types)])

    def flush(self):
        pass

    def end(self):
        if not self._rows:
            self._out.write("Empty set\n")
        else:
            widths = [len(n) for n in self._names]
            for r in self._rows:
                widths = [max(w, len(c)) for w, c in zip(widths, r)]
            tableau = _Tableau(self._names, [min(w, self._max_column_width) for w in widths], self._out)
            tableau.header()
            for r in self._rows:
                tableau.row(r)
            tableau.border()
            n = len(self._rows)
            self._out.write("%d %s in set\n" % (n, "rows" if n > 1 else "row"))
        self._out.flush()


def make_result_printer(mode, fields, out, batch=False, max_column_width=0, max_table_rows=0):
    """`fields`: (name, eddy.v1.DataType) pairs; `mode` TABLEAU, TABLE or CHANGELOG; `batch`: the
    result of a batch query; `max_column_width` the session's sql-client.display.max-column-width
    (0: the default, 30); `max_table_rows` its sql-client.execution.max-table-result.rows (0: no
    limit)."""
    width = max_column_width or _MAX_COLUMN_WIDTH
    if mode.upper() == "TABLE":
        return MaterializedTable(fields, out, width, max_table_rows)
    if batch:
        return BatchTableau(fields, out, width)
    return ChangelogTableau(fields, out, width)


def format_text_table(table):
    """An eddy.v1.TextTable as the shell prints it; widths and padding count bytes, as the C++."""
    if not table.rows:
        return "Empty set\n"
    names = list(table.column_names)
    n = len(names)
    width = [len(c.encode()) for c in names]
    for row in table.rows:
        for c in range(min(n, len(row.cells))):
            width[c] = max(width[c], len(row.cells[c].encode()))
    border = "+" + "".join("-" * (w + 2) + "+" for w in width) + "\n"

    def line(cells):
        return "|" + "".join(" " + cells[c] + " " * (width[c] - len(cells[c].encode())) + " |"
                             for c in range(n)) + "\n"

    out = border + line(names) + border
    for row in table.rows:
        cells = list(row.cells) + [""] * (n - len(row.cells))
        out += line(cells)
    out += border
    rows = len(table.rows)
    return out + "%d %s\n" % (rows, "row in set" if rows == 1 else "rows in set")
