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
#include "worker/connectors/nexmark_generator.h"

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
    v1::NexmarkSource spec;
    spec.set_events_num(w.events);
    spec.set_first_event_rate(static_cast<double>(w.rate));
    spec.set_base_time_ms(w.base_time_ms);
    spec.set_person_proportion(1);
    spec.set_auction_proportion(3);
    spec.set_bid_proportion(46);
    spec.set_person_avg_size(200);
    spec.set_auction_avg_size(500);
    spec.set_bid_avg_size(100);
    spec.set_hot_auction_ratio(2);
    spec.set_hot_bidder_ratio(4);
    spec.set_hot_seller_ratio(w.hot_sellers);
    db->Exec("CREATE TABLE person (id INTEGER, name TEXT, city TEXT, state TEXT, ts INTEGER);");
    db->Exec("CREATE TABLE auction (id INTEGER, seller INTEGER, category INTEGER, ts INTEGER);");
    db->Exec("BEGIN;");
    for (int s = 0; s < parallelism; ++s) {
      NexmarkGenerator g(spec, s, parallelism);
      const size_t n = static_cast<size_t>(g.num_events());
      auto column = [&](v1::NexmarkField f, DataType t) {
        Column c(t);
        g.Append(f, 0, n, &c);
        return c;
      };
      Column pid = column(v1::NexmarkField::PERSON_ID, DataType::BigInt());
      Column name = column(v1::NexmarkField::PERSON_NAME, DataType::String());
      Column city = column(v1::NexmarkField::PERSON_CITY, DataType::String());
      Column state = column(v1::NexmarkField::PERSON_STATE, DataType::String());
      Column aid = column(v1::NexmarkField::AUCTION_ID, DataType::BigInt());
      Column seller = column(v1::NexmarkField::AUCTION_SELLER, DataType::BigInt());
      Column category = column(v1::NexmarkField::AUCTION_CATEGORY, DataType::BigInt());
      for (size_t i = 0; i < n; ++i) {
        const int64_t ts = g.TimestampMs(static_cast<int64_t>(i));
        switch (g.TypeOf(g.EventId(static_cast<int64_t>(i)))) {
          case NexmarkEventType::kPerson:
            db->Exec(absl::StrCat("INSERT INTO person VALUES (", pid.Get<int64_t>(i), ", '",
                                  std::string(name.GetString(i)), "', '",
                                  std::string(city.GetString(i)), "', '",
                                  std::string(state.GetString(i)), "', ", ts, ");"));
            break;
          case NexmarkEventType::kAuction:
            db->Exec(absl::StrCat("INSERT INTO auction VALUES (", aid.Get<int64_t>(i), ", ",
                                  seller.Get<int64_t>(i), ", ", category.Get<int64_t>(i), ", ", ts,
                                  ");"));
            break;
          case NexmarkEventType::kBid:
            break;
        }
      }
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
