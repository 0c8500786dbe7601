// BatchGroupIndex against a std::map model over batches of random groups: every group gets the
// index of its first touch in the batch, and a Reset forgets the previous batch.
#include "worker/operators/batch_group_index.h"

#include <iostream>
#include <map>
#include <random>

#include "gtest/gtest.h"

namespace eddy {
namespace {

TEST(BatchGroupIndexTest, GivesEachGroupItsFirstTouchAcrossBatches) {
  const uint32_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  std::mt19937 rng(seed);
  BatchGroupIndex index;
  for (int batch = 0; batch < 200; ++batch) {
    const size_t rows = 1 + rng() % 5000;
    const uint32_t groups = 1 + rng() % 20000;
    index.Reset(rows);
    std::map<uint32_t, uint32_t> model;
    for (size_t r = 0; r < rows; ++r) {
      const uint32_t g = rng() % groups;
      const uint32_t found = index.Find(g);
      auto it = model.find(g);
      if (it == model.end()) {
        ASSERT_EQ(found, BatchGroupIndex::kNone) << "batch " << batch << " row " << r;
        const uint32_t next = static_cast<uint32_t>(model.size());
        index.Set(g, next);
        model[g] = next;
      } else {
        ASSERT_EQ(found, it->second) << "batch " << batch << " row " << r;
      }
    }
  }
}

}  // namespace
}  // namespace eddy
