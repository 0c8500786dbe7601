// ClientSettings follows the SET and RESET statements of the client's own keys.
#include "client/client_settings.h"

#include <gtest/gtest.h>

#include <string>

#include "common/sql/parser.h"

namespace eddy {
namespace {

void Follow(ClientSettings& settings, const std::string& script) {
  auto statements = sql::ParseScript(script);
  ASSERT_TRUE(statements.ok()) << statements.status();
  for (const auto& stmt : *statements) settings.Follow(*stmt);
}

TEST(ClientSettingsTest, SetTurnsEachKeyOnAndOffQuotedOrNot) {
  ClientSettings settings;
  Follow(settings,
         "SET 'sql-client.verbose' = 'true'; SET sql-client.display.print-time-cost = TRUE;"
         "SET 'sql-client.display.show-line-numbers' = 'true'; SET 'table.dml-sync' = 'true';");
  EXPECT_TRUE(settings.verbose);
  EXPECT_TRUE(settings.print_time_cost);
  EXPECT_TRUE(settings.show_line_numbers);
  EXPECT_TRUE(settings.dml_sync);
  Follow(settings, "SET 'sql-client.verbose' = 'false';");
  EXPECT_FALSE(settings.verbose);
  EXPECT_TRUE(settings.print_time_cost);
}

TEST(ClientSettingsTest, ResetOfOneKeyOrOfAllTurnsThemOff) {
  ClientSettings settings;
  Follow(settings,
         "SET 'sql-client.verbose' = 'true'; SET 'sql-client.display.print-time-cost' = 'true';"
         "RESET 'sql-client.verbose';");
  EXPECT_FALSE(settings.verbose);
  EXPECT_TRUE(settings.print_time_cost);
  Follow(settings, "SET 'sql-client.display.show-line-numbers' = 'true'; RESET;");
  EXPECT_FALSE(settings.print_time_cost);
  EXPECT_FALSE(settings.show_line_numbers);
}

TEST(ClientSettingsTest, OtherStatementsAndKeysChangeNothing) {
  ClientSettings settings;
  Follow(settings, "SET 'parallelism.default' = '4'; RESET 'parallelism.default'; SELECT 1;");
  EXPECT_FALSE(settings.verbose);
  EXPECT_FALSE(settings.print_time_cost);
  EXPECT_FALSE(settings.show_line_numbers);
  EXPECT_FALSE(settings.dml_sync);
}

}  // namespace
}  // namespace eddy
