// Allocator settings for processes that run tasks (workers, and the embedded cluster of `eddy`).
// A task allocates and frees column buffers of tens to hundreds of KiB per batch. With glibc's
// defaults a freed buffer at the top of a thread's arena is handed back to the kernel (madvise)
// and a large one is unmapped, so the next batch faults its pages in again, and every madvise
// flushes the TLBs of all CPUs: measured as most of a worker's time when rows are large
// (docs/performance.md, "Nexmark"). Keeping freed memory in the process removes both.
#pragma once

namespace eddy {

// Buffers up to 32 MiB come from the arenas (not mmap), and an arena keeps up to 256 MiB of free
// memory at its top before returning it. Call once, before threads start.
void TuneAllocatorForBatches();

}  // namespace eddy
