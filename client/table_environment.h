// The C++ Table API, as Flink's TableEnvironment and Table: a program connects to a coordinator
// (or starts an embedded cluster), runs SQL, and builds queries from tables and column expressions
// (table_expression.h). A Table is a query: each operation wraps the one before it, and the
// coordinator plans the result like SQL, so Table API and SQL mix freely (a Table registered as a
// view is readable from SQL, a SQL query is a Table).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/eddy_client.h"
#include "client/statement_set.h"
#include "client/stream_conversion.h"
#include "client/stream_writer.h"
#include "client/table_expression.h"
#include "client/table_result.h"

namespace eddy {

class TableEnvironment;
class GroupedTable;

class Table {
 public:
  Table Select(const std::vector<api::Expression>& items) const;
  Table Where(const api::Expression& condition) const;
  // GroupBy(keys).Select(items): items are keys and aggregates.
  GroupedTable GroupBy(std::vector<api::Expression> keys) const;
  Table UnionAll(const Table& other) const;
  // Joins, as Flink's Table API: the columns of both tables in one row, left then right. Column
  // names must not repeat between the two tables (rename with Select and As first), so that
  // conditions and later operations name them unambiguously. Join(right) without a condition is
  // an inner join whose condition a following Where gives (`a.Join(b).Where(Col("x") ==
  // Col("y"))`, planned as an equi-join).
  Table Join(const Table& right) const;
  Table Join(const Table& right, const api::Expression& condition) const;
  Table LeftOuterJoin(const Table& right, const api::Expression& condition) const;
  Table RightOuterJoin(const Table& right, const api::Expression& condition) const;
  Table FullOuterJoin(const Table& right, const api::Expression& condition) const;
  // Flink's joinLateral / leftOuterJoinLateral: each row with the rows the table function `call`
  // (api::Call of a user-defined table function over this table's columns) makes of it; `names`
  // rename the function's columns (empty: the names it declares). The left outer form keeps a
  // row the function makes nothing of, its columns NULL.
  Table JoinLateral(const api::Expression& call, const std::vector<std::string>& names = {}) const;
  Table LeftOuterJoinLateral(const api::Expression& call,
                             const std::vector<std::string>& names = {}) const;
  // The first n rows of an append-only result (the last operation before Execute).
  Table Limit(int64_t n) const;

  // Runs the query; its rows come back through TableResult::Collect or Print.
  absl::StatusOr<TableResult> Execute() const;
  // INSERT INTO `table` (an SQL identifier path) this query: submits a job.
  absl::StatusOr<TableResult> ExecuteInsert(const std::string& table) const;
  absl::StatusOr<std::string> Explain(bool changelog_mode = false) const;
  // The result as a stream (stream_conversion.h), as Flink's toChangelogStream, toRetractStream
  // and toDataStream; the last is for append-only tables only (an error naming the node that
  // produces updates otherwise).
  absl::StatusOr<ChangelogStream> ToChangelogStream() const;
  absl::StatusOr<RetractStream> ToRetractStream() const;
  absl::StatusOr<DataStream> ToDataStream() const;

  // The SQL query this table stands for.
  const std::string& sql() const { return sql_; }

 private:
  friend class TableEnvironment;
  friend class GroupedTable;
  Table(TableEnvironment* env, std::string sql) : env_(env), sql_(std::move(sql)) {}
  // `SELECT <items> FROM (<this>) AS <alias> <rest>`.
  Table Wrap(const std::string& items, const std::string& rest) const;
  // `SELECT * FROM (<this>) AS a <join> (<right>) AS b [ON condition]`.
  Table JoinWith(const Table& right, const std::string& join, const std::string& on) const;

  TableEnvironment* env_;
  std::string sql_;
};

class GroupedTable {
 public:
  Table Select(const std::vector<api::Expression>& items) const;

 private:
  friend class Table;
  GroupedTable(Table table, std::vector<api::Expression> keys)
      : table_(std::move(table)), keys_(std::move(keys)) {}
  Table table_;
  std::vector<api::Expression> keys_;
};

// FromStream's answer: the stream's table (a query over it, usable as any Table) and the writer
// that feeds it.
struct TableStream {
  Table table;
  std::unique_ptr<StreamWriter> writer;
};

class TableEnvironment {
 public:
  // A session on the coordinator at `address` (host:port). The environment holds `keep_alive`
  // (the embedded cluster `address` belongs to, say) until it is destroyed, after its client.
  // An embedded cluster in this process: StartEmbeddedEnvironment (client/embedded/).
  static std::unique_ptr<TableEnvironment> Connect(const std::string& address,
                                                   const std::string& session_id = "table-api",
                                                   std::shared_ptr<void> keep_alive = nullptr);

  // Any statement (DDL, SET, SHOW, EXPLAIN, INSERT, a query).
  absl::StatusOr<TableResult> ExecuteSql(const std::string& statement);
  // A query as a Table (validated when it runs or is explained).
  Table SqlQuery(const std::string& query);
  // A table or view by its SQL identifier path.
  Table From(const std::string& path);
  // Literal rows with the given column names.
  Table FromElements(const std::vector<std::vector<api::Expression>>& rows,
                     const std::vector<std::string>& names);
  // Registers the function `symbol` of the user-function library at `library_path` (a .so built
  // against include/eddy/udf.h, docs/udf.md) as a temporary system function `name` of this
  // session, as CREATE TEMPORARY SYSTEM FUNCTION does; the coordinator reads the library.
  absl::Status CreateTemporarySystemFunction(const std::string& name, const std::string& symbol,
                                             const std::string& library_path);
  absl::Status DropTemporarySystemFunction(const std::string& name);
  // A table fed by this program (stream_writer.h), as Flink's fromDataStream(stream, schema): a
  // temporary table of the session with `schema`'s columns and watermark (options.table_name names
  // it, so SQL can read it too), and the writer whose rows it holds. One job reads a stream; Close
  // on the writer ends it.
  absl::StatusOr<TableStream> FromStream(const StreamSchema& schema,
                                         const StreamOptions& options = {});
  // Registers `table` as a temporary view, readable from SQL.
  absl::Status CreateTemporaryView(const std::string& name, const Table& table);
  StatementSet CreateStatementSet() { return StatementSet(client_.get()); }

  EddyClient* client() { return client_.get(); }
  std::string NextAlias() { return "t" + std::to_string(++aliases_); }

 private:
  TableEnvironment() = default;
  std::shared_ptr<void> keep_alive_;  // destroyed after client_
  std::unique_ptr<EddyClient> client_;
  int aliases_ = 0;
};

}  // namespace eddy
