// The filesystem source and sink on real files: directory listing and the split over subtasks,
// large files read in chunks, the allowed directories (symlinks included), missing paths, and the
// sink's in-progress file that becomes the final file only when the input ends (its rolling and
// checkpoint commits: filesystem_sink_test.cc).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "common/base/allowed_paths.h"
#include "common/types/type_proto.h"
#include "tests/util/files.h"
#include "worker/connectors/filesystem_sink.h"
#include "worker/connectors/filesystem_source.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

class FilesystemConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    root_ =
        (fs::temp_directory_path() / ("eddy-fs-" + std::to_string(getpid()) + "-" + name)).string();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/allowed");
    fs::create_directories(root_ + "/outside");
    root_ = *CanonicalFilesystemPath(root_);
    allowed_ = {root_ + "/allowed"};
  }
  void TearDown() override { fs::remove_all(root_); }

  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel, std::ios::binary) << text;
  }

  v1::TableSource Spec(const std::string& path, const std::string& format = "csv") {
    v1::TableSource spec;
    spec.set_table_name("default_catalog.default_database.t");
    (*spec.mutable_options())["path"] = path;
    (*spec.mutable_options())["format"] = format;
    Schema schema{{{"word", DataType::String()}, {"cnt", DataType::BigInt()}}};
    SchemaToProto(schema, spec.mutable_table_schema());
    return spec;
  }

  // Every row the source produces, as printed; the error when it fails.
  absl::StatusOr<std::vector<std::string>> ReadAll(const v1::TableSource& spec, int subtask = 0,
                                                   int parallelism = 1,
                                                   std::vector<std::string>* files = nullptr) {
    auto source = FilesystemSource::Create(spec, allowed_);
    if (!source.ok()) return source.status();
    OperatorContext ctx;
    ctx.subtask_index = subtask;
    ctx.parallelism = parallelism;
    absl::Status s = (*source)->Open(ctx);
    if (!s.ok()) return s;
    if (files) *files = (*source)->files();
    std::vector<std::string> rows;
    ChangelogBatch batch;
    while (true) {
      auto st = (*source)->Next(&batch);
      if (!st.ok()) return st.status();
      if (*st == SourceState::kEnd) break;
      EXPECT_LE(batch.num_rows(), kDefaultBatchRows);
      for (size_t r = 0; r < batch.num_rows(); ++r) rows.push_back(FormatRow(batch, r));
    }
    EXPECT_TRUE((*source)->Close().ok());
    return rows;
  }

  std::string root_;
  std::vector<std::string> allowed_;
};

TEST_F(FilesystemConnectorTest, DirectoryInNameOrderSkippingHiddenFiles) {
  Write("allowed/in/b.csv", "b,2\n");
  Write("allowed/in/a.csv", "a,1\n");
  Write("allowed/in/.hidden.csv", "h,0\n");
  Write("allowed/in/_SUCCESS", "");
  Write("allowed/in/c.csv", "c,3");
  fs::create_directories(root_ + "/allowed/in/subdir");
  Write("allowed/in/subdir/d.csv", "d,4\n");
  auto rows = ReadAll(Spec(root_ + "/allowed/in"));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (std::vector<std::string>{"+I[a, 1]", "+I[b, 2]", "+I[c, 3]"}));
}

TEST_F(FilesystemConnectorTest, SubtasksSplitTheFilesDeterministically) {
  for (int i = 0; i < 5; ++i) Write("allowed/in/f" + std::to_string(i) + ".csv", "x,1\n");
  std::set<std::string> seen;
  for (int subtask = 0; subtask < 3; ++subtask) {
    std::vector<std::string> files, again;
    ASSERT_TRUE(ReadAll(Spec(root_ + "/allowed/in"), subtask, 3, &files).ok());
    ASSERT_TRUE(ReadAll(Spec(root_ + "/allowed/in"), subtask, 3, &again).ok());
    EXPECT_EQ(files, again);
    for (const auto& f : files) EXPECT_TRUE(seen.insert(f).second) << f << " read twice";
  }
  EXPECT_EQ(seen.size(), 5u);
  std::vector<std::string> first;
  ASSERT_TRUE(ReadAll(Spec(root_ + "/allowed/in"), 0, 3, &first).ok());
  EXPECT_EQ(first,
            (std::vector<std::string>{root_ + "/allowed/in/f0.csv", root_ + "/allowed/in/f3.csv"}));
  // A single file is read by one subtask.
  Write("allowed/one.csv", "x,1\n");
  auto rows = ReadAll(Spec(root_ + "/allowed/one.csv"), 1, 2);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
}

TEST_F(FilesystemConnectorTest, LargeFilesAcrossChunksWithLineNumbers) {
  std::string text;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    text +=
        i % 7 == 0 ? "\"quoted,\nword " + std::to_string(i) + "\"," : "w" + std::to_string(i) + ",";
    text += std::to_string(i) + "\n";
  }
  ASSERT_GT(text.size(), 1u << 20);
  Write("allowed/big.csv", text);
  auto rows = ReadAll(Spec(root_ + "/allowed/big.csv"));
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), static_cast<size_t>(n));
  EXPECT_EQ((*rows)[99999], "+I[w99999, 99999]");
  EXPECT_EQ((*rows)[99995], "+I[quoted,\nword 99995, 99995]");
  // A bad value near the end: its line counts the line breaks inside quoted fields.
  Write("allowed/big.csv", text + "bad,x\n");
  auto bad = ReadAll(Spec(root_ + "/allowed/big.csv"));
  const int lines = n + (n + 6) / 7 + 1;
  EXPECT_EQ(bad.status().message(),
            "filesystem source for table 'default_catalog.default_database.t': file '" + root_ +
                "/allowed/big.csv', line " + std::to_string(lines) +
                ", field 2 (column 'cnt'): cannot parse 'x' as BIGINT");
}

TEST_F(FilesystemConnectorTest, JsonFiles) {
  Write("allowed/in.json", "{\"word\":\"a\",\"cnt\":1}\n{\"cnt\":2,\"word\":\"b\",\"x\":[]}\n");
  auto rows = ReadAll(Spec(root_ + "/allowed/in.json", "json"));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (std::vector<std::string>{"+I[a, 1]", "+I[b, 2]"}));
  Write("allowed/bad.json", "{\"word\":\"a\",\"cnt\":1}\n{\"word\":\"b\",\"cnt\":}\n");
  auto bad = ReadAll(Spec(root_ + "/allowed/bad.json", "json"));
  EXPECT_EQ(bad.status().message(),
            "filesystem source for table 'default_catalog.default_database.t': file '" + root_ +
                "/allowed/bad.json', line 2, column 19: unexpected character '}' where a value "
                "should be");
}

TEST_F(FilesystemConnectorTest, MissingPathAndPathsOutsideTheAllowedDirectories) {
  auto missing = ReadAll(Spec(root_ + "/allowed/x/y"));
  EXPECT_EQ(missing.status().message(),
            "filesystem source for table 'default_catalog.default_database.t': path '" + root_ +
                "/allowed/x/y' does not exist");
  Write("outside/secret.csv", "s,1\n");
  auto outside = ReadAll(Spec(root_ + "/allowed/../outside/secret.csv"));
  EXPECT_EQ(outside.status().message(),
            "filesystem source for table 'default_catalog.default_database.t': path '" + root_ +
                "/allowed/../outside/secret.csv' is outside the directories this worker allows "
                "(--filesystem-allowed-dirs: '" +
                root_ + "/allowed')");
  // A symlink inside an allowed directory that leads out of it: as a path, and as a file of a
  // directory that is read.
  fs::create_directories(root_ + "/allowed/in");
  fs::create_symlink(root_ + "/outside/secret.csv", root_ + "/allowed/in/link.csv");
  EXPECT_FALSE(ReadAll(Spec(root_ + "/allowed/in/link.csv")).ok());
  auto linked = ReadAll(Spec(root_ + "/allowed/in"));
  EXPECT_NE(linked.status().message().find("leads outside the directories this worker allows"),
            absl::string_view::npos)
      << linked.status();
  allowed_.clear();
  EXPECT_NE(ReadAll(Spec(root_ + "/allowed/in"))
                .status()
                .message()
                .find("(--filesystem-allowed-dirs: none)"),
            absl::string_view::npos);
}

v1::TableSink SinkSpec(const std::string& dir, const std::string& format) {
  v1::TableSink sink;
  sink.set_table_name("default_catalog.default_database.out");
  sink.set_connector("filesystem");
  (*sink.mutable_options())["path"] = dir;
  (*sink.mutable_options())["format"] = format;
  return sink;
}

ChangelogBatch WordBatch(std::vector<std::pair<std::string, int64_t>> rows,
                         RowKind kind = RowKind::kInsert) {
  ChangelogBatch b({DataType::String(), DataType::BigInt()});
  for (auto& [w, c] : rows) b.AppendValues({Value::String(w), Value::Int(c)}, kind);
  return b;
}

TEST_F(FilesystemConnectorTest, SinkPublishesItsFileWhenTheInputEnds) {
  const Schema schema{{{"word", DataType::String()}, {"cnt", DataType::BigInt()}}};
  const std::string dir = root_ + "/allowed/out/nested";
  auto sink = FilesystemSink::Create(SinkSpec(dir, "csv"), schema, allowed_);
  ASSERT_TRUE(sink.ok()) << sink.status();
  OperatorContext ctx;
  ctx.job_id = "job1";
  ctx.subtask_index = 2;
  ctx.parallelism = 3;
  ASSERT_TRUE((*sink)->Open(ctx).ok());
  EXPECT_TRUE(testing::ListDirectory(dir).empty());  // a part starts with its first row
  ASSERT_TRUE((*sink)->Process(0, WordBatch({{"a,b", 1}, {"c", 2}})).ok());
  ASSERT_TRUE((*sink)->Process(0, WordBatch({{"d", 3}})).ok());
  EXPECT_EQ(testing::ListDirectory(dir),
            (std::vector<std::string>{".part-job1-2-0.csv.inprogress.0"}));
  ASSERT_TRUE((*sink)->Finish().ok());
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_EQ(testing::ListDirectory(dir), (std::vector<std::string>{"part-job1-2-0.csv"}));
  EXPECT_EQ(testing::ReadFileToString(dir + "/part-job1-2-0.csv"), "\"a,b\",1\nc,2\nd,3\n");

  auto json = FilesystemSink::Create(SinkSpec(dir, "json"), schema, allowed_);
  ASSERT_TRUE(json.ok());
  ctx.job_id = "job2";
  ctx.subtask_index = 0;
  ASSERT_TRUE((*json)->Open(ctx).ok());
  ASSERT_TRUE((*json)->Finish().ok());  // no rows: no file
  ASSERT_TRUE((*json)->Close().ok());
  EXPECT_EQ(testing::ListDirectory(dir), (std::vector<std::string>{"part-job1-2-0.csv"}));
}

TEST_F(FilesystemConnectorTest, SinkThatDoesNotFinishLeavesNoFile) {
  const Schema schema{{{"word", DataType::String()}, {"cnt", DataType::BigInt()}}};
  const std::string dir = root_ + "/allowed/out";
  {
    auto sink = FilesystemSink::Create(SinkSpec(dir, "csv"), schema, allowed_);
    ASSERT_TRUE(sink.ok());
    OperatorContext ctx;
    ctx.job_id = "failed";
    ASSERT_TRUE((*sink)->Open(ctx).ok());
    std::vector<std::pair<std::string, int64_t>> many;
    for (int i = 0; i < 100000; ++i) many.push_back({"word" + std::to_string(i), i});
    ASSERT_TRUE((*sink)->Process(0, WordBatch(many)).ok());  // flushed: > 1 MiB
    EXPECT_GT(fs::file_size(dir + "/.part-failed-0-0.csv.inprogress.0"), 1u << 20);
    // An update is a bug in the plan: the sink refuses it.
    absl::Status update = (*sink)->Process(0, WordBatch({{"a", 1}}, RowKind::kUpdateAfter));
    EXPECT_EQ(update.message(),
              "filesystem sink for table 'default_catalog.default_database.out': the sink is "
              "append-only but received a +U row");
    ASSERT_TRUE((*sink)->Close().ok());  // failed or cancelled: Close without Finish
  }
  EXPECT_TRUE(testing::ListDirectory(dir).empty());
  {
    auto sink = FilesystemSink::Create(SinkSpec(dir, "csv"), schema, allowed_);
    ASSERT_TRUE(sink.ok());
    OperatorContext ctx;
    ctx.job_id = "destroyed";
    ASSERT_TRUE((*sink)->Open(ctx).ok());
  }  // destroyed without Close
  EXPECT_TRUE(testing::ListDirectory(dir).empty());
}

TEST_F(FilesystemConnectorTest, SinkDirectoryChecks) {
  const Schema schema{{{"word", DataType::String()}, {"cnt", DataType::BigInt()}}};
  auto outside = FilesystemSink::Create(SinkSpec(root_ + "/outside", "csv"), schema, allowed_);
  EXPECT_EQ(outside.status().message(),
            "filesystem sink for table 'default_catalog.default_database.out': path '" + root_ +
                "/outside' is outside the directories this worker allows "
                "(--filesystem-allowed-dirs: '" +
                root_ + "/allowed')");
  Write("allowed/file", "x");
  auto file = FilesystemSink::Create(SinkSpec(root_ + "/allowed/file", "csv"), schema, allowed_);
  ASSERT_TRUE(file.ok());
  OperatorContext ctx;
  ctx.job_id = "j";
  EXPECT_NE((*file)->Open(ctx).message().find("is not a directory"), absl::string_view::npos);
  EXPECT_TRUE((*file)->Close().ok());
  // A symlink to outside, created after planning.
  fs::create_symlink(root_ + "/outside", root_ + "/allowed/link");
  auto linked = FilesystemSink::Create(SinkSpec(root_ + "/allowed/link", "csv"), schema, allowed_);
  EXPECT_FALSE(linked.ok());
}

}  // namespace
}  // namespace eddy
