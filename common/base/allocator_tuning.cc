#include "common/base/allocator_tuning.h"

#include <malloc.h>

namespace eddy {

void TuneAllocatorForBatches() {
  // Setting either value turns off glibc's dynamic thresholds, so both are set.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

}  // namespace eddy
