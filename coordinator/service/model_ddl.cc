#include "coordinator/service/model_ddl.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/type_spec.h"
#include "coordinator/service/show_create.h"
#include "coordinator/service/statement_responses.h"

namespace eddy {
namespace {

using Response = v1::ExecuteStatementResponse;

// The columns of INPUT (...) or OUTPUT (...) and their comments (none when no column has one).
absl::Status BindColumns(const std::vector<sql::ModelColumnDef>& defs, const char* which,
                         Schema* schema, std::vector<std::string>* comments) {
  std::set<std::string> seen;
  bool any_comment = false;
  for (const sql::ModelColumnDef& def : defs) {
    if (!seen.insert(def.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Duplicate ", which, " column name: '", def.name, "'."));
    }
    ASSIGN_OR_RETURN(DataType type, planner::TypeFromSpec(def.type));
    schema->fields.push_back({def.name, type});
    comments->push_back(def.comment.value_or(""));
    any_comment |= def.comment.has_value();
  }
  if (!any_comment) comments->clear();
  return absl::OkStatus();
}

absl::Status CreateModel(SessionCatalog& catalog, const sql::ModelStatement& ddl) {
  CatalogModel model;
  ASSIGN_OR_RETURN(model.path, catalog.Resolve(ddl.name));
  RETURN_IF_ERROR(BindColumns(ddl.input, "input", &model.input, &model.input_comments));
  RETURN_IF_ERROR(BindColumns(ddl.output, "output", &model.output, &model.output_comments));
  model.options = ddl.properties.entries;
  model.comment = ddl.comment.value_or("");
  return catalog.CreateModel(std::move(model), ddl.temporary, ddl.if_not_exists);
}

// The permanent model ALTER MODEL changes; null when it does not exist and IF EXISTS was given.
absl::StatusOr<std::shared_ptr<const CatalogModel>> ModelToAlter(const SessionCatalog& catalog,
                                                                 const ObjectPath& path,
                                                                 bool if_exists) {
  if (catalog.IsTemporaryModel(path)) {
    return absl::FailedPreconditionError(
        absl::StrCat("Model ", path.ToQuotedString(), " is a temporary model."));
  }
  std::shared_ptr<const CatalogModel> model = catalog.FindModel(path);
  if (model == nullptr && !if_exists) {
    return absl::NotFoundError(absl::StrCat("Model ", path.ToQuotedString(), " doesn't exist."));
  }
  return model;
}

absl::Status AlterModel(SessionCatalog& catalog, const sql::ModelStatement& ddl) {
  using Op = sql::ModelStatement::Op;
  if (ddl.op == Op::kSet && ddl.properties.entries.empty()) {
    return absl::InvalidArgumentError("ALTER MODEL SET does not support empty option.");
  }
  if (ddl.op == Op::kReset && ddl.keys.empty()) {
    return absl::InvalidArgumentError("ALTER MODEL RESET does not support empty key.");
  }
  ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(ddl.name));
  ASSIGN_OR_RETURN(std::shared_ptr<const CatalogModel> existing,
                   ModelToAlter(catalog, path, ddl.if_exists));
  CatalogModel altered = existing ? *existing : CatalogModel{};
  if (ddl.op == Op::kRename) {
    ASSIGN_OR_RETURN(altered.path, catalog.Resolve(ddl.new_name));
    if (altered.path.catalog != path.catalog) {
      return absl::InvalidArgumentError(
          absl::StrCat("The catalog name of the new model name '", altered.path.ToString(),
                       "' must be the same as the old model name '", path.ToString(), "'."));
    }
  }
  if (existing == nullptr) return absl::OkStatus();  // IF EXISTS, and there is none
  if (ddl.op == Op::kSet) {
    for (const auto& [key, value] : ddl.properties.entries) {
      SetOption(altered.options, key, value);
    }
  } else if (ddl.op == Op::kReset) {
    for (const std::string& key : ddl.keys) {
      std::erase_if(altered.options, [&](const auto& kv) { return kv.first == key; });
    }
  }
  return catalog.catalog()->AlterModel(path, std::move(altered));
}

}  // namespace

absl::StatusOr<Response> ExecuteModelStatement(Session& session, const sql::ModelStatement& ddl) {
  SessionCatalog& catalog = session.catalog;
  switch (ddl.op) {
    case sql::ModelStatement::Op::kCreate:
      RETURN_IF_ERROR(CreateModel(catalog, ddl));
      break;
    case sql::ModelStatement::Op::kSet:
    case sql::ModelStatement::Op::kReset:
    case sql::ModelStatement::Op::kRename:
      RETURN_IF_ERROR(AlterModel(catalog, ddl));
      break;
    case sql::ModelStatement::Op::kDrop: {
      ASSIGN_OR_RETURN(ObjectPath path, catalog.Resolve(ddl.name));
      RETURN_IF_ERROR(catalog.DropModel(path, ddl.temporary, ddl.if_exists));
      break;
    }
  }
  return OkResponse();
}

absl::StatusOr<Response> DescribeModel(Session& session, const sql::QualifiedName& name) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(name));
  std::shared_ptr<const CatalogModel> model = session.catalog.FindModel(path);
  if (model == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Model with the identifier '", path.ToString(), "' doesn't exist."));
  }
  const bool with_comments = !model->input_comments.empty() || !model->output_comments.empty();
  std::vector<std::vector<std::string>> rows;
  auto add = [&](const Schema& schema, const std::vector<std::string>& comments, bool input) {
    for (size_t i = 0; i < schema.fields.size(); ++i) {
      const Field& f = schema.fields[i];
      rows.push_back({f.name, f.type.WithNullable(true).ToString(),
                      f.type.nullable ? "TRUE" : "FALSE", input ? "TRUE" : "FALSE"});
      if (with_comments) rows.back().push_back(i < comments.size() ? comments[i] : "");
    }
  };
  add(model->input, model->input_comments, true);
  add(model->output, model->output_comments, false);
  // As Flink: a comment column only when some column has a COMMENT.
  if (with_comments) return TableResponse({"name", "type", "null", "is input", "comment"}, rows);
  return TableResponse({"name", "type", "null", "is input"}, rows);
}

absl::StatusOr<Response> ShowCreateModelOf(Session& session, const sql::QualifiedName& name) {
  ASSIGN_OR_RETURN(ObjectPath path, session.catalog.Resolve(name));
  std::shared_ptr<const CatalogModel> model = session.catalog.FindModel(path);
  if (model == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("Could not execute SHOW CREATE MODEL. Model with identifier ",
                     path.ToQuotedString(), " does not exist."));
  }
  Response r;
  r.set_kind(Response::TEXT);
  r.set_message(ShowCreateModel(*model, session.catalog.IsTemporaryModel(path)));
  return r;
}

}  // namespace eddy
