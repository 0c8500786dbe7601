// BatchKeyIndex: finds what was inserted in the current batch only, across resets and growth.
#include "worker/operators/batch_key_index.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace eddy {
namespace {

TEST(BatchKeyIndexTest, FindsKeysOfTheCurrentBatchOnly) {
  BatchKeyIndex index;
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back("key" + std::to_string(i));
  keys.push_back("");  // the empty key of a global aggregate is a key like any other
  for (int batch = 0; batch < 3; ++batch) {
    // Batch b holds keys b, b+3, b+6, ...
    index.Reset(keys.size());
    for (size_t i = batch; i < keys.size(); i += 3) {
      BatchKeyIndex::Lookup l = index.Find(keys[i]);
      ASSERT_FALSE(l.found) << keys[i];
      index.Insert(l, keys[i], static_cast<uint32_t>(i));
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      BatchKeyIndex::Lookup l = index.Find(keys[i]);
      if (i % 3 == static_cast<size_t>(batch)) {
        ASSERT_TRUE(l.found) << keys[i];
        EXPECT_EQ(l.value, i);
      } else {
        EXPECT_FALSE(l.found) << "batch " << batch << " saw " << keys[i];
      }
    }
  }
}

TEST(BatchKeyIndexTest, GrowsForALargerBatch) {
  BatchKeyIndex index;
  index.Reset(4);
  std::string a = "a";
  index.Insert(index.Find(a), a, 1);
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(std::to_string(i));
  index.Reset(keys.size());
  EXPECT_FALSE(index.Find(a).found);
  for (size_t i = 0; i < keys.size(); ++i) index.Insert(index.Find(keys[i]), keys[i], i);
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(index.Find(keys[i]).value, i);
}

TEST(BatchKeyIndexTest, GrowsPastItsHintWithinABatch) {
  BatchKeyIndex index;
  index.Reset(2);
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) keys.push_back("k" + std::to_string(i));
  for (size_t i = 0; i < keys.size(); ++i) {
    auto l = index.Find(keys[i]);
    ASSERT_FALSE(l.found);
    index.Insert(l, keys[i], static_cast<uint32_t>(i));
  }
  EXPECT_EQ(index.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(index.Find(keys[i]).value, i);
  // The next batch starts empty at the grown size.
  index.Reset(2);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_FALSE(index.Find(keys[7]).found);
}

}  // namespace
}  // namespace eddy
