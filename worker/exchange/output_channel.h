// OutputChannel: the sending end of one exchange channel (producer subtask -> consumer subtask).
// Send waits for credit, which is how a slow consumer backpressures the producing task's driver;
// the wait honours the task's cancellation flag so that a cancelled task never hangs in Send.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "common/batch/changelog_batch.h"
#include "worker/exchange/exchange_registry.h"
#include "worker/operators/watermark.h"

namespace eddy {

// Where a channel goes: the consumer's gate and our position among its channels.
struct ChannelTarget {
  std::string address;    // consumer worker, host:port (remote channels)
  std::string worker_id;  // consumer worker's id, for messages (may be empty)
  GateKey consumer;
  int channel_index = 0;
  int num_channels = 0;  // the consumer gate's channel count; 0: unchecked
  std::string producer;  // "job j task 1 subtask 0", for logs and errors
  int attempt = 0;       // the producer's job attempt; 0: unchecked

  // "channel 3 of job j task 2 subtask 1 on worker-<id> at host:port"
  std::string ToString() const;
};

class OutputChannel {
 public:
  virtual ~OutputChannel() = default;
  // Hands one batch to the consumer, waiting for credit. CANCELLED once the cancellation flag given
  // at construction is set; another error if the consumer failed or went away.
  virtual absl::Status Send(ChangelogBatch batch) = 0;
  // Tells the consumer this channel has ended; after it, only Close(). `stopped`: it ended because
  // the job stops after a savepoint (ExchangeEndOfInput.stopped).
  virtual absl::Status SendEndOfInput(bool stopped = false) = 0;
  // Event-time progress after the batches sent so far; uses no credit.
  virtual absl::Status SendWatermark(const Watermark& watermark) = 0;
  // Checkpoint barrier after the batches sent so far; uses no credit, and the consumer sees it
  // exactly between the events sent before and after it.
  virtual absl::Status SendBarrier(int64_t checkpoint_id) = 0;
  // Releases the channel. Without a prior SendEndOfInput the consumer learns that its producer
  // failed. Idempotent.
  virtual void Close() = 0;
  // Releases the channel after the producer task failed with `cause`: the consumer fails with it
  // (best effort: a consumer already gone learns nothing). Idempotent, like Close().
  virtual void Abort(const absl::Status& cause) = 0;
  // Batches the channel may send now without waiting (its free credit): 0 while it waits for
  // credit, and before it reached its consumer or after it was released. Thread-safe (metrics).
  virtual int FreeCredits() = 0;
};

}  // namespace eddy
