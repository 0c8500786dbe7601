#include "client/table_printer.h"

#include <algorithm>
#include <vector>

namespace eddy {

std::string FormatTextTable(const v1::TextTable& table) {
  // As the SQL client answers a SHOW that finds nothing.
  if (table.rows_size() == 0) return "Empty set\n";
  const int n = table.column_names_size();
  std::vector<size_t> width(n);
  for (int c = 0; c < n; ++c) width[c] = table.column_names(c).size();
  for (const auto& row : table.rows()) {
    for (int c = 0; c < n && c < row.cells_size(); ++c) {
      width[c] = std::max(width[c], row.cells(c).size());
    }
  }
  std::string border = "+";
  for (int c = 0; c < n; ++c) border += std::string(width[c] + 2, '-') + "+";
  border += "\n";
  auto line = [&](auto cell_at) {
    std::string s = "|";
    for (int c = 0; c < n; ++c) {
      std::string cell = cell_at(c);
      s += " " + cell + std::string(width[c] - cell.size(), ' ') + " |";
    }
    return s + "\n";
  };
  std::string out = border;
  out += line([&](int c) { return table.column_names(c); });
  out += border;
  for (const auto& row : table.rows()) {
    out += line([&](int c) { return c < row.cells_size() ? row.cells(c) : std::string(); });
  }
  out += border;
  size_t rows = table.rows_size();
  out += std::to_string(rows) + (rows == 1 ? " row in set\n" : " rows in set\n");
  return out;
}

}  // namespace eddy
