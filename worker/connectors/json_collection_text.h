// ARRAY, MAP and ROW columns in the json format, as Flink's json format maps them: a JSON array is
// an ARRAY, an object a MAP (its member names are the keys, read as the key type) or a ROW (members
// matched to fields by exact name, a missing member NULL, unknown members ignored), nested to any
// depth; scalars convert as the json format converts column values. Writing gives the same shapes
// back (MAP keys as member names, DATE and TIMESTAMP as strings).
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/batch/column.h"
#include "common/types/data_type.h"

namespace eddy {

// A column of `type` (a collection) from a STRING column of JSON texts; a text that is not a value
// of the type becomes NULL (the caller reports it, as for any unparsable field).
Column CollectionsFromJsonText(const Column& text, const DataType& type);

// Appends the JSON text of one encoded collection value of `type`.
void AppendCollectionJson(std::string_view encoded, const DataType& type, std::string* out);

}  // namespace eddy
