// StateStores: one store per (job, state id, subtask) in its own directory, leftovers of an earlier
// process removed at Open, a job's directory removed by DropJob, and snapshots restored in place.
#include "worker/state/state_stores.h"

#include <atomic>
#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

std::string UniqueRoot() {
  static std::atomic<int> counter{0};
  return testing::TempDir() + "/eddy_stores_" + std::to_string(::getpid()) + "_" +
         std::to_string(counter++) + "/state";
}

void PutKey(KeyedStateBackend* store, uint32_t state_id, const std::string& key) {
  std::string k;
  AppendStateKey(0, state_id, key, &k);
  StateWriteBatch wb;
  wb.Put(k, "v");
  ASSERT_TRUE(store->Write(&wb).ok());
}

class StateStoresTest : public ::testing::Test {
 protected:
  void SetUp() override { root_ = UniqueRoot(); }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(fs::path(root_).parent_path(), ec);
  }
  std::unique_ptr<StateStores> OpenStores() {
    auto stores = StateStores::Open(root_);
    EXPECT_TRUE(stores.ok()) << stores.status();
    return stores.ok() ? std::move(*stores) : nullptr;
  }
  std::string root_;
};

TEST_F(StateStoresTest, OneStorePerSubtaskInItsOwnDirectory) {
  auto stores = OpenStores();
  ASSERT_NE(stores, nullptr);
  auto a0 = stores->Acquire("job1", 4, 0);
  auto a1 = stores->Acquire("job1", 4, 1);
  auto b0 = stores->Acquire("job1", 9, 0);
  ASSERT_TRUE(a0.ok() && a1.ok() && b0.ok());
  EXPECT_NE(*a0, *a1);
  EXPECT_NE(*a0, *b0);
  EXPECT_EQ(*stores->Acquire("job1", 4, 0), *a0);  // the same subtask gets the same store
  EXPECT_EQ(stores->size(), 3u);
  EXPECT_EQ((*a1)->path(), root_ + "/job1/state-4-subtask-1");
  EXPECT_TRUE(fs::is_directory(root_ + "/job1/state-4-subtask-1"));
  EXPECT_TRUE(fs::is_directory(root_ + "/job1/state-9-subtask-0"));

  PutKey(*a0, 4, "x");
  EXPECT_EQ(*(*a0)->CountKeys(4), 1u);
  EXPECT_EQ(*(*a1)->CountKeys(4), 0u);  // stores are separate
}

TEST_F(StateStoresTest, DropJobRemovesOnlyThatJobsStores) {
  auto stores = OpenStores();
  ASSERT_NE(stores, nullptr);
  ASSERT_TRUE(stores->Acquire("job1", 1, 0).ok());
  ASSERT_TRUE(stores->Acquire("job1", 2, 0).ok());
  auto other = stores->Acquire("job2", 1, 0);
  ASSERT_TRUE(other.ok());
  PutKey(*other, 1, "kept");
  ASSERT_TRUE(stores->DropJob("job1").ok());
  EXPECT_FALSE(fs::exists(root_ + "/job1"));
  EXPECT_TRUE(fs::exists(root_ + "/job2/state-1-subtask-0"));
  EXPECT_EQ(stores->size(), 1u);
  EXPECT_EQ(*(*other)->CountKeys(1), 1u);
  // A job that ran again here after its state was dropped starts empty.
  auto again = stores->Acquire("job1", 1, 0);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*(*again)->CountKeys(1), 0u);
  ASSERT_TRUE(stores->DropAll().ok());
  EXPECT_EQ(stores->size(), 0u);
  EXPECT_TRUE(fs::is_empty(root_));
}

TEST_F(StateStoresTest, OpenRemovesLeftoversOfAnEarlierProcess) {
  fs::create_directories(root_ + "/oldjob/state-1-subtask-0");
  std::ofstream(root_ + "/oldjob/state-1-subtask-0/000001.sst") << "stale";
  std::ofstream(root_ + "/CURRENT") << "an old worker-wide store";
  auto stores = OpenStores();
  ASSERT_NE(stores, nullptr);
  EXPECT_TRUE(fs::is_directory(root_));
  EXPECT_TRUE(fs::is_empty(root_));
}

TEST_F(StateStoresTest, RejectsKeysThatCannotNameADirectory) {
  auto stores = OpenStores();
  ASSERT_NE(stores, nullptr);
  EXPECT_EQ(stores->Acquire("../escape", 1, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(stores->Acquire("", 1, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(stores->Acquire("job", 0, 0).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(StateStoresTest, AcquireFromSnapshotRestoresTheSubtasksStore) {
  auto stores = OpenStores();
  ASSERT_NE(stores, nullptr);
  auto store = stores->Acquire("job1", 5, 2);
  ASSERT_TRUE(store.ok());
  PutKey(*store, 5, "before");
  const std::string snapshot = fs::path(root_).parent_path().string() + "/chk-1/state-5-subtask-2";
  ASSERT_TRUE((*store)->Snapshot(snapshot).ok());
  PutKey(*store, 5, "after");
  EXPECT_EQ(stores->AcquireFromSnapshot("job1", 5, 2, snapshot).status().code(),
            absl::StatusCode::kFailedPrecondition);  // open: a restore would pull it away

  ASSERT_TRUE(stores->DropJob("job1").ok());
  auto restored = stores->AcquireFromSnapshot("job1", 5, 2, snapshot);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ((*restored)->path(), root_ + "/job1/state-5-subtask-2");
  EXPECT_EQ(*(*restored)->CountKeys(5), 1u);
  EXPECT_EQ(*stores->Acquire("job1", 5, 2), *restored);
}

TEST_F(StateStoresTest, StoresShareOneBlockCacheAndWriteBufferBudget) {
  auto stores = OpenStores();
  ASSERT_NE(stores, nullptr);
  auto a = stores->Acquire("job1", 1, 0);
  auto b = stores->Acquire("job1", 2, 0);
  ASSERT_TRUE(a.ok() && b.ok());
  // ~1 MB into each store's memtable: the one budget sees both.
  auto fill = [](KeyedStateBackend* store, uint32_t state_id) {
    StateWriteBatch wb;
    std::string k;
    for (int i = 0; i < 1000; ++i) {
      k.clear();
      AppendStateKey(i % 128, state_id, std::to_string(i), &k);
      wb.Put(k, std::string(1000, 'v'));
    }
    ASSERT_TRUE(store->Write(&wb).ok());
  };
  fill(*a, 1);
  const size_t one = stores->resources()->WriteBufferUsage();
  fill(*b, 2);
  const size_t two = stores->resources()->WriteBufferUsage();
  EXPECT_GT(two, one);
  EXPECT_GE(two, size_t{1} << 20);
}

}  // namespace
}  // namespace eddy
