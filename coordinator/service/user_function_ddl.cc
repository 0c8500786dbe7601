#include "coordinator/service/user_function_ddl.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "absl/strings/ascii.h"
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

absl::Status CreateUserFunction(const sql::CreateFunction& ddl, SessionCatalog& catalog,
                                const std::vector<std::string>& session_jars) {
  if (!ddl.language.empty() && ddl.language != "CPP") {
    return DdlError(ddl, absl::StrCat("LANGUAGE ", ddl.language,
                                      " is not supported: functions are written in C++ "
                                      "(LANGUAGE CPP, docs/udf.md)"));
  }
  if (ddl.jars.size() > 1) return DdlError(ddl, "USING JAR must name exactly one library");
  if (ddl.system && ddl.name.parts.size() != 1) {
    return DdlError(ddl, "a temporary system function has a plain name, no catalog or database");
  }
  // ALTER FUNCTION changes a catalog's function; temporary ones are refused, as in Flink.
  if (ddl.alter && ddl.temporary) {
    return DdlError(ddl, ddl.system ? "Alter temporary system function is not supported"
                                    : "Alter temporary catalog function is not supported");
  }
  CatalogFunction f;
  if (ddl.system) {
    f.path.object = ddl.name.parts[0];
  } else {
    ASSIGN_OR_RETURN(f.path, catalog.Resolve(ddl.name));
    f.path.object = absl::AsciiStrToLower(f.path.object);
  }
  std::shared_ptr<const CatalogFunction> altered;
  if (ddl.alter) {
    altered = catalog.catalog()->FindFunction(f.path);
    if (altered == nullptr) {
      if (ddl.if_exists) return absl::OkStatus();
      return DdlError(ddl, absl::StrCat("Function ", f.path.ToString(), " does not exist"));
    }
  }
  f.symbol = ddl.identifier;
  f.language = "CPP";
  UserLibraries& libraries = UserLibraries::Global();
  absl::StatusOr<std::string> digest;
  if (altered != nullptr && ddl.jars.empty() && altered->library != nullptr) {
    // ALTER without USING JAR: the symbol in the function's own library first.
    absl::StatusOr<std::string> own = libraries.Load(
        altered->library, std::filesystem::path(altered->library_path).filename().string());
    if (own.ok() && libraries.Find(*own, f.symbol).ok()) {
      f.library_path = altered->library_path;
      digest = std::move(own);
    }
  }
  if (f.library_path.empty()) {
    if (!ddl.jars.empty()) {
      f.library_path = ddl.jars[0];
      digest = libraries.LoadFile(f.library_path);
      if (!digest.ok()) return DdlError(ddl, std::string(digest.status().message()));
      auto fn = libraries.Find(*digest, f.symbol);
      if (!fn.ok()) return DdlError(ddl, std::string(fn.status().message()));
    } else {
      // Without USING JAR: the first library the session added with ADD JAR that exports it.
      for (const std::string& jar : session_jars) {
        absl::StatusOr<std::string> candidate = libraries.LoadFile(jar);
        if (!candidate.ok() || !libraries.Find(*candidate, f.symbol).ok()) continue;
        f.library_path = jar;
        digest = std::move(candidate);
        break;
      }
      if (f.library_path.empty()) {
        if (altered != nullptr && session_jars.empty()) {
          return DdlError(
              ddl, absl::StrCat("its library '", altered->library_path, "' exports no function '",
                                f.symbol, "'; name the library that does with USING JAR"));
        }
        return DdlError(
            ddl, session_jars.empty()
                     ? "USING JAR '<library>.so' must name the library of the function, or the "
                       "session must add it first with ADD JAR"
                     : absl::StrCat("no library added with ADD JAR exports a function '", f.symbol,
                                    "' (SHOW JARS lists them); name its library with USING JAR"));
      }
    }
  }
  f.library_digest = *digest;
  f.library = libraries.Bytes(*digest);
  if (altered != nullptr) {
    // The new definition replaces the old one; if it cannot be stored, the old one comes back.
    RETURN_IF_ERROR(catalog.catalog()->DropFunction(altered->path));
    absl::Status created = catalog.catalog()->CreateFunction(std::move(f), false);
    if (!created.ok()) (void)catalog.catalog()->CreateFunction(*altered, false);
    return created;
  }
  return catalog.CreateFunction(std::move(f), ddl.temporary, ddl.system, ddl.if_not_exists);
}

absl::Status ExecuteJarStatement(const sql::JarStatement& jar, std::vector<std::string>* jars) {
  auto it = std::find(jars->begin(), jars->end(), jar.path);
  if (jar.remove) {
    if (it == jars->end()) {
      return absl::NotFoundError(absl::StrCat("REMOVE JAR '", jar.path,
                                              "': the session has not added it (SHOW JARS lists "
                                              "what it has)"));
    }
    jars->erase(it);
    return absl::OkStatus();
  }
  absl::StatusOr<std::string> digest = UserLibraries::Global().LoadFile(jar.path);
  if (!digest.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ADD JAR '", jar.path, "': ", digest.status().message()));
  }
  if (it == jars->end()) jars->push_back(jar.path);
  return absl::OkStatus();
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
