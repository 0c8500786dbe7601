// Prints a small text table in the SQL client's tableau style: `+`/`-` borders, a header row, cells
// padded to the column width.
#pragma once

#include <string>

#include "eddy/v1/client.pb.h"

namespace eddy {

std::string FormatTextTable(const v1::TextTable& table);

}  // namespace eddy
