#include "worker/operators/key_encoder.h"

#include <vector>

#include "common/base/hash.h"
#include "gtest/gtest.h"

namespace eddy {
namespace {

TEST(KeyEncoderTest, RoundTripsWithNullsAndStrings) {
  std::vector<DataType> types = {DataType::Int(),          DataType::String(),
                                 DataType::Double(),       DataType::Boolean(),
                                 DataType::Decimal(10, 2), DataType::SmallInt()};
  ChangelogBatch batch(types);
  batch.AppendValues({Value::Int(-7), Value::String("hello"), Value::Double(0.5), Value::Bool(true),
                      Value::Int(12345), Value::Int(3)},
                     RowKind::kInsert);
  batch.AppendValues({Value::Null(), Value::String(""), Value::Null(), Value::Bool(false),
                      Value::Null(), Value::Null()},
                     RowKind::kInsert);
  batch.AppendValues({Value::Int(1), Value::Null(), Value::Double(-1e300), Value::Null(),
                      Value::Int(-1), Value::Int(-32768)},
                     RowKind::kInsert);
  // Key = columns 1, 0, 2, 3, 4, 5 (order differs from the input order on purpose).
  auto enc = KeyEncoder::Create(types, {1, 0, 2, 3, 4, 5});
  ASSERT_TRUE(enc.ok()) << enc.status();
  std::vector<DataType> key_types = enc->key_types();
  ChangelogBatch decoded(key_types);
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    std::string key = enc->EncodeToString(batch, r);
    std::vector<Value> values;
    ASSERT_TRUE(enc->Decode(key, &values).ok());
    ASSERT_EQ(values.size(), 6u);
    EXPECT_EQ(values[0], batch.column(1).GetValue(r));
    EXPECT_EQ(values[1], batch.column(0).GetValue(r));
    EXPECT_EQ(values[2], batch.column(2).GetValue(r));
    EXPECT_EQ(values[3], batch.column(3).GetValue(r));
    EXPECT_EQ(values[4], batch.column(4).GetValue(r));
    EXPECT_EQ(values[5], batch.column(5).GetValue(r));
    ASSERT_TRUE(enc->AppendToColumns(key, decoded.mutable_columns()).ok());
    decoded.mutable_kinds().push_back(RowKind::kInsert);
  }
  EXPECT_EQ(FormatRow(decoded, 0), "+I[hello, -7, 0.5, true, 123.45, 3]");
  EXPECT_EQ(FormatRow(decoded, 1), "+I[, null, null, false, null, null]");
  EXPECT_EQ(FormatRow(decoded, 2), "+I[null, 1, -1.0E300, null, -0.01, -32768]");
}

TEST(KeyEncoderTest, DistinguishesNullFromEmptyAndConcatenations) {
  std::vector<DataType> types = {DataType::String(), DataType::String()};
  ChangelogBatch batch(types);
  batch.AppendValues({Value::String("ab"), Value::String("c")}, RowKind::kInsert);
  batch.AppendValues({Value::String("a"), Value::String("bc")}, RowKind::kInsert);
  batch.AppendValues({Value::Null(), Value::String("")}, RowKind::kInsert);
  batch.AppendValues({Value::String(""), Value::Null()}, RowKind::kInsert);
  batch.AppendValues({Value::String("ab"), Value::String("c")}, RowKind::kDelete);
  auto enc = KeyEncoder::Create(types, {0, 1});
  ASSERT_TRUE(enc.ok());
  std::vector<std::string> keys;
  for (size_t r = 0; r < batch.num_rows(); ++r) keys.push_back(enc->EncodeToString(batch, r));
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = i + 1; j < 4; ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
  }
  EXPECT_EQ(keys[0], keys[4]);  // the row kind is not part of the key
}

TEST(KeyEncoderTest, BytesAreStableAcrossProcesses) {
  // Pinned bytes: a change here changes key groups, i.e. breaks shuffles and state of running jobs.
  std::vector<DataType> types = {DataType::String(), DataType::Int().WithNullable(false)};
  ChangelogBatch batch(types);
  batch.AppendValues({Value::String("a"), Value::Int(258)}, RowKind::kInsert);
  auto enc = KeyEncoder::Create(types, {0, 1});
  std::string key = enc->EncodeToString(batch, 0);
  EXPECT_EQ(key, std::string("\x01\x01"
                             "a"
                             "\x01\x02\x01\x00\x00",
                             8));
  // A nullable view of the same column encodes identically.
  std::vector<DataType> nullable = {DataType::String(), DataType::Int()};
  auto enc2 = KeyEncoder::Create(nullable, {0, 1});
  EXPECT_EQ(enc2->EncodeToString(batch, 0), key);
  EXPECT_EQ(KeyGroupOf(key, 128), KeyGroupOf(enc2->EncodeToString(batch, 0), 128));
}

TEST(KeyEncoderTest, EmptyKeyAndErrors) {
  std::vector<DataType> types = {DataType::Int()};
  ChangelogBatch batch(types);
  batch.AppendValues({Value::Int(1)}, RowKind::kInsert);
  auto enc = KeyEncoder::Create(types, {});
  ASSERT_TRUE(enc.ok());
  EXPECT_TRUE(enc->empty());
  EXPECT_EQ(enc->EncodeToString(batch, 0), "");
  EXPECT_EQ(KeyEncoder::Create(types, {1}).status().code(), absl::StatusCode::kInvalidArgument);

  auto enc1 = KeyEncoder::Create(types, {0});
  std::vector<Value> values;
  EXPECT_EQ(enc1->Decode(std::string("\x01\x02", 2), &values).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(enc1->Decode(std::string("\x05", 1), &values).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(enc1->Decode(std::string("\x00\x00", 2), &values).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace eddy
