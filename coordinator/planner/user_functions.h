// How the binder finds user-defined functions (CREATE FUNCTION): a call's name is looked up as
// Flink does, temporary system functions first, then the built-ins, then temporary and permanent
// catalog functions of the resolved path. The session catalog is installed for the thread by the
// outermost Binder (UserFunctionScope), so expression binding needs no extra parameter.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "common/udf/user_function.h"
#include "coordinator/catalog/catalog.h"

namespace eddy::planner {

// Makes `catalog` the one LookupUserFunction reads on this thread while it lives; a scope created
// while another is active (a nested Binder, a copy) changes nothing.
class UserFunctionScope {
 public:
  explicit UserFunctionScope(const SessionCatalog* catalog);
  UserFunctionScope(const UserFunctionScope&) : owner_(false) {}
  UserFunctionScope& operator=(const UserFunctionScope&) { return *this; }
  ~UserFunctionScope();

 private:
  bool owner_;
};

struct BoundUserFunction {
  std::string name;  // as calls carry it: the registered name
  std::shared_ptr<const UserFunction> function;
};

// The user function `name` calls, or nullopt when it calls a built-in or nothing user-defined.
absl::StatusOr<std::optional<BoundUserFunction>> LookupUserFunction(const sql::QualifiedName& name);

// Whether built-in function names resolve: the session's core module is in use (USE MODULES,
// UNLOAD MODULE); true outside a session.
bool BuiltinFunctionsResolve();

// `f`'s library loaded (once per process) and its symbol checked.
absl::StatusOr<std::shared_ptr<const UserFunction>> LoadUserFunction(const CatalogFunction& f);

}  // namespace eddy::planner
