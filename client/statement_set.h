// A statement set built through the client API, as Flink's StatementSet: INSERTs added one by one
// (as SQL, or as a query or a Table and the table it goes into) are explained or executed together
// as one job, in which identical sub-plans run once.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/eddy_client.h"

namespace eddy {

class Table;

class StatementSet {
 public:
  // `client` must outlive the set; statements run in its session.
  explicit StatementSet(EddyClient* client) : client_(client) {}

  // An `INSERT INTO ...` statement (a trailing ';' is allowed).
  StatementSet& AddInsertSql(std::string insert);
  // `INSERT INTO <table> <query>`; `table` is an SQL identifier path (`t`, `db.t`, `` `my t` ``).
  StatementSet& AddInsert(const std::string& table, const std::string& query);
  // `INSERT INTO <table>` the query a Table API Table stands for (Flink's addInsert(path, table)).
  StatementSet& AddInsert(const std::string& table, const Table& query);

  // The plan text of `EXPLAIN [CHANGELOG_MODE] STATEMENT SET ...`.
  absl::StatusOr<std::string> Explain(bool changelog_mode = false) const;
  // Submits every INSERT as one job; the response names the job.
  absl::StatusOr<v1::ExecuteStatementResponse> Execute() const;

  // The `STATEMENT SET BEGIN ... END` text Explain and Execute send, after checking that the set is
  // not empty and that every statement parses as an INSERT (errors name the statement's position).
  absl::StatusOr<std::string> Sql() const;

 private:
  EddyClient* client_;
  std::vector<std::string> inserts_;
};

}  // namespace eddy
