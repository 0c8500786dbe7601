// The accumulators of a GroupAggregate in native form: a fixed-size byte payload per group (a
// GroupTable record's) that rows update in place, with no decoding or encoding per row or batch.
// Only calls whose accumulator is a few scalars have a native form: COUNT(*), COUNT, SUM, AVG, and
// over insert-only input MIN, MAX, FIRST_VALUE and LAST_VALUE of numeric arguments, none DISTINCT.
// Results and the serialized state (spills, checkpoints) stay AggregateFunctions': a payload is
// loaded into GroupAccumulators for those, so both forms write the same bytes to RocksDB.
//
// Layout: the group's row count (int64), then per call: nothing for COUNT(*) (it equals the row
// count), the count (int64) for COUNT, and otherwise the count (or, for MIN/MAX/FIRST/LAST,
// whether a value is kept) followed by one 8-byte value (integer sum, double sum or kept value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "common/batch/changelog_batch.h"
#include "worker/operators/accumulator.h"

namespace eddy {

class NativeAggregates {
 public:
  // The native form of `functions`' calls, or nullopt when one of them has none. `functions` must
  // outlive the result.
  static std::optional<NativeAggregates> Create(const AggregateFunctions& functions);

  size_t payload_bytes() const { return payload_bytes_; }

  static int64_t RowCount(const uint8_t* payload) { return Load64<int64_t>(payload); }
  // Accumulates (+I/+U) or retracts (-U/-D) row `row` of `batch`, including the row count.
  void Update(uint8_t* payload, const ChangelogBatch& batch, size_t row, bool accumulate) const;
  // The payload as GroupAccumulators (`g` must have been Reset by the same functions once; only the
  // scalar fields are written).
  void Load(const uint8_t* payload, GroupAccumulators* g) const;
  // The scalar fields of `g` into a payload.
  void Store(const GroupAccumulators& g, uint8_t* payload) const;
  void Clear(uint8_t* payload) const { std::memset(payload, 0, payload_bytes_); }

 private:
  enum class Op : uint8_t {
    kCount,      // count += step
    kSumInt,     // count += step, isum += v
    kSumFloat,   // float arithmetic
    kSumDouble,  // count += step, dsum += v
    kMinInt,
    kMaxInt,
    kMinDouble,
    kMaxDouble,
    kFirstInt,
    kLastInt,
    kFirstDouble,
    kLastDouble,
  };
  struct Call {
    Op op;
    int arg;
    TypeId arg_type;
    uint32_t offset;  // of the call's fields in the payload
  };

  template <typename T>
  static T Load64(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
  template <typename T>
  static void Store64(uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof(T));
  }

  const AggregateFunctions* functions_ = nullptr;
  std::vector<Call> calls_;            // calls with fields (not COUNT(*))
  std::vector<int> count_star_calls_;  // indices of COUNT(*) calls
  std::vector<int> call_of_;           // calls_ index -> AggregateFunctions call index
  size_t payload_bytes_ = 0;
};

}  // namespace eddy
