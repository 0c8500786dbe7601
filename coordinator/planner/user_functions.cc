#include "coordinator/planner/user_functions.h"

#include <filesystem>

#include "absl/strings/ascii.h"
#include "common/base/status_macros.h"
#include "common/expr/aggregate_signature.h"
#include "common/expr/function_registry.h"
#include "common/udf/user_library.h"

namespace eddy::planner {
namespace {

thread_local const SessionCatalog* t_catalog = nullptr;

}  // namespace

UserFunctionScope::UserFunctionScope(const SessionCatalog* catalog) : owner_(t_catalog == nullptr) {
  if (owner_) t_catalog = catalog;
}

UserFunctionScope::~UserFunctionScope() {
  if (owner_) t_catalog = nullptr;
}

absl::StatusOr<std::shared_ptr<const UserFunction>> LoadUserFunction(const CatalogFunction& f) {
  UserLibraries& libraries = UserLibraries::Global();
  if (!f.library_digest.empty()) {
    auto found = libraries.Find(f.library_digest, f.symbol);
    if (found.ok() || !absl::IsFailedPrecondition(found.status())) return found;
  }
  if (f.library == nullptr) {
    return absl::InternalError("user function '" + f.path.object + "' has no library");
  }
  ASSIGN_OR_RETURN(
      std::string digest,
      libraries.Load(f.library, std::filesystem::path(f.library_path).filename().string()));
  return libraries.Find(digest, f.symbol);
}

absl::StatusOr<std::optional<BoundUserFunction>> LookupUserFunction(
    const sql::QualifiedName& name) {
  if (t_catalog == nullptr || name.parts.empty()) return std::nullopt;
  std::shared_ptr<const CatalogFunction> f;
  if (name.parts.size() == 1) {
    f = t_catalog->FindSystemFunction(name.parts[0]);
    if (f == nullptr && (IsKnownFunction(name.parts[0]) || IsBuiltinAggregate(name.parts[0]))) {
      return std::nullopt;
    }
  }
  if (f == nullptr) {
    auto path = t_catalog->Resolve(name);
    if (!path.ok()) return std::nullopt;
    f = t_catalog->FindFunction(*path);
  }
  if (f == nullptr) return std::nullopt;
  ASSIGN_OR_RETURN(std::shared_ptr<const UserFunction> fn, LoadUserFunction(*f));
  return BoundUserFunction{f->path.object, std::move(fn)};
}

bool BuiltinFunctionsResolve() { return t_catalog == nullptr || t_catalog->modules().CoreUsed(); }

}  // namespace eddy::planner
