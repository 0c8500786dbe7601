// Helpers the regular, interval and temporal joins share: spec checks (key and condition columns,
// key types whose equal values encode to equal bytes), the check of an input batch, the output row
// type of a join, and the residual condition evaluated over a batch of candidate (left ++ right)
// pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/expr/expr.h"
#include "common/types/data_type.h"
#include "worker/operators/owned_key_groups.h"

namespace eddy {

// A join emits its output batch once it holds this many rows (joins can multiply their input).
inline constexpr size_t kMaxJoinOutputRows = 16384;

// Key column types whose equal values have equal KeyEncoder bytes (the same type up to nullability,
// VARCHAR length and TIMESTAMP precision; DECIMALs of one scale).
bool SameKeyEncoding(const DataType& a, const DataType& b);

// Every column of `columns` is in [0, n); the error names `op` and `what` ("left key").
absl::Status CheckJoinColumns(const char* op, const char* what, const std::vector<int>& columns,
                              size_t n);

// Pairwise key types encode alike (keys already checked: equal counts, columns in range).
absl::Status CheckJoinKeyTypes(const char* op, const std::vector<DataType>& left_types,
                               const std::vector<int>& left_keys,
                               const std::vector<DataType>& right_types,
                               const std::vector<int>& right_keys);

// The residual condition is BOOLEAN and reads only columns of left ++ right (by type, ignoring
// nullability).
absl::Status CheckJoinCondition(const char* op, const Expr& condition,
                                const std::vector<DataType>& left_types,
                                const std::vector<DataType>& right_types);

// A batch for input `input` of a two-input operator `op`: the input is 0 (left) or 1 (right), and
// a batch with rows has that side's number of columns (`left_columns` or `right_columns`).
absl::Status CheckJoinInput(const char* op, int input, const ChangelogBatch& batch,
                            size_t left_columns, size_t right_columns);

// A timer of an operator that waits for the watermark (interval and temporal joins; the OVER
// aggregate, with side 0 and the partition key): at `time` the state value of (side, key group,
// join key) is due. Each operator orders its timers.
struct JoinTimer {
  int64_t time = 0;
  uint8_t side = 0;  // 0 left, 1 right
  int key_group = 0;
  std::string key;  // join key bytes
};
// A snapshot's list of timers: per timer a zigzag varint time, the side byte, a varint key group,
// and the varint length and bytes of the join key.
void EncodeJoinTimer(const JoinTimer& timer, std::string* out);
// Reads the timers of EncodeJoinTimer's list `encoded`, passing each to `add`; false when the list
// is malformed or names a side other than 0 and 1 or a key group not below `max_parallelism`.
bool DecodeJoinTimers(std::string_view encoded, int max_parallelism,
                      const std::function<void(JoinTimer)>& add);
// Adds to `kept` the timers of list `encoded` whose key groups `owned` holds (every one unless the
// operator was rescaled), each as the operator's own timer type (TimerSet's value type, made from
// a JoinTimer), and sets `*others_seen` when the list names a key group another subtask owns now.
// False when the list is malformed, as DecodeJoinTimers.
template <typename TimerSet>
bool DecodeOwnedJoinTimers(std::string_view encoded, int max_parallelism,
                           const OwnedKeyGroups& owned, TimerSet* kept, bool* others_seen) {
  return DecodeJoinTimers(encoded, max_parallelism, [&](JoinTimer t) {
    if (owned.Contains(t.key_group)) {
      kept->insert(typename TimerSet::value_type{std::move(t)});
    } else {
      *others_seen = true;
    }
  });
}

// 0, 1, ..., n - 1.
std::vector<int> AllColumns(size_t n);
// One empty column per type.
std::vector<Column> EmptyColumns(const std::vector<DataType>& types);
// Appends `types` to `out`, made nullable when `nullable` (the padded side of an outer join).
void AppendTypes(const std::vector<DataType>& types, bool nullable, std::vector<DataType>* out);

// Evaluates `condition` over every row of `pairs` (left ++ right columns); (*match)[p] is 1 where
// it is TRUE and 0 where it is FALSE or NULL.
absl::Status EvaluateJoinCondition(const Expr& condition, const ChangelogBatch& pairs,
                                   std::vector<uint8_t>* match);

}  // namespace eddy
