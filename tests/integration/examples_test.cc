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

}  // namespace
}  // namespace eddy::testing
