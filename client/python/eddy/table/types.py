"""Data types, as PyFlink's DataTypes: what from_elements casts its values to and what a result's
columns are. Each type is its SQL spelling (`DECIMAL(10, 2)`, `TIMESTAMP(3)`).
"""


class DataType:

    def __init__(self, sql, nullable=True):
        self._sql = sql
        self._nullable = nullable

    def sql(self):
        """The type as Eddy's SQL spells it (NOT NULL included)."""
        return self._sql + ("" if self._nullable else " NOT NULL")

    def not_null(self):
        return self.__class__(self._sql, False)

    def nullable(self):
        return self.__class__(self._sql, True)

    def __eq__(self, other):
        return isinstance(other, DataType) and self.sql() == other.sql()

    def __hash__(self):
        return hash(self.sql())

    def __repr__(self):
        return self.sql()


class DataField:

    def __init__(self, name, data_type):
        self.name = name
        self.data_type = data_type


class RowType(DataType):
    """ROW<...>: the schema of from_elements (DataTypes.ROW([DataTypes.FIELD(...), ...]))."""

    def __init__(self, fields, nullable=True):
        self.fields = list(fields)
        super().__init__(
            "ROW<%s>" % ", ".join("`%s` %s" % (f.name, f.data_type.sql()) for f in self.fields),
            nullable)

    def field_names(self):
        return [f.name for f in self.fields]

    def field_types(self):
        return [f.data_type for f in self.fields]


class DataTypes:
    """Constructors of data types, named as PyFlink's."""

    @staticmethod
    def BOOLEAN(nullable=True):
        return DataType("BOOLEAN", nullable)

    @staticmethod
    def TINYINT(nullable=True):
        return DataType("TINYINT", nullable)

    @staticmethod
    def SMALLINT(nullable=True):
        return DataType("SMALLINT", nullable)

    @staticmethod
    def INT(nullable=True):
        return DataType("INT", nullable)

    @staticmethod
    def BIGINT(nullable=True):
        return DataType("BIGINT", nullable)

    @staticmethod
    def FLOAT(nullable=True):
        return DataType("FLOAT", nullable)

    @staticmethod
    def DOUBLE(nullable=True):
        return DataType("DOUBLE", nullable)

    @staticmethod
    def DECIMAL(precision=10, scale=0, nullable=True):
        return DataType("DECIMAL(%d, %d)" % (precision, scale), nullable)

    @staticmethod
    def STRING(nullable=True):
        return DataType("STRING", nullable)

    @staticmethod
    def VARCHAR(length, nullable=True):
        return DataType("VARCHAR(%d)" % length, nullable)

    @staticmethod
    def CHAR(length, nullable=True):
        return DataType("CHAR(%d)" % length, nullable)

    @staticmethod
    def DATE(nullable=True):
        return DataType("DATE", nullable)

    @staticmethod
    def TIMESTAMP(precision=6, nullable=True):
        return DataType("TIMESTAMP(%d)" % precision, nullable)

    @staticmethod
    def TIMESTAMP_LTZ(precision=6, nullable=True):
        return DataType("TIMESTAMP_LTZ(%d)" % precision, nullable)

    @staticmethod
    def FIELD(name, data_type, description=None):
        return DataField(name, data_type)

    @staticmethod
    def ROW(row_fields=(), nullable=True):
        return RowType(row_fields, nullable)


# TypeId of proto/eddy/v1/types.proto -> the SQL type name.
_TYPE_NAMES = {
    0: "BOOLEAN",
    1: "TINYINT",
    2: "SMALLINT",
    3: "INT",
    4: "BIGINT",
    5: "FLOAT",
    6: "DOUBLE",
    7: "DECIMAL",
    8: "STRING",
    9: "DATE",
    10: "TIMESTAMP",
    11: "NULL",
    12: "INTERVAL DAY TO SECOND",
    13: "TIMESTAMP_LTZ",
}


def type_from_proto(t):
    """The DataType of an eddy.v1.DataType message."""
    name = _TYPE_NAMES.get(t.id, "UNKNOWN")
    if name == "DECIMAL":
        name = "DECIMAL(%d, %d)" % (t.precision, t.scale)
    elif name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        name = "%s(%d)" % (name, t.precision)
    elif name == "STRING" and t.length > 0:
        name = "VARCHAR(%d)" % t.length
    return DataType(name, t.nullable)
