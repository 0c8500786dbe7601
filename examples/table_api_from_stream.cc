// Rows from this program into a streaming SQL query, on an embedded cluster: FromStream declares a
// table of page clicks with an event-time watermark, a thread pushes clicks through its writer and
// closes it, and the main thread reads the changelog of a per-user, per-minute window count as the
// windows close (the last one when the stream ends).
#include <cstdio>
#include <thread>

#include "client/embedded/embedded_environment.h"
#include "client/table_environment.h"
#include "common/base/logging.h"

namespace {

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "table_api_from_stream: %s\n", std::string(s.message()).c_str());
  return 1;
}

constexpr int64_t kStartMs = 1709283600000;  // 2024-03-01 09:00:00 UTC

struct Click {
  const char* user;
  const char* url;
  int64_t second;  // after kStartMs
};

constexpr Click kClicks[] = {
    {"alice", "/home", 5},
    {"bob", "/cart", 12},
    {"alice", "/cart", 30},
    {"alice", "/pay", 58},
    {"bob", "/home", 61},
    {"alice", "/home", 59},  // 2 s late: within the 5 s the watermark waits
    {"carol", "/home", 70},
    {"bob", "/pay", 95},
    {"carol", "/cart", 130},
    {"alice", "/home", 150},
    {"carol", "/pay", 179},
};

}  // namespace

int main() {
  eddy::InitLogging("warn");
  auto env_or = eddy::StartEmbeddedEnvironment({.workers = 2, .slots = 2});
  if (!env_or.ok()) return Fail(env_or.status());
  eddy::TableEnvironment& env = **env_or;
  // One subtask per operator: the window results come out in one order.
  if (auto r = env.ExecuteSql("SET 'parallelism.default' = '1'"); !r.ok()) return Fail(r.status());

  // The stream's table, as CREATE TABLE would declare it (clicks may come 5 seconds late).
  auto stream = env.FromStream(eddy::StreamSchema()
                                   .Column("user_name", "STRING")
                                   .Column("url", "STRING")
                                   .Column("ts", "TIMESTAMP(3)")
                                   .Watermark("ts", "ts - INTERVAL '5' SECOND"),
                               {.table_name = "clicks"});
  if (!stream.ok()) return Fail(stream.status());

  auto counts = env.SqlQuery(
                       "SELECT user_name, window_start, COUNT(*) AS clicks FROM TABLE(TUMBLE("
                       "TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) "
                       "GROUP BY user_name, window_start, window_end")
                    .ToChangelogStream();
  if (!counts.ok()) return Fail(counts.status());

  absl::Status pushed;
  std::thread producer([&] {
    eddy::StreamWriter& writer = *stream->writer;
    for (const Click& c : kClicks) {
      pushed = writer.Write({eddy::Value::String(c.user), eddy::Value::String(c.url),
                             eddy::Value::Int(kStartMs + c.second * 1000)});
      if (!pushed.ok()) return;
    }
    pushed = writer.Close();
  });

  std::printf("-- clicks per user and minute\n");
  eddy::ResultRow row;
  absl::Status read;
  while (true) {
    auto more = counts->Next(&row);
    if (!more.ok()) {
      read = more.status();
      break;
    }
    if (!*more) break;
    std::printf("%s\n", row.ToString().c_str());
  }
  producer.join();
  if (!pushed.ok()) return Fail(pushed);
  if (!read.ok()) return Fail(read);
  std::printf("-- the stream ended\n");
  return 0;
}
