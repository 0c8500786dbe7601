// Where a task thread counts the time it waits for credit (back-pressure, Flink's
// backPressuredTimeMsPerSecond): the task points the thread-local counter at its own, and an
// exchange channel that has to wait adds each wait to it (one clock read per wait, never per
// row). Threads without a task count nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace eddy {

inline thread_local std::atomic<uint64_t>* t_back_pressured_nanos = nullptr;

// Adds the time since `since` to the calling task's back-pressured time.
inline void CountBackPressure(std::chrono::steady_clock::time_point since) {
  if (t_back_pressured_nanos == nullptr) return;
  const auto waited = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - since);
  t_back_pressured_nanos->fetch_add(static_cast<uint64_t>(waited.count()),
                                    std::memory_order_relaxed);
}

}  // namespace eddy
