#include "client/table_environment.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

std::string JoinSql(const std::vector<api::Expression>& items) {
  std::vector<std::string> sql;
  for (const auto& e : items) sql.push_back(e.sql());
  return absl::StrJoin(sql, ", ");
}

}  // namespace

Table Table::Wrap(const std::string& items, const std::string& rest) const {
  std::string sql = absl::StrCat("SELECT ", items, " FROM (", sql_, ") AS ", env_->NextAlias());
  if (!rest.empty()) absl::StrAppend(&sql, " ", rest);
  return Table(env_, std::move(sql));
}

Table Table::Select(const std::vector<api::Expression>& items) const {
  return Wrap(JoinSql(items), "");
}

Table Table::Where(const api::Expression& condition) const {
  return Wrap("*", "WHERE " + condition.sql());
}

GroupedTable Table::GroupBy(std::vector<api::Expression> keys) const {
  return GroupedTable(*this, std::move(keys));
}

Table GroupedTable::Select(const std::vector<api::Expression>& items) const {
  return table_.Wrap(JoinSql(items), "GROUP BY " + JoinSql(keys_));
}

Table Table::UnionAll(const Table& other) const {
  return Table(env_,
               absl::StrCat("SELECT * FROM (", sql_, ") AS ", env_->NextAlias(),
                            " UNION ALL SELECT * FROM (", other.sql_, ") AS ", env_->NextAlias()));
}

Table Table::JoinWith(const Table& right, const std::string& join, const std::string& on) const {
  std::string sql = absl::StrCat("SELECT * FROM (", sql_, ") AS ", env_->NextAlias(), " ", join,
                                 " (", right.sql_, ") AS ", env_->NextAlias());
  if (!on.empty()) absl::StrAppend(&sql, " ON ", on);
  return Table(env_, std::move(sql));
}

Table Table::Join(const Table& right) const { return JoinWith(right, "CROSS JOIN", ""); }

Table Table::Join(const Table& right, const api::Expression& condition) const {
  return JoinWith(right, "JOIN", condition.sql());
}

Table Table::LeftOuterJoin(const Table& right, const api::Expression& condition) const {
  return JoinWith(right, "LEFT JOIN", condition.sql());
}

Table Table::RightOuterJoin(const Table& right, const api::Expression& condition) const {
  return JoinWith(right, "RIGHT JOIN", condition.sql());
}

Table Table::FullOuterJoin(const Table& right, const api::Expression& condition) const {
  return JoinWith(right, "FULL JOIN", condition.sql());
}

namespace {

std::string LateralTable(const api::Expression& call, const std::vector<std::string>& names,
                         const std::string& alias) {
  std::string sql = absl::StrCat("LATERAL TABLE(", call.sql(), ") AS ", alias);
  if (!names.empty()) {
    std::vector<std::string> quoted;
    for (const auto& n : names) quoted.push_back(api::QuoteIdentifier(n));
    absl::StrAppend(&sql, "(", absl::StrJoin(quoted, ", "), ")");
  }
  return sql;
}

}  // namespace

Table Table::JoinLateral(const api::Expression& call, const std::vector<std::string>& names) const {
  return Wrap("*", ", " + LateralTable(call, names, env_->NextAlias()));
}

Table Table::LeftOuterJoinLateral(const api::Expression& call,
                                  const std::vector<std::string>& names) const {
  return Wrap("*", "LEFT JOIN " + LateralTable(call, names, env_->NextAlias()) + " ON TRUE");
}

Table Table::Limit(int64_t n) const { return Wrap("*", absl::StrCat("LIMIT ", n)); }

absl::StatusOr<TableResult> Table::Execute() const { return env_->ExecuteSql(sql_); }

absl::StatusOr<TableResult> Table::ExecuteInsert(const std::string& table) const {
  return env_->ExecuteSql(absl::StrCat("INSERT INTO ", table, " ", sql_));
}

absl::StatusOr<std::string> Table::Explain(bool changelog_mode) const {
  return env_->client()->Explain(sql_, changelog_mode);
}

std::unique_ptr<TableEnvironment> TableEnvironment::Connect(const std::string& address,
                                                            const std::string& session_id,
                                                            std::shared_ptr<void> keep_alive) {
  std::unique_ptr<TableEnvironment> env(new TableEnvironment());
  env->keep_alive_ = std::move(keep_alive);
  env->client_ = std::make_unique<EddyClient>(address, session_id);
  return env;
}

absl::StatusOr<TableResult> TableEnvironment::ExecuteSql(const std::string& statement) {
  ASSIGN_OR_RETURN(v1::ExecuteStatementResponse r, client_->Execute(statement));
  return TableResult(client_.get(), std::move(r));
}

Table TableEnvironment::SqlQuery(const std::string& query) { return Table(this, query); }

Table TableEnvironment::From(const std::string& path) {
  return Table(this, absl::StrCat("SELECT * FROM ", path));
}

Table TableEnvironment::FromElements(const std::vector<std::vector<api::Expression>>& rows,
                                     const std::vector<std::string>& names) {
  std::vector<std::string> tuples, columns;
  for (const auto& row : rows) tuples.push_back("(" + JoinSql(row) + ")");
  for (const auto& n : names) columns.push_back(api::QuoteIdentifier(n));
  return Table(this, absl::StrCat("SELECT * FROM (VALUES ", absl::StrJoin(tuples, ", "), ") AS ",
                                  NextAlias(), "(", absl::StrJoin(columns, ", "), ")"));
}

absl::Status TableEnvironment::CreateTemporarySystemFunction(const std::string& name,
                                                             const std::string& symbol,
                                                             const std::string& library_path) {
  ASSIGN_OR_RETURN(TableResult r, ExecuteSql(absl::StrCat(
                                      "CREATE TEMPORARY SYSTEM FUNCTION ",
                                      api::QuoteIdentifier(name), " AS ", api::Lit(symbol).sql(),
                                      " LANGUAGE CPP USING JAR ", api::Lit(library_path).sql())));
  return absl::OkStatus();
}

absl::Status TableEnvironment::DropTemporarySystemFunction(const std::string& name) {
  ASSIGN_OR_RETURN(TableResult r, ExecuteSql(absl::StrCat("DROP TEMPORARY SYSTEM FUNCTION ",
                                                          api::QuoteIdentifier(name))));
  return absl::OkStatus();
}

absl::StatusOr<TableStream> TableEnvironment::FromStream(const StreamSchema& schema,
                                                         const StreamOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<StreamWriter> writer,
                   StreamWriter::Open(client_.get(), schema, options));
  Table table = From(writer->table_path());
  return TableStream{std::move(table), std::move(writer)};
}

absl::Status TableEnvironment::CreateTemporaryView(const std::string& name, const Table& table) {
  ASSIGN_OR_RETURN(TableResult r,
                   ExecuteSql(absl::StrCat("CREATE TEMPORARY VIEW ", api::QuoteIdentifier(name),
                                           " AS ", table.sql())));
  return absl::OkStatus();
}

}  // namespace eddy
