#include <gtest/gtest.h>

#include "common/batch/batch_codec.h"
#include "common/batch/changelog_batch.h"

namespace eddy {
namespace {

ChangelogBatch SampleBatch() {
  ChangelogBatch b({DataType::String(), DataType::BigInt(), DataType::Decimal(10, 2),
                    DataType::Double(), DataType::Boolean()});
  b.AppendValues(
      {Value::String("a"), Value::Int(1), Value::Int(1234), Value::Double(0.5), Value::Bool(true)},
      RowKind::kInsert);
  b.AppendValues({Value::Null(), Value::Int(-7), Value::Int(-5), Value::Double(1e7), Value::Null()},
                 RowKind::kUpdateBefore);
  b.AppendValues({Value::String("hello world"), Value::Null(), Value::Null(), Value::Null(),
                  Value::Bool(false)},
                 RowKind::kDelete);
  return b;
}

TEST(ChangelogBatch, FormatsRowsAsFlinkPrints) {
  ChangelogBatch b = SampleBatch();
  ASSERT_EQ(b.num_rows(), 3u);
  EXPECT_EQ(FormatRow(b, 0), "+I[a, 1, 12.34, 0.5, true]");
  EXPECT_EQ(FormatRow(b, 1), "-U[null, -7, -0.05, 1.0E7, null]");
  EXPECT_EQ(FormatRow(b, 2), "-D[hello world, null, null, null, false]");
}

TEST(BatchCodec, RoundTripsEveryColumnAndKind) {
  ChangelogBatch b = SampleBatch();
  v1::ChangelogBatch msg;
  EncodeBatch(b, &msg);
  EXPECT_EQ(msg.columns_size(), 5);
  auto decoded = DecodeBatch(msg);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->num_rows(), 3u);
  for (size_t r = 0; r < 3; ++r) EXPECT_EQ(FormatRow(*decoded, r), FormatRow(b, r));
}

TEST(BatchCodec, RejectsMalformedFrames) {
  ChangelogBatch b = SampleBatch();
  v1::ChangelogBatch msg;
  EncodeBatch(b, &msg);
  v1::ChangelogBatch short_data = msg;
  short_data.mutable_columns(1)->mutable_data()->resize(3);
  EXPECT_FALSE(DecodeBatch(short_data).ok());
  v1::ChangelogBatch bad_kind = msg;
  (*bad_kind.mutable_row_kinds())[0] = 9;
  EXPECT_FALSE(DecodeBatch(bad_kind).ok());
  v1::ChangelogBatch bad_offsets = msg;
  bad_offsets.mutable_columns(0)->mutable_heap()->append("x");
  EXPECT_FALSE(DecodeBatch(bad_offsets).ok());
}

TEST(Column, AppendRangeKeepsStringsAndNulls) {
  ChangelogBatch b = SampleBatch();
  Column out(DataType::String());
  out.AppendRange(b.column(0), 0, 3);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out.GetString(0), "a");
  EXPECT_TRUE(out.IsNull(1));
  EXPECT_EQ(out.GetString(2), "hello world");
  Column ints(DataType::BigInt());
  ints.AppendRange(b.column(1), 0, 2);
  EXPECT_EQ(ints.Get<int64_t>(1), -7);
}

TEST(Column, AppendNullsBetweenValues) {
  Column s(DataType::String());
  s.AppendString("x");
  s.AppendNulls(10);
  s.AppendString("yz");
  ASSERT_EQ(s.size(), 12u);
  EXPECT_EQ(s.null_count(), 10u);
  EXPECT_EQ(s.GetString(0), "x");
  for (size_t r = 1; r <= 10; ++r) EXPECT_TRUE(s.IsNull(r)) << r;
  EXPECT_FALSE(s.IsNull(11));
  EXPECT_EQ(s.GetString(11), "yz");
  Column ints(DataType::Int());
  ints.AppendNulls(3);
  ints.Append<int32_t>(7);
  ints.AppendNulls(0);
  ASSERT_EQ(ints.size(), 4u);
  EXPECT_TRUE(ints.IsNull(2));
  EXPECT_EQ(ints.GetValue(3).int_value(), 7);
}

}  // namespace
}  // namespace eddy
