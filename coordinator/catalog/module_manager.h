// The modules a session resolves built-in function names in, as Flink's ModuleManager keeps them:
// the modules loaded (LOAD MODULE / UNLOAD MODULE) and, in resolution order, those of them in use
// (USE MODULES). Eddy has one module, `core`, which holds every built-in function; while it is not
// in use, calling a built-in function is an error, and LOAD MODULE core brings it back.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "common/sql/ast.h"

namespace eddy {

class ModuleManager {
 public:
  // LOAD MODULE `name` [WITH (properties)]: the module is loaded and used, after those in use.
  absl::Status Load(const std::string& name, const sql::PropertyList& properties);
  // UNLOAD MODULE `name`.
  absl::Status Unload(const std::string& name);
  // USE MODULES `names`: exactly these loaded modules are used, in this order.
  absl::Status Use(const std::vector<std::string>& names);

  // SHOW MODULES: the modules in use, in resolution order.
  const std::vector<std::string>& used() const { return used_; }
  // SHOW FULL MODULES: the used modules in resolution order, then the others in load order, each
  // with whether it is used.
  std::vector<std::pair<std::string, bool>> All() const;
  // Whether built-in functions resolve (the core module is in use).
  bool CoreUsed() const;

 private:
  bool IsLoaded(const std::string& name) const;
  std::vector<std::string> loaded_ = {"core"};  // in load order
  std::vector<std::string> used_ = {"core"};    // in resolution order
};

}  // namespace eddy
