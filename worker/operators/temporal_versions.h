// The versions an event-time temporal join keeps of one key of its versioned (right) table, and
// their encoding as one keyed state value. A version starts at its time and lasts until the next
// one: a row of the table (its KeyEncoder bytes over all the right side's columns), or a deletion
// (the key has no row from that time on). Versions are kept in time order, one per time (a later
// arrival at the same time replaces the earlier one, as Flink's versioned state keyed by rowtime).
//
// A decoded list holds views: into the state value it was decoded from and into the encodings of
// the input batch being applied; both must outlive the list's use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace eddy {

struct TemporalVersion {
  int64_t time = 0;      // epoch millis: the version is valid from here to the next version
  bool deleted = false;  // a deletion: no row from `time` on
  std::string_view row;  // the row's bytes (empty for a deletion)
};

class TemporalVersions {
 public:
  // Value layout: a varint version count, then per version in increasing time order: varint (time -
  // previous version's time, the first's from 0, two's complement), a kind byte (0 row, 1
  // deletion), and for a row varint length + row bytes.
  TemporalVersions() = default;

  // Empties the list (keeping its buffer).
  void Reset();
  // Replaces the contents with the versions of `value` (views into it). DataLoss when the value is
  // malformed or out of time order.
  absl::Status Decode(std::string_view value);
  // Appends the encoding to `out`.
  void Encode(std::string* out) const;

  size_t size() const { return versions_.size(); }
  bool empty() const { return versions_.empty(); }
  const TemporalVersion& at(size_t i) const { return versions_[i]; }
  // Changed since Reset/Decode.
  bool dirty() const { return dirty_; }

  // The version at `time`: a row, or a deletion (`row` ignored); replaces a version of that time.
  void Set(int64_t time, bool deleted, std::string_view row);
  // The index of the version valid at `time` (the greatest time <= `time`), or -1 when every
  // version is later (or there is none).
  int64_t Find(int64_t time) const;
  // Drops what no row at a time > `watermark` can use: every version older than the newest one at
  // or below the watermark, and then that version too when it is a deletion (a row before the next
  // version finds no version instead of a deletion: no match either way). So a key whose only
  // version left is a deletion at or below the watermark has none. Returns the number dropped.
  size_t Prune(int64_t watermark);
  // The smallest watermark at which Prune would drop something (the first version's time when it is
  // a deletion, else the second version's time); nullopt when no watermark would.
  std::optional<int64_t> PruneTime() const;

 private:
  std::vector<TemporalVersion> versions_;
  bool dirty_ = false;
};

}  // namespace eddy
