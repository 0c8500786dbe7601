// Workers that print into named pipes the test reads at its own pace, or never: with reading
// paused (or never started) a pipe fills, the print sinks writing into it block, and their jobs
// are back-pressured up to their sources. Each pipe is opened for reading (non-blocking) before
// the workers start, so that their open for writing does not block. The workers must be stopped
// before the pipes are destroyed (a worker writing into a closed pipe fails); ClusterTest's
// PipeWorkerStdout keeps them until after the cluster stopped.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tests/integration/process_cluster.h"

namespace eddy::testing {

class WorkerPipes {
 public:
  // What was read from worker `worker`'s pipe (called on that pipe's reader thread).
  using OnData = std::function<void(int worker, std::string_view bytes)>;

  // One pipe per worker of `options` in `dir` (created, then removed with the pipes), set as the
  // workers' stdout. Check error() before starting the cluster.
  WorkerPipes(const std::string& dir, ClusterOptions* options);
  ~WorkerPipes();
  WorkerPipes(const WorkerPipes&) = delete;
  WorkerPipes& operator=(const WorkerPipes&) = delete;

  const std::string& error() const { return error_; }
  // Reads every pipe on a thread of its own while not paused, handing what it reads to `on_data`.
  // Without it nothing is ever read. Call once.
  void StartReading(OnData on_data);
  // Paused readers leave their pipes alone until resumed.
  void set_paused(bool paused) { paused_ = paused; }

 private:
  void Read(int worker, int fd);

  std::string dir_;
  std::string error_;
  std::vector<int> fds_;
  OnData on_data_;
  std::vector<std::thread> readers_;
  std::atomic<bool> paused_{false};
  std::atomic<bool> stop_{false};
};

}  // namespace eddy::testing
