#include "client/statement_set.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "client/table_environment.h"
#include "common/base/status_macros.h"
#include "common/sql/parser.h"

namespace eddy {

StatementSet& StatementSet::AddInsertSql(std::string insert) {
  inserts_.push_back(std::move(insert));
  return *this;
}

StatementSet& StatementSet::AddInsert(const std::string& table, const std::string& query) {
  inserts_.push_back(absl::StrCat("INSERT INTO ", table, " ", query));
  return *this;
}

StatementSet& StatementSet::AddInsert(const std::string& table, const Table& query) {
  return AddInsert(table, query.sql());
}

absl::StatusOr<std::string> StatementSet::Sql() const {
  if (inserts_.empty()) {
    return absl::InvalidArgumentError("the statement set is empty: add at least one INSERT");
  }
  std::string sql = "STATEMENT SET BEGIN\n";
  for (size_t i = 0; i < inserts_.size(); ++i) {
    std::string text(absl::StripAsciiWhitespace(inserts_[i]));
    while (!text.empty() && text.back() == ';') {
      text.pop_back();
      text = std::string(absl::StripTrailingAsciiWhitespace(text));
    }
    auto parsed = sql::ParseStatement(text);
    const std::string where = absl::StrCat("statement ", i + 1, " of the statement set");
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": ", parsed.status().message()));
    }
    if ((*parsed)->kind != sql::StatementKind::kInsert) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, " is not an INSERT (a statement set holds INSERT statements only): ", text));
    }
    absl::StrAppend(&sql, text, ";\n");
  }
  sql += "END";
  return sql;
}

absl::StatusOr<std::string> StatementSet::Explain(bool changelog_mode) const {
  ASSIGN_OR_RETURN(std::string sql, Sql());
  return client_->Explain(sql, changelog_mode);
}

absl::StatusOr<v1::ExecuteStatementResponse> StatementSet::Execute() const {
  ASSIGN_OR_RETURN(std::string sql, Sql());
  return client_->Execute("EXECUTE " + sql);
}

}  // namespace eddy
