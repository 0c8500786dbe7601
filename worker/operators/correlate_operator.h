// Correlate: a user-defined table function applied to every input row (LATERAL TABLE(f(args))).
// Each row the function produces for an input row is emitted as that input row followed by the
// function's columns, with the input row's RowKind (so a retraction retracts what its insert
// produced); LEFT JOIN LATERAL keeps an input row the function produces nothing for, padded with
// NULLs. The function runs once per batch over the evaluated argument columns. Stateless.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "common/expr/expr.h"
#include "common/udf/user_function.h"
#include "worker/operators/operator.h"

namespace eddy {

class CorrelateOperator : public Operator {
 public:
  // `name`: the function's registered name, for errors. `args` index the input's columns and have
  // the function's declared argument types.
  CorrelateOperator(std::string name, std::shared_ptr<const UserFunction> function,
                    std::vector<ExprPtr> args, bool left_outer);

  absl::Status Open(const OperatorContext& ctx) override;
  absl::Status Process(int input, const ChangelogBatch& batch) override;

 private:
  std::string name_;
  std::shared_ptr<const UserFunction> function_;
  std::vector<ExprPtr> args_;
  bool left_outer_;
  std::unique_ptr<UserFunctionInstance> instance_;
};

}  // namespace eddy
