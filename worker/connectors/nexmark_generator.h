// The Nexmark benchmark's event generator: an online auction's persons, auctions and bids in fixed
// proportions (1:3:46 by default), with the benchmark's distributions (hot sellers, auctions and
// bidders; ids that refer to recent persons and auctions; prices spread over six decades; text
// padded to an average event size). Every value is a pure function of (event id, column), so a
// subtask can generate only the columns a query reads, and a restore at event n replays exactly
// what an uninterrupted run would have produced.
//
// Subtasks split the event ids into contiguous ranges and run on parallel timelines, as the
// benchmark's generators do: the k-th event of every subtask has the same event time.
#pragma once

#include <cstdint>
#include <string>

#include "common/batch/column.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

enum class NexmarkEventType : uint8_t { kPerson = 0, kAuction = 1, kBid = 2 };

class NexmarkGenerator {
 public:
  NexmarkGenerator(const v1::NexmarkSource& spec, int subtask, int parallelism);

  // Events of this subtask; -1 when unbounded.
  int64_t num_events() const { return num_events_; }
  // Event id of this subtask's `index`-th event.
  int64_t EventId(int64_t index) const { return first_event_id_ + index; }
  NexmarkEventType TypeOf(int64_t event_id) const;
  // Event time (epoch milliseconds) of this subtask's `index`-th event.
  int64_t TimestampMs(int64_t index) const;

  // Appends `field` of this subtask's events [first_index, first_index + n) to `out`: NULL for
  // events of another kind than the field's.
  void Append(v1::NexmarkField field, int64_t first_index, size_t n, Column* out) const;

  // Base-0 ids, as the benchmark defines them (exposed for tests).
  int64_t LastPersonId(int64_t event_id) const;
  int64_t LastAuctionId(int64_t event_id) const;

 private:
  // A value's own random stream: seeded by (event id, field), advanced by each draw.
  struct Random {
    uint64_t state;
    uint64_t Next();
    uint64_t Below(uint64_t bound) { return bound == 0 ? 0 : Next() % bound; }
    double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  };
  Random RandomFor(int64_t event_id, v1::NexmarkField field) const;

  int64_t NextPersonId(int64_t event_id, Random* r) const;
  int64_t NextAuctionId(int64_t event_id, Random* r) const;
  static int64_t NextPrice(Random* r);
  // A random string of 3 to max_length - 1 letters with some spaces, trimmed.
  static void NextString(Random* r, int max_length, std::string* out);
  // Padding of random letters so that an event of `current_size` bytes averages `average_size`.
  static void NextExtra(Random* r, int current_size, int average_size, std::string* out);

  // One value of a field whose event kind matches.
  void AppendValue(v1::NexmarkField field, int64_t event_id, int64_t index, Column* out,
                   std::string* scratch) const;

  v1::NexmarkSource spec_;
  int64_t total_proportion_;
  int64_t first_event_id_ = 0;
  int64_t num_events_ = -1;
  double inter_event_delay_us_;  // event time between two events of one subtask
};

}  // namespace eddy
