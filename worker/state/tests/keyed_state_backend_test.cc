#include "worker/state/keyed_state_backend.h"

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "worker/state/keyed_state_table.h"
#include "worker/state/state_key.h"

namespace eddy {
namespace {

std::string UniqueDir(const std::string& name) {
  static std::atomic<int> counter{0};
  const std::string dir = testing::TempDir() + "/eddy_state_" + name + "_" +
                          std::to_string(::getpid()) + "_" + std::to_string(counter++);
  std::filesystem::remove_all(dir);  // a store opens whatever it finds
  return dir + "/state";
}

std::unique_ptr<KeyedStateBackend> OpenOrDie(const std::string& path) {
  auto b = KeyedStateBackend::Open(path);
  EXPECT_TRUE(b.ok()) << b.status();
  return std::move(b).value();
}

TEST(StateKeyTest, LayoutIsKeyGroupThenStateIdBigEndian) {
  std::string key;
  AppendStateKey(0x0102, 0x0A0B0C0D, "abc", &key);
  ASSERT_EQ(key.size(), 9u);
  EXPECT_EQ(static_cast<uint8_t>(key[0]), 0x01);
  EXPECT_EQ(static_cast<uint8_t>(key[1]), 0x02);
  EXPECT_EQ(static_cast<uint8_t>(key[2]), 0x0A);
  EXPECT_EQ(static_cast<uint8_t>(key[3]), 0x0B);
  EXPECT_EQ(static_cast<uint8_t>(key[4]), 0x0C);
  EXPECT_EQ(static_cast<uint8_t>(key[5]), 0x0D);
  EXPECT_EQ(key.substr(6), "abc");
  EXPECT_EQ(KeyGroupOfStateKey(key), 0x0102);
  EXPECT_EQ(StateIdOfStateKey(key), 0x0A0B0C0Du);
  EXPECT_EQ(GroupKeyOfStateKey(key), "abc");
}

TEST(KeyedStateBackendTest, MultiGetAndWrite) {
  auto backend = OpenOrDie(UniqueDir("mg"));
  StateWriteBatch wb;
  std::string k1, k2, k3;
  AppendStateKey(1, 7, "a", &k1);
  AppendStateKey(2, 7, "b", &k2);
  AppendStateKey(3, 7, "c", &k3);
  wb.Put(k1, "v1");
  wb.Put(k2, std::string("v\0"
                         "2",
                         3));
  ASSERT_TRUE(backend->Write(&wb).ok());
  EXPECT_EQ(wb.count(), 0u);

  StateReadResult r;
  std::vector<std::string_view> keys = {k1, k3, k2};
  ASSERT_TRUE(backend->MultiGet(keys, &r).ok());
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(r.found(0));
  EXPECT_EQ(r.value(0), "v1");
  EXPECT_FALSE(r.found(1));
  EXPECT_EQ(r.value(1), "");
  EXPECT_TRUE(r.found(2));
  EXPECT_EQ(r.value(2), std::string_view("v\0"
                                         "2",
                                         3));

  wb.Delete(k1);
  wb.Put(k2, "new");
  ASSERT_TRUE(backend->Write(&wb).ok());
  ASSERT_TRUE(backend->MultiGet(keys, &r).ok());
  EXPECT_FALSE(r.found(0));
  EXPECT_EQ(r.value(2), "new");

  auto stats = backend->stats();
  EXPECT_EQ(stats.multiget_calls, 2u);
  EXPECT_EQ(stats.keys_read, 6u);
  EXPECT_EQ(stats.write_batches, 2u);
  EXPECT_EQ(stats.keys_written, 4u);
}

TEST(KeyedStateBackendTest, SecondOpenOfSamePathFailsWithPath) {
  std::string path = UniqueDir("locked");
  auto first = OpenOrDie(path);
  auto second = KeyedStateBackend::Open(path);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find(path), std::string::npos) << second.status();
}

TEST(KeyedStateTableTest, OperatorsAreIsolatedAndDeleteStateRemovesAllKeyGroups) {
  auto backend = OpenOrDie(UniqueDir("iso"));
  KeyedStateTable t1(backend.get(), 1, 128);
  KeyedStateTable t2(backend.get(), 2, 128);
  // Operator id 1 and 2 are adjacent in the key space; operator 0xFFFFFFFF exercises the range end.
  KeyedStateTable tmax(backend.get(), 0xFFFFFFFFu, 128);
  for (int kg = 0; kg < 128; ++kg) {
    std::string gk = "k" + std::to_string(kg);
    t1.Put(kg, gk, "one");
    t2.Put(kg, gk, "two");
    tmax.Put(kg, gk, "max");
  }
  ASSERT_TRUE(t1.Commit().ok());
  ASSERT_TRUE(t2.Commit().ok());
  ASSERT_TRUE(tmax.Commit().ok());
  EXPECT_EQ(t1.stats().commits, 1u);
  EXPECT_EQ(t1.stats().keys_written, 128u);

  t2.ClearReads();
  EXPECT_EQ(t2.AddRead(5, "k5"), 0u);
  EXPECT_EQ(t2.AddRead(6, "k5"), 1u);  // wrong key group: a different key
  ASSERT_TRUE(t2.ReadAll().ok());
  EXPECT_TRUE(t2.found(0));
  EXPECT_EQ(t2.value(0), "two");
  EXPECT_FALSE(t2.found(1));

  EXPECT_EQ(*backend->CountKeys(1), 128u);
  EXPECT_EQ(*backend->CountKeys(2), 128u);
  ASSERT_TRUE(t1.DropAll().ok());
  ASSERT_TRUE(tmax.DropAll().ok());
  EXPECT_EQ(*backend->CountKeys(1), 0u);
  EXPECT_EQ(*backend->CountKeys(0xFFFFFFFFu), 0u);
  EXPECT_EQ(*backend->CountKeys(2), 128u);

  t1.ClearReads();
  t1.AddRead(5, "k5");
  ASSERT_TRUE(t1.ReadAll().ok());
  EXPECT_FALSE(t1.found(0));
  EXPECT_GT(backend->ApproximateSizeBytes(), 0u);
}

TEST(KeyedStateBackendTest, ConcurrentOperatorsShareOneBackend) {
  auto backend = OpenOrDie(UniqueDir("mt"));
  constexpr int kThreads = 4;
  constexpr int kBatches = 50;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      KeyedStateTable table(backend.get(), 100 + t, 128);
      for (int b = 0; b < kBatches; ++b) {
        table.ClearReads();
        for (int k = 0; k < 20; ++k) table.AddRead(k, "key" + std::to_string(k));
        if (!table.ReadAll().ok()) ++failures;
        for (int k = 0; k < 20; ++k) {
          if (b > 0 && table.value(k) != std::to_string(b - 1)) ++failures;
          table.Put(k, "key" + std::to_string(k), std::to_string(b));
        }
        if (!table.Commit().ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(*backend->CountKeys(100 + t), 20u);
  EXPECT_EQ(backend->stats().multiget_calls, uint64_t{kThreads * kBatches});
}

TEST(KeyedStateBackendTest, ReadsStayCorrectWhileMemtablesFlushUnderLargeValues) {
  // 1000 keys whose values grow by ~64 bytes per batch to ~4 KiB: the 4 MiB memtables fill and
  // flush to SST files many times while batches keep reading every key with one MultiGet each.
  auto backend = OpenOrDie(UniqueDir("flush"));
  KeyedStateTable table(backend.get(), 7, 128);
  constexpr int kKeys = 1000;
  constexpr int kBatches = 60;
  std::vector<std::string> keys;
  for (int k = 0; k < kKeys; ++k) keys.push_back("key" + std::to_string(k));
  auto tag = [](const std::string& key) { return key + std::string(60, '.') + ';'; };
  std::string value;
  int mismatches = 0;
  for (int b = 0; b < kBatches; ++b) {
    table.ClearReads();
    for (int k = 0; k < kKeys; ++k) table.AddRead(k % 128, keys[k]);
    ASSERT_TRUE(table.ReadAll().ok());
    for (int k = 0; k < kKeys; ++k) {
      // The previous batch wrote b-1 copies of the key's tag.
      std::string expected;
      for (int i = 0; i < b; ++i) expected += tag(keys[k]);
      if (b > 0 && (!table.found(k) || table.value(k) != expected)) ++mismatches;
      value = expected + tag(keys[k]);
      table.Put(k % 128, keys[k], value);
    }
    ASSERT_TRUE(table.Commit().ok());
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(*backend->CountKeys(7), static_cast<size_t>(kKeys));
}

// One result object reused for more and more keys: values read from SST files are pinned in their
// blocks, and the result's slices must stay usable when it makes room for more keys (a slice moved
// from a pinned one had no buffer, and a value later copied into it from the memtable was written
// through a wild pointer).
TEST(KeyedStateBackendTest, AResultGrowsAfterReadingPinnedValuesFromFiles) {
  const std::string path = UniqueDir("grow");
  auto backend = OpenOrDie(path);
  std::vector<std::string> keys;
  std::vector<std::string> expected;
  StateWriteBatch wb;
  for (int k = 0; k < 64; ++k) {
    keys.emplace_back();
    AppendStateKey(k, 7, "k" + std::to_string(k), &keys.back());
    expected.push_back("file" + std::to_string(k));
    wb.Put(keys.back(), expected.back());
  }
  ASSERT_TRUE(backend->Write(&wb).ok());
  StateReadResult r;
  for (size_t n = 1; n <= 64; n *= 2) {
    // Every value in a file (pinned when read), then new values for the keys read last time, in
    // the memtable (copied when read).
    ASSERT_TRUE(backend->Snapshot(path + "-chk" + std::to_string(n)).ok());
    for (size_t k = 0; k < n / 2; ++k) {
      expected[k] = "memtable" + std::to_string(n) + "-" + std::to_string(k);
      wb.Put(keys[k], expected[k]);
    }
    ASSERT_TRUE(backend->Write(&wb).ok());
    const std::vector<std::string_view> views(keys.begin(), keys.begin() + n);
    ASSERT_TRUE(backend->MultiGet(views, &r).ok());
    for (size_t k = 0; k < n; ++k) {
      ASSERT_TRUE(r.found(k));
      EXPECT_EQ(r.value(k), expected[k]);
    }
  }
}

TEST(KeyedStateBackendTest, ScanPrefixReadsInKeyOrderAndKeepsTheKeys) {
  auto backend = OpenOrDie(UniqueDir("scan"));
  StateWriteBatch wb;
  std::string key;
  // Rows of join key "k1" (and a neighbour "k2", and "k1" under another state id).
  for (const char* row : {"k1|b", "k1|a", "k2|a"}) {
    key.clear();
    AppendStateKey(3, 7, row, &key);
    wb.Put(key, std::string("v-") + row);
  }
  key.clear();
  AppendStateKey(3, 8, "k1|c", &key);
  wb.Put(key, "other state");
  ASSERT_TRUE(backend->Write(&wb).ok());

  std::string prefix;
  AppendStateKey(3, 7, "k1|", &prefix);
  std::vector<std::string> seen;
  auto collect = [&](std::string_view k, std::string_view v) {
    seen.push_back(std::string(GroupKeyOfStateKey(k)) + "=" + std::string(v));
    return absl::OkStatus();
  };
  ASSERT_TRUE(backend->ScanPrefix(prefix, collect).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"k1|a=v-k1|a", "k1|b=v-k1|b"}));
  // Nothing was deleted: a second scan sees the same rows.
  seen.clear();
  ASSERT_TRUE(backend->ScanPrefix(prefix, collect).ok());
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_EQ(*backend->CountKeys(7), 3u);
  // An error from the callback stops the scan and comes back.
  int calls = 0;
  absl::Status stopped = backend->ScanPrefix(prefix, [&](std::string_view, std::string_view) {
    ++calls;
    return absl::CancelledError("enough");
  });
  EXPECT_EQ(stopped.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(calls, 1);
  // ScanAndDeletePrefix reads the same rows and then drops them, and only them.
  seen.clear();
  ASSERT_TRUE(backend->ScanAndDeletePrefix(prefix, collect).ok());
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_EQ(*backend->CountKeys(7), 1u);
  EXPECT_EQ(*backend->CountKeys(8), 1u);
}

}  // namespace
}  // namespace eddy
