// InMemoryGroups: the groups an aggregate keeps wholly in memory for a while (a batch
// HashAggregate until its input ends, a LocalGroupAggregate for one mini-batch). Each row's key is
// encoded and found or added in a GroupTable, in first-appearance order (group i is the i-th key
// seen); each group's accumulators are native payloads in the table when every call has a native
// form, else GroupAccumulators beside it; and each group's key column values are kept for output.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/batch/changelog_batch.h"
#include "worker/operators/accumulator.h"
#include "worker/operators/group_table.h"
#include "worker/operators/key_encoder.h"
#include "worker/operators/native_aggregates.h"

namespace eddy {

class InMemoryGroups {
 public:
  // `encoder` and `functions` belong to the operator and outlive this.
  InMemoryGroups(const KeyEncoder* encoder, AggregateFunctions* functions);

  // Folds rows [begin, end) of `batch` into their groups (accumulating +I/+U rows, retracting
  // -U/-D ones), adding new groups in row order. The rows' keys are encoded and hashed first, so
  // that the probes of the table and the updates of the records can prefetch a few rows ahead.
  void Update(const ChangelogBatch& batch, size_t begin, size_t end);

  size_t size() const { return table_.size(); }
  // Group g's accumulators; a native group's are loaded into a scratch that the next Load reuses.
  const GroupAccumulators& Load(uint32_t g);
  // The key column values, one row per group.
  const ChangelogBatch& keys() const { return keys_; }

  // Forgets every group and keeps the memory, for a next mini-batch of likely as many keys.
  void Reset();
  // Forgets every group and frees the memory.
  void Clear();

 private:
  const KeyEncoder* encoder_;
  AggregateFunctions* functions_;
  std::optional<NativeAggregates> native_;
  GroupTable table_;
  std::vector<std::unique_ptr<GroupAccumulators>> groups_;  // without native payloads
  GroupAccumulators loaded_;
  ChangelogBatch keys_;
  // Per Update: the rows' encoded keys (key_offsets_[i] .. key_offsets_[i + 1] in key_arena_),
  // hashes and groups.
  std::string key_arena_;
  std::vector<uint32_t> key_offsets_;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> row_group_;
};

}  // namespace eddy
