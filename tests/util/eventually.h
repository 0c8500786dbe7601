// Waiting in tests for a state instead of sleeping a fixed time and hoping it was reached:
// Eventually polls a condition until it holds (a generous timeout, so a slow machine only makes
// the test slower), HoldsFor checks that a reached state then stays (the absence of progress,
// asserted only once the expected progress happened).
#pragma once

#include <chrono>
#include <thread>

namespace eddy::testing {

// True once `condition()` holds, polled every millisecond; false if `timeout` passes first.
template <typename Condition>
bool Eventually(Condition condition,
                std::chrono::milliseconds timeout = std::chrono::milliseconds(30000)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// True if `condition()` held at every check (every millisecond) for `period`.
template <typename Condition>
bool HoldsFor(Condition condition, std::chrono::milliseconds period) {
  const auto end = std::chrono::steady_clock::now() + period;
  do {
    if (!condition()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  } while (std::chrono::steady_clock::now() < end);
  return condition();
}

}  // namespace eddy::testing
