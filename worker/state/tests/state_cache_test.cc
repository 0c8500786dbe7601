// StateCache: LRU order, write-back of dirty entries only, byte accounting; and KeyedStateTable
// with a cache against a model, across budgets that keep everything, some or nothing.
#include "worker/state/state_cache.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/state/keyed_state_table.h"

namespace eddy {
namespace {

using ::testing::ElementsAre;

// "key=value" for a written-back put, "key-" for a delete.
std::vector<std::string> ShrinkTo(StateCache* cache) {
  std::vector<std::string> out;
  cache->Shrink([&](const StateCache::WriteBack& w) {
    out.push_back(std::string(w.key) + (w.present ? "=" + std::string(w.value) : "-"));
  });
  return out;
}

size_t CostOf(size_t key, size_t value) { return key + value + StateCache::kEntryOverheadBytes; }

TEST(StateCacheTest, FindManyFindsEveryCachedKeyAcrossChunksOfEntries) {
  // Enough entries for several chunks of the entry storage; values stay where they were put.
  StateCache cache(size_t{1} << 30);
  std::vector<uint32_t> inserted;
  for (int i = 0; i < 10000; ++i) {
    const std::string k = "key-" + std::to_string(i);
    inserted.push_back(cache.Insert(k, true, "value-" + std::to_string(i), true, false));
  }
  const std::string_view first_value = cache.entry(inserted[0]).value;
  std::vector<std::string> owned = {"key-9999", "missing", "key-0", "key-4096", "key-0"};
  std::vector<std::string_view> keys(owned.begin(), owned.end());
  std::vector<uint32_t> found;
  cache.FindMany(keys, &found);
  EXPECT_THAT(found, ElementsAre(inserted[9999], StateCache::kNone, inserted[0], inserted[4096],
                                 inserted[0]));
  EXPECT_EQ(cache.entry(found[3]).value, "value-4096");
  EXPECT_EQ(cache.entry(inserted[0]).value.data(), first_value.data());
  EXPECT_EQ(cache.size(), 10000u);
}

TEST(StateCacheTest, EvictsEntriesUnusedSinceTheHandPassedAndWritesBackOnlyDirtyOnes) {
  // Room for two entries of a 1-byte key and a 1-byte value.
  StateCache cache(2 * CostOf(1, 1));
  cache.Insert("a", true, "1", true, /*dirty=*/false);
  uint32_t b = cache.Insert("b", true, "2", true, false);
  uint32_t c = cache.Insert("c", true, "3", true, false);
  cache.Set(c, "4");
  EXPECT_EQ(cache.bytes(), 3 * CostOf(1, 1));
  // The first turn of the hand takes every new entry's second chance, then a (clean) goes
  // without a write.
  EXPECT_THAT(ShrinkTo(&cache), ElementsAre());
  EXPECT_EQ(cache.Find("a"), StateCache::kNone);
  EXPECT_EQ(cache.size(), 2u);
  // b is used again, c is not: c (dirty) is written back and dropped; b stays.
  EXPECT_EQ(cache.Find("b"), b);
  cache.Insert("d", true, "5", false, /*dirty=*/true);
  EXPECT_THAT(ShrinkTo(&cache), ElementsAre("c=4"));
  EXPECT_NE(cache.Find("b"), StateCache::kNone);
  EXPECT_NE(cache.Find("d"), StateCache::kNone);
  EXPECT_EQ(cache.evictions(), 2u);
  // Clean a goes silently; dirty c is written back.
  StateCache none(0);
  none.Insert("a", true, "1", true, false);
  none.Insert("c", true, "4", false, true);
  EXPECT_THAT(ShrinkTo(&none), ElementsAre("c=4"));
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.bytes(), 0u);
}

TEST(StateCacheTest, ALargeCacheEvictsInBatchesOfASixteenthOfItsBudget) {
  constexpr size_t kBudget = StateCache::kBatchedEvictionMinBytes;
  StateCache cache(kBudget);
  const size_t cost = CostOf(8, 8);
  const size_t fits = kBudget / cost;
  char key[9];
  for (size_t i = 0; i <= fits; ++i) {
    std::snprintf(key, sizeof(key), "%08zu", i);
    cache.Insert(key, true, "valueabc", false, /*dirty=*/true);
  }
  ASSERT_GT(cache.bytes(), kBudget);
  size_t written = 0;
  cache.Shrink([&](const StateCache::WriteBack&) { ++written; });
  EXPECT_LE(cache.bytes(), kBudget - kBudget / StateCache::kEvictionBatchDivisor);
  EXPECT_GE(written, fits / StateCache::kEvictionBatchDivisor);
  EXPECT_EQ(cache.evictions(), written);
  // Below the budget again: the next Shrinks write nothing until it is exceeded.
  for (size_t i = fits + 1; i < fits + 100; ++i) {
    std::snprintf(key, sizeof(key), "%08zu", i);
    cache.Insert(key, true, "valueabc", false, /*dirty=*/true);
  }
  written = 0;
  cache.Shrink([&](const StateCache::WriteBack&) { ++written; });
  EXPECT_EQ(written, 0u);
}

TEST(StateCacheTest, ReservedBytesCountAgainstTheBudget) {
  StateCache cache(3 * CostOf(1, 1));
  cache.Insert("a", true, "1", false, true);
  cache.Insert("b", true, "2", false, true);
  cache.SetReservedBytes(2 * CostOf(1, 1));
  EXPECT_EQ(cache.bytes(), 4 * CostOf(1, 1));
  EXPECT_EQ(ShrinkTo(&cache).size(), 1u);
  cache.Clear();
  EXPECT_EQ(cache.bytes(), 2 * CostOf(1, 1));
}

TEST(StateCacheTest, DeletesAreWrittenBackOnlyForKeysRocksDbMayHold) {
  StateCache cache(0);
  uint32_t stored = cache.Insert("s", true, "1", /*in_store=*/true, false);
  uint32_t fresh = cache.Insert("f", false, {}, /*in_store=*/false, false);
  cache.Set(fresh, "9");
  cache.Remove(fresh);  // created and removed in memory: RocksDB never saw it
  cache.Remove(stored);
  EXPECT_THAT(ShrinkTo(&cache), ElementsAre("s-"));
}

TEST(StateCacheTest, FlushWritesEveryDirtyEntryOnceAndKeepsThem) {
  StateCache cache(1 << 20);
  uint32_t a = cache.Insert("a", true, "1", true, false);
  cache.Set(a, "2");
  cache.Insert("b", true, "3", false, true);
  std::vector<std::string> out;
  auto collect = [&](const StateCache::WriteBack& w) {
    out.push_back(std::string(w.key) + "=" + std::string(w.value));
  };
  cache.Flush(collect);
  EXPECT_THAT(out, ::testing::UnorderedElementsAre("a=2", "b=3"));
  out.clear();
  cache.Flush(collect);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(cache.size(), 2u);
  // After a flush b is in RocksDB, so removing it must now be written back.
  cache.Remove(cache.Find("b"));
  StateCache::WriteBack last{};
  int calls = 0;
  cache.Flush([&](const StateCache::WriteBack& w) {
    last = w;
    ++calls;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(last.present);
}

TEST(StateCacheTest, ReusesDroppedEntriesAndTracksBytesAcrossValueChanges) {
  StateCache cache(CostOf(1, 4));
  uint32_t a = cache.Insert("a", true, "1", false, true);
  cache.Set(a, "1234");
  EXPECT_EQ(cache.bytes(), CostOf(1, 4));
  cache.Remove(a);
  EXPECT_EQ(cache.bytes(), CostOf(1, 0));
  ShrinkTo(&cache);
  cache.Insert("b", true, "5", false, true);
  cache.Insert("c", true, "6", false, true);
  EXPECT_THAT(ShrinkTo(&cache), ElementsAre("b=5"));
  EXPECT_EQ(cache.bytes(), CostOf(1, 1));
  cache.Clear();
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.Find("c"), StateCache::kNone);
}

std::string UniqueDir(const std::string& name) {
  static std::atomic<int> counter{0};
  const std::string dir = testing::TempDir() + "/eddy_cache_" + name + "_" +
                          std::to_string(::getpid()) + "_" + std::to_string(counter++);
  std::filesystem::remove_all(dir);  // a store opens whatever it finds
  return dir + "/state";
}

// Random batches of reads, puts and deletes over 300 keys, checked against a map, then the
// RocksDB contents after Flush. Budgets: nothing, about a third of the keys, everything.
class KeyedStateTableCacheTest : public ::testing::TestWithParam<size_t> {};

TEST_P(KeyedStateTableCacheTest, ReadsWhatWasWrittenAndRocksDbHoldsItAfterFlush) {
  auto backend = KeyedStateBackend::Open(UniqueDir("model"));
  ASSERT_TRUE(backend.ok()) << backend.status();
  KeyedStateTable table(backend->get(), 5, 128, GetParam());
  std::map<std::string, std::string> model;
  std::mt19937 rng(42);
  constexpr int kKeys = 300;
  int mismatches = 0;
  for (int batch = 0; batch < 200; ++batch) {
    std::vector<std::string> keys;
    std::map<std::string, int> seen;
    for (int i = 0; i < 50; ++i) {
      std::string k = "k" + std::to_string(rng() % kKeys);
      if (seen.emplace(k, 0).second) keys.push_back(k);
    }
    table.ClearReads();
    for (const std::string& k : keys) table.AddRead(static_cast<int>(k.size() % 128), k);
    ASSERT_TRUE(table.ReadAll().ok());
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = model.find(keys[i]);
      std::optional<std::string> expected;
      if (it != model.end()) expected = it->second;
      std::optional<std::string> got;
      if (table.found(i)) got = std::string(table.value(i));
      if (got != expected) ++mismatches;
    }
    for (const std::string& k : keys) {
      const int kg = static_cast<int>(k.size() % 128);
      if (rng() % 4 == 0) {
        table.Delete(kg, k);
        model.erase(k);
      } else {
        std::string v = k + ":" + std::to_string(batch) + std::string(rng() % 40, 'x');
        table.Put(kg, k, v);
        model[k] = v;
      }
    }
    ASSERT_TRUE(table.Commit().ok());
    EXPECT_LE(table.cache().bytes(), GetParam());
  }
  EXPECT_EQ(mismatches, 0);
  ASSERT_TRUE(table.Flush().ok());
  auto count = (*backend)->CountKeys(5);
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, model.size());
  const KeyedStateTable::Stats& s = table.stats();
  if (GetParam() == 0) {
    EXPECT_EQ(s.cache_hits, 0u);
  } else if (GetParam() >= (1u << 20)) {
    // Everything fits: each key is read from RocksDB at most once.
    EXPECT_LE(s.keys_read, static_cast<uint64_t>(kKeys));
    EXPECT_GT(s.cache_hits, 0u);
  } else {
    EXPECT_GT(s.cache_hits, 0u);
    EXPECT_GT(s.keys_read, static_cast<uint64_t>(kKeys));
  }
}

INSTANTIATE_TEST_SUITE_P(Budgets, KeyedStateTableCacheTest,
                         ::testing::Values(size_t{0}, size_t{100 * 150}, size_t{1} << 20));

TEST(KeyedStateTableCacheTest, HotKeysCostNoRocksDbAccessUntilEvictedOrFlushed) {
  auto backend = KeyedStateBackend::Open(UniqueDir("hot"));
  ASSERT_TRUE(backend.ok()) << backend.status();
  KeyedStateTable table(backend->get(), 9, 128, 1 << 20);
  for (int batch = 0; batch < 10; ++batch) {
    table.ClearReads();
    table.AddRead(1, "a");
    table.AddRead(2, "b");
    ASSERT_TRUE(table.ReadAll().ok());
    table.Put(1, "a", std::to_string(batch));
    table.Put(2, "b", std::to_string(batch));
    ASSERT_TRUE(table.Commit().ok());
  }
  EXPECT_EQ(table.stats().multiget_calls, 1u);  // the first batch only
  EXPECT_EQ(table.stats().cache_hits, 18u);
  EXPECT_EQ((*backend)->stats().write_batches, 0u);
  ASSERT_TRUE(table.Flush().ok());
  EXPECT_EQ((*backend)->stats().write_batches, 1u);
  EXPECT_EQ(table.stats().keys_written, 2u);
  EXPECT_EQ(*(*backend)->CountKeys(9), 2u);
  // DropAll forgets cached and stored state alike.
  ASSERT_TRUE(table.DropAll().ok());
  EXPECT_EQ(*(*backend)->CountKeys(9), 0u);
  table.ClearReads();
  table.AddRead(1, "a");
  ASSERT_TRUE(table.ReadAll().ok());
  EXPECT_FALSE(table.found(0));
}

// A table with a cache large enough for the spilled-key filter, on an empty store: misses on keys
// it never wrote cost no RocksDB lookup, while every key it spilled is still read back from
// RocksDB with its value, through evictions, deletes and Flush; on a store that already holds
// state (a restore) the filter is off and every miss is looked up.
TEST(KeyedStateTableCacheTest, MissesOnKeysNeverSpilledSkipRocksDbAndSpilledKeysReadBack) {
  const std::string dir = UniqueDir("spill");
  auto backend = KeyedStateBackend::Open(dir);
  ASSERT_TRUE(backend.ok()) << backend.status();
  constexpr size_t kBudget = KeyedStateTable::kSpilledKeyFilterMinCacheBytes;
  std::map<std::string, std::string> model;
  {
    KeyedStateTable table(backend->get(), 3, 128, kBudget);
    ASSERT_TRUE(table.filters_misses());
    // About 1.5 budgets of keys, 4096 a batch, each new: the filter answers the misses.
    constexpr int kKeys = 200000;
    auto key = [](int i) { return "group-" + std::to_string(i); };
    for (int begin = 0; begin < kKeys; begin += 4096) {
      const int end = std::min(kKeys, begin + 4096);
      table.ClearReads();
      for (int i = begin; i < end; ++i) table.AddRead(i % 128, key(i));
      ASSERT_TRUE(table.ReadAll().ok());
      for (int i = begin; i < end; ++i) {
        ASSERT_FALSE(table.found(i - begin)) << key(i);
        model[key(i)] = "v" + std::to_string(i);
        table.Update(i - begin, model[key(i)]);
      }
      ASSERT_TRUE(table.Commit().ok());
      EXPECT_LE(table.cache().bytes(), kBudget);
    }
    EXPECT_GT(table.stats().keys_written, 0u);  // evictions reached RocksDB
    // Only the filter's false positives (about 1%) were looked up.
    EXPECT_LT(table.stats().keys_read, static_cast<uint64_t>(kKeys / 50));
    EXPECT_EQ(table.stats().keys_read + table.stats().keys_filtered, static_cast<uint64_t>(kKeys));
    // Every key read back (evicted ones from RocksDB), deleting every third, plus keys never
    // written, which stay filtered.
    for (int begin = 0; begin < kKeys; begin += 4096) {
      const int end = std::min(kKeys, begin + 4096);
      table.ClearReads();
      for (int i = begin; i < end; ++i) table.AddRead(i % 128, key(i));
      table.AddRead(0, "never-" + std::to_string(begin));
      ASSERT_TRUE(table.ReadAll().ok());
      for (int i = begin; i < end; ++i) {
        ASSERT_TRUE(table.found(i - begin)) << key(i);
        ASSERT_EQ(table.value(i - begin), model[key(i)]);
        if (i % 3 == 0) {
          table.Erase(i - begin);
          model.erase(key(i));
        }
      }
      EXPECT_FALSE(table.found(end - begin));
      ASSERT_TRUE(table.Commit().ok());
    }
    EXPECT_GT(table.stats().keys_read, 0u);
    ASSERT_TRUE(table.Flush().ok());
    EXPECT_EQ(*(*backend)->CountKeys(3), model.size());
  }
  // The store now holds state: a new table looks every miss up and finds what is there.
  KeyedStateTable restored(backend->get(), 3, 128, kBudget);
  EXPECT_FALSE(restored.filters_misses());
  restored.ClearReads();
  restored.AddRead(1 % 128, "group-1");
  restored.AddRead(3 % 128, "group-3");
  ASSERT_TRUE(restored.ReadAll().ok());
  ASSERT_TRUE(restored.found(0));
  EXPECT_EQ(restored.value(0), "v1");
  EXPECT_FALSE(restored.found(1));
  EXPECT_EQ(restored.stats().keys_read, 2u);
}

}  // namespace
}  // namespace eddy
