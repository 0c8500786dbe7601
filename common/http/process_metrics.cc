#include "common/http/process_metrics.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace eddy {
namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double BootTimeSeconds() {
  std::istringstream in(ReadFile("/proc/stat"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("btime ", 0) == 0) {
      double t = 0;
      return absl::SimpleAtod(line.substr(6), &t) ? t : 0;
    }
  }
  return 0;
}

}  // namespace

ProcessStats ReadProcessStats() {
  ProcessStats s;
  const std::string stat = ReadFile("/proc/self/stat");
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  size_t close = stat.rfind(')');
  if (close == std::string::npos) return s;
  std::vector<std::string> f = absl::StrSplit(stat.substr(close + 2), ' ');
  // f[0] is field 3 (state): field n is f[n - 3].
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  auto field = [&](size_t n) -> double {
    double v = 0;
    return n - 3 < f.size() && absl::SimpleAtod(f[n - 3], &v) ? v : 0;
  };
  s.cpu_seconds = (field(14) + field(15)) / ticks;
  s.threads = static_cast<int>(field(20));
  s.start_time_seconds = BootTimeSeconds() + field(22) / ticks;
  s.virtual_bytes = static_cast<int64_t>(field(23));
  s.resident_bytes = static_cast<int64_t>(field(24) * page);
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++s.open_fds;
  }
  return s;
}

void WriteProcessMetrics(PrometheusWriter* out) {
  using Type = PrometheusWriter::Type;
  const ProcessStats s = ReadProcessStats();
  out->Family("process_cpu_seconds_total", Type::kCounter, "User and system CPU time, seconds.");
  out->Sample("process_cpu_seconds_total", {}, s.cpu_seconds);
  out->Family("process_resident_memory_bytes", Type::kGauge, "Resident memory size, bytes.");
  out->Sample("process_resident_memory_bytes", {}, s.resident_bytes);
  out->Family("process_virtual_memory_bytes", Type::kGauge, "Virtual memory size, bytes.");
  out->Sample("process_virtual_memory_bytes", {}, s.virtual_bytes);
  out->Family("process_threads", Type::kGauge, "Threads of the process.");
  out->Sample("process_threads", {}, s.threads);
  out->Family("process_open_fds", Type::kGauge, "Open file descriptors.");
  out->Sample("process_open_fds", {}, s.open_fds);
  out->Family("process_start_time_seconds", Type::kGauge,
              "Start time of the process since the epoch, seconds.");
  out->Sample("process_start_time_seconds", {}, s.start_time_seconds);
}

}  // namespace eddy
