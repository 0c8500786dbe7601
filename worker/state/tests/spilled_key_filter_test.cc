// SpilledKeyFilter: no false negatives across its growing layers, few false positives.
#include "worker/state/spilled_key_filter.h"

#include <string>

#include "gtest/gtest.h"

namespace eddy {
namespace {

std::string Key(int i) { return "state-key-" + std::to_string(i); }

TEST(SpilledKeyFilterTest, EmptyFilterContainsNothing) {
  SpilledKeyFilter f;
  EXPECT_FALSE(f.MayContain(SpilledKeyFilter::Hash("a")));
  EXPECT_EQ(f.bytes(), 0u);
}

TEST(SpilledKeyFilterTest, FindsEveryAddedKeyAcrossLayersWithFewFalsePositives) {
  SpilledKeyFilter f;
  constexpr int kAdded = 300000;  // past the first layers (64K, 128K keys)
  for (int i = 0; i < kAdded; ++i) f.Add(SpilledKeyFilter::Hash(Key(i)));
  EXPECT_EQ(f.layers(), 3u);
  int missed = 0;
  for (int i = 0; i < kAdded; ++i) missed += !f.MayContain(SpilledKeyFilter::Hash(Key(i)));
  EXPECT_EQ(missed, 0);
  int false_positives = 0;
  constexpr int kProbed = 100000;
  for (int i = kAdded; i < kAdded + kProbed; ++i) {
    false_positives += f.MayContain(SpilledKeyFilter::Hash(Key(i)));
  }
  // About 1% per layer; three layers.
  EXPECT_LT(false_positives, kProbed * 4 / 100);
  // Ten bits per key of capacity: 64K + 128K + 256K keys.
  EXPECT_EQ(f.bytes(), (size_t{1} << 16) * 7 * SpilledKeyFilter::kBitsPerKey / 8);
  f.Clear();
  EXPECT_FALSE(f.MayContain(SpilledKeyFilter::Hash(Key(0))));
}

}  // namespace
}  // namespace eddy
