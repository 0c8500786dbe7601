// Bound, typed scalar expressions: what the coordinator's binder produces from SQL and what workers
// evaluate over batches (evaluator.h). Immutable and shared (ExprPtr); input columns are referenced
// by index into the operator's input schema.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/types/data_type.h"
#include "common/types/value.h"
#include "common/udf/user_function.h"

namespace eddy {

enum class ExprKind { kColumn, kLiteral, kCall };

// Memo a kernel keeps with its call between batches: a compiled constant regular expression, the
// generator of a seeded RAND. Created on first use; a copied Expr starts without one.
class KernelState {
 public:
  KernelState() = default;
  KernelState(const KernelState&) {}
  KernelState& operator=(const KernelState&) { return *this; }

  // The memo, made by `make` (returning absl::StatusOr<std::shared_ptr<T>>) on the first call.
  template <typename T, typename Make>
  absl::StatusOr<std::shared_ptr<T>> GetOrCreate(Make&& make) const {
    std::lock_guard<std::mutex> lock(mu_);
    if (state_ == nullptr) {
      absl::StatusOr<std::shared_ptr<T>> made = make();
      if (!made.ok()) return made.status();
      state_ = *made;
    }
    return std::const_pointer_cast<T>(std::static_pointer_cast<const T>(state_));
  }

 private:
  mutable std::mutex mu_;
  mutable std::shared_ptr<const void> state_;
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  DataType type;
  int column = -1;       // kColumn: index in the input schema
  Value literal;         // kLiteral
  std::string function;  // kCall: canonical name (see function_registry.h)
  std::vector<ExprPtr> args;
  // kCall of a user-defined scalar function (user_function_call.h); `function` is then the name
  // it was registered under.
  std::shared_ptr<const UserFunction> user_function;
  KernelState kernel_state;  // kCall: what its kernel keeps between batches
};

ExprPtr MakeColumnRef(int index, DataType type);
ExprPtr MakeLiteral(Value v, DataType type);

}  // namespace eddy
