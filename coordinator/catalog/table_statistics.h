// What ANALYZE TABLE learns about a table (or one partition of it), kept with the table in the
// catalog as Flink's CatalogTableStatistics and CatalogColumnStatistics: the row count, and per
// analyzed column what its type allows (Flink's choice): the null count always; booleans their
// true and false counts; numbers, dates and timestamps the distinct count, minimum and maximum;
// strings the distinct count, average and maximum length in characters.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace eddy {

struct ColumnStatistics {
  std::optional<int64_t> ndv;
  std::optional<int64_t> null_count;
  std::optional<double> avg_length;
  std::optional<int64_t> max_length;
  std::optional<std::string> min;  // the value as SQL prints it
  std::optional<std::string> max;
  std::optional<int64_t> true_count;
  std::optional<int64_t> false_count;
};

struct TableStatistics {
  int64_t row_count = 0;
  std::map<std::string, ColumnStatistics> columns;  // by column name
};

}  // namespace eddy
