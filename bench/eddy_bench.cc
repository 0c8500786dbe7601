// eddy-bench: runs bounded jobs on a cluster and prints rows/s and rows/s per busy core.
//   (a)  datagen -> blackhole
//   (b)  keyed COUNT/SUM GROUP BY over --keys keys with RocksDB state, one subtask
//   (b1) the same with mini-batch on (table.exec.mini-batch.*: --mini-batch-size, -latency), one
//        phase (table.optimizer.agg-phase-strategy = ONE_PHASE)
//   (b2) the same with two phases (chained in one task at parallelism 1)
//   (bb), (cb) (b), (c) in batch mode (execution.runtime-mode = BATCH): an in-memory HashAggregate
//        that emits each key's final row once at the end of input
//   (c)  (b) at parallelism 2 on two workers: the hash shuffle crosses gRPC between them
//   (c1) (c) with mini-batch on, one phase (table.optimizer.agg-phase-strategy = ONE_PHASE)
//   (c2) (c) with mini-batch on, two phases: local aggregates before the shuffle, global after
//   (b3, b4, c3, c4) (b) and (c) with a checkpoint every second, every 10 seconds
//   (w)  tumbling-window COUNT/SUM per key (--keys) over event time: one row per millisecond,
//        10-second windows, RocksDB window state, one subtask
//   (w2) (w) at parallelism 2 on two workers, rows and watermarks across the gRPC shuffle; each
//        source subtask's rows cover the same time range (as two partitions of one stream do:
//        datagen splits the sequence into contiguous halves, so time is the id within its half)
//   (r)  keyed COUNT/SUM over random keys: each row's key drawn uniformly from 1..--keys (so keys
//        repeat at random, not in turn), one subtask; also prints the workers' peak RSS and the
//        aggregate's state in memory and in its RocksDB store at the end
//   (r2) (r) at parallelism 2 on two workers: the hash shuffle crosses gRPC between them
//   (j)  two-stream equi-join: two sources of --rows / 2 ids each, joined on id % --keys, so
//        each side has --rows / 2 / --keys rows per key and each key emits that number squared
//        (rows counts the input rows of both sides), RocksDB state for both sides, one subtask
//   (j2) (j) at parallelism 2 on two workers: both sides hash-shuffled across gRPC
//   (ij) event-time interval join: two sources of --rows / 2 ids each, row id at id ms, joined
//        on id % 1000 with the right row at most one second before the left one (two matches
//        per left row); state bounded by the watermark, one subtask
//   (t)  Top-3 per key by value (ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) <= 3) over
//        random keys (--keys) and values, with the row number: an updating result, one subtask
//   (t2) (t) at parallelism 2 on two workers: the hash shuffle crosses gRPC between them
//   (d)  deduplication keeping each key's last row by event time (one row per ms, key id % --keys)
//   (o)  OVER aggregation: SUM over the 10 preceding rows of each key (id % --keys) by event time,
//        one row per millisecond; rows wait in state for the watermark, one subtask
//   (n0) Nexmark q0: --rows events of the nexmark connector (persons, auctions and bids 1:3:46,
//   every
//        column declared), the bids passed through (auction, bidder, price, time and their text
//        padding) into a blackhole: what generating and reading the events costs
//   (n3) Nexmark q3: category-10 auctions joined with their sellers in OR, ID or CA, one subtask
//   (n8) Nexmark q8: persons and auction sellers per 10-second tumbling window, joined on the
//   person
//        and window, one subtask
//   (n3p2, n8p2) (n3), (n8) at parallelism 2 on two workers: both sides hash-shuffled across gRPC
//   Nexmark figures are events per second and per core, the benchmark's own measure.
// --scenarios picks them (default a,b,c; `all` for every one).
// --cluster processes (default) starts eddy-coordinator and two eddy-worker processes on loopback
// and counts their CPU time; --cluster embedded runs the same servers inside this process (real
// gRPC on loopback) and counts this process's. Busy cores = CPU seconds / wall seconds.
// With --coordinator the jobs run on that cluster and only rows/s is reported.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_split.h"
#include "bench/local_process_cluster.h"
#include "client/eddy_client.h"
#include "client/embedded/embedded_cluster.h"
#include "common/base/logging.h"
#include "common/base/program_flags.h"

ABSL_FLAG(int, rows, 10000000, "rows per job");
ABSL_FLAG(int, keys, 100000, "distinct keys of the aggregations");
ABSL_FLAG(std::string, cluster, "processes",
          "processes: a coordinator and two worker processes on loopback; embedded: the same "
          "servers in this process");
ABSL_FLAG(int, state_cache_mb, -1,
          "the workers' --state-cache-mb (0: every change reaches RocksDB; -1: their default, a "
          "share of the managed memory)");
ABSL_FLAG(int, managed_memory_mb, -1,
          "the workers' --managed-memory-mb (-1: their default, a quarter of the memory)");
ABSL_FLAG(std::string, coordinator, "", "HOST:PORT of a running cluster instead of starting one");
ABSL_FLAG(
    std::string, scenarios, "a,b,c",
    "comma-separated scenarios: a, b, b1, b2, b3, b4, c, c1, c2, c3, c4, r, r2, w, w2, j, j2, "
    "ij, t, t2, d, o, n0, n3, n8, n3p2, n8p2, or all");
ABSL_FLAG(std::string, mini_batch_size, "1000", "table.exec.mini-batch.size of b1, b2, c1, c2");
ABSL_FLAG(std::string, mini_batch_latency, "1 s",
          "table.exec.mini-batch.allow-latency of b1, b2, c1, c2");

namespace {

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Scenario {
  const char* id;
  const char* name;
  int parallelism;
  std::string insert;
  std::vector<std::string> settings;  // SET statements on top of the defaults
};

}  // namespace

int main(int argc, char** argv) {
  if (auto code = eddy::ParseFlagsOrExitCode(argc, argv, "eddy-bench")) return *code;
  eddy::InitLogging("warn");
  const int rows = absl::GetFlag(FLAGS_rows);
  const int keys = absl::GetFlag(FLAGS_keys);
  const int cache_mb = absl::GetFlag(FLAGS_state_cache_mb);
  const int managed_mb = absl::GetFlag(FLAGS_managed_memory_mb);
  if (rows <= 0 || keys <= 0 || cache_mb < -1 || managed_mb < -1) {
    std::fprintf(stderr,
                 "eddy-bench: --rows and --keys must be positive, --state-cache-mb and "
                 "--managed-memory-mb >= -1\n");
    return 2;
  }
  const std::string kind = absl::GetFlag(FLAGS_cluster);
  if (kind != "processes" && kind != "embedded") {
    std::fprintf(stderr, "eddy-bench: --cluster must be 'processes' or 'embedded', got '%s'\n",
                 kind.c_str());
    return 2;
  }
  std::unique_ptr<eddy::EmbeddedCluster> embedded_cluster;
  std::unique_ptr<eddy::bench::LocalProcessCluster> process_cluster;
  std::function<double()> cluster_cpu_seconds;  // null: not measurable (an external cluster)
  std::string address = absl::GetFlag(FLAGS_coordinator);
  if (address.empty() && kind == "embedded") {
    eddy::EmbeddedClusterOptions options{.workers = 2, .slots = 1};
    if (cache_mb >= 0) options.state_cache_bytes = static_cast<size_t>(cache_mb) << 20;
    if (managed_mb >= 0) options.managed_memory_bytes = static_cast<size_t>(managed_mb) << 20;
    auto c = eddy::EmbeddedCluster::Start(options);
    if (!c.ok()) {
      std::fprintf(stderr, "eddy-bench: %s\n", std::string(c.status().message()).c_str());
      return 1;
    }
    embedded_cluster = std::move(*c);
    address = embedded_cluster->coordinator_address();
    cluster_cpu_seconds = CpuSeconds;
  } else if (address.empty()) {
    const std::string bin_dir =
        std::filesystem::absolute(std::filesystem::path(argv[0])).parent_path().string();
    auto c = eddy::bench::LocalProcessCluster::Start(
        bin_dir, 2, 1,
        {"--state-cache-mb", std::to_string(cache_mb), "--managed-memory-mb",
         std::to_string(managed_mb)});
    if (!c.ok()) {
      std::fprintf(stderr, "eddy-bench: %s\n", std::string(c.status().message()).c_str());
      return 1;
    }
    process_cluster = std::move(*c);
    address = process_cluster->coordinator_address();
    cluster_cpu_seconds = [&] { return process_cluster->CpuSeconds(); };
  }
  eddy::EddyClient client(address, "eddy-bench");
  const std::string n = std::to_string(rows);
  const std::string ddl =
      "CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = "
      "'1000000000000', 'number-of-rows' = '" +
      n +
      "', 'fields.id.kind' = 'sequence', "
      "'fields.id.start' = '1', 'fields.id.end' = '" +
      n + "')";
  const std::string random_ddl =
      "CREATE TEMPORARY TABLE rsrc (k BIGINT, v BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '1000000000000', 'number-of-rows' = '" +
      n + "', 'fields.k.kind' = 'random', 'fields.k.min' = '1', 'fields.k.max' = '" +
      std::to_string(keys) + "', 'fields.v.min' = '1', 'fields.v.max' = '1000')";
  const std::string random_agg = "INSERT INTO agg SELECT k, COUNT(*), SUM(v) FROM rsrc GROUP BY k";
  const std::string agg = "INSERT INTO agg SELECT id % " + std::to_string(keys) +
                          ", COUNT(*), SUM(id) FROM src GROUP BY id % " + std::to_string(keys);
  // Event time: row id happens at id ms; the watermark trails by one second.
  const std::string events_ddl =
      "CREATE TEMPORARY TABLE events (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id, 3), WATERMARK FOR ts "
      "AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen', 'rows-per-second' = "
      "'1000000000000', 'number-of-rows' = '" +
      n +
      "', 'fields.id.kind' = 'sequence', "
      "'fields.id.start' = '1', 'fields.id.end' = '" +
      n + "')";
  const std::string events2_ddl =
      "CREATE TEMPORARY TABLE events2 (id BIGINT, ts AS TO_TIMESTAMP_LTZ((id - 1) % " +
      std::to_string((rows + 1) / 2) +
      ", 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH "
      "('connector' = 'datagen', 'rows-per-second' = '1000000000000', 'number-of-rows' = '" +
      n + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + n +
      "')";
  const std::string half = std::to_string(rows / 2);
  auto join_side = [&](const std::string& name) {
    return "CREATE TEMPORARY TABLE " + name +
           " (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000000000', "
           "'number-of-rows' = '" +
           half + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
           half + "')";
  };
  auto timed_side = [&](const std::string& name) {
    return "CREATE TEMPORARY TABLE " + name +
           " (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id, 3), WATERMARK FOR ts AS ts - INTERVAL '1' "
           "SECOND) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000000000', "
           "'number-of-rows' = '" +
           half + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" +
           half + "')";
  };
  const std::string interval_join =
      "INSERT INTO joined SELECT l.id, r.id FROM ijl AS l JOIN ijr AS r ON l.id % 1000 = r.id % "
      "1000 AND r.ts BETWEEN l.ts - INTERVAL '1' SECOND AND l.ts";
  const std::string join =
      "INSERT INTO joined SELECT l.id, r.id FROM jl AS l JOIN jr AS r ON l.id % " +
      std::to_string(keys) + " = r.id % " + std::to_string(keys);
  auto window_agg = [&](const std::string& table) {
    return "INSERT INTO wagg SELECT id % " + std::to_string(keys) +
           ", COUNT(*), SUM(id), window_start FROM TABLE(TUMBLE(TABLE " + table +
           ", DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, id % " +
           std::to_string(keys);
  };
  const std::string top_n =
      "INSERT INTO topn SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER "
      "BY v DESC) AS rn FROM rsrc) WHERE rn <= 3";
  const std::string dedup =
      "INSERT INTO dedup SELECT k, id FROM (SELECT id % " + std::to_string(keys) +
      " AS k, id, ROW_NUMBER() OVER (PARTITION BY id % " + std::to_string(keys) +
      " ORDER BY ts DESC) AS rn FROM events) WHERE rn = 1";
  const std::string over = "INSERT INTO over_out SELECT id % " + std::to_string(keys) +
                           ", id, SUM(id) OVER (PARTITION BY id % " + std::to_string(keys) +
                           " ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM events";
  // Nexmark, as the benchmark's DDL declares it (flat columns), with its views per event kind.
  const std::string nexmark_ddl =
      "CREATE TEMPORARY TABLE nexmark (event_type INT, person_id BIGINT, person_name STRING, "
      "person_email_address STRING, person_credit_card STRING, person_city STRING, person_state "
      "STRING, person_extra STRING, auction_id BIGINT, auction_item_name STRING, "
      "auction_description STRING, auction_initial_bid BIGINT, auction_reserve BIGINT, "
      "auction_expires TIMESTAMP(3), auction_seller BIGINT, auction_category BIGINT, auction_extra "
      "STRING, bid_auction BIGINT, bid_bidder BIGINT, bid_price BIGINT, bid_channel STRING, "
      "bid_url STRING, bid_extra STRING, date_time TIMESTAMP(3), WATERMARK FOR date_time AS "
      "date_time - INTERVAL '4' SECOND) WITH ('connector' = 'nexmark', 'events.num' = '" +
      n + "', 'first-event.rate' = '10000000')";
  const std::string nexmark_views =
      "CREATE TEMPORARY VIEW person AS SELECT person_id AS id, person_name AS name, "
      "person_email_address AS emailAddress, person_credit_card AS creditCard, person_city AS "
      "city, person_state AS state, date_time AS dateTime, person_extra AS extra FROM nexmark "
      "WHERE event_type = 0";
  const std::string nexmark_auction_view =
      "CREATE TEMPORARY VIEW auction AS SELECT auction_id AS id, auction_item_name AS itemName, "
      "auction_description AS description, auction_initial_bid AS initialBid, auction_reserve AS "
      "reserve, date_time AS dateTime, auction_expires AS expires, auction_seller AS seller, "
      "auction_category AS category, auction_extra AS extra FROM nexmark WHERE event_type = 1";
  const std::string nexmark_bid_view =
      "CREATE TEMPORARY VIEW bid AS SELECT bid_auction AS auction, bid_bidder AS bidder, bid_price "
      "AS price, bid_channel AS channel, bid_url AS url, date_time AS dateTime, bid_extra AS extra "
      "FROM nexmark WHERE event_type = 2";
  const std::string nexmark_q0 =
      "INSERT INTO nexmark_q0 SELECT auction, bidder, price, dateTime, extra FROM bid";
  const std::string nexmark_q3 =
      "INSERT INTO nexmark_q3 SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN "
      "person AS P ON A.seller = P.id WHERE A.category = 10 AND (P.state = 'OR' OR P.state = "
      "'ID' OR P.state = 'CA')";
  const std::string nexmark_q8 =
      "INSERT INTO nexmark_q8 SELECT P.id, P.name, P.starttime FROM (SELECT P.id, P.name, "
      "TUMBLE_START(P.dateTime, INTERVAL '10' SECOND) AS starttime, TUMBLE_END(P.dateTime, "
      "INTERVAL '10' SECOND) AS endtime FROM person P GROUP BY P.id, P.name, TUMBLE(P.dateTime, "
      "INTERVAL '10' SECOND)) P JOIN (SELECT A.seller, TUMBLE_START(A.dateTime, INTERVAL '10' "
      "SECOND) AS starttime, TUMBLE_END(A.dateTime, INTERVAL '10' SECOND) AS endtime FROM "
      "auction A GROUP BY A.seller, TUMBLE(A.dateTime, INTERVAL '10' SECOND)) A ON P.id = "
      "A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime";
  const std::vector<std::string> mini_batch = {
      "SET 'table.exec.mini-batch.enabled' = 'true'",
      "SET 'table.exec.mini-batch.allow-latency' = '" + absl::GetFlag(FLAGS_mini_batch_latency) +
          "'",
      "SET 'table.exec.mini-batch.size' = '" + absl::GetFlag(FLAGS_mini_batch_size) + "'"};
  auto with = [&](std::vector<std::string> v, const std::string& extra) {
    v.push_back(extra);
    return v;
  };
  const std::vector<Scenario> all_scenarios = {
      {"a", "(a) datagen -> blackhole", 1, "INSERT INTO hole SELECT id FROM src", {}},
      {"b", "(b) keyed COUNT/SUM, RocksDB state", 1, agg, {}},
      {"b1", "(b1) (b) with mini-batch, one phase", 1, agg,
       with(mini_batch, "SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE'")},
      {"b2", "(b2) (b) with mini-batch, two phases", 1, agg,
       with(mini_batch, "SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE'")},
      {"c", "(c) keyed COUNT/SUM across a gRPC shuffle, 2 workers", 2, agg, {}},
      {"c1", "(c1) (c) with mini-batch, one phase", 2, agg,
       with(mini_batch, "SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE'")},
      {"c2", "(c2) (c) with mini-batch, two phases", 2, agg,
       with(mini_batch, "SET 'table.optimizer.agg-phase-strategy' = 'TWO_PHASE'")},
      {"b3",
       "(b3) (b) with a checkpoint every second",
       1,
       agg,
       {"SET 'execution.checkpointing.interval' = '1 s'"}},
      {"c3",
       "(c3) (c) with a checkpoint every second",
       2,
       agg,
       {"SET 'execution.checkpointing.interval' = '1 s'"}},
      {"b4",
       "(b4) (b) with a checkpoint every 10 seconds",
       1,
       agg,
       {"SET 'execution.checkpointing.interval' = '10 s'"}},
      {"c4",
       "(c4) (c) with a checkpoint every 10 seconds",
       2,
       agg,
       {"SET 'execution.checkpointing.interval' = '10 s'"}},
      {"bb",
       "(bb) (b) in batch mode: HashAggregate",
       1,
       agg,
       {"SET 'execution.runtime-mode' = 'batch'"}},
      {"cb",
       "(cb) (c) in batch mode: HashAggregate",
       2,
       agg,
       {"SET 'execution.runtime-mode' = 'batch'"}},
      {"r", "(r) keyed COUNT/SUM, random keys", 1, random_agg, {}},
      {"r2", "(r2) (r) across a gRPC shuffle, 2 workers", 2, random_agg, {}},
      {"w", "(w) tumbling-window COUNT/SUM per key, event time", 1, window_agg("events"), {}},
      {"w2", "(w2) (w) across a gRPC shuffle, 2 workers", 2, window_agg("events2"), {}},
      {"j", "(j) two-stream equi-join, RocksDB state", 1, join, {}},
      {"j2", "(j2) (j) across a gRPC shuffle, 2 workers", 2, join, {}},
      {"ij", "(ij) event-time interval join, RocksDB state", 1, interval_join, {}},
      {"t", "(t) Top-3 per key, random keys, RocksDB state", 1, top_n, {}},
      {"t2", "(t2) (t) across a gRPC shuffle, 2 workers", 2, top_n, {}},
      {"d", "(d) deduplication, last row per key, event time", 1, dedup, {}},
      {"o", "(o) OVER SUM of 10 preceding rows, event time", 1, over, {}},
      {"n0", "(n0) Nexmark q0, the bids passed through", 1, nexmark_q0, {}},
      {"n3", "(n3) Nexmark q3, join of persons and auctions", 1, nexmark_q3, {}},
      {"n8", "(n8) Nexmark q8, join of two window aggregates", 1, nexmark_q8, {}},
      {"n3p2", "(n3p2) (n3) across a gRPC shuffle, 2 workers", 2, nexmark_q3, {}},
      {"n8p2", "(n8p2) (n8) across a gRPC shuffle, 2 workers", 2, nexmark_q8, {}},
  };
  std::vector<Scenario> scenarios;
  const std::vector<std::string> ids =
      absl::StrSplit(absl::GetFlag(FLAGS_scenarios), ',', absl::SkipEmpty());
  for (const std::string& id : ids) {
    bool found = false;
    for (const Scenario& s : all_scenarios) {
      if (id == "all" || id == s.id) {
        scenarios.push_back(s);
        found = true;
      }
    }
    if (!found) {
      std::fprintf(stderr,
                   "eddy-bench: unknown scenario '%s' (a, b, b1, b2, b3, b4, bb, c, c1, c2, c3, "
                   "c4, cb, r, r2, w, "
                   "w2, j, j2, ij, t, t2, d, o, n0, n3, n8, n3p2, n8p2, all)\n",
                   id.c_str());
      return 2;
    }
  }
  for (const std::string& stmt :
       {ddl,
        random_ddl,
        events_ddl,
        events2_ddl,
        join_side("jl"),
        join_side("jr"),
        timed_side("ijl"),
        timed_side("ijr"),
        nexmark_ddl,
        nexmark_views,
        nexmark_auction_view,
        nexmark_bid_view,
        std::string(
            "CREATE TEMPORARY TABLE nexmark_q0 (auction BIGINT, bidder BIGINT, price "
            "BIGINT, dateTime TIMESTAMP(3), extra STRING) WITH ('connector' = 'blackhole')"),
        std::string("CREATE TEMPORARY TABLE nexmark_q3 (name STRING, city STRING, state STRING, "
                    "id BIGINT) WITH ('connector' = 'blackhole')"),
        std::string("CREATE TEMPORARY TABLE nexmark_q8 (id BIGINT, name STRING, starttime "
                    "TIMESTAMP(3)) WITH ('connector' = 'blackhole')"),
        std::string("CREATE TEMPORARY TABLE joined (l BIGINT, r BIGINT) WITH ('connector' = "
                    "'blackhole')"),
        std::string("CREATE TEMPORARY TABLE wagg (k BIGINT, c BIGINT, s BIGINT, w TIMESTAMP(3)) "
                    "WITH ('connector' = 'blackhole')"),
        std::string("CREATE TEMPORARY TABLE hole (id BIGINT) WITH ('connector' = 'blackhole')"),
        std::string("CREATE TEMPORARY TABLE topn (k BIGINT, v BIGINT, rn BIGINT) WITH ("
                    "'connector' = 'blackhole')"),
        std::string("CREATE TEMPORARY TABLE dedup (k BIGINT, id BIGINT) WITH ('connector' = "
                    "'blackhole')"),
        std::string("CREATE TEMPORARY TABLE over_out (k BIGINT, id BIGINT, s BIGINT) WITH ("
                    "'connector' = 'blackhole')"),
        std::string("CREATE TEMPORARY TABLE agg (k BIGINT, c BIGINT, s BIGINT) WITH "
                    "('connector' = 'blackhole')")}) {
    if (auto r = client.Execute(stmt); !r.ok()) {
      std::fprintf(stderr, "eddy-bench: %s\n", std::string(r.status().message()).c_str());
      return 1;
    }
  }
  std::printf("%-54s %12s %10s %12s %18s\n", "scenario", "rows", "seconds", "rows/s",
              "rows/s per core");
  for (const Scenario& s : scenarios) {
    std::vector<std::string> settings = {
        "SET 'parallelism.default' = '" + std::to_string(s.parallelism) + "'",
        "SET 'table.exec.mini-batch.enabled' = 'false'",
        "SET 'table.optimizer.agg-phase-strategy' = 'AUTO'",
        "RESET 'execution.checkpointing.interval'"};
    settings.insert(settings.end(), s.settings.begin(), s.settings.end());
    absl::StatusOr<eddy::v1::ExecuteStatementResponse> set;
    for (const std::string& stmt : settings) {
      set = client.Execute(stmt);
      if (!set.ok()) break;
    }
    if (process_cluster) process_cluster->ResetPeakRss();
    const double cpu0 = cluster_cpu_seconds ? cluster_cpu_seconds() : 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto submitted = set.ok() ? client.Execute(s.insert) : set;
    if (!submitted.ok()) {
      std::fprintf(stderr, "eddy-bench: %s: %s\n", s.name,
                   std::string(submitted.status().message()).c_str());
      return 1;
    }
    auto info = client.WaitJob(submitted->job_id(), 3600 * 1000);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cluster_cpu_seconds ? cluster_cpu_seconds() - cpu0 : 0;
    if (!info.ok() || info->status() != eddy::v1::JOB_STATUS_FINISHED) {
      std::fprintf(
          stderr, "eddy-bench: %s did not finish: %s\n", s.name,
          info.ok() ? info->error().c_str() : std::string(info.status().message()).c_str());
      return 1;
    }
    const double rate = rows / wall;
    // Across a shuffle: the rows the aggregate behind it read (partials with two phases).
    std::string shuffled;
    int64_t state_in_memory = 0, state_in_store = 0;
    for (const auto& m : info->operators()) {
      state_in_memory += m.state_bytes_in_memory();
      state_in_store += m.state_bytes_in_store();
      if (s.parallelism > 1 && (m.description().rfind("GroupAggregate(", 0) == 0 ||
                                m.description().rfind("WindowAggregate(", 0) == 0 ||
                                m.description().rfind("GlobalGroupAggregate(", 0) == 0)) {
        shuffled = ", " + std::to_string(m.rows_in()) + " rows shuffled";
      }
    }
    if (cluster_cpu_seconds) {
      std::printf("%-54s %12d %10.2f %12.0f %18.0f   (%.2f busy cores%s)\n", s.name, rows, wall,
                  rate, rows / cpu, cpu / wall, shuffled.c_str());
    } else {
      std::printf("%-54s %12d %10.2f %12.0f %18s   (%s)\n", s.name, rows, wall, rate, "n/a",
                  shuffled.empty() ? "" : shuffled.c_str() + 2);
    }
    if (s.id[0] == 'r') {
      const std::string rss =
          process_cluster ? std::to_string(process_cluster->WorkerPeakRssBytes() >> 20) + " MiB"
                          : std::string("n/a");
      std::printf(
          "%-54s peak RSS %s (largest worker), state %.1f MiB in memory, %.1f MiB in "
          "RocksDB\n",
          "", rss.c_str(), state_in_memory / 1048576.0, state_in_store / 1048576.0);
    }
    std::fflush(stdout);
  }
  return 0;
}
