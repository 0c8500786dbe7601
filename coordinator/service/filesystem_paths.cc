#include "coordinator/service/filesystem_paths.h"

#include "absl/strings/str_cat.h"
#include "coordinator/catalog/table_path.h"

namespace eddy {
namespace {

absl::Status Resolve(const std::vector<std::string>& allowed_dirs, const std::string& table,
                     google::protobuf::Map<std::string, std::string>* options) {
  auto it = options->find("path");
  auto canonical =
      CanonicalTablePath(allowed_dirs, table, it == options->end() ? nullptr : &it->second);
  if (!canonical.ok()) return canonical.status();
  it->second = *std::move(canonical);
  return absl::OkStatus();
}

}  // namespace

absl::Status ResolveFilesystemPaths(const std::vector<std::string>& allowed_dirs,
                                    std::vector<v1::PlanNode>* nodes) {
  for (v1::PlanNode& node : *nodes) {
    if (node.has_table_source() && node.table_source().connector() == "filesystem") {
      v1::TableSource* src = node.mutable_table_source();
      absl::Status s = Resolve(allowed_dirs, src->table_name(), src->mutable_options());
      if (!s.ok()) return s;
    } else if (node.has_sink() && node.sink().connector() == "filesystem") {
      v1::TableSink* sink = node.mutable_sink();
      absl::Status s = Resolve(allowed_dirs, sink->table_name(), sink->mutable_options());
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace eddy
