#include "worker/state/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace eddy {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// The cgroup v2 (memory.max) or v1 (memory.limit_in_bytes) limit of this process, 0 if none.
size_t CgroupLimitBytes() {
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max") continue;
    try {
      return static_cast<size_t>(std::stoull(text));
    } catch (...) {
      continue;
    }
  }
  return 0;
}

}  // namespace

size_t MemoryBudget::DefaultManagedBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  size_t usable = pages > 0 && page_size > 0
                      ? static_cast<size_t>(pages) * static_cast<size_t>(page_size)
                      : size_t{4} << 30;
  const size_t cgroup = CgroupLimitBytes();
  if (cgroup > 0) usable = std::min(usable, cgroup);
  return usable / 4;
}

MemoryBudget::MemoryBudget(size_t managed_bytes, int slots) : managed_bytes_(managed_bytes) {
  block_cache_bytes_ = std::max(8 * kMiB, managed_bytes / 32);
  write_buffer_bytes_ = std::max(4 * kMiB, managed_bytes / 16);
  const size_t rocks = block_cache_bytes_ + write_buffer_bytes_;
  const size_t states = managed_bytes > rocks ? managed_bytes - rocks : 0;
  slot_state_bytes_ = states / static_cast<size_t>(std::max(1, slots));
}

size_t MemoryBudget::OperatorStateBytes(int stateful_operators) const {
  return slot_state_bytes_ / static_cast<size_t>(std::max(1, stateful_operators));
}

size_t MemoryBudget::MemtableBytes() const {
  return std::clamp(write_buffer_bytes_ / 4, 4 * kMiB, 64 * kMiB);
}

StateBackendOptions MemoryBudget::ApplyTo(StateBackendOptions options, bool state_caches) const {
  options.block_cache_bytes = block_cache_bytes_;
  options.total_write_buffer_bytes = write_buffer_bytes_;
  if (state_caches) options.write_buffer_bytes = MemtableBytes();
  return options;
}

}  // namespace eddy
