// What a source's inputs tell the task driver about checkpoint barriers (Source::TakeBarrier): an
// exchange gate completed the alignment of barrier n, or gave up on it.
#pragma once

#include <cstdint>

namespace eddy {

struct BarrierSignal {
  enum class Kind {
    kCheckpoint,  // every channel delivered the barrier: snapshot now
    kAbort,       // the pending checkpoint was overtaken by a newer barrier: decline it
  };
  Kind kind = Kind::kCheckpoint;
  int64_t checkpoint_id = 0;
};

}  // namespace eddy
