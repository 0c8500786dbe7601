// A fixture for differential tests: a coordinator and two worker processes shared by a suite, a
// seeded random generator (the seed printed; EDDY_TEST_SEED replays it) and RunEddy, which runs a
// query into a print sink and replays the printed changelog into the final rows.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/integration/process_cluster.h"
#include "tests/integration/sqlite_oracle.h"

namespace eddy::testing {

class DifferentialTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(FreshTestDir("differential"));
    // Filesystem tables may read files the tests write into the cluster's directory.
    cluster_ = new ProcessCluster(
        *dir_, ClusterOptions{.workers = 2,
                              .slots_per_worker = 4,
                              .coordinator_args = {"--filesystem-allowed-dirs", *dir_},
                              .worker_args = {"--filesystem-allowed-dirs", *dir_}});
  }
  static void TearDownTestSuite() {
    delete cluster_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  void SetUp() override {
    ASSERT_TRUE(cluster_->ok()) << cluster_->error();
    uint64_t seed = std::random_device{}();
    if (const char* s = std::getenv("EDDY_TEST_SEED")) seed = std::strtoull(s, nullptr, 10);
    std::cout << "EDDY_TEST_SEED=" << seed << std::endl;
    rng_.seed(seed);
  }

  // Runs `query` (a SELECT with `columns` INT output columns) into a print sink at `parallelism`
  // and returns the replayed final rows.
  Multiset RunEddy(const std::string& views, const std::string& query, int columns,
                   int parallelism) {
    return RunEddy(views, query, std::vector<std::string>(columns, "INT"), parallelism);
  }
  // The same with the sink's column types given (e.g. "INT", "STRING").
  Multiset RunEddy(const std::string& views, const std::string& query,
                   const std::vector<std::string>& column_types, int parallelism) {
    std::vector<size_t> offsets;
    for (int i = 0; i < cluster_->workers(); ++i) {
      offsets.push_back(cluster_->WorkerStdout(i).size());
    }
    std::vector<std::string> defs;
    for (size_t c = 0; c < column_types.size(); ++c) {
      defs.push_back(absl::StrCat("c", c, " ", column_types[c]));
    }
    const std::string sink = absl::StrCat("out_", ++runs_);
    auto r = cluster_->Eddy(
        absl::StrCat("SET 'table.dml-sync' = 'true';", "SET 'parallelism.default' = '", parallelism,
                     "';", views, "CREATE TEMPORARY TABLE ", sink, " (", absl::StrJoin(defs, ", "),
                     ") WITH ('connector' = 'print');", "INSERT INTO ", sink, " ", query, ";"));
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    std::string printed;
    for (int i = 0; i < cluster_->workers(); ++i) {
      printed += cluster_->WorkerStdout(i).substr(offsets[i]);
    }
    for (const char* change : {"-U[", "+U[", "-D["}) {
      if (printed.find(change) != std::string::npos) ++runs_with_changes_;
    }
    std::vector<std::string> errors;
    Multiset rows = ReplayMultiset(printed, &errors);
    for (size_t i = 0; i < errors.size() && i < 5; ++i) ADD_FAILURE() << errors[i];
    return rows;
  }

  std::mt19937_64 rng_;
  int runs_ = 0;
  int runs_with_changes_ = 0;  // runs that printed a -U, +U or -D row (a batch job never does)
  static inline std::string* dir_ = nullptr;
  static inline ProcessCluster* cluster_ = nullptr;
};

}  // namespace eddy::testing
