#include <gtest/gtest.h>

#include "worker/connectors/datagen_source.h"
#include "worker/connectors/print_sink.h"
#include "worker/connectors/values_source.h"

namespace eddy {
namespace {

TEST(PrintSink, PrefixFollowsFlinkRules) {
  EXPECT_EQ(PrintSink::MakePrefix("", 0, 1), "");
  EXPECT_EQ(PrintSink::MakePrefix("", 1, 4), "2> ");
  EXPECT_EQ(PrintSink::MakePrefix("DebugOutput", 0, 1), "DebugOutput> ");
  EXPECT_EQ(PrintSink::MakePrefix("DebugOutput", 1, 2), "DebugOutput:2> ");
}

v1::DatagenSource SequenceSpec(int64_t start, int64_t end) {
  v1::DatagenSource spec;
  spec.set_bounded(true);
  spec.set_number_of_rows(0);
  auto* f = spec.add_fields();
  f->set_name("id");
  f->set_kind("sequence");
  f->set_has_start(true);
  f->set_start(start);
  f->set_has_end(true);
  f->set_end(end);
  auto* g = spec.add_fields();
  g->set_name("name");
  g->set_kind("random");
  g->set_length(5);
  return spec;
}

std::vector<int64_t> Drain(DatagenSource& src) {
  std::vector<int64_t> ids;
  ChangelogBatch b;
  while (true) {
    auto st = src.Next(&b);
    EXPECT_TRUE(st.ok());
    if (*st == SourceState::kEnd) break;
    for (size_t r = 0; r < b.num_rows(); ++r) {
      ids.push_back(b.column(0).Get<int64_t>(r));
      EXPECT_EQ(b.column(1).GetString(r).size(), 5u);
      EXPECT_EQ(b.kind(r), RowKind::kInsert);
    }
  }
  return ids;
}

TEST(DatagenSource, SequenceIsBoundedAndSplitAcrossSubtasks) {
  Schema schema{{{"id", DataType::BigInt()}, {"name", DataType::String()}}};
  std::vector<int64_t> all;
  for (int i = 0; i < 3; ++i) {
    DatagenSource src(SequenceSpec(1, 2500), schema);
    OperatorContext ctx;
    ctx.subtask_index = i;
    ctx.parallelism = 3;
    ASSERT_TRUE(src.Open(ctx).ok());
    auto ids = Drain(src);
    EXPECT_GE(ids.size(), 833u);
    all.insert(all.end(), ids.begin(), ids.end());
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), 2500u);
  for (int64_t i = 0; i < 2500; ++i) EXPECT_EQ(all[i], i + 1);
}

TEST(DatagenSource, NumberOfRowsBoundsRandomData) {
  v1::DatagenSource spec;
  spec.set_bounded(true);
  spec.set_number_of_rows(3000);
  auto* f = spec.add_fields();
  f->set_name("v");
  f->set_kind("random");
  f->set_has_min(true);
  f->set_min(10);
  f->set_has_max(true);
  f->set_max(20);
  DatagenSource src(spec, Schema{{{"v", DataType::Int()}}});
  ASSERT_TRUE(src.Open(OperatorContext{}).ok());
  ChangelogBatch b;
  size_t rows = 0;
  while (*src.Next(&b) == SourceState::kData) {
    for (size_t r = 0; r < b.num_rows(); ++r) {
      int32_t v = b.column(0).Get<int32_t>(r);
      EXPECT_GE(v, 10);
      EXPECT_LE(v, 20);
    }
    rows += b.num_rows();
  }
  EXPECT_EQ(rows, 3000u);
}

TEST(DatagenSource, RateLimitMakesTheSourceIdle) {
  v1::DatagenSource spec;
  spec.set_rows_per_second(10);
  spec.add_fields()->set_kind("random");
  DatagenSource src(spec, Schema{{{"v", DataType::BigInt()}}});
  ASSERT_TRUE(src.Open(OperatorContext{}).ok());
  ChangelogBatch b;
  size_t rows = 0;
  int idle = 0;
  for (int i = 0; i < 50; ++i) {
    auto st = src.Next(&b);
    if (*st == SourceState::kData) rows += b.num_rows();
    if (*st == SourceState::kIdle) ++idle;
  }
  EXPECT_LE(rows, 3u);  // ~10 rows/s: only the first rows may go out at once
  EXPECT_GT(idle, 40);
}

TEST(ValuesSource, OnlySubtaskZeroEmits) {
  std::vector<ChangelogBatch> batches;
  batches.emplace_back(std::vector<DataType>{DataType::BigInt()});
  batches.back().AppendValues({Value::Int(1)}, RowKind::kInsert);
  ValuesSource other(std::move(batches));
  OperatorContext ctx;
  ctx.subtask_index = 1;
  ctx.parallelism = 2;
  ASSERT_TRUE(other.Open(ctx).ok());
  ChangelogBatch b;
  EXPECT_EQ(*other.Next(&b), SourceState::kEnd);
}

}  // namespace
}  // namespace eddy
