// Logical SQL types and schemas. Each type has one physical layout in a column (see PhysicalWidth):
// BOOLEAN uint8, TINYINT int8, SMALLINT int16, INT int32, BIGINT int64, FLOAT float, DOUBLE double,
// DECIMAL(p<=18, s) unscaled int64, DATE int32 days since epoch, TIMESTAMP(p) and TIMESTAMP_LTZ(p)
// int64 since epoch (timestamp_precision.h),
// STRING/VARCHAR variable-length bytes, BYTES/VARBINARY/BINARY variable-length bytes (any bytes,
// not text), INTERVAL DAY TO SECOND int64 ms, TIME(p) int32 ms of the day, year-month INTERVAL
// int32 months.
// ARRAY<T>, MAP<K, V> and ROW<f T, ...> are variable-length too: each value is one byte string in
// the canonical encoding of common/types/collection_codec.h, so batches, the wire, the shuffle and
// state carry them as they carry STRING. Their element, key/value or field types hang off the type
// as shared immutable children, so a DataType stays cheap to copy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eddy {

enum class TypeId : uint8_t {
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kFloat,
  kDouble,
  kDecimal,
  kString,
  kDate,
  kTimestamp,
  kNull,  // the type of an untyped NULL literal
  // INTERVAL DAY TO SECOND (Flink's INTERVAL SECOND(3)): a duration, int64 milliseconds. Only
  // expressions have it (INTERVAL literals, TIMESTAMP - TIMESTAMP is not supported); no column of a
  // table is declared with it.
  kInterval,
  // TIMESTAMP(p) WITH LOCAL TIME ZONE (TIMESTAMP_LTZ(p)): an instant, stored as TIMESTAMP(p) is
  // but counted from 1970-01-01 00:00:00 UTC; shown, and converted to and from TIMESTAMP, DATE
  // and STRING, in the session's table.local-time-zone (common/types/time_zone.h).
  kTimestampLtz,
  kArray,  // ARRAY<T>: children = {element}
  kMap,    // MAP<K, V>: children = {key, value}
  kRow,    // ROW<f T, ...>: children = the fields, with their names
  // Binary strings: BYTES (VARBINARY(2147483647), length 0), VARBINARY(n) (length n) and BINARY(n)
  // (length n, fixed_length): any byte sequence, held as STRING's bytes are.
  kBinary,
  // TIME(p): a time of day, int32 milliseconds since midnight (0 .. 86399999). p (0..9) is the
  // declared fractional precision; as in Flink's runtime, digits below milliseconds are zero.
  kTime,
  // A year-month interval (Flink's INTERVAL MONTH, also the type of INTERVAL '1' YEAR and
  // INTERVAL '1-2' YEAR TO MONTH): int32 months. Only expressions have it, as kInterval.
  kIntervalYearMonth,
};

struct DataType;
struct Field;
// The children of a collection type, shared and never changed once built.
struct NestedTypes;

inline constexpr int kMaxDecimalPrecision = 18;

struct DataType {
  TypeId id = TypeId::kNull;
  int precision = 0;  // DECIMAL precision, TIME/TIMESTAMP/TIMESTAMP_LTZ fractional precision
  int scale = 0;      // DECIMAL scale
  int length = 0;     // VARCHAR(n)/CHAR(n), VARBINARY(n)/BINARY(n); 0 = STRING / BYTES (unbounded)
  // CHAR(n): a CAST to it pads to n characters; BINARY(n): every value has exactly `length` bytes.
  bool fixed_length = false;
  bool nullable = true;
  std::shared_ptr<const NestedTypes> nested;  // ARRAY, MAP and ROW only

  static DataType Boolean() { return {TypeId::kBoolean}; }
  static DataType TinyInt() { return {TypeId::kTinyInt}; }
  static DataType SmallInt() { return {TypeId::kSmallInt}; }
  static DataType Int() { return {TypeId::kInt}; }
  static DataType BigInt() { return {TypeId::kBigInt}; }
  static DataType Float() { return {TypeId::kFloat}; }
  static DataType Double() { return {TypeId::kDouble}; }
  static DataType Decimal(int p, int s) { return {TypeId::kDecimal, p, s}; }
  static DataType String() { return {TypeId::kString}; }
  static DataType Varchar(int n) { return {TypeId::kString, 0, 0, n}; }
  static DataType Char(int n) { return {TypeId::kString, 0, 0, n, true}; }
  static DataType Date() { return {TypeId::kDate}; }
  static DataType Time(int p = 0) { return {TypeId::kTime, p}; }
  static DataType Timestamp(int p = 3) { return {TypeId::kTimestamp, p}; }
  static DataType TimestampLtz(int p = 3) { return {TypeId::kTimestampLtz, p}; }
  static DataType Null() { return {TypeId::kNull}; }
  static DataType Bytes() { return {TypeId::kBinary}; }
  static DataType VarBinary(int n) { return {TypeId::kBinary, 0, 0, n}; }
  static DataType Binary(int n) { return {TypeId::kBinary, 0, 0, n, true}; }
  static DataType Interval() { return {TypeId::kInterval, 3}; }
  static DataType IntervalYearMonth() { return {TypeId::kIntervalYearMonth}; }
  static DataType Array(DataType element);
  static DataType Map(DataType key, DataType value);
  static DataType Row(std::vector<Field> fields);

  bool IsCollection() const {
    return id == TypeId::kArray || id == TypeId::kMap || id == TypeId::kRow;
  }
  // Variable-length in a column (STRING, the binary strings and the collections).
  bool IsVariableLength() const {
    return id == TypeId::kString || id == TypeId::kBinary || IsCollection();
  }
  // ARRAY: the element type. MAP: key_type() and value_type(). ROW: fields().
  const DataType& element_type() const;
  const DataType& key_type() const;
  const DataType& value_type() const;
  const std::vector<Field>& fields() const;

  DataType WithNullable(bool n) const {
    DataType t = *this;
    t.nullable = n;
    return t;
  }

  bool IsInteger() const {
    return id == TypeId::kTinyInt || id == TypeId::kSmallInt || id == TypeId::kInt ||
           id == TypeId::kBigInt;
  }
  bool IsApproximate() const { return id == TypeId::kFloat || id == TypeId::kDouble; }
  bool IsNumeric() const { return IsInteger() || IsApproximate() || id == TypeId::kDecimal; }
  bool IsString() const { return id == TypeId::kString; }
  bool IsBinary() const { return id == TypeId::kBinary; }
  bool IsTemporal() const {
    return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampLtz;
  }
  // TIMESTAMP(p) or TIMESTAMP_LTZ(p): an int64 in the unit of precision p (timestamp_precision.h).
  bool IsTimestampLike() const { return id == TypeId::kTimestamp || id == TypeId::kTimestampLtz; }

  // Same type, ignoring the top-level nullability (children's nullability and ROW field names
  // count, as Flink's logical type equality).
  bool SameAs(const DataType& o) const {
    return id == o.id && precision == o.precision && scale == o.scale && length == o.length &&
           fixed_length == o.fixed_length && (nested == o.nested || NestedEquals(o));
  }
  bool operator==(const DataType& o) const { return SameAs(o) && nullable == o.nullable; }

  // SQL spelling as Flink prints it: INT, BIGINT NOT NULL, DECIMAL(10, 2), VARCHAR(5), STRING,
  // TIMESTAMP(3), ARRAY<INT>, MAP<STRING, INT>, ROW<`a` INT, `b` STRING>, BYTES, VARBINARY(4),
  // BINARY(2), CHAR(3), TIME(0), INTERVAL MONTH.
  std::string ToString() const;

 private:
  bool NestedEquals(const DataType& o) const;
};

// Bytes per value in a column; 0 for variable-length (STRING, BYTES, ARRAY, MAP, ROW).
int PhysicalWidth(TypeId id);

struct Field {
  std::string name;
  DataType type;
};

struct NestedTypes {
  std::vector<Field> children;  // ARRAY: one; MAP: key, value; ROW: the fields
};

struct Schema {
  std::vector<Field> fields;

  size_t size() const { return fields.size(); }
  // Case-insensitive lookup, as Flink's default; nullopt when absent.
  std::optional<int> FindField(std::string_view name) const;
  std::vector<DataType> Types() const;
  std::vector<std::string> Names() const;
};

}  // namespace eddy
