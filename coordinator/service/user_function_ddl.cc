#include "coordinator/service/user_function_ddl.h"

#include <filesystem>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/udf/user_library.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace eddy {
namespace {

absl::Status DdlError(const sql::CreateFunction& ddl, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("Validation error at line ", ddl.name.pos.line,
                                                 ", column ", ddl.name.pos.column, ": function '",
                                                 ddl.name.ToString(), "': ", why));
}

void CollectDigests(const google::protobuf::Message& m, std::set<std::string>* out) {
  if (m.GetDescriptor() == v1::UserFunctionRef::descriptor()) {
    out->insert(static_cast<const v1::UserFunctionRef&>(m).library_digest());
    return;
  }
  const google::protobuf::Reflection* r = m.GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_map()) continue;
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i) {
        CollectDigests(r->GetRepeatedMessage(m, f, i), out);
      }
    } else {
      CollectDigests(r->GetMessage(m, f), out);
    }
  }
}

}  // namespace

absl::Status CreateUserFunction(const sql::CreateFunction& ddl, SessionCatalog& catalog) {
  if (!ddl.language.empty() && ddl.language != "CPP") {
    return DdlError(ddl, absl::StrCat("LANGUAGE ", ddl.language,
                                      " is not supported: functions are written in C++ "
                                      "(LANGUAGE CPP, docs/udf.md)"));
  }
  if (ddl.jars.size() != 1) {
    return DdlError(ddl, ddl.jars.empty()
                             ? "USING JAR '<library>.so' must name the library of the function"
                             : "USING JAR must name exactly one library");
  }
  if (ddl.system && ddl.name.parts.size() != 1) {
    return DdlError(ddl, "a temporary system function has a plain name, no catalog or database");
  }
  CatalogFunction f;
  if (ddl.system) {
    f.path.object = ddl.name.parts[0];
  } else {
    ASSIGN_OR_RETURN(f.path, catalog.Resolve(ddl.name));
  }
  f.symbol = ddl.identifier;
  f.language = "CPP";
  f.library_path = ddl.jars[0];
  UserLibraries& libraries = UserLibraries::Global();
  auto digest = libraries.LoadFile(f.library_path);
  if (!digest.ok()) return DdlError(ddl, std::string(digest.status().message()));
  auto fn = libraries.Find(*digest, f.symbol);
  if (!fn.ok()) return DdlError(ddl, std::string(fn.status().message()));
  f.library_digest = *digest;
  f.library = libraries.Bytes(*digest);
  return catalog.CreateFunction(std::move(f), ddl.temporary, ddl.system, ddl.if_not_exists);
}

absl::StatusOr<std::vector<v1::UserLibrary>> UserLibrariesOf(
    const std::vector<v1::PlanNode>& nodes) {
  std::set<std::string> digests;
  for (const auto& n : nodes) CollectDigests(n, &digests);
  std::vector<v1::UserLibrary> out;
  for (const std::string& digest : digests) {
    std::shared_ptr<const UserLibrary> library = UserLibraries::Global().Library(digest);
    if (library == nullptr) {
      return absl::InternalError(
          absl::StrCat("user function library ", digest.substr(0, 12), " is not loaded"));
    }
    v1::UserLibrary& lib = out.emplace_back();
    lib.set_digest(digest);
    lib.set_name(library->name());
    lib.set_content(*library->bytes());
  }
  return out;
}

}  // namespace eddy
