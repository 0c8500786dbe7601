#include "common/sql/ast.h"

#include "absl/strings/str_join.h"

namespace eddy::sql {

std::string QualifiedName::ToString() const { return absl::StrJoin(parts, "."); }

}  // namespace eddy::sql
