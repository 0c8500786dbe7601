#include "coordinator/service/analyze_table.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/batch/batch_codec.h"
#include "common/connectors/partition_path.h"
#include "common/sql/parser.h"
#include "common/types/value.h"
#include "coordinator/planner/config_values.h"
#include "coordinator/planner/planner.h"

namespace eddy {
namespace {

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat("Validation error: ", message));
}

std::string Identifier(const ObjectPath& path) { return path.ToQuotedString(); }

// What Flink computes for a column of this type besides its null count.
enum class StatsKind { kNullsOnly, kBoolean, kRange, kString };

StatsKind KindOf(const DataType& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return StatsKind::kBoolean;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
      return StatsKind::kRange;
    case TypeId::kString:
      return StatsKind::kString;
    default:
      return StatsKind::kNullsOnly;
  }
}

// The statistics query's select list for one column, in the order ColumnFromRow reads it.
std::vector<std::string> ColumnSelects(const std::string& name, const DataType& type) {
  const std::string c = ObjectPath::Quoted(name);
  std::vector<std::string> out = {absl::StrCat("COUNT(*) - COUNT(", c, ")")};
  switch (KindOf(type)) {
    case StatsKind::kBoolean:
      out.push_back(absl::StrCat("COUNT(CASE WHEN ", c, " IS TRUE THEN 1 END)"));
      out.push_back(absl::StrCat("COUNT(CASE WHEN ", c, " IS FALSE THEN 1 END)"));
      break;
    case StatsKind::kRange:
      out.push_back(absl::StrCat("COUNT(DISTINCT ", c, ")"));
      out.push_back(absl::StrCat("MAX(", c, ")"));
      out.push_back(absl::StrCat("MIN(", c, ")"));
      break;
    case StatsKind::kString:
      out.push_back(absl::StrCat("COUNT(DISTINCT ", c, ")"));
      out.push_back(absl::StrCat("AVG(CAST(CHAR_LENGTH(", c, ") AS DOUBLE))"));
      out.push_back(absl::StrCat("MAX(CAST(CHAR_LENGTH(", c, ") AS BIGINT))"));
      break;
    case StatsKind::kNullsOnly:
      break;
  }
  return out;
}

std::optional<int64_t> IntAt(const ChangelogBatch& b, size_t row, size_t column) {
  Value v = b.column(column).GetValue(row);
  if (v.is_null()) return std::nullopt;
  return v.int_value();
}

// Reads one column's statistics from `row` of the result, starting at `*next`.
ColumnStatistics ColumnFromRow(const ChangelogBatch& b, size_t row, const DataType& type,
                               size_t* next) {
  ColumnStatistics s;
  s.null_count = IntAt(b, row, (*next)++);
  switch (KindOf(type)) {
    case StatsKind::kBoolean:
      s.true_count = IntAt(b, row, (*next)++);
      s.false_count = IntAt(b, row, (*next)++);
      break;
    case StatsKind::kRange: {
      s.ndv = IntAt(b, row, (*next)++);
      for (std::optional<std::string>* bound : {&s.max, &s.min}) {
        const Column& column = b.column((*next)++);
        Value v = column.GetValue(row);
        if (!v.is_null()) *bound = FormatValue(v, column.type());
      }
      break;
    }
    case StatsKind::kString: {
      s.ndv = IntAt(b, row, (*next)++);
      Value avg = b.column((*next)++).GetValue(row);
      if (!avg.is_null()) s.avg_length = avg.double_value();
      s.max_length = IntAt(b, row, (*next)++);
      break;
    }
    case StatsKind::kNullsOnly:
      break;
  }
  return s;
}

struct Target {
  std::shared_ptr<const CatalogTable> table;
  // A partitioned table's partitions to analyze: each one's path and typed values.
  std::vector<std::pair<std::string, std::vector<Value>>> partitions;
  std::vector<int> columns;  // schema indexes, in the order given
};

absl::StatusOr<Target> Validate(const Session& session, const ObjectPath& path,
                                const sql::AnalyzeTable& analyze) {
  const SessionCatalog& catalog = session.catalog;
  Target target;
  target.table = catalog.FindTable(path);
  if (target.table == nullptr || catalog.IsTemporary(path)) {
    if (catalog.FindView(path) != nullptr && !catalog.IsTemporary(path)) {
      return Invalid("ANALYZE TABLE for a view is not allowed.");
    }
    return Invalid(
        absl::StrCat("Table ", Identifier(path), " doesn't exist or is a temporary table."));
  }
  const CatalogTable& table = *target.table;
  std::vector<std::string> given;
  for (const sql::PartitionValueDef& p : analyze.partition) given.push_back(p.column);
  if (!table.partition_keys.empty()) {
    std::vector<std::string> sorted_given = given, sorted_keys = table.partition_keys;
    std::sort(sorted_given.begin(), sorted_given.end());
    std::sort(sorted_keys.begin(), sorted_keys.end());
    if (sorted_given != sorted_keys) {
      return Invalid(absl::StrCat(
          "Invalid ANALYZE TABLE statement. For partition table, all partition keys should be "
          "specified explicitly. The given partition keys: [",
          absl::StrJoin(given, ","), "] are not match the target partition keys: [",
          absl::StrJoin(table.partition_keys, ","), "]."));
    }
    const std::string* default_name = table.FindOption("partition.default-name");
    const std::string fallback = default_name ? *default_name : kDefaultPartitionName;
    // The values asked for, typed as the columns are.
    std::map<std::string, Value> wanted;
    for (const sql::PartitionValueDef& p : analyze.partition) {
      if (p.any) continue;
      const int c = table.schema.FindField(p.column).value_or(-1);
      if (c < 0) return Invalid(absl::StrCat("unknown partition column '", p.column, "'"));
      if (p.null) {
        wanted[p.column] = Value::Null();
        continue;
      }
      absl::StatusOr<Value> v =
          PartitionValue(p.column, p.value, table.schema.fields[c].type, fallback);
      if (!v.ok()) {
        return Invalid(absl::StrCat("partition value '", p.value, "' of column '", p.column,
                                    "': ", v.status().message()));
      }
      wanted[p.column] = *std::move(v);
    }
    ASSIGN_OR_RETURN(std::vector<std::string> dirs, catalog.catalog()->ListPartitions(table));
    for (const std::string& dir : dirs) {
      ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionPath(dir));
      std::vector<Value> values(table.partition_keys.size());
      bool match = spec.size() == table.partition_keys.size();
      for (size_t k = 0; match && k < spec.size(); ++k) {
        const int c = table.schema.FindField(spec[k].first).value_or(-1);
        if (c < 0) {
          match = false;
          break;
        }
        ASSIGN_OR_RETURN(values[k], PartitionValue(spec[k].first, spec[k].second,
                                                   table.schema.fields[c].type, fallback));
        auto it = wanted.find(spec[k].first);
        if (it != wanted.end() && !(it->second == values[k])) match = false;
      }
      if (match) target.partitions.emplace_back(dir, std::move(values));
    }
  } else if (!given.empty()) {
    return Invalid(absl::StrCat("Invalid ANALYZE TABLE statement. Table: ", Identifier(path),
                                " is not a partition table, while partition values are given."));
  }
  if (analyze.all_columns) {
    for (size_t c = 0; c < table.schema.fields.size(); ++c) {
      if (!table.IsComputed(c) && !table.IsMetadata(c)) target.columns.push_back(c);
    }
  }
  for (const std::string& name : analyze.columns) {
    const int c = table.schema.FindField(name).value_or(-1);
    if (c < 0) {
      return Invalid(
          absl::StrCat("Column: ", name, " does not exist in the table: ", Identifier(path), "."));
    }
    if (table.IsComputed(c)) {
      return Invalid(absl::StrCat("Column: ", name,
                                  " is a computed column, ANALYZE TABLE does not support "
                                  "computed column."));
    }
    if (table.IsMetadata(c)) {
      return Invalid(absl::StrCat("Column: ", name,
                                  " is a metadata column, ANALYZE TABLE does not support "
                                  "metadata column."));
    }
    target.columns.push_back(c);
  }
  return target;
}

// `SELECT COUNT(*), <column stats> [, partition keys] FROM t [GROUP BY partition keys]`.
std::string StatisticsQuery(const ObjectPath& path, const Target& target) {
  const CatalogTable& table = *target.table;
  std::vector<std::string> selects = {"COUNT(*)"};
  for (int c : target.columns) {
    for (std::string& s : ColumnSelects(table.schema.fields[c].name, table.schema.fields[c].type)) {
      selects.push_back(std::move(s));
    }
  }
  std::vector<std::string> keys;
  for (const std::string& k : table.partition_keys) keys.push_back(ObjectPath::Quoted(k));
  for (const std::string& k : keys) selects.push_back(k);
  std::string sql =
      absl::StrCat("SELECT ", absl::StrJoin(selects, ", "), " FROM ", Identifier(path));
  if (!keys.empty()) absl::StrAppend(&sql, " GROUP BY ", absl::StrJoin(keys, ", "));
  return sql;
}

// Runs the query as a batch job and returns its rows.
absl::StatusOr<std::vector<ChangelogBatch>> RunQuery(JobManager* jobs, Session& session,
                                                     const std::string& sql,
                                                     const SubmitOptions& options) {
  ASSIGN_OR_RETURN(sql::StatementPtr stmt, sql::ParseStatement(sql));
  if (stmt->kind != sql::StatementKind::kQuery || stmt->query == nullptr) {
    return absl::InternalError("the statistics query does not parse as a query");
  }
  ASSIGN_OR_RETURN(PlannedQuery planned, PlanQuery(*stmt->query, session.catalog, session.config));
  ASSIGN_OR_RETURN(std::string job_id,
                   SubmitPlanned(jobs, session, planned.job, options, JobKind::kStatistics));
  std::vector<ChangelogBatch> batches;
  while (true) {
    v1::FetchResultsResponse response;
    absl::Status fetched = jobs->FetchResults(job_id, 1000, &response);
    if (!fetched.ok()) {
      // A lost worker restarts the job (by its restart strategy); its rows come from the next
      // attempt. Rows an earlier attempt handed over are the same rows: the statistics are
      // keyed, so a repeated row overwrites its twin.
      absl::StatusOr<v1::JobInfo> info = jobs->Get(job_id);
      if (!info.ok() || info->status() == v1::JOB_STATUS_FAILED ||
          info->status() == v1::JOB_STATUS_CANCELED) {
        return fetched;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    for (const v1::ChangelogBatch& b : response.batches()) {
      ASSIGN_OR_RETURN(ChangelogBatch batch, DecodeBatch(b));
      batches.push_back(std::move(batch));
    }
    if (response.end()) return batches;
  }
}

// The old statistics with the new row count and the new columns' statistics over theirs.
TableStatistics Merged(const std::optional<TableStatistics>& old, TableStatistics fresh) {
  if (!old) return fresh;
  TableStatistics merged = *old;
  merged.row_count = fresh.row_count;
  for (auto& [name, c] : fresh.columns) merged.columns[name] = std::move(c);
  return merged;
}

}  // namespace

absl::Status AnalyzeTable(JobManager* jobs, Session& session, const sql::AnalyzeTable& analyze,
                          const SubmitOptions& options) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(analyze.table));
  ASSIGN_OR_RETURN(Target target, Validate(session, path, analyze));
  if (!planner::IsBatchMode(session.config)) {
    return absl::InvalidArgumentError("ANALYZE TABLE is not supported for streaming mode now");
  }
  const CatalogTable& table = *target.table;
  if (!table.partition_keys.empty() && target.partitions.empty()) {
    return absl::OkStatus();  // no partition matches: nothing to analyze, as Flink
  }
  ASSIGN_OR_RETURN(std::vector<ChangelogBatch> batches,
                   RunQuery(jobs, session, StatisticsQuery(path, target), options));

  // Per result row: its statistics, keyed by partition path ("" for the whole table).
  std::map<std::string, TableStatistics> results;
  for (const ChangelogBatch& b : batches) {
    for (size_t row = 0; row < b.num_rows(); ++row) {
      TableStatistics stats;
      size_t next = 0;
      stats.row_count = IntAt(b, row, next++).value_or(0);
      for (int c : target.columns) {
        stats.columns[table.schema.fields[c].name] =
            ColumnFromRow(b, row, table.schema.fields[c].type, &next);
      }
      std::string key;
      if (!table.partition_keys.empty()) {
        std::vector<Value> values;
        for (size_t k = 0; k < table.partition_keys.size(); ++k) {
          values.push_back(b.column(next + k).GetValue(row));
        }
        for (const auto& [dir, typed] : target.partitions) {
          if (typed == values) key = dir;
        }
        if (key.empty()) continue;  // a partition not asked for
      }
      results[key] = std::move(stats);
    }
  }
  return session.catalog.catalog()->UpdateStatistics(path, [&](CatalogTable& t) {
    if (t.partition_keys.empty()) {
      TableStatistics fresh;
      if (auto it = results.find(""); it != results.end()) fresh = std::move(it->second);
      t.statistics = Merged(t.statistics, std::move(fresh));
      return;
    }
    for (const auto& [dir, typed] : target.partitions) {
      TableStatistics fresh;  // a partition without rows: 0 rows
      if (auto it = results.find(dir); it != results.end()) fresh = std::move(it->second);
      std::optional<TableStatistics> old;
      if (auto it = t.partition_statistics.find(dir); it != t.partition_statistics.end()) {
        old = it->second;
      }
      t.partition_statistics[dir] = Merged(old, std::move(fresh));
    }
  });
}

}  // namespace eddy
