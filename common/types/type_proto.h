// Conversion between DataType/Schema and their protobuf messages (proto/eddy/v1/types.proto).
#pragma once

#include "absl/status/statusor.h"
#include "common/types/data_type.h"
#include "eddy/v1/types.pb.h"

namespace eddy {

void TypeToProto(const DataType& t, v1::DataType* out);
absl::StatusOr<DataType> TypeFromProto(const v1::DataType& p);
void SchemaToProto(const Schema& s, v1::Schema* out);
absl::StatusOr<Schema> SchemaFromProto(const v1::Schema& p);

}  // namespace eddy
