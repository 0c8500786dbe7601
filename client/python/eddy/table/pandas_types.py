"""A result as a pandas DataFrame with the column types PyFlink gives (TINYINT int8 ... BIGINT
int64, FLOAT float32, DOUBLE float64, BOOLEAN bool; columns holding NULLs as pandas' nullable
Int8..Int64 / boolean types; others as Python objects)."""

_INT = {1: "int8", 2: "int16", 3: "int32", 4: "int64"}
_NULLABLE_INT = {1: "Int8", 2: "Int16", 3: "Int32", 4: "Int64"}


def to_dataframe(pd, schema, rows):
    names = schema.get_field_names()
    frame = pd.DataFrame.from_records(rows, columns=names)
    for i, (name, t) in enumerate(zip(names, schema._wire_types)):
        has_null = any(r[i] is None for r in rows)
        if t.id in _INT:
            frame[name] = frame[name].astype(_NULLABLE_INT[t.id] if has_null else _INT[t.id])
        elif t.id == 5:
            frame[name] = frame[name].astype("float32")
        elif t.id == 6:
            frame[name] = frame[name].astype("float64")
        elif t.id == 0:
            frame[name] = frame[name].astype("boolean" if has_null else "bool")
    return frame
