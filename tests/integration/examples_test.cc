// The example programs in examples/ run and print what they are meant to.
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/process_cluster.h"

namespace eddy::testing {
namespace {

TEST(ExamplesTest, TableApiWordCount) {
  const std::string dir = FreshTestDir("example-table-api");
  std::filesystem::create_directories(dir);
  RunResult r = RunToCompletion({EddyBinary("table_api_word_count")}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "-- counts of the words starting with H\n"
            "+----+--------------------------------+----------------------+\n"
            "| op |                           word |                  cnt |\n"
            "+----+--------------------------------+----------------------+\n"
            "| +I |                          Hello |                    1 |\n"
            "| -U |                          Hello |                    1 |\n"
            "| +U |                          Hello |                    2 |\n"
            "| +I |                             Hi |                    1 |\n"
            "| -U |                          Hello |                    2 |\n"
            "| +U |                          Hello |                    3 |\n"
            "+----+--------------------------------+----------------------+\n"
            "Received a total of 6 rows\n"
            "-- how many words have each count (SQL over the view)\n"
            "+----+----------------------+----------------------+\n"
            "| op |                  cnt |                words |\n"
            "+----+----------------------+----------------------+\n"
            "| +I |                    1 |                    1 |\n"
            "| -D |                    1 |                    1 |\n"
            "| +I |                    2 |                    1 |\n"
            "| +I |                    1 |                    1 |\n"
            "| -D |                    2 |                    1 |\n"
            "| +I |                    3 |                    1 |\n"
            "+----+----------------------+----------------------+\n"
            "Received a total of 6 rows\n"
            "-- collected\n"
            "+I[HELLO]\n"
            "+I[WORLD]\n"
            "+I[HELLO]\n"
            "+I[HI]\n"
            "+I[HELLO]\n"
            "-- statement set finished\n");
}

// The FromStream example pushes clicks into a window count and prints each window as it closes.
TEST(ExamplesTest, TableApiFromStream) {
  const std::string dir = FreshTestDir("example-from-stream");
  std::filesystem::create_directories(dir);
  RunResult r = RunToCompletion({EddyBinary("table_api_from_stream")}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "-- clicks per user and minute\n"
            "+I[bob, 2024-03-01 09:00:00.000, 1]\n"
            "+I[alice, 2024-03-01 09:00:00.000, 4]\n"
            "+I[bob, 2024-03-01 09:01:00.000, 2]\n"
            "+I[carol, 2024-03-01 09:01:00.000, 1]\n"
            "+I[alice, 2024-03-01 09:02:00.000, 1]\n"
            "+I[carol, 2024-03-01 09:02:00.000, 2]\n"
            "-- the stream ended\n");
}

// The insurance example reads examples/data/claims.csv through the filesystem connector, from the
// repository root as its header says, and prints one row per product and 10-minute window.
TEST(ExamplesTest, InsuranceClaimsWindows) {
  const std::string dir = FreshTestDir("example-insurance");
  std::filesystem::create_directories(dir);
  RunResult r = RunToCompletion({"/bin/sh", "-c",
                                 std::string("cd '") + EDDY_SOURCE_DIR + "' && exec '" +
                                     EddyBinary("eddy") + "' -f examples/insurance_claims.sql"},
                                dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "+I[home, 2024-03-01 09:00:00.000, 2024-03-01 09:10:00.000, 2, 1, 8700.25]\n"
            "+I[auto, 2024-03-01 09:00:00.000, 2024-03-01 09:10:00.000, 3, 1, 1376.75]\n"
            "+I[travel, 2024-03-01 09:00:00.000, 2024-03-01 09:10:00.000, 1, 0, 310.00]\n"
            "+I[home, 2024-03-01 09:10:00.000, 2024-03-01 09:20:00.000, 1, 0, 760.00]\n"
            "+I[auto, 2024-03-01 09:10:00.000, 2024-03-01 09:20:00.000, 2, 1, 1875.38]\n"
            "+I[travel, 2024-03-01 09:10:00.000, 2024-03-01 09:20:00.000, 1, 1, 95.00]\n"
            "+I[home, 2024-03-01 09:20:00.000, 2024-03-01 09:30:00.000, 1, 0, 2500.00]\n"
            "+I[auto, 2024-03-01 09:20:00.000, 2024-03-01 09:30:00.000, 2, 0, 820.00]\n"
            "+I[travel, 2024-03-01 09:20:00.000, 2024-03-01 09:30:00.000, 1, 0, 180.00]\n"
            "+I[home, 2024-03-01 09:30:00.000, 2024-03-01 09:40:00.000, 1, 1, 4100.00]\n");
}

}  // namespace
}  // namespace eddy::testing
