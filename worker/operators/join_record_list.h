// The records one side of a streaming join keeps under one join key, and their encoding as one
// keyed state value. A record is a row of that side (its KeyEncoder bytes over all the side's
// columns) with how many times it is present (a multiset) and, for a side that tracks them, its
// number of associations (matching records of the other side, each counted with its count). With a
// unique key the side keeps one row per unique key (count 1): a new row for the same unique key
// replaces the old one, a retraction removes it whatever its other columns.
//
// A decoded list holds views: into the state value it was decoded from, and into the encodings of
// the input batch being applied; both must outlive the list's use for that batch. A retracted
// record stays in place as a tombstone (count 0) until the list is encoded, so indices stay valid
// while a batch is applied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"

namespace eddy {

struct JoinRecord {
  std::string_view id;   // identity: the unique key's bytes, or the row bytes without one
  std::string_view row;  // KeyEncoder bytes over all the side's columns
  int64_t count = 0;     // 0: removed while the current batch is applied
  int64_t associations = 0;
  uint32_t decoded_row = 0;  // the operator's scratch: where the row was decoded for output
};

class JoinRecordList {
 public:
  // Value layout, after a flags byte (bit 0: associations, bit 1: unique-key ids) and a varint
  // record count, per live record: [varint length + id bytes, with a unique key], varint length +
  // row bytes, varint count, [varint associations, when tracked].
  JoinRecordList() = default;
  JoinRecordList(bool unique_key, bool associations) { Reset(unique_key, associations); }

  // Empties the list (keeping its buffers) and sets the layout.
  void Reset(bool unique_key, bool associations);
  // Replaces the contents with the records of `value` (views into it). DataLoss when the value is
  // malformed or written with another layout.
  absl::Status Decode(std::string_view value);
  // Appends the live records' encoding to `out`.
  void Encode(std::string* out) const;

  // Entries, tombstones included; index them with at().
  size_t size() const { return records_.size(); }
  JoinRecord& at(size_t i) { return records_[i]; }
  const JoinRecord& at(size_t i) const { return records_[i]; }
  // Records with a count above zero.
  size_t live() const { return live_; }
  // Changed since Reset/Decode.
  bool dirty() const { return dirty_; }
  void MarkDirty() { dirty_ = true; }

  // Accumulate: one more copy of `row` (identified by `id`), whose associations are then
  // `associations`. With a unique key the record of `id` is replaced (count 1).
  void Add(std::string_view id, std::string_view row, int64_t associations);
  // Retract: one copy fewer of the record identified by `id` (with a unique key, the record is
  // removed). False, changing nothing, when there is no such record.
  bool Retract(std::string_view id);

 private:
  // Index of the entry (live or tombstone) with `id`, or -1.
  int64_t Find(std::string_view id);

  bool unique_key_ = false;
  bool associations_ = false;
  std::vector<JoinRecord> records_;
  size_t live_ = 0;
  bool dirty_ = false;
  // Built on the first lookup in a long list and kept up to date while the batch adds records.
  absl::flat_hash_map<std::string_view, uint32_t> index_;
  bool indexed_ = false;
};

}  // namespace eddy
