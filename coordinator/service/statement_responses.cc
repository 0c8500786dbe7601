#include "coordinator/service/statement_responses.h"

namespace eddy {

using Response = v1::ExecuteStatementResponse;

Response OkResponse(const std::string& message) {
  Response r;
  r.set_kind(Response::OK);
  r.set_message(message);
  return r;
}

Response TableResponse(const std::vector<std::string>& columns,
                       const std::vector<std::vector<std::string>>& rows) {
  Response r;
  r.set_kind(Response::TABLE);
  for (const auto& c : columns) r.mutable_table()->add_column_names(c);
  for (const auto& row : rows) {
    auto* out = r.mutable_table()->add_rows();
    for (const auto& cell : row) {
      out->add_cells(cell);
      out->add_is_null(false);
    }
  }
  return r;
}

Response SingleColumnResponse(const std::string& name, const std::vector<std::string>& values) {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(values.size());
  for (const auto& v : values) rows.push_back({v});
  return TableResponse({name}, rows);
}

}  // namespace eddy
