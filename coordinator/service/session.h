// A client session on the coordinator: its SET configuration and its view of the catalog (current
// catalog/database, temporary objects). Statements of one session run one at a time.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "coordinator/catalog/catalog.h"

namespace eddy {

struct Session {
  explicit Session(Catalog* catalog) : catalog(catalog) {}
  std::mutex mu;  // held while a statement of this session runs
  SessionCatalog catalog;
  std::map<std::string, std::string> config;
  // ADD JAR: user function libraries, in the order added, where CREATE FUNCTION without USING JAR
  // looks for its symbol.
  std::vector<std::string> jars;
};

}  // namespace eddy
