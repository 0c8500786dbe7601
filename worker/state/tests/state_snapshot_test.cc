// Snapshots of a state store: a snapshot holds exactly the keys written before it (memtables
// included), later writes do not change it, and it can be restored more than once.
#include <atomic>
#include <filesystem>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "worker/state/keyed_state_backend.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

constexpr uint32_t kStateId = 3;

std::string UniqueDir(const std::string& name) {
  static std::atomic<int> counter{0};
  const std::string dir = testing::TempDir() + "/eddy_snapshot_" + name + "_" +
                          std::to_string(::getpid()) + "_" + std::to_string(counter++);
  std::filesystem::remove_all(dir);  // a store opens whatever it finds
  return dir;
}

void Put(KeyedStateBackend* store, int key_group, const std::string& key, const std::string& v) {
  std::string k;
  AppendStateKey(key_group, kStateId, key, &k);
  StateWriteBatch wb;
  wb.Put(k, v);
  ASSERT_TRUE(store->Write(&wb).ok());
}

void Delete(KeyedStateBackend* store, int key_group, const std::string& key) {
  std::string k;
  AppendStateKey(key_group, kStateId, key, &k);
  StateWriteBatch wb;
  wb.Delete(k);
  ASSERT_TRUE(store->Write(&wb).ok());
}

// Every key of kStateId with its value, by scanning key group by key group.
std::map<std::string, std::string> Contents(KeyedStateBackend* store) {
  std::map<std::string, std::string> out;
  for (int kg = 0; kg < kMaxParallelism; ++kg) {
    std::string prefix;
    AppendStateKeyPrefix(kg, kStateId, &prefix);
    // ScanAndDeletePrefix deletes what it reads: scan a throwaway restore, never the original.
    EXPECT_TRUE(store
                    ->ScanAndDeletePrefix(
                        prefix,
                        [&](std::string_view key, std::string_view value) {
                          out[std::to_string(kg) + "/" + std::string(GroupKeyOfStateKey(key))] =
                              std::string(value);
                          return absl::OkStatus();
                        })
                    .ok());
  }
  return out;
}

class StateSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = UniqueDir("t");
    resources_ = std::make_shared<SharedStateResources>();
    auto store = KeyedStateBackend::Open(root_ + "/live", resources_);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  // Restores `snapshot` into a fresh directory and returns its contents.
  std::map<std::string, std::string> Restored(const std::string& snapshot) {
    const std::string path = root_ + "/restore-" + std::to_string(restores_++);
    auto restored = KeyedStateBackend::OpenFromSnapshot(snapshot, path, resources_);
    EXPECT_TRUE(restored.ok()) << restored.status();
    if (!restored.ok()) return {};
    return Contents(restored->get());
  }

  std::string root_;
  std::shared_ptr<SharedStateResources> resources_;
  std::unique_ptr<KeyedStateBackend> store_;
  int restores_ = 0;
};

TEST_F(StateSnapshotTest, RestoreSeesExactlyTheSnapshotsKeys) {
  Put(store_.get(), 0, "a", "1");
  Put(store_.get(), 5, "b", "2");
  Put(store_.get(), 127, "c", "3");
  const std::string chk1 = root_ + "/chk-1";
  ASSERT_TRUE(store_->Snapshot(chk1).ok());

  // After the snapshot: a new key, an overwrite and a delete.
  Put(store_.get(), 9, "d", "4");
  Put(store_.get(), 0, "a", "changed");
  Delete(store_.get(), 5, "b");

  const std::map<std::string, std::string> want1 = {{"0/a", "1"}, {"5/b", "2"}, {"127/c", "3"}};
  EXPECT_EQ(Restored(chk1), want1);
  // A snapshot can be restored again: the first restore did not change it.
  EXPECT_EQ(Restored(chk1), want1);

  const std::string chk2 = root_ + "/chk-2";
  ASSERT_TRUE(store_->Snapshot(chk2).ok());
  const std::map<std::string, std::string> want2 = {
      {"0/a", "changed"}, {"9/d", "4"}, {"127/c", "3"}};
  EXPECT_EQ(Restored(chk2), want2);
  EXPECT_EQ(Restored(chk1), want1);
}

TEST_F(StateSnapshotTest, RestoreReplacesWhatIsAtThePath) {
  Put(store_.get(), 1, "kept", "x");
  const std::string chk = root_ + "/chk";
  ASSERT_TRUE(store_->Snapshot(chk).ok());
  const std::string path = root_ + "/target";
  {
    auto other = KeyedStateBackend::Open(path, resources_);
    ASSERT_TRUE(other.ok()) << other.status();
    Put(other->get(), 2, "stale", "y");
    ASSERT_TRUE((*other)->CompactAll().ok());  // on disk, not only in the memtable
  }
  auto restored = KeyedStateBackend::OpenFromSnapshot(chk, path, resources_);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(Contents(restored->get()), (std::map<std::string, std::string>{{"1/kept", "x"}}));
}

TEST_F(StateSnapshotTest, SnapshotIntoAnExistingDirectoryOrFromNothingFails) {
  const std::string chk = root_ + "/chk";
  ASSERT_TRUE(store_->Snapshot(chk).ok());
  EXPECT_EQ(store_->Snapshot(chk).code(), absl::StatusCode::kAlreadyExists);
  auto missing = KeyedStateBackend::OpenFromSnapshot(root_ + "/nothing", root_ + "/x", resources_);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace eddy
