// Binary columns (BYTES, VARBINARY(n), BINARY(n)) as the base64 text Flink's json and csv formats
// carry them, and back.
#pragma once

#include "common/batch/column.h"

namespace eddy {

// A STRING column holding the base64 of each value of a binary column (NULL stays NULL).
Column Base64TextColumn(const Column& bytes);

// A column of binary `type` from base64 text; a NULL or malformed value is NULL (the caller
// reports the malformed ones).
Column BinaryFromBase64Text(const Column& text, const DataType& type);

}  // namespace eddy
