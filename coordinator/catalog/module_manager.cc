#include "coordinator/catalog/module_manager.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace eddy {
namespace {

constexpr char kCoreModule[] = "core";

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

absl::Status NoSuchModule(const std::string& name) {
  return absl::InvalidArgumentError(absl::StrCat("No module with name '", name, "' exists"));
}

}  // namespace

bool ModuleManager::IsLoaded(const std::string& name) const { return Contains(loaded_, name); }

absl::Status ModuleManager::Load(const std::string& name, const sql::PropertyList& properties) {
  if (IsLoaded(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("A module with name '", name, "' already exists"));
  }
  for (const auto& [key, value] : properties.entries) {
    if (key == "type") {
      return absl::InvalidArgumentError(absl::StrCat("Property 'type' = '", value,
                                                     "' is not supported since module name is "
                                                     "used to find module"));
    }
  }
  if (name != kCoreModule) {
    return absl::InvalidArgumentError(
        absl::StrCat("Could not find any module factory for identifier '", name,
                     "'. Available module factories are: ", kCoreModule));
  }
  if (!properties.entries.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Unsupported option '",
                                                   properties.entries.front().first,
                                                   "' for module 'core': it takes no options"));
  }
  loaded_.push_back(name);
  used_.push_back(name);
  return absl::OkStatus();
}

absl::Status ModuleManager::Unload(const std::string& name) {
  if (!IsLoaded(name)) return NoSuchModule(name);
  loaded_.erase(std::find(loaded_.begin(), loaded_.end(), name));
  if (auto it = std::find(used_.begin(), used_.end(), name); it != used_.end()) used_.erase(it);
  return absl::OkStatus();
}

absl::Status ModuleManager::Use(const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const std::string& name : names) {
    if (!IsLoaded(name)) return NoSuchModule(name);
    if (!seen.insert(name).second) {
      return absl::InvalidArgumentError(absl::StrCat("Module '", name, "' appears more than once"));
    }
  }
  used_ = names;
  return absl::OkStatus();
}

std::vector<std::pair<std::string, bool>> ModuleManager::All() const {
  std::vector<std::pair<std::string, bool>> all;
  for (const std::string& name : used_) all.emplace_back(name, true);
  for (const std::string& name : loaded_) {
    if (!Contains(used_, name)) all.emplace_back(name, false);
  }
  return all;
}

bool ModuleManager::CoreUsed() const { return Contains(used_, kCoreModule); }

}  // namespace eddy
