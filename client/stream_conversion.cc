#include "client/stream_conversion.h"

#include <sstream>

#include "absl/strings/str_cat.h"
#include "client/table_environment.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<bool> RetractStream::Next(bool* add, ResultRow* row) {
  ASSIGN_OR_RETURN(bool more, rows_.Next(row));
  if (more) *add = row->kind == RowKind::kInsert || row->kind == RowKind::kUpdateAfter;
  return more;
}

std::string FirstUpdatingNode(const std::string& plan) {
  // The optimized physical plan, top-down: the first node whose mode is more than inserts.
  const size_t section = plan.find("== Optimized Physical Plan ==");
  if (section == std::string::npos) return "";
  std::istringstream in(plan.substr(section));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    if (line.empty() || line.rfind("==", 0) == 0) break;
    const size_t mode = line.find(", changelogMode=[");
    if (mode == std::string::npos) continue;
    const size_t end = line.find(']', mode);
    const std::string kinds = line.substr(mode + 17, end - mode - 17);
    if (kinds == "I") return "";
    const size_t name = line.find_first_not_of(" :-+|");
    return line.substr(name, mode - name) + ")";
  }
  return "";
}

absl::StatusOr<ChangelogStream> Table::ToChangelogStream() const {
  ASSIGN_OR_RETURN(TableResult result, Execute());
  ASSIGN_OR_RETURN(RowIterator rows, result.Collect());
  return ChangelogStream(std::move(rows));
}

absl::StatusOr<RetractStream> Table::ToRetractStream() const {
  ASSIGN_OR_RETURN(TableResult result, Execute());
  ASSIGN_OR_RETURN(RowIterator rows, result.Collect());
  return RetractStream(std::move(rows));
}

absl::StatusOr<DataStream> Table::ToDataStream() const {
  // Checked before running, as Flink's planner does.
  ASSIGN_OR_RETURN(std::string plan, Explain(/*changelog_mode=*/true));
  const std::string node = FirstUpdatingNode(plan);
  if (!node.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Table sink '*anonymous_datastream_sink$1*' doesn't support consuming update changes "
        "which is produced by node ",
        node, ": use ToChangelogStream() or ToRetractStream() for an updating table"));
  }
  ASSIGN_OR_RETURN(TableResult result, Execute());
  ASSIGN_OR_RETURN(RowIterator rows, result.Collect());
  return DataStream(std::move(rows));
}

}  // namespace eddy
