// Nexmark q3 and q8 against an independent answer: Eddy runs the queries over the nexmark
// connector on a coordinator and two worker processes at parallelism 1 and 4; the test generates
// the same events itself (NexmarkGenerator, subtask by subtask, as the cluster splits them), loads
// the persons and auctions into SQLite and runs the queries there, windows as arithmetic on epoch
// milliseconds. The workload (events, rate, first event time, hot ratios) is drawn from the
// printed seed; EDDY_TEST_SEED replays a run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/differential_test_base.h"
#include "tests/integration/nexmark_events.h"

namespace eddy::testing {
namespace {

class NexmarkDifferentialTest : public DifferentialTest {
 protected:
  struct Workload {
    int64_t events = 0;
    int64_t rate = 0;
    int64_t base_time_ms = 0;
    int hot_sellers = 4;
  };

  Workload Draw() {
    Workload w;
    w.events = std::uniform_int_distribution<int64_t>(5000, 40000)(rng_);
    w.rate = std::vector<int64_t>{500, 1000, 4000}[rng_() % 3];
    // Midnight of 2026-01-01 plus up to ten seconds: windows cut the events at varying places.
    w.base_time_ms = 1767225600000 + static_cast<int64_t>(rng_() % 10000);
    w.hot_sellers = 1 + static_cast<int>(rng_() % 4);
    std::cout << "events " << w.events << ", rate " << w.rate << ", base-time " << w.base_time_ms
              << ", auction.hot-ratio.sellers " << w.hot_sellers << std::endl;
    return w;
  }

  static std::string EddyTables(const Workload& w) {
    return absl::StrCat(
        "CREATE TEMPORARY TABLE nexmark (event_type INT, person_id BIGINT, person_name STRING, "
        "person_city STRING, person_state STRING, auction_id BIGINT, auction_seller BIGINT, "
        "auction_category BIGINT, date_time TIMESTAMP(3), WATERMARK FOR date_time AS date_time - "
        "INTERVAL '4' SECOND) WITH ('connector' = 'nexmark', 'events.num' = '",
        w.events, "', 'first-event.rate' = '", w.rate, "', 'base-time' = '", w.base_time_ms,
        "', 'auction.hot-ratio.sellers' = '", w.hot_sellers, "');",
        "CREATE TEMPORARY VIEW person AS SELECT person_id AS id, person_name AS name, person_city "
        "AS city, person_state AS state, date_time AS dateTime FROM nexmark WHERE event_type = 0;",
        "CREATE TEMPORARY VIEW auction AS SELECT auction_id AS id, auction_seller AS seller, "
        "auction_category AS category, date_time AS dateTime FROM nexmark WHERE event_type = 1;");
  }

  // The persons and auctions the cluster generates at `parallelism`, as SQLite tables (times in
  // epoch milliseconds).
  static void LoadEvents(const Workload& w, int parallelism, Sqlite* db) {
    const NexmarkEvents events =
        GenerateNexmark(NexmarkSpec(w.events, w.rate, w.base_time_ms, w.hot_sellers), parallelism);
    db->Exec("CREATE TABLE person (id INTEGER, name TEXT, city TEXT, state TEXT, ts INTEGER);");
    db->Exec("CREATE TABLE auction (id INTEGER, seller INTEGER, category INTEGER, ts INTEGER);");
    db->Exec("BEGIN;");
    for (const NexmarkPerson& p : events.persons) {
      db->Exec(absl::StrCat("INSERT INTO person VALUES (", p.id, ", '", p.name, "', '", p.city,
                            "', '", p.state, "', ", p.time_ms, ");"));
    }
    for (const NexmarkAuction& a : events.auctions) {
      db->Exec(absl::StrCat("INSERT INTO auction VALUES (", a.id, ", ", a.seller, ", ", a.category,
                            ", ", a.time_ms, ");"));
    }
    db->Exec("COMMIT;");
  }

  // Runs `eddy_query` and `sqlite_query` over one drawn workload at parallelism 1 and 4.
  void Check(const std::string& eddy_query, const std::string& sqlite_query,
             const std::vector<std::string>& column_types) {
    const Workload w = Draw();
    for (int p : {1, 4}) {
      Sqlite db;
      LoadEvents(w, p, &db);
      const Multiset expected = db.QueryText(sqlite_query);
      EXPECT_FALSE(expected.empty()) << "the workload should give some rows";
      EXPECT_EQ(RunEddy(EddyTables(w), eddy_query, column_types, p), expected)
          << "parallelism " << p << ": " << eddy_query;
    }
  }
};

TEST_F(NexmarkDifferentialTest, Q3LocalItemSuggestion) {
  Check(
      "SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P ON A.seller "
      "= P.id WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')",
      "SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P ON A.seller "
      "= P.id WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')",
      {"STRING", "STRING", "STRING", "BIGINT"});
}

TEST_F(NexmarkDifferentialTest, Q8MonitorNewUsers) {
  Check(
      "SELECT P.id, P.name, P.starttime FROM (SELECT P.id, P.name, TUMBLE_START(P.dateTime, "
      "INTERVAL '10' SECOND) AS starttime, TUMBLE_END(P.dateTime, INTERVAL '10' SECOND) AS "
      "endtime FROM person P GROUP BY P.id, P.name, TUMBLE(P.dateTime, INTERVAL '10' SECOND)) P "
      "JOIN (SELECT A.seller, TUMBLE_START(A.dateTime, INTERVAL '10' SECOND) AS starttime, "
      "TUMBLE_END(A.dateTime, INTERVAL '10' SECOND) AS endtime FROM auction A GROUP BY A.seller, "
      "TUMBLE(A.dateTime, INTERVAL '10' SECOND)) A ON P.id = A.seller AND P.starttime = "
      "A.starttime AND P.endtime = A.endtime",
      "SELECT P.id, P.name, strftime('%Y-%m-%d %H:%M:%S', P.ws / 1000, 'unixepoch') || '.' || "
      "printf('%03d', P.ws % 1000) FROM (SELECT DISTINCT id, name, ts - ts % 10000 AS ws FROM "
      "person) P JOIN (SELECT DISTINCT seller, ts - ts % 10000 AS ws FROM auction) A ON P.id = "
      "A.seller AND P.ws = A.ws",
      {"BIGINT", "STRING", "TIMESTAMP(3)"});
}

}  // namespace
}  // namespace eddy::testing
