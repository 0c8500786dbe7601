#include "common/types/type_proto.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

void TypeToProto(const DataType& t, v1::DataType* out) {
  out->set_id(static_cast<v1::TypeId>(t.id));
  out->set_precision(t.precision);
  out->set_scale(t.scale);
  out->set_length(t.length);
  out->set_fixed_length(t.fixed_length);
  out->set_nullable(t.nullable);
  for (const Field& f : t.fields()) {
    TypeToProto(f.type, out->add_children());
    if (t.id == TypeId::kRow) out->add_field_names(f.name);
  }
}

absl::StatusOr<DataType> TypeFromProto(const v1::DataType& p) {
  if (p.id() < 0 || p.id() > static_cast<int>(TypeId::kIntervalYearMonth)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown type id ", p.id()));
  }
  const TypeId id = static_cast<TypeId>(p.id());
  std::vector<DataType> children;
  for (const auto& c : p.children()) {
    ASSIGN_OR_RETURN(DataType child, TypeFromProto(c));
    children.push_back(std::move(child));
  }
  const size_t expected_children = id == TypeId::kArray ? 1 : id == TypeId::kMap ? 2 : 0;
  if (id == TypeId::kRow ? (children.empty() || p.field_names_size() != p.children_size())
                         : children.size() != expected_children) {
    return absl::InvalidArgumentError(
        absl::StrCat("type id ", p.id(), " with ", children.size(), " child types"));
  }
  DataType t;
  if (id == TypeId::kArray) t = DataType::Array(children[0]);
  if (id == TypeId::kMap) t = DataType::Map(children[0], children[1]);
  if (id == TypeId::kRow) {
    std::vector<Field> fields;
    for (size_t i = 0; i < children.size(); ++i) fields.push_back({p.field_names(i), children[i]});
    t = DataType::Row(std::move(fields));
  }
  t.id = id;
  t.precision = p.precision();
  t.scale = p.scale();
  t.length = p.length();
  t.fixed_length = p.fixed_length();
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
