// SHOW CREATE TABLE / MATERIALIZED TABLE / VIEW / CATALOG / MODEL: the DDL that recreates a
// catalog object, in Flink's layout (backticked three-part name, one column or clause per line,
// options in the order written; a catalog's options sorted by key, as Flink lists them).
#pragma once

#include <string>

#include "coordinator/catalog/catalog_objects.h"

namespace eddy {

std::string ShowCreateTable(const CatalogTable& table, bool temporary);
// CREATE MATERIALIZED TABLE with its constraint, COMMENT, PARTITIONED BY, WITH, FRESHNESS,
// REFRESH_MODE and defining query (its columns come from the query, so none are listed).
std::string ShowCreateMaterializedTable(const CatalogTable& table);
std::string ShowCreateView(const CatalogView& view, bool temporary);
std::string ShowCreateCatalog(const std::string& name, const CatalogInfo& info);
// CREATE [TEMPORARY] MODEL with its INPUT and OUTPUT columns on one line each, COMMENT and WITH.
std::string ShowCreateModel(const CatalogModel& model, bool temporary);

}  // namespace eddy
