// What the catalog stores: tables (schema, primary key, connector options) and views (query text),
// each under a three-part path catalog.database.object.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/types/data_type.h"

namespace eddy {

struct ObjectPath {
  std::string catalog;
  std::string database;
  std::string object;

  std::string ToString() const { return catalog + "." + database + "." + object; }
  // `[[default_catalog, default_database, words]]` as EXPLAIN prints table names.
  std::string ToExplainString() const {
    return "[[" + catalog + ", " + database + ", " + object + "]]";
  }
  bool operator<(const ObjectPath& o) const {
    return std::tie(catalog, database, object) < std::tie(o.catalog, o.database, o.object);
  }
  bool operator==(const ObjectPath& o) const {
    return catalog == o.catalog && database == o.database && object == o.object;
  }
};

using OptionList = std::vector<std::pair<std::string, std::string>>;  // in the order written

struct CatalogTable {
  ObjectPath path;
  Schema schema;
  std::vector<std::string> primary_key;
  OptionList options;
  std::string watermark_column;  // empty: none
  std::string watermark_expr;    // SQL text
  std::string comment;

  const std::string* FindOption(const std::string& key) const {
    for (const auto& [k, v] : options) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  std::string connector() const {
    const std::string* c = FindOption("connector");
    return c ? *c : "";
  }
};

struct CatalogView {
  ObjectPath path;
  std::string query_text;
  std::vector<std::string> column_aliases;
  Schema schema;  // as bound when the view was created
};

}  // namespace eddy
