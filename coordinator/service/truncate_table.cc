#include "coordinator/service/truncate_table.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/connectors/partition_path.h"
#include "coordinator/catalog/table_path.h"
#include "coordinator/planner/config_values.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

absl::Status TruncateError(const ObjectPath& path, const std::string& what,
                           const std::error_code& ec) {
  return absl::DataLossError(
      absl::StrCat("TRUNCATE TABLE ", path.ToString(), ": cannot ", what, ": ", ec.message()));
}

// The files readers see (not hidden '.', not markers '_') go, and for a partitioned table every
// partition directory with all it holds. Hidden files and directories (a running job's in-progress
// parts and staging) stay.
absl::Status RemoveTableFiles(const ObjectPath& table, const std::string& dir, bool partitioned) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return absl::OkStatus();
  if (fs::is_regular_file(dir, ec)) {  // a table that is one file
    fs::resize_file(dir, 0, ec);
    return ec ? TruncateError(table, absl::StrCat("empty '", dir, "'"), ec) : absl::OkStatus();
  }
  std::vector<fs::path> doomed;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.' || name[0] == '_') continue;
    if (entry.is_regular_file() || (partitioned && entry.is_directory() && IsPartitionPath(name))) {
      doomed.push_back(entry.path());
    }
  }
  if (ec) return TruncateError(table, absl::StrCat("list '", dir, "'"), ec);
  for (const fs::path& p : doomed) {
    fs::remove_all(p, ec);
    if (ec) return TruncateError(table, absl::StrCat("remove '", p.string(), "'"), ec);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status TruncateTable(Session& session, const sql::TruncateTable& truncate,
                           const SubmitOptions& options) {
  if (!planner::IsBatchMode(session.config)) {
    return absl::InvalidArgumentError(
        "TRUNCATE TABLE statement is not supported in streaming mode.");
  }
  const SessionCatalog& catalog = session.catalog;
  ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(truncate.table));
  std::shared_ptr<const CatalogTable> table = catalog.FindTable(path);
  if (table == nullptr) {
    if (catalog.FindView(path) != nullptr) {
      return absl::InvalidArgumentError("TRUNCATE TABLE statement is not supported for view.");
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "Cannot find table '", path.ToQuotedString(), "' in any of the catalogs [",
        absl::StrJoin(catalog.catalog()->ListCatalogs(), ", "), "], nor as a temporary table."));
  }
  const std::string* connector = table->FindOption("connector");
  if (connector == nullptr || *connector != "filesystem") {
    return absl::InvalidArgumentError(
        absl::StrCat("TRUNCATE TABLE statement is not supported for the table ", path.ToString(),
                     " since its connector '", connector ? *connector : "",
                     "' cannot truncate a table (only ", "filesystem tables can)."));
  }
  ASSIGN_OR_RETURN(std::string dir, CanonicalTablePath(options.filesystem_allowed_dirs,
                                                       path.ToString(), table->FindOption("path")));
  return RemoveTableFiles(path, dir, !table->partition_keys.empty());
}

}  // namespace eddy
