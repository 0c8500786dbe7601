// eddy-bench-from-stream: how fast a program's rows go into a query through
// TableEnvironment::FromStream, on an embedded cluster (two workers): the rows pushed one by one
// (StreamWriter::Write, a Value per column) and as whole columnar batches (WriteBatch), through the
// coordinator's relay into a keyed COUNT/SUM (one subtask, RocksDB state) and a blackhole sink.
// Prints rows/s from the first row written to the job's end. Usage: eddy-bench-from-stream [rows].
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "client/embedded/embedded_environment.h"
#include "client/table_environment.h"
#include "common/base/logging.h"
#include "common/base/status_macros.h"

namespace {

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "eddy-bench-from-stream: %s\n", std::string(s.message()).c_str());
  return 1;
}

constexpr int kKeys = 1000;

// One run: pushes `rows` rows (key id % kKeys, value id) and waits for the job; returns rows/s.
absl::StatusOr<double> Run(eddy::TableEnvironment& env, int64_t rows, bool batches, int run) {
  ASSIGN_OR_RETURN(eddy::TableStream stream,
                   env.FromStream(eddy::StreamSchema().Column("k", "BIGINT").Column("v", "BIGINT"),
                                  {.table_name = "events" + std::to_string(run)}));
  const std::string sink = "sums" + std::to_string(run);
  ASSIGN_OR_RETURN(eddy::TableResult created,
                   env.ExecuteSql("CREATE TEMPORARY TABLE " + sink +
                                  " (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = "
                                  "'blackhole')"));
  ASSIGN_OR_RETURN(eddy::TableResult job, env.SqlQuery("SELECT k, COUNT(*), SUM(v) FROM events" +
                                                       std::to_string(run) + " GROUP BY k")
                                              .ExecuteInsert(sink));
  eddy::StreamWriter& w = *stream.writer;
  const auto start = std::chrono::steady_clock::now();
  if (batches) {
    eddy::ChangelogBatch batch(w.schema().Types());
    for (int64_t i = 0; i < rows; ++i) {
      batch.mutable_column(0).Append<int64_t>(i % kKeys);
      batch.mutable_column(1).Append<int64_t>(i);
      batch.mutable_kinds().push_back(eddy::RowKind::kInsert);
      if (batch.num_rows() == 1024 || i + 1 == rows) {
        RETURN_IF_ERROR(w.WriteBatch(batch));
        batch = eddy::ChangelogBatch(w.schema().Types());
      }
    }
  } else {
    for (int64_t i = 0; i < rows; ++i) {
      RETURN_IF_ERROR(w.Write({eddy::Value::Int(i % kKeys), eddy::Value::Int(i)}));
    }
  }
  RETURN_IF_ERROR(w.Close());
  RETURN_IF_ERROR(job.Await());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return static_cast<double>(rows) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  eddy::InitLogging("warn");
  const int64_t rows = argc > 1 ? std::atoll(argv[1]) : 5000000;
  auto env_or = eddy::StartEmbeddedEnvironment({.workers = 2, .slots = 2});
  if (!env_or.ok()) return Fail(env_or.status());
  eddy::TableEnvironment& env = **env_or;
  if (auto r = env.ExecuteSql("SET 'parallelism.default' = '1'"); !r.ok()) return Fail(r.status());
  std::printf("%-44s %12s\n", "FromStream -> GROUP BY k COUNT/SUM -> blackhole", "rows/s");
  int run = 0;
  for (bool batches : {false, true}) {
    auto rate = Run(env, rows, batches, ++run);
    if (!rate.ok()) return Fail(rate.status());
    std::printf(
        "%-44s %12.0f\n",
        batches ? "  WriteBatch (1024-row columnar batches)" : "  Write (a Value per column)",
        *rate);
  }
  return 0;
}
