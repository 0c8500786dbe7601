// The functions over ARRAY, MAP and ROW values: the constructors ARRAY[..], MAP[..] and ROW(..),
// element access ITEM (a[i], m[k]), field access FIELD (r.f), CARDINALITY and ELEMENT. Values are
// in the encoding of common/types/collection_codec.h; the function table lists these entries.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/column.h"
#include "common/expr/expr.h"

namespace eddy {

// Types a call of one of the collection functions (Flink's rules: constructor elements take their
// common type; a[i] and m[k] are nullable; an out-of-range index gives NULL).
absl::StatusOr<ExprPtr> ResolveCollectionCall(const std::string& fn, std::vector<ExprPtr> args);

// Computes a resolved collection call over n rows of evaluated arguments.
absl::StatusOr<Column> EvalCollectionCall(const Expr& call, const std::vector<const Column*>& args,
                                          size_t n);

}  // namespace eddy
