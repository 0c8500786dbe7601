// What an OVER aggregate keeps for one partition, and its encoding as one keyed state value: the
// partition's rows (those waiting for the watermark and, for bounded frames, the fired ones later
// frames still need), its serialized accumulators, and the bookkeeping of Flink's timers that
// OverAggregateOperator replays (the time of the last timer fired, the cleanup time and the cleanup
// timers of a bounded RANGE frame, the processing-time retention timer).
//
// Rows are kept in time order, rows with equal times in arrival order. A decoded state holds views:
// into the value it was decoded from and into the input batch's encodings; both must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace eddy {

struct OverRow {
  int64_t time = 0;      // the row's rowtime, epoch millis
  std::string_view row;  // KeyEncoder bytes over all input columns
};

class OverPartitionState {
 public:
  // Value layout: zigzag varint last_fired, one byte (1: a cleanup time follows), [zigzag varint
  // cleanup time], varint count of cleanup timers then each as a zigzag varint (ascending), one
  // byte (1: a retention time follows), [zigzag varint retention time], varint length +
  // accumulator bytes, varint row count, then per row in time order: varint (time - previous
  // row's time, the first's from 0, two's complement), varint length + row bytes.

  // Empties the state (keeping buffers): no rows, no accumulators, last_fired 0, no timers.
  void Reset();
  // Replaces the contents with those of `value` (views into it). DataLoss when malformed.
  absl::Status Decode(std::string_view value);
  // Appends the encoding to `out`.
  void Encode(std::string* out) const;
  // Nothing worth storing: no rows, no accumulators, no timers, last_fired 0.
  bool empty() const;

  std::vector<OverRow>& rows() { return rows_; }
  const std::vector<OverRow>& rows() const { return rows_; }
  // Adds a row after every row with a time <= `time`.
  void AddRow(int64_t time, std::string_view row);
  // The index of the first row with a time > `time`.
  size_t FirstAfter(int64_t time) const;
  // Removes the first `n` rows.
  void RemoveFront(size_t n);

  // Serialized accumulators (AggregateFunctions::Serialize); empty: none yet.
  std::string_view acc() const { return acc_; }
  void set_acc(std::string_view acc) { acc_ = acc; }

  // The time of the last timer that fired (Flink's lastTriggeringTs), 0 when none did. Bounded
  // frames only: rows at or before it are late.
  int64_t last_fired = 0;
  // Bounded RANGE: the time at which the whole state is dropped, unless a later row moves it.
  std::optional<int64_t> cleanup_time;
  // Bounded RANGE: cleanup timers registered and not fired yet, ascending (the last one is
  // cleanup_time; earlier ones were superseded but still fire).
  std::vector<int64_t> cleanup_timers;
  // With state retention (table.exec.state.ttl): when, in the state backend's processing time, the
  // partition's retention timer fires.
  std::optional<int64_t> retention_time;

 private:
  std::string_view acc_;
  std::vector<OverRow> rows_;
};

}  // namespace eddy
