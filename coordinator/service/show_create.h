// SHOW CREATE TABLE / VIEW: the DDL that recreates a catalog object, in Flink's layout
// (backticked three-part name, one column or clause per line, options in the order written).
#pragma once

#include <string>

#include "coordinator/catalog/catalog_objects.h"

namespace eddy {

std::string ShowCreateTable(const CatalogTable& table, bool temporary);
std::string ShowCreateView(const CatalogView& view, bool temporary);

}  // namespace eddy
