#include "tests/integration/worker_pipes.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

namespace eddy::testing {

WorkerPipes::WorkerPipes(const std::string& dir, ClusterOptions* options) : dir_(dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  options->worker_stdout_paths.clear();
  for (int i = 0; i < options->workers; ++i) {
    const std::string path = dir_ + "/worker" + std::to_string(i) + ".fifo";
    if (mkfifo(path.c_str(), 0600) != 0) {
      error_ = "mkfifo " + path + ": " + std::strerror(errno);
      return;
    }
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
      error_ = "open " + path + ": " + std::strerror(errno);
      return;
    }
    fds_.push_back(fd);
    options->worker_stdout_paths.push_back(path);
  }
}

WorkerPipes::~WorkerPipes() {
  stop_ = true;
  for (std::thread& t : readers_) t.join();
  for (int fd : fds_) close(fd);
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void WorkerPipes::StartReading(OnData on_data) {
  on_data_ = std::move(on_data);
  for (size_t i = 0; i < fds_.size(); ++i) {
    readers_.emplace_back([this, i] { Read(static_cast<int>(i), fds_[i]); });
  }
}

void WorkerPipes::Read(int worker, int fd) {
  std::vector<char> buffer(1 << 16);
  while (!stop_) {
    if (paused_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    const ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n <= 0) {  // no writer yet, or between two
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    if (on_data_) on_data_(worker, std::string_view(buffer.data(), static_cast<size_t>(n)));
  }
}

}  // namespace eddy::testing
