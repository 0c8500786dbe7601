// Partition directories of a partitioned filesystem table (PARTITIONED BY), as Flink lays them
// out: one directory level per partition column, `k1=v1/k2=v2`, names and values escaped as
// Flink's PartitionPathUtils escapes them (%XX for '/', '=', ':', '%', control characters, ...),
// NULL and '' written as the table's 'partition.default-name'. The planner lists and prunes them,
// the sink writes into them, the source reads them and turns the values back into typed columns.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/column.h"
#include "common/types/data_type.h"
#include "common/types/value.h"

namespace eddy {

inline constexpr char kDefaultPartitionName[] = "__DEFAULT_PARTITION__";

// One partition: (column, value as text) per partition column, in the order of PARTITIONED BY.
using PartitionSpec = std::vector<std::pair<std::string, std::string>>;

// `s` with every character a path name cannot hold as %XX (upper-case hex).
std::string EscapePartitionName(std::string_view s);
// The same, appended to `out` (no allocation once `out` has grown).
void AppendEscapedPartitionName(std::string_view s, std::string* out);
// The inverse; a '%' not followed by two hex digits stays as it is (as Flink's unescape).
std::string UnescapePartitionName(std::string_view s);

// `k1=v1/k2=v2`, escaped, without a trailing '/'.
std::string PartitionPath(const PartitionSpec& spec);
// Splits a relative directory `k1=v1/k2=v2` (unescaping names and values); an error names the
// directory when a level is not `k=v`.
absl::StatusOr<PartitionSpec> ParsePartitionPath(std::string_view path);
// Whether `path` is a relative partition directory `k1=v1/k2=v2` that stays inside the table's
// directory: at least one level, each level non-empty, holding a '=' and not starting with '.'
// (names read back from a checkpoint or a writer's report are checked with it).
bool IsPartitionPath(std::string_view path);

// `{k1=v1, k2=v2}` as EXPLAIN prints a partition (Flink's `partitions=[{...}, ...]`).
std::string PartitionSpecText(const PartitionSpec& spec);

// The partitions present under the table's directory `dir`: relative directories whose levels
// are `<key i>=<value>` for `keys` in order, skipping names starting with '.' or '_', sorted.
// A missing `dir` has none.
absl::StatusOr<std::vector<std::string>> ListPartitionDirectories(
    const std::string& dir, const std::vector<std::string>& keys);

// The text a partition directory holds for row `row` of `column` (its CAST to STRING), or
// `default_name` for NULL and ''. `texts` is `column` cast to STRING (CastPartitionColumn).
absl::StatusOr<Column> CastPartitionColumn(const Column& column);
std::string_view PartitionValueText(const Column& texts, size_t row,
                                    const std::string& default_name);

// The typed value of a partition directory's `text`: NULL for `default_name`, else the text
// CAST to `type`; an error names the column and the text when it does not convert.
absl::StatusOr<Value> PartitionValue(const std::string& column, const std::string& text,
                                     const DataType& type, const std::string& default_name);

}  // namespace eddy
