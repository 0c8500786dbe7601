// CheckpointStore: atomic metadata with a checksum, corrupt or truncated metadata never loaded
// silently, retention of the newest checkpoints, and reference counting of shared files.
#include "coordinator/checkpoint/checkpoint_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/base/file_checksum.h"
#include "tests/util/status_matchers.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class CheckpointStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("eddy-ckpt-store-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    store_ = std::make_unique<CheckpointStore>((root_ / "job1").string());
    ASSERT_OK(store_->Prepare());
  }
  void TearDown() override { fs::remove_all(root_); }

  // Writes each file (relative to the job directory) as a worker would, and metadata naming them.
  v1::CheckpointMetadata Complete(int64_t id, const std::vector<std::string>& files) {
    v1::CheckpointMetadata m;
    m.set_job_id("job1");
    m.set_checkpoint_id(id);
    auto* op = m.add_subtasks()->add_operators();
    op->set_state_id(7);
    for (const std::string& f : files) {
      Write(f);
      auto* file = op->add_files();
      file->set_path(f);
      file->set_size(4);
      file->set_crc32(Crc32Update(0, "data", 4));
    }
    EXPECT_OK(store_->WriteMetadata(m));
    return m;
  }
  void Write(const std::string& relative) {
    fs::create_directories((fs::path(store_->job_dir()) / relative).parent_path());
    std::ofstream(fs::path(store_->job_dir()) / relative) << "data";
  }
  bool Exists(const std::string& relative) {
    return fs::exists(fs::path(store_->job_dir()) / relative);
  }
  std::string MetadataPath(int64_t id) { return store_->CheckpointDir(id) + "/_metadata"; }

  fs::path root_;
  std::unique_ptr<CheckpointStore> store_;
};

TEST_F(CheckpointStoreTest, MetadataRoundTripsAndTheNewestIsFound) {
  Complete(1, {"shared/s/1.sst"});
  v1::CheckpointMetadata m2 = Complete(2, {"shared/s/1.sst", "shared/s/2.sst"});
  EXPECT_THAT(store_->CompletedIds(), ElementsAre(2, 1));
  ASSERT_OK_AND_ASSIGN(v1::CheckpointMetadata read, store_->ReadMetadata(2));
  EXPECT_EQ(read.SerializeAsString(), m2.SerializeAsString());
  EXPECT_FALSE(Exists("chk-2/_metadata.inprogress"));
  std::vector<std::string> skipped;
  auto latest = store_->LatestValid(&skipped);
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->checkpoint_id(), 2);
  EXPECT_THAT(skipped, IsEmpty());
}

TEST_F(CheckpointStoreTest, EveryCorruptedByteIsDetectedAndTheOlderCheckpointIsUsed) {
  Complete(1, {"shared/s/1.sst"});
  Complete(2, {"shared/s/2.sst"});
  std::string original;
  {
    std::ifstream in(MetadataPath(2), std::ios::binary);
    original.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (size_t i = 0; i < original.size(); ++i) {
    std::string bad = original;
    bad[i] = static_cast<char>(bad[i] ^ 0x20);
    std::ofstream(MetadataPath(2), std::ios::binary | std::ios::trunc) << bad;
    auto read = store_->ReadMetadata(2);
    ASSERT_FALSE(read.ok()) << "byte " << i << " flipped went unnoticed";
    EXPECT_THAT(read.status().message(), HasSubstr(MetadataPath(2)));
    std::vector<std::string> skipped;
    auto latest = store_->LatestValid(&skipped);
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(latest->checkpoint_id(), 1);
    ASSERT_EQ(skipped.size(), 1u);
  }
  // Truncated anywhere.
  for (size_t n : {size_t{0}, size_t{5}, original.size() / 2, original.size() - 1}) {
    std::ofstream(MetadataPath(2), std::ios::binary | std::ios::trunc) << original.substr(0, n);
    EXPECT_EQ(store_->ReadMetadata(2).status().code(), absl::StatusCode::kDataLoss) << n;
  }
}

TEST_F(CheckpointStoreTest, EveryKindOfStateFileCorruptedTruncatedOrMissingIsNeverTrusted) {
  Complete(1, {"shared/s/1.sst", "chk-1/s/MANIFEST-000001", "chk-1/s/CURRENT"});
  // A shared SST file, a file of the checkpoint alone, and one shared with checkpoint 1.
  const std::vector<std::string> files = {"shared/s/2.sst", "chk-2/s/MANIFEST-000002",
                                          "chk-2/s/CURRENT", "shared/s/1.sst"};
  Complete(2, files);
  auto newest_trusted = [&](std::vector<std::string>* skipped) {
    auto latest = store_->LatestValid(skipped);
    return latest.has_value() ? latest->checkpoint_id() : int64_t{0};
  };
  std::vector<std::string> skipped;
  ASSERT_EQ(newest_trusted(&skipped), 2);
  for (const std::string& f : {files[0], files[1], files[2]}) {
    SCOPED_TRACE(f);
    const fs::path path = fs::path(store_->job_dir()) / f;
    for (size_t i = 0; i < 4; ++i) {  // every byte flipped
      std::string bad = "data";
      bad[i] = static_cast<char>(bad[i] ^ 0x01);
      std::ofstream(path, std::ios::binary | std::ios::trunc) << bad;
      skipped.clear();
      EXPECT_EQ(newest_trusted(&skipped), 1) << "byte " << i << " flipped went unnoticed";
      ASSERT_EQ(skipped.size(), 1u);
      EXPECT_THAT(skipped[0], HasSubstr(path.string()));
      EXPECT_THAT(skipped[0], HasSubstr("fails its checksum"));
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc) << "dat";  // truncated
    skipped.clear();
    EXPECT_EQ(newest_trusted(&skipped), 1);
    ASSERT_EQ(skipped.size(), 1u);
    EXPECT_THAT(skipped[0], HasSubstr("holds 3 bytes, the checkpoint recorded 4"));
    fs::remove(path);  // missing
    skipped.clear();
    EXPECT_EQ(newest_trusted(&skipped), 1);
    ASSERT_EQ(skipped.size(), 1u);
    EXPECT_THAT(skipped[0], HasSubstr("cannot be read"));
    Write(f);
    skipped.clear();
    EXPECT_EQ(newest_trusted(&skipped), 2);
  }
  // A file both reference: neither checkpoint can be trusted.
  std::ofstream(fs::path(store_->job_dir()) / files[3], std::ios::binary | std::ios::trunc)
      << "dbta";
  skipped.clear();
  EXPECT_EQ(newest_trusted(&skipped), 0);
  EXPECT_EQ(skipped.size(), 2u);
}

TEST_F(CheckpointStoreTest, RetainDropsOldCheckpointsAndOnlyTheirUnreferencedSharedFiles) {
  Complete(1, {"shared/s/a.sst", "shared/s/b.sst", "chk-1/s/MANIFEST"});
  Complete(2, {"shared/s/b.sst", "shared/s/c.sst", "chk-2/s/MANIFEST"});
  Write("shared/s/d.sst");  // uploaded for a checkpoint still in progress, not yet acknowledged
  Write("shared/s/e.sst");  // acknowledged for a pending checkpoint
  ASSERT_OK(store_->Retain(1, {"shared/s/e.sst", "shared/s/a.sst"}));
  EXPECT_THAT(store_->CompletedIds(), ElementsAre(2));
  EXPECT_FALSE(Exists("chk-1"));
  EXPECT_TRUE(Exists("shared/s/a.sst"));  // in use by a pending checkpoint
  EXPECT_TRUE(Exists("shared/s/b.sst"));  // still referenced by checkpoint 2
  EXPECT_TRUE(Exists("shared/s/c.sst"));
  EXPECT_TRUE(Exists("shared/s/d.sst"));  // never referenced by a dropped checkpoint
  EXPECT_TRUE(Exists("shared/s/e.sst"));
  ASSERT_OK(store_->Retain(1, {}));
  EXPECT_TRUE(Exists("shared/s/a.sst"));  // only a dropped checkpoint's files are candidates
  Complete(3, {"shared/s/c.sst"});
  ASSERT_OK(store_->Retain(1, {}));
  EXPECT_THAT(store_->CompletedIds(), ElementsAre(3));
  EXPECT_FALSE(Exists("shared/s/b.sst"));
  EXPECT_TRUE(Exists("shared/s/c.sst"));
}

TEST_F(CheckpointStoreTest, DiscardRemovesAFailedCheckpointsFilesButNotSharedOnes) {
  Complete(1, {"shared/s/a.sst"});
  Write("chk-2/s/MANIFEST");
  Write("shared/s/b.sst");
  ASSERT_OK(store_->Discard(2, {"shared/s/a.sst", "shared/s/b.sst", "../../outside"}, {}));
  EXPECT_FALSE(Exists("chk-2"));
  EXPECT_TRUE(Exists("shared/s/a.sst"));  // checkpoint 1 still uses it
  EXPECT_FALSE(Exists("shared/s/b.sst"));
  EXPECT_THAT(store_->CompletedIds(), ElementsAre(1));
}

TEST_F(CheckpointStoreTest, MissingFilesAreReported) {
  v1::CheckpointMetadata m = Complete(1, {"shared/s/a.sst", "shared/s/b.sst"});
  fs::remove(fs::path(store_->job_dir()) / "shared/s/b.sst");
  EXPECT_THAT(store_->MissingFiles(m), ElementsAre("shared/s/b.sst"));
}

TEST_F(CheckpointStoreTest, OnlyPathsInsideTheJobDirectoryCount) {
  EXPECT_TRUE(CheckpointStore::IsPathInJobDir("shared/x/1.sst"));
  EXPECT_FALSE(CheckpointStore::IsPathInJobDir("/etc/passwd"));
  EXPECT_FALSE(CheckpointStore::IsPathInJobDir("shared/../../x"));
  EXPECT_FALSE(CheckpointStore::IsPathInJobDir(""));
}

TEST_F(CheckpointStoreTest, AnUnwritableDirectoryIsAClearError) {
  if (geteuid() == 0) {
    // root writes anywhere; a path below a regular file cannot be created by anyone.
    std::ofstream(root_ / "file") << "x";
    CheckpointStore store((root_ / "file" / "job").string());
    absl::Status s = store.Prepare();
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(s.message(), HasSubstr("the checkpoint directory '" +
                                       (root_ / "file" / "job").string() + "' cannot be created"));
    return;
  }
  fs::create_directories(root_ / "ro");
  chmod((root_ / "ro").c_str(), 0555);
  CheckpointStore store((root_ / "ro" / "job").string());
  EXPECT_EQ(store.Prepare().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace eddy
