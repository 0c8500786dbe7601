#include "common/types/type_proto.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

void TypeToProto(const DataType& t, v1::DataType* out) {
  out->set_id(static_cast<v1::TypeId>(t.id));
  out->set_precision(t.precision);
  out->set_scale(t.scale);
  out->set_length(t.length);
  out->set_nullable(t.nullable);
}

absl::StatusOr<DataType> TypeFromProto(const v1::DataType& p) {
  if (p.id() < 0 || p.id() > static_cast<int>(TypeId::kTimestampLtz)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown type id ", p.id()));
  }
  DataType t;
  t.id = static_cast<TypeId>(p.id());
  t.precision = p.precision();
  t.scale = p.scale();
  t.length = p.length();
  t.nullable = p.nullable();
  return t;
}

void SchemaToProto(const Schema& s, v1::Schema* out) {
  for (const auto& f : s.fields) {
    auto* pf = out->add_fields();
    pf->set_name(f.name);
    TypeToProto(f.type, pf->mutable_type());
  }
}

absl::StatusOr<Schema> SchemaFromProto(const v1::Schema& p) {
  Schema s;
  for (const auto& pf : p.fields()) {
    ASSIGN_OR_RETURN(DataType t, TypeFromProto(pf.type()));
    s.fields.push_back({pf.name(), t});
  }
  return s;
}

}  // namespace eddy
