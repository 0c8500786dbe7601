// The checks StreamWriter makes on the client before a row leaves the program: a value per column
// of the kind its type takes, NULL only where the column allows it, integers within range; and the
// column list FromStream declares.
#include "client/stream_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy {
namespace {

using ::testing::HasSubstr;

DataType Type(TypeId id, bool nullable = true) {
  DataType t;
  t.id = id;
  t.nullable = nullable;
  if (id == TypeId::kTimestamp) t.precision = 3;
  return t;
}

TEST(StreamWriterTest, AValueMustBeOfTheKindItsColumnTakes) {
  EXPECT_TRUE(CheckStreamValue(Value::Int(5), Type(TypeId::kBigInt), "n").ok());
  EXPECT_TRUE(CheckStreamValue(Value::Int(1709283600000), Type(TypeId::kTimestamp), "ts").ok());
  EXPECT_TRUE(CheckStreamValue(Value::Double(0.5), Type(TypeId::kDouble), "d").ok());
  EXPECT_TRUE(CheckStreamValue(Value::String("x"), Type(TypeId::kString), "s").ok());
  EXPECT_TRUE(CheckStreamValue(Value::Bool(true), Type(TypeId::kBoolean), "b").ok());
  EXPECT_TRUE(CheckStreamValue(Value::Null(), Type(TypeId::kString), "s").ok());

  absl::Status s = CheckStreamValue(Value::String("5"), Type(TypeId::kBigInt), "n");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("column 'n' (BIGINT) cannot take a string"));
  s = CheckStreamValue(Value::Int(1), Type(TypeId::kDouble), "d");
  EXPECT_THAT(std::string(s.message()), HasSubstr("cannot take an integer"));
  s = CheckStreamValue(Value::Null(), Type(TypeId::kInt, /*nullable=*/false), "i");
  EXPECT_THAT(std::string(s.message()), HasSubstr("column 'i' (INT NOT NULL) cannot be NULL"));
  s = CheckStreamValue(Value::Int(300), Type(TypeId::kTinyInt), "t");
  EXPECT_THAT(std::string(s.message()), HasSubstr("column 't' (TINYINT): 300 is out of range"));
  EXPECT_TRUE(CheckStreamValue(Value::Int(-128), Type(TypeId::kTinyInt), "t").ok());
  s = CheckStreamValue(Value::String("x"), DataType::Array(DataType::Int()), "a");
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("column 'a' (ARRAY<INT>): a stream takes no ARRAY, MAP or ROW values yet"));
}

TEST(StreamWriterTest, TheSchemaIsTheColumnListOfCreateTableWithQuotedNames) {
  StreamSchema schema = StreamSchema()
                            .Column("user", "STRING")
                            .Column("odd`name", "BIGINT NOT NULL")
                            .Watermark("ts", "ts - INTERVAL '1' SECOND");
  EXPECT_EQ(schema.ColumnsSql(), "`user` STRING, `odd``name` BIGINT NOT NULL");
  EXPECT_EQ(schema.watermark_column(), "ts");
  EXPECT_EQ(schema.watermark_expr(), "ts - INTERVAL '1' SECOND");
}

}  // namespace
}  // namespace eddy
