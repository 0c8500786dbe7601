// ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(c1, ...) [, config]), Flink 2.x's model inference table
// function. Eddy ships no model provider, so after the checks Flink makes of the call (the table,
// the model, the descriptor's columns against the model's inputs) it is refused with an error that
// names the provider the model asks for.
#include <string>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

absl::StatusOr<BoundRelation> Binder::BindModelPrediction(const sql::TableRef& ref) {
  if (ref.table_arg == nullptr || !ref.model_arg || ref.descriptor_cols.empty()) {
    return ValidationErrorAt(ref.pos,
                             "ML_PREDICT needs TABLE <table>, MODEL <model> and DESCRIPTOR(<input "
                             "columns>) as its arguments");
  }
  if (!ref.table_arg_partition_by.empty()) {
    return ValidationErrorAt(ref.table_arg->pos,
                             "ML_PREDICT's TABLE argument takes no PARTITION BY");
  }
  if (ref.function_args.size() > 1) {
    return ValidationErrorAt(ref.function_args[1]->pos,
                             "ML_PREDICT takes one argument after DESCRIPTOR(...): its config map");
  }
  ASSIGN_OR_RETURN(BoundRelation in, BindTableRef(*ref.table_arg));
  ASSIGN_OR_RETURN(ObjectPath path, catalog_.Resolve(*ref.model_arg));
  std::shared_ptr<const CatalogModel> model = catalog_.FindModel(path);
  if (model == nullptr) {
    return ValidationErrorAt(ref.model_arg->pos,
                             absl::StrCat("Model '", path.ToString(), "' not found"));
  }
  for (const std::string& column : ref.descriptor_cols) {
    if (!in.node->schema.FindField(column)) {
      return ValidationErrorAt(
          ref.pos,
          absl::StrCat("column '", column, "' of DESCRIPTOR not found in the input table"));
    }
  }
  if (!model->input.fields.empty() && ref.descriptor_cols.size() != model->input.fields.size()) {
    return ValidationErrorAt(
        ref.pos,
        absl::StrCat("Number of descriptor input columns (", ref.descriptor_cols.size(),
                     ") does not match model input size (", model->input.fields.size(), ")."));
  }
  const std::string* provider = model->FindOption("provider");
  if (provider == nullptr) {
    return ValidationErrorAt(
        ref.model_arg->pos,
        absl::StrCat("Model ", path.ToQuotedString(),
                     " has no 'provider' option, which names the model provider that runs it"));
  }
  return ValidationErrorAt(
      ref.model_arg->pos,
      absl::StrCat("Could not find any model provider for identifier '", *provider, "' (model ",
                   path.ToQuotedString(),
                   "): Eddy ships no model provider, so ML_PREDICT cannot run a model. Models "
                   "can be created, described, altered and dropped."));
}

}  // namespace eddy::planner
