#include "client/client_settings.h"

#include <string>

#include "absl/strings/match.h"

namespace eddy {
namespace {

bool* SettingOf(ClientSettings& settings, const std::string& key) {
  if (key == "table.dml-sync") return &settings.dml_sync;
  if (key == "sql-client.verbose") return &settings.verbose;
  if (key == "sql-client.display.print-time-cost") return &settings.print_time_cost;
  if (key == "sql-client.display.show-line-numbers") return &settings.show_line_numbers;
  return nullptr;
}

}  // namespace

void ClientSettings::Follow(const sql::Statement& stmt) {
  if (stmt.kind == sql::StatementKind::kSet && stmt.set && stmt.set->key) {
    if (bool* setting = SettingOf(*this, *stmt.set->key)) {
      *setting = absl::EqualsIgnoreCase(stmt.set->value.value_or(""), "true");
    }
  } else if (stmt.kind == sql::StatementKind::kReset && stmt.reset) {
    if (!stmt.reset->key) {
      *this = ClientSettings{};
    } else if (bool* setting = SettingOf(*this, *stmt.reset->key)) {
      *setting = false;
    }
  }
}

}  // namespace eddy
