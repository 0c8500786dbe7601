"""A row of a result and the kind of change it is, as PyFlink's Row and RowKind: a tuple of values
(`row[0]`, `row.name` when it has field names) with `get_row_kind()`.
"""

import enum


class RowKind(enum.Enum):
    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3

    def short_string(self):
        return ("+I", "-U", "+U", "-D")[self.value]

    def __str__(self):
        return self.short_string()


class Row(tuple):
    """Row(1, 'Hi') or Row(id=1, data='Hi'); a query's rows come as Row with their RowKind."""

    def __new__(cls, *args, **kwargs):
        if args and kwargs:
            raise ValueError("a Row takes values or named values, not both")
        if kwargs:
            row = tuple.__new__(cls, kwargs.values())
            row._fields = list(kwargs.keys())
        else:
            row = tuple.__new__(cls, args)
            row._fields = None
        row._row_kind = RowKind.INSERT
        return row

    @classmethod
    def of(cls, values, kind=RowKind.INSERT, fields=None):
        row = tuple.__new__(cls, values)
        row._fields = fields
        row._row_kind = kind
        return row

    def get_row_kind(self):
        return self._row_kind

    def set_row_kind(self, kind):
        self._row_kind = kind

    def get_fields_by_names(self, names):
        return [self[self._fields.index(n)] for n in names]

    def as_dict(self, recursive=False):
        if self._fields is None:
            raise TypeError("this Row has no field names")
        return dict(zip(self._fields, self))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        fields = self._fields
        if fields is None or name not in fields:
            raise AttributeError(name)
        return self[fields.index(name)]

    def __eq__(self, other):
        return (isinstance(other, Row) and tuple.__eq__(self, other) and
                self._row_kind == other._row_kind)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return tuple.__hash__(self)

    def __reduce__(self):
        return (Row.of, (tuple(self), self._row_kind, self._fields))

    def __repr__(self):
        if self._fields is not None:
            return "Row(%s)" % ", ".join("%s=%r" % (k, v) for k, v in zip(self._fields, self))
        return "<Row(%s)>" % ", ".join(repr(v) for v in self)
