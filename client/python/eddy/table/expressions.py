"""Functions that make expressions, as pyflink.table.expressions: col, lit, call, call_sql."""

from eddy.table.expression import Expression, literal_sql, quote_identifier


def col(name):
    """The column `name` (quoted, so any name works)."""
    return Expression(quote_identifier(name))


def lit(v, data_type=None):
    """A literal: int, float, bool, str, decimal.Decimal, datetime.date/datetime, or None with a
    type; cast to `data_type` when given."""
    return Expression(literal_sql(v, data_type))


def call(f, *args):
    """A call of the function named `f` (a built-in, or a function registered with CREATE
    FUNCTION) with expressions or Python values as arguments."""
    if not isinstance(f, str):
        raise TypeError("call() takes the function's name; Python user-defined functions are not "
                        "supported (Eddy runs C++ functions, docs/udf.md)")
    parts = []
    for a in args:
        parts.append(a.sql() if isinstance(a, Expression) else literal_sql(a))
    return Expression("%s(%s)" % (quote_identifier(f), ", ".join(parts)))


def call_sql(sql_expression):
    """An expression written in SQL: call_sql("UPPER(name) || '!'")."""
    return Expression("(%s)" % sql_expression)
