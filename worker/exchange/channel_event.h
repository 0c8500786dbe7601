// One event of an exchange channel's stream, in the order its producer sent them: batches,
// watermarks, checkpoint barriers and the final end-of-input. Barriers cannot be merged or moved
// the way watermarks can (a later one only replaces an earlier one that is still queued), so an
// input gate keeps each channel's events in one ordered queue.
#pragma once

#include <cstdint>

#include "common/batch/changelog_batch.h"
#include "worker/operators/watermark.h"

namespace eddy {

struct ChannelEvent {
  enum class Kind {
    kBatch,       // `batch`; the only kind that uses a credit
    kWatermark,   // `watermark`: event time of the producer after the batches before it
    kBarrier,     // `checkpoint_id`: every batch before it belongs to that checkpoint
    kEndOfInput,  // last: the producer sends nothing more (`stopped`: the job stops, see
                  // ExchangeEndOfInput)
  };

  static ChannelEvent Batch(ChangelogBatch b) {
    ChannelEvent e;
    e.kind = Kind::kBatch;
    e.batch = std::move(b);
    return e;
  }
  static ChannelEvent OfWatermark(const Watermark& w) {
    ChannelEvent e;
    e.kind = Kind::kWatermark;
    e.watermark = w;
    return e;
  }
  static ChannelEvent Barrier(int64_t checkpoint_id) {
    ChannelEvent e;
    e.kind = Kind::kBarrier;
    e.checkpoint_id = checkpoint_id;
    return e;
  }
  static ChannelEvent EndOfInput(bool stopped = false) {
    ChannelEvent e;
    e.kind = Kind::kEndOfInput;
    e.stopped = stopped;
    return e;
  }

  Kind kind = Kind::kBatch;
  ChangelogBatch batch;
  Watermark watermark;
  int64_t checkpoint_id = 0;
  bool stopped = false;
};

}  // namespace eddy
