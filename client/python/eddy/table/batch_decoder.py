"""Decodes the wire form of a ChangelogBatch (proto/eddy/v1/data.proto: little-endian columns,
validity bitmaps, string offsets and heap) into Python values, a column at a time.

Values: BOOLEAN bool, integers int, FLOAT/DOUBLE float, DECIMAL decimal.Decimal, STRING str,
DATE datetime.date, TIMESTAMP datetime.datetime (naive), TIMESTAMP_LTZ datetime.datetime (aware, in UTC), INTERVAL datetime.timedelta, NULL None.
"""

import datetime
import decimal
import struct

from eddy.table import value_format as vf
from eddy.util.exceptions import TableException

_FIXED = {
    vf.BOOLEAN: "B",
    vf.TINYINT: "b",
    vf.SMALLINT: "h",
    vf.INT: "i",
    vf.BIGINT: "q",
    vf.FLOAT: "f",
    vf.DOUBLE: "d",
    vf.DECIMAL: "q",
    vf.DATE: "i",
    vf.TIMESTAMP: "q",
    vf.TIMESTAMP_LTZ: "q",
    vf.INTERVAL: "q",
    vf.NULL: "B",
}
_EPOCH_DATE = datetime.date(1970, 1, 1)


def _convert(raw, t):
    tid = t.id
    if tid == vf.BOOLEAN:
        return [x != 0 for x in raw]
    if tid == vf.DECIMAL:
        return [decimal.Decimal(x).scaleb(-t.scale) for x in raw]
    if tid == vf.DATE:
        return [_EPOCH_DATE + datetime.timedelta(days=x) for x in raw]
    if tid == vf.TIMESTAMP:
        return [vf.timestamp_from_units(x, t.precision) for x in raw]
    if tid == vf.TIMESTAMP_LTZ:
        return [vf.ltz_from_units(x, t.precision) for x in raw]
    if tid == vf.INTERVAL:
        return [datetime.timedelta(milliseconds=x) for x in raw]
    if tid == vf.NULL:
        return [None] * len(raw)
    return list(raw)


def decode_column(col, t, n):
    """The n values of one column."""
    if t.id == vf.STRING:
        offsets = struct.unpack("<%dI" % (n + 1), col.offsets) if n else (0,)
        heap = col.heap
        values = [heap[offsets[i]:offsets[i + 1]].decode("utf-8", "replace") for i in range(n)]
    else:
        fmt = _FIXED.get(t.id)
        if fmt is None:
            raise TableException("result batch: unknown column type id %d" % t.id)
        if len(col.data) != n * struct.calcsize(fmt):
            raise TableException("result batch: a column holds %d bytes for %d rows" %
                                 (len(col.data), n))
        values = _convert(struct.unpack("<%d%s" % (n, fmt), col.data), t)
    validity = col.validity
    if validity:
        for i in range(n):
            if not validity[i >> 3] & (1 << (i & 7)):
                values[i] = None
    return values


def decode_batch(batch):
    """(row kinds, rows): one kind (0..3) and one tuple of values per row."""
    n = batch.num_rows
    if len(batch.row_kinds) != n or len(batch.types) != len(batch.columns):
        raise TableException("result batch: row kinds or column types do not match its rows")
    columns = [decode_column(c, t, n) for c, t in zip(batch.columns, batch.types)]
    return list(batch.row_kinds), list(zip(*columns)) if columns else [()] * n
