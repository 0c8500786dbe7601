// The SQL client's own settings, which change how the client shows results and errors rather than
// how the cluster runs a statement. The coordinator validates and keeps them with the session's
// other keys (SET lists them); the client follows each SET and RESET of them that succeeded:
//   table.dml-sync                        wait for an INSERT's job before the next statement
//   sql-client.verbose                    errors show their kind (the status code) too
//   sql-client.display.print-time-cost    a query's closing line says how long it took
//   sql-client.display.show-line-numbers  the shell's continuation prompts number their lines
#pragma once

#include "common/sql/ast.h"

namespace eddy {

struct ClientSettings {
  bool dml_sync = false;
  bool verbose = false;
  bool print_time_cost = false;
  bool show_line_numbers = false;

  // Follows `stmt` when it is a SET or RESET (of one of these keys, or RESET of all) that ran.
  void Follow(const sql::Statement& stmt);
};

}  // namespace eddy
