"""Values as text, exactly as Eddy's C++ code writes them (common/types/value.cc): the print-sink
text of a value (`null` for NULL) and the tableau cell text the shell shows (`<NULL>`, TRUE/FALSE).
"""

import datetime
import math
import re
import struct

# TypeId of proto/eddy/v1/types.proto.
BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, DATE, TIMESTAMP, NULL, \
    INTERVAL, TIMESTAMP_LTZ = range(14)

_EPOCH = datetime.datetime(1970, 1, 1)


def _float32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def format_approximate(d, as_float):
    """Shortest digits that read back as the same value; plain notation for 1e-3 <= |d| < 1e7."""

    def round_trips(s):
        v = float(s)
        return _float32(v) == _float32(d) if as_float else v == d

    if math.isnan(d):
        return "NaN"
    if math.isinf(d):
        return "Infinity" if d > 0 else "-Infinity"
    if d == 0:
        return "-0.0" if math.copysign(1.0, d) < 0 else "0.0"
    a = abs(d)
    if 1e-3 <= a < 1e7:
        for prec in range(1, 18):
            s = "%.*f" % (prec, d)
            if round_trips(s):
                while len(s) > 2 and s[-1] == "0" and s[-2] != ".":
                    s = s[:-1]
                return s
        return "%.17f" % d
    for prec in range(0, 17):
        s = "%.*e" % (prec, d)
        if round_trips(s):
            mant, exp = s.split("e")
            if "." not in mant:
                mant += ".0"
            return "%sE%d" % (mant, int(exp))
    return "%g" % d


class Timestamp(datetime.datetime):
    """A TIMESTAMP(7..9) value: a naive datetime plus the `nanosecond` digits (0-999) below its
    microseconds, which datetime cannot hold."""

    nanosecond = 0


def units_per_second(precision):
    """The unit of a TIMESTAMP(p) value on the wire: ms for p <= 3, us for p <= 6, else ns."""
    return 1000 if precision <= 3 else 1000000 if precision <= 6 else 1000000000


def timestamp_from_units(value, precision):
    """A naive datetime (a Timestamp for p > 6) from a TIMESTAMP(p) value on the wire."""
    secs, frac = divmod(value, units_per_second(precision))
    if precision <= 3:
        return _EPOCH + datetime.timedelta(seconds=secs, milliseconds=frac)
    if precision <= 6:
        return _EPOCH + datetime.timedelta(seconds=secs, microseconds=frac)
    t = _EPOCH + datetime.timedelta(seconds=secs, microseconds=frac // 1000)
    out = Timestamp(t.year, t.month, t.day, t.hour, t.minute, t.second, t.microsecond)
    out.nanosecond = frac % 1000
    return out


def ltz_from_units(value, precision):
    """An aware datetime in UTC (a Timestamp for p > 6) from a TIMESTAMP_LTZ(p) value, an
    instant."""
    t = timestamp_from_units(value, precision)
    out = t.replace(tzinfo=datetime.timezone.utc)
    if isinstance(t, Timestamp):
        out = Timestamp(t.year, t.month, t.day, t.hour, t.minute, t.second, t.microsecond,
                        tzinfo=datetime.timezone.utc)
        out.nanosecond = t.nanosecond
    return out


_OFFSET = re.compile(r"^(?:UTC|GMT|UT)?([+-])(\d{1,2})(?::?(\d{2}))?(?::(\d{2}))?$", re.I)


def time_zone(name):
    """The tzinfo of a table.local-time-zone value: 'UTC', a fixed offset ('GMT+08:00',
    '+08:00') or a time zone database name (the system's zone files)."""
    if not name or name.upper() in ("UTC", "GMT", "UT", "Z"):
        return datetime.timezone.utc
    m = _OFFSET.match(name)
    if m:
        seconds = int(m.group(2)) * 3600 + int(m.group(3) or 0) * 60 + int(m.group(4) or 0)
        return datetime.timezone(datetime.timedelta(seconds=-seconds if m.group(1) == "-"
                                                    else seconds))
    import zoneinfo
    return zoneinfo.ZoneInfo(name)


def in_zone(v, tz):
    """A TIMESTAMP_LTZ value (an aware datetime) as the wall clock of `tz`, nanoseconds kept."""
    out = v.astimezone(tz)
    ns = getattr(v, "nanosecond", 0)
    if ns:
        out = Timestamp(out.year, out.month, out.day, out.hour, out.minute, out.second,
                        out.microsecond, tzinfo=out.tzinfo)
        out.nanosecond = ns
    return out


def format_timestamp(v, precision):
    """A naive datetime (or Timestamp) with `precision` fractional digits, as the engine prints."""
    s = "%04d-%02d-%02d %02d:%02d:%02d" % (v.year, v.month, v.day, v.hour, v.minute, v.second)
    if precision > 0:
        frac = "%06d%03d" % (v.microsecond, getattr(v, "nanosecond", 0))
        s += "." + frac[:precision]
    return s


def format_interval_millis(millis):
    sign = "-" if millis < 0 else "+"
    m = abs(millis)
    return "%s%d %02d:%02d:%02d.%03d" % (sign, m // 86400000, m // 3600000 % 24, m // 60000 % 60,
                                         m // 1000 % 60, m % 1000)


def timedelta_millis(td):
    return (td.days * 86400 + td.seconds) * 1000 + td.microseconds // 1000


def format_value(v, t):
    """As the print sink writes a value of type `t` (an eddy.v1.DataType): +I[a, 1]."""
    if v is None:
        return "null"
    tid = t.id
    if tid == BOOLEAN:
        return "true" if v else "false"
    if tid in (TINYINT, SMALLINT, INT, BIGINT):
        return str(v)
    if tid == FLOAT:
        return format_approximate(v, True)
    if tid == DOUBLE:
        return format_approximate(v, False)
    if tid == DECIMAL:
        return format(v, "f")
    if tid == STRING:
        return v
    if tid == DATE:
        return "%04d-%02d-%02d" % (v.year, v.month, v.day)
    if tid in (TIMESTAMP, TIMESTAMP_LTZ):  # an LTZ value as the wall clock of its tzinfo
        return format_timestamp(v, t.precision)
    if tid == INTERVAL:
        return format_interval_millis(timedelta_millis(v))
    return "null"


def cell_text(v, t):
    """As the shell shows a value in a tableau: <NULL> for NULL, TRUE/FALSE for booleans."""
    if v is None:
        return "<NULL>"
    if t.id == BOOLEAN:
        return "TRUE" if v else "FALSE"
    return format_value(v, t)
