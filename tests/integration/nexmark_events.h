// The persons and auctions a cluster's nexmark source generates, computed in the test process with
// the same generator and the same split over subtasks, for tests that check query results against
// an answer of their own (SQLite, or a join in the test).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eddy/v1/plan.pb.h"

namespace eddy::testing {

// A nexmark table's spec with the connector's defaults (docs/sql-reference.md) and the given
// events, rate, first event time and auction.hot-ratio.sellers.
v1::NexmarkSource NexmarkSpec(int64_t events, int64_t rate, int64_t base_time_ms,
                              int hot_seller_ratio = 4);

struct NexmarkPerson {
  int64_t id = 0;
  std::string name, city, state;
  int64_t time_ms = 0;
};

struct NexmarkAuction {
  int64_t id = 0, seller = 0, category = 0;
  int64_t time_ms = 0;
};

struct NexmarkEvents {
  std::vector<NexmarkPerson> persons;
  std::vector<NexmarkAuction> auctions;
};

// Every person and auction of `spec` read at `parallelism`, subtask by subtask.
NexmarkEvents GenerateNexmark(const v1::NexmarkSource& spec, int parallelism);

}  // namespace eddy::testing
