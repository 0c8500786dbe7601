// Sources replay identically from a checkpointed position: datagen (values a pure function of the
// row number), VALUES and the filesystem source (file, byte offset, line), for a position taken
// after every batch.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/base/allowed_paths.h"
#include "common/types/type_proto.h"
#include "worker/connectors/datagen_source.h"
#include "worker/connectors/filesystem_source.h"
#include "worker/connectors/values_source.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

using SourceFactory = std::function<std::unique_ptr<Source>()>;

// Drains `src`; before batch k (k = 0, 1, ...) the position it reports is put in (*positions)[k].
std::vector<std::string> Drain(Source& src, std::vector<OperatorSnapshot>* positions = nullptr) {
  std::vector<std::string> rows;
  ChangelogBatch b;
  while (true) {
    if (positions != nullptr) {
      positions->emplace_back();
      EXPECT_TRUE(src.SnapshotState(1, &positions->back()).ok());
    }
    auto st = src.Next(&b);
    EXPECT_TRUE(st.ok()) << st.status();
    if (!st.ok() || *st == SourceState::kEnd) break;
    for (size_t r = 0; r < b.num_rows(); ++r) rows.push_back(FormatRow(b, r));
  }
  return rows;
}

// Every position of an uninterrupted run restores to exactly the rest of that run.
void ExpectReplaysFromEveryPosition(const SourceFactory& make, size_t min_batches) {
  OperatorContext ctx;
  auto full_src = make();
  ASSERT_TRUE(full_src->Open(ctx).ok());
  std::vector<OperatorSnapshot> positions;
  std::vector<std::string> full = Drain(*full_src, &positions);
  ASSERT_GE(positions.size(), min_batches + 1);
  // Rows before each position, from a run that snapshots nothing.
  std::vector<size_t> rows_before;
  {
    auto src = make();
    ASSERT_TRUE(src->Open(ctx).ok());
    ChangelogBatch b;
    size_t n = 0;
    rows_before.push_back(0);
    while (*src->Next(&b) == SourceState::kData) rows_before.push_back(n += b.num_rows());
  }
  ASSERT_EQ(rows_before.size(), positions.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    auto src = make();
    ASSERT_TRUE(src->Open(ctx).ok());
    auto encoded = OperatorSnapshot::Decode(positions[k].Encode());
    ASSERT_TRUE(encoded.ok());
    ASSERT_TRUE(src->RestoreState(*encoded).ok()) << "position " << k;
    std::vector<std::string> rest = Drain(*src);
    std::vector<std::string> want(full.begin() + rows_before[k], full.end());
    EXPECT_EQ(rest, want) << "position " << k;
  }
}

v1::DatagenSource RandomSpec() {
  v1::DatagenSource spec;
  spec.set_bounded(true);
  spec.set_number_of_rows(3000);
  spec.set_seed(7);
  auto* id = spec.add_fields();
  id->set_kind("sequence");
  id->set_has_start(true);
  id->set_start(1);
  id->set_has_end(true);
  id->set_end(100000);
  auto* name = spec.add_fields();
  name->set_kind("random");
  name->set_length(6);
  name->set_null_rate(0.1);
  auto* v = spec.add_fields();
  v->set_kind("random");
  v->set_has_min(true);
  v->set_min(0);
  v->set_has_max(true);
  v->set_max(1000);
  return spec;
}

Schema RandomSchema() {
  return Schema{
      {{"id", DataType::BigInt()}, {"name", DataType::String()}, {"v", DataType::BigInt()}}};
}

TEST(SourcePosition, DatagenReplaysFromEveryBatch) {
  ExpectReplaysFromEveryPosition(
      [] { return std::make_unique<DatagenSource>(RandomSpec(), RandomSchema()); }, 3);
}

TEST(SourcePosition, DatagenValuesDoNotDependOnBatchSizes) {
  // A rate limit cuts other batches; the rows must be the same.
  v1::DatagenSource limited = RandomSpec();
  limited.set_number_of_rows(300);
  limited.set_rows_per_second(3000);
  v1::DatagenSource fast = limited;
  fast.set_rows_per_second(0);
  DatagenSource a(fast, RandomSchema()), b(limited, RandomSchema());
  OperatorContext ctx;
  ASSERT_TRUE(a.Open(ctx).ok());
  ASSERT_TRUE(b.Open(ctx).ok());
  std::vector<std::string> rows_b;
  ChangelogBatch batch;
  while (true) {
    auto st = b.Next(&batch);
    ASSERT_TRUE(st.ok());
    if (*st == SourceState::kEnd) break;
    if (*st == SourceState::kIdle) {
      usleep(1000);
      continue;
    }
    for (size_t r = 0; r < batch.num_rows(); ++r) rows_b.push_back(FormatRow(batch, r));
  }
  EXPECT_EQ(Drain(a), rows_b);
}

TEST(SourcePosition, ValuesReplaysFromEveryBatch) {
  ExpectReplaysFromEveryPosition(
      [] {
        std::vector<ChangelogBatch> batches;
        for (int k = 0; k < 3; ++k) {
          ChangelogBatch b({DataType::BigInt()});
          for (int r = 0; r <= k; ++r) {
            b.mutable_column(0).AppendValue(Value::Int(k * 10 + r));
            b.mutable_kinds().push_back(RowKind::kInsert);
          }
          batches.push_back(std::move(b));
        }
        return std::make_unique<ValuesSource>(std::move(batches));
      },
      3);
}

class FilesystemPositionTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() / ("eddy-pos-" + std::to_string(getpid()))).string();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/in");
    root_ = *CanonicalFilesystemPath(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string root_;
};

TEST_P(FilesystemPositionTest, ReplaysFromEveryBatch) {
  const std::string format = GetParam();
  // Two files of 2500 lines (three batches each, the last one short); CSV ones with a header.
  for (int f = 0; f < 2; ++f) {
    std::ofstream out(root_ + "/in/part-" + std::to_string(f));
    if (format == "csv") out << "word,cnt\n";
    for (int i = 0; i < 2500; ++i) {
      if (format == "csv") {
        out << "w" << f << "_" << i << "," << i << "\n";
      } else {
        out << "{\"word\":\"w" << f << "_" << i << "\",\"cnt\":" << i << "}\n";
      }
    }
  }
  v1::TableSource spec;
  spec.set_table_name("t");
  (*spec.mutable_options())["path"] = root_ + "/in";
  (*spec.mutable_options())["format"] = format;
  Schema schema{{{"word", DataType::String()}, {"cnt", DataType::BigInt()}}};
  SchemaToProto(schema, spec.mutable_table_schema());
  const std::vector<std::string> allowed = {root_};
  ExpectReplaysFromEveryPosition(
      [&]() -> std::unique_ptr<Source> {
        v1::TableSource s = spec;
        if (format == "csv") (*s.mutable_options())["csv.ignore-first-line"] = "true";
        return *FilesystemSource::Create(s, allowed);
      },
      6);
}

INSTANTIATE_TEST_SUITE_P(Formats, FilesystemPositionTest, ::testing::Values("csv", "json"));

}  // namespace
}  // namespace eddy
