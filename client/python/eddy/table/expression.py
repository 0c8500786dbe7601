"""Column expressions of the Table API, as PyFlink's Expression: `col('a') + 1`, `t.data.like('H%')`,
`t.revenue.sum.alias('rev_sum')`, `(a > 1) & ~b`. An expression is the SQL text it stands for, so a
Table built from expressions is a SQL query the coordinator plans like any other.
"""

import datetime
import decimal
import math

from eddy.table.types import DataType


def quote_identifier(name):
    return "`" + name.replace("`", "``") + "`"


def _string_literal(s):
    return "'" + s.replace("'", "''") + "'"


def decimal_precision_scale(v):
    """The smallest DECIMAL(precision, scale) that holds the Decimal `v` exactly."""
    t = v.as_tuple()
    scale = max(-t.exponent, 0)
    integer_digits = max(len(t.digits) + t.exponent, 0)
    return min(max(integer_digits + scale, 1), 38), scale


def literal_sql(v, data_type=None):
    """The SQL literal of a Python value (CAST to `data_type` when given)."""
    if isinstance(v, Expression):
        sql = v._sql
    elif v is None:
        if data_type is None:
            raise ValueError("a NULL literal needs its type: lit(None, DataTypes.STRING())")
        return "CAST(NULL AS %s)" % data_type.sql()
    elif isinstance(v, bool):
        sql = "TRUE" if v else "FALSE"
    elif isinstance(v, int):
        if not -2**63 <= v < 2**63:
            raise ValueError("integer literal %d is outside BIGINT" % v)
        # The most negative BIGINT has no positive literal.
        sql = ("(-9223372036854775807 - 1)" if v == -2**63 else "(%d)" % v if v < 0 else "%d" % v)
    elif isinstance(v, float):
        text = "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity") \
            if math.isinf(v) else repr(v)
        sql = "CAST('%s' AS DOUBLE)" % text
    elif isinstance(v, decimal.Decimal):
        precision, scale = decimal_precision_scale(v)
        sql = "CAST('%s' AS DECIMAL(%d, %d))" % (format(v, "f"), precision, scale)
    elif isinstance(v, str):
        sql = _string_literal(v)
    elif isinstance(v, datetime.datetime):
        sql = "CAST('%s.%03d' AS TIMESTAMP(3))" % (v.strftime("%Y-%m-%d %H:%M:%S"),
                                                   v.microsecond // 1000)
    elif isinstance(v, datetime.date):
        sql = "CAST('%s' AS DATE)" % v.isoformat()
    else:
        raise TypeError("no SQL literal for %r of type %s" % (v, type(v).__name__))
    if data_type is not None:
        return "CAST(%s AS %s)" % (sql, data_type.sql())
    return sql


def _expr(v):
    return v if isinstance(v, Expression) else Expression(literal_sql(v))


class Expression:

    def __init__(self, sql):
        self._sql = sql

    def sql(self):
        return self._sql

    def __str__(self):
        return self._sql

    def __repr__(self):
        return "Expression(%s)" % self._sql

    def __bool__(self):
        raise TypeError("an Expression has no truth value: combine conditions with & | ~, "
                        "not and/or/not")

    __hash__ = None

    def _binary(self, op, other):
        return Expression("(%s %s %s)" % (self._sql, op, _expr(other)._sql))

    def _rbinary(self, op, other):
        return Expression("(%s %s %s)" % (_expr(other)._sql, op, self._sql))

    def __add__(self, o):
        return self._binary("+", o)

    def __radd__(self, o):
        return self._rbinary("+", o)

    def __sub__(self, o):
        return self._binary("-", o)

    def __rsub__(self, o):
        return self._rbinary("-", o)

    def __mul__(self, o):
        return self._binary("*", o)

    def __rmul__(self, o):
        return self._rbinary("*", o)

    def __truediv__(self, o):
        return self._binary("/", o)

    def __rtruediv__(self, o):
        return self._rbinary("/", o)

    def __mod__(self, o):
        return self._binary("%", o)

    def __rmod__(self, o):
        return self._rbinary("%", o)

    def __neg__(self):
        return Expression("(- %s)" % self._sql)

    def __eq__(self, o):
        return self._binary("=", o)

    def __ne__(self, o):
        return self._binary("<>", o)

    def __lt__(self, o):
        return self._binary("<", o)

    def __le__(self, o):
        return self._binary("<=", o)

    def __gt__(self, o):
        return self._binary(">", o)

    def __ge__(self, o):
        return self._binary(">=", o)

    def __and__(self, o):
        return self._binary("AND", o)

    def __rand__(self, o):
        return self._rbinary("AND", o)

    def __or__(self, o):
        return self._binary("OR", o)

    def __ror__(self, o):
        return self._rbinary("OR", o)

    def __invert__(self):
        return Expression("(NOT %s)" % self._sql)

    def _call(self, fn, *args):
        return Expression("%s(%s)" % (fn, ", ".join([self._sql] + [_expr(a)._sql for a in args])))

    # Renaming.
    def alias(self, name, *extra_names):
        if extra_names:
            raise ValueError("alias() of one column takes one name")
        return Expression("%s AS %s" % (self._sql, quote_identifier(name)))

    # Aggregates (properties, as PyFlink's: t.revenue.sum).
    @property
    def sum(self):
        return self._call("SUM")

    @property
    def count(self):
        return self._call("COUNT")

    @property
    def avg(self):
        return self._call("AVG")

    @property
    def min(self):
        return self._call("MIN")

    @property
    def max(self):
        return self._call("MAX")

    # Predicates.
    @property
    def is_null(self):
        return Expression("(%s IS NULL)" % self._sql)

    @property
    def is_not_null(self):
        return Expression("(%s IS NOT NULL)" % self._sql)

    @property
    def is_true(self):
        return Expression("(%s IS TRUE)" % self._sql)

    @property
    def is_false(self):
        return Expression("(%s IS FALSE)" % self._sql)

    def like(self, pattern):
        return Expression("(%s LIKE %s)" % (self._sql, _expr(pattern)._sql))

    def between(self, lower, upper):
        return Expression("(%s BETWEEN %s AND %s)" % (self._sql, _expr(lower)._sql,
                                                       _expr(upper)._sql))

    def not_between(self, lower, upper):
        return Expression("(%s NOT BETWEEN %s AND %s)" % (self._sql, _expr(lower)._sql,
                                                           _expr(upper)._sql))

    def in_(self, first, *rest):
        return Expression("(%s IN (%s))" % (self._sql, ", ".join(_expr(v)._sql
                                                                  for v in (first,) + rest)))

    # Strings.
    @property
    def upper_case(self):
        return self._call("UPPER")

    @property
    def lower_case(self):
        return self._call("LOWER")

    @property
    def char_length(self):
        return self._call("CHAR_LENGTH")

    @property
    def trim(self):
        return self._call("TRIM")

    def substring(self, begin_index, length=None):
        return (self._call("SUBSTRING", begin_index) if length is None else self._call(
            "SUBSTRING", begin_index, length))

    # Numbers.
    @property
    def abs(self):
        return self._call("ABS")

    def round(self, places=0):
        return self._call("ROUND", places)

    # Conversion.
    def cast(self, data_type):
        if not isinstance(data_type, DataType):
            raise TypeError("cast() takes a DataTypes type")
        return Expression("CAST(%s AS %s)" % (self._sql, data_type.sql()))

    def if_null(self, null_replacement):
        return self._call("COALESCE", null_replacement)
