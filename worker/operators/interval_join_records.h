// The rows one side of an interval join keeps under one join key, and their encoding as one keyed
// state value: each row's rowtime, its bytes (KeyEncoder over all the side's columns) and, on an
// outer side, whether it has matched a row of the other side yet. Records are kept in rowtime
// order (rows with equal times in arrival order, duplicates allowed), so that the records a row of
// the other side can match are one index range and the records a watermark expires are a prefix.
//
// A decoded list holds views: into the state value it was decoded from and into the encodings of
// the input batch being applied; both must outlive the list's use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "worker/operators/owned_key_groups.h"

namespace eddy {

class KeyedStateBackend;

struct IntervalJoinRecord {
  int64_t time = 0;          // the row's rowtime, epoch millis
  std::string_view row;      // KeyEncoder bytes over all the side's columns
  bool matched = false;      // outer side: joined with at least one row of the other side
  uint32_t decoded_row = 0;  // the operator's scratch: where the row was decoded for output
};

class IntervalJoinRecords {
 public:
  // Value layout: a flags byte (bit 0: matched flags), a varint record count, then per record in
  // time order: varint (time - previous record's time, the first's from 0, two's complement),
  // varint length + row bytes, [one matched byte, with matched flags].
  IntervalJoinRecords() = default;
  explicit IntervalJoinRecords(bool matched_flags) { Reset(matched_flags); }

  // Empties the list (keeping its buffer) and sets the layout.
  void Reset(bool matched_flags);
  // Replaces the contents with the records of `value` (views into it). DataLoss when the value is
  // malformed, out of time order, or written with another layout.
  absl::Status Decode(std::string_view value);
  // Appends the encoding to `out`.
  void Encode(std::string* out) const;

  size_t size() const { return records_.size(); }
  bool empty() const { return records_.empty(); }
  IntervalJoinRecord& at(size_t i) { return records_[i]; }
  const IntervalJoinRecord& at(size_t i) const { return records_[i]; }
  // Changed since Reset/Decode.
  bool dirty() const { return dirty_; }
  void MarkDirty() { dirty_ = true; }

  // Adds a record after every record with a time <= `time`.
  void Add(int64_t time, std::string_view row, bool matched);
  // The index range [begin, end) of the records with from <= time <= to.
  std::pair<size_t, size_t> Range(int64_t from, int64_t to) const;
  // Removes the first `n` records.
  void RemoveFront(size_t n);

 private:
  bool matched_flags_ = false;
  std::vector<IntervalJoinRecord> records_;
  bool dirty_ = false;
};

// The number of records in the record lists of `store` under operator `state_id` whose side byte
// (the first byte after the state_key.h prefix) is one of `sides`, over the key groups `owned`
// holds: a restored join's count of kept rows, once its store holds only its own key groups.
absl::StatusOr<uint64_t> CountStoredRecords(KeyedStateBackend& store, uint32_t state_id,
                                            int max_parallelism, const OwnedKeyGroups& owned,
                                            std::string_view sides);

}  // namespace eddy
