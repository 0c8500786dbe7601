// The asynchronous checkpoint part: SSTs go to shared/, MANIFEST/CURRENT/OPTIONS to chk-<n>/; an
// SST uploaded for the last completed checkpoint is referenced, not copied again, while one of an
// aborted checkpoint is copied anew; a failed upload declines the checkpoint.
#include "worker/runtime/checkpoint_uploader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "worker/state/testing/temp_state_backend.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

class CheckpointUploaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(state_.status().ok()) << state_.status();
    root_ = (fs::temp_directory_path() / ("eddy-upload-" + std::to_string(getpid()))).string();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/job");
  }
  void TearDown() override { fs::remove_all(root_); }

  // Writes `n` more keys, flushes them into a new SST and snapshots checkpoint `id`.
  void Checkpoint(int64_t id, int n, const std::string& job_dir) {
    StateWriteBatch batch;
    for (int i = 0; i < n; ++i) batch.Put("k" + std::to_string(id) + "_" + std::to_string(i), "v");
    ASSERT_TRUE(state_.get()->Write(&batch).ok());
    SubtaskSnapshot s;
    s.job_id = "j";
    s.attempt = 1;
    s.checkpoint_id = id;
    s.job_dir = job_dir;
    s.state.set_task_index(2);
    s.state.add_operators()->set_state_id(7);
    s.local_root = root_ + "/local-" + std::to_string(id);
    const std::string dir = s.local_root + "/store";
    ASSERT_TRUE(state_.get()->Snapshot(dir).ok());
    s.stores.push_back({0, "state-7-subtask-0-abc", dir});
    uploader_.Submit(std::move(s));
    uploader_.WaitIdle();
  }

  std::map<std::string, v1::StateFile> Ssts(const v1::AcknowledgeCheckpointRequest& ack) {
    std::map<std::string, v1::StateFile> out;
    for (const auto& f : ack.state().operators(0).files()) {
      if (f.path().size() > 4 && f.path().substr(f.path().size() - 4) == ".sst") {
        out[fs::path(f.path()).filename().string()] = f;
      }
    }
    return out;
  }

  testing::TempStateBackend state_{"checkpoint_uploader_test"};
  std::vector<v1::AcknowledgeCheckpointRequest> acks_;
  std::vector<v1::DeclineCheckpointRequest> declines_;
  CheckpointUploader uploader_{[this](const auto& r) { acks_.push_back(r); },
                               [this](const auto& r) { declines_.push_back(r); }};
  std::string root_;
};

TEST_F(CheckpointUploaderTest, ReferencesSstsOfTheLastCompletedCheckpoint) {
  const std::string job_dir = root_ + "/job";
  Checkpoint(1, 10, job_dir);
  ASSERT_EQ(acks_.size(), 1u);
  EXPECT_EQ(acks_[0].state().task_index(), 2);
  auto first = Ssts(acks_[0]);
  ASSERT_EQ(first.size(), 1u);
  bool manifest = false;
  for (const auto& f : acks_[0].state().operators(0).files()) {
    EXPECT_EQ(fs::file_size(job_dir + "/" + f.path()), f.size());
    if (f.path().rfind("chk-1/state-7-subtask-0-abc/MANIFEST", 0) == 0) manifest = true;
  }
  EXPECT_TRUE(manifest);
  EXPECT_EQ(first.begin()->second.path().rfind("shared/state-7-subtask-0-abc/", 0), 0u);
  EXPECT_FALSE(fs::exists(root_ + "/local-1"));  // the local snapshot is gone

  uploader_.NotifyCheckpoint("j", 1, true);
  // The copy in shared/ is what checkpoint 2 names: remove it to prove it is not copied again.
  const std::string old_sst = job_dir + "/" + first.begin()->second.path();
  fs::remove(old_sst);
  Checkpoint(2, 10, job_dir);
  ASSERT_EQ(acks_.size(), 2u);
  auto second = Ssts(acks_[1]);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[first.begin()->first].path(), first.begin()->second.path());
  EXPECT_FALSE(fs::exists(old_sst));

  // Checkpoint 2 aborted: its new SST is not a base; checkpoint 3 copies it again.
  uploader_.NotifyCheckpoint("j", 2, false);
  std::string new_sst;
  for (const auto& [name, f] : second) {
    if (name != first.begin()->first) new_sst = job_dir + "/" + f.path();
  }
  fs::remove(new_sst);
  Checkpoint(3, 10, job_dir);
  ASSERT_EQ(acks_.size(), 3u);
  EXPECT_TRUE(fs::exists(new_sst));
  EXPECT_FALSE(fs::exists(old_sst));  // still the one of checkpoint 1
  EXPECT_TRUE(declines_.empty());
}

TEST_F(CheckpointUploaderTest, AFailedUploadDeclines) {
  std::ofstream(root_ + "/not-a-dir") << "x";
  Checkpoint(1, 5, root_ + "/not-a-dir");
  EXPECT_TRUE(acks_.empty());
  ASSERT_EQ(declines_.size(), 1u);
  EXPECT_EQ(declines_[0].checkpoint_id(), 1);
  EXPECT_EQ(declines_[0].attempt(), 1);
  EXPECT_EQ(declines_[0].task_index(), 2);
  EXPECT_NE(declines_[0].reason().find("not-a-dir"), std::string::npos) << declines_[0].reason();
}

}  // namespace
}  // namespace eddy
