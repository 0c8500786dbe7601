// GroupTable against a std::map model: random inserts, finds and evictions (which shift index
// slots back), with long and short keys; every group keeps its key and payload.
#include "worker/operators/group_table.h"

#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <string>

#include "gtest/gtest.h"

namespace eddy {
namespace {

std::string KeyOf(uint64_t k) {
  // Short keys (inline) and long ones (beyond the inline room) alternate.
  std::string s = "k" + std::to_string(k);
  if (k % 3 == 0) s += std::string(30, static_cast<char>('a' + k % 26));
  return s;
}

// The inline key room: the smallest, one BIGINT key's, and the default.
class GroupTableTest : public ::testing::TestWithParam<size_t> {};

TEST_P(GroupTableTest, MatchesAMapUnderRandomInsertsFindsAndEvictions) {
  const uint32_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  std::mt19937_64 rng(seed);
  GroupTable table(16, GetParam());
  ASSERT_EQ(table.record_bytes(), 2 + GetParam() + 16);
  std::map<std::string, std::pair<uint32_t, uint64_t>> model;  // key -> (group, payload value)
  for (int step = 0; step < 200000; ++step) {
    const uint64_t k = rng() % 5000;
    const std::string key = KeyOf(k);
    const uint64_t hash = GroupTable::Hash(key);
    uint32_t g = table.Find(key, hash);
    auto it = model.find(key);
    if (it == model.end()) {
      ASSERT_EQ(g, GroupTable::kNone) << "step " << step;
      g = table.Insert(key, hash, 0);
      const uint64_t v = rng();
      std::memcpy(table.payload(g), &v, sizeof(v));
      model[key] = {g, v};
    } else {
      ASSERT_EQ(g, it->second.first) << "step " << step;
      uint64_t v;
      std::memcpy(&v, table.payload(g), sizeof(v));
      ASSERT_EQ(v, it->second.second);
      ASSERT_EQ(table.key(g), key);
    }
    // No padding: the records alone take exactly size() * record_bytes().
    ASSERT_GE(table.bytes(), table.size() * table.record_bytes());
    if (step % 1000 == 999) {
      // Evict down to about half; the evicted groups leave the model.
      const size_t target = table.bytes() / 2;
      table.EvictUntil(target, [&](uint32_t e) {
        auto m = model.find(std::string(table.key(e)));
        ASSERT_NE(m, model.end());
        ASSERT_EQ(m->second.first, e);
        model.erase(m);
      });
      ASSERT_TRUE(table.bytes() <= target || table.size() == 0);
      ASSERT_GT(table.evictions(), 0u);
      ASSERT_EQ(table.size(), model.size());
    }
  }
  EXPECT_GT(table.evictions(), 0u);
  // Everything the model holds is still found, nothing else is.
  for (const auto& [key, gv] : model) {
    EXPECT_EQ(table.Find(key, GroupTable::Hash(key)), gv.first);
  }
  size_t live = 0;
  table.ForEach([&](uint32_t) { ++live; });
  EXPECT_EQ(live, model.size());
}

INSTANTIATE_TEST_SUITE_P(InlineKeyBytes, GroupTableTest, ::testing::Values(4, 9, 18));

TEST(GroupTableClockTest, ReferencedGroupsSurviveOneClockPass) {
  GroupTable table(8);
  const uint32_t a = table.Insert("a", GroupTable::Hash("a"), 0);
  table.Insert("b", GroupTable::Hash("b"), 0);
  ASSERT_NE(table.Find("a", GroupTable::Hash("a")), GroupTable::kNone);  // marks a referenced
  std::vector<std::string> evicted;
  table.EvictUntil(table.bytes() - table.record_bytes(),
                   [&](uint32_t g) { evicted.emplace_back(table.key(g)); });
  EXPECT_EQ(evicted, std::vector<std::string>{"b"});
  EXPECT_EQ(table.Find("a", GroupTable::Hash("a")), a);
  EXPECT_EQ(table.Find("b", GroupTable::Hash("b")), GroupTable::kNone);
}

}  // namespace
}  // namespace eddy
