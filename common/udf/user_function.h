// One user-defined function of a loaded library (include/eddy/udf.h's C ABI) as the engine sees
// it: its kind and signature in Eddy's types, and per-task instances that run it over columns,
// turning the library's failures (a thrown exception, a reported error, a malformed result) into
// a status naming the function.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/column.h"
#include "common/types/data_type.h"
#include "eddy/udf.h"

namespace eddy {

enum class UserFunctionKind { kScalar, kTable, kAggregate };

// "scalar", "table" or "aggregate".
const char* UserFunctionKindName(UserFunctionKind kind);

class UserLibrary;

class UserFunction {
 public:
  // Checks the descriptor a library's `symbol` returned (ABI version, kind, types).
  static absl::StatusOr<std::shared_ptr<const UserFunction>> FromDescriptor(
      std::shared_ptr<const UserLibrary> library, const std::string& symbol,
      const EddyUdfDescriptor* descriptor);

  const std::string& symbol() const { return symbol_; }
  const UserLibrary& library() const { return *library_; }
  UserFunctionKind kind() const { return kind_; }
  // The declared argument types (nullable: NULLs reach the function).
  const std::vector<DataType>& arg_types() const { return arg_types_; }
  // One type for scalar and aggregate functions, the row's columns for a table function.
  const std::vector<DataType>& result_types() const { return result_types_; }
  // Table functions: the columns' default names (f0, f1, ... when the library gives none).
  const std::vector<std::string>& result_names() const { return result_names_; }
  const EddyUdfDescriptor& descriptor() const { return *descriptor_; }

 private:
  std::shared_ptr<const UserLibrary> library_;  // keeps the code loaded
  std::string symbol_;
  const EddyUdfDescriptor* descriptor_ = nullptr;
  UserFunctionKind kind_ = UserFunctionKind::kScalar;
  std::vector<DataType> arg_types_;
  std::vector<DataType> result_types_;
  std::vector<std::string> result_names_;
};

// The result rows of a table function over a batch: its columns, and for each result row the
// input row it came from (ascending).
struct TableFunctionRows {
  std::vector<Column> columns;
  std::vector<uint32_t> input_rows;
};

// One instance of a function (the library's object), used by one task at a time.
class UserFunctionInstance {
 public:
  // `name` names the function in errors (the name it was registered under).
  static absl::StatusOr<std::unique_ptr<UserFunctionInstance>> Create(
      std::shared_ptr<const UserFunction> function, std::string name);
  ~UserFunctionInstance();
  UserFunctionInstance(const UserFunctionInstance&) = delete;
  UserFunctionInstance& operator=(const UserFunctionInstance&) = delete;

  // Scalar functions: one value per row of `args` (each with `rows` rows, of the declared types).
  absl::StatusOr<Column> EvalScalar(const std::vector<const Column*>& args, size_t rows);
  // Table functions: the rows produced for every input row.
  absl::StatusOr<TableFunctionRows> EvalTable(const std::vector<const Column*>& args, size_t rows);

  // Aggregate functions. An accumulator is the library's bytes (empty: a fresh one).
  // Folds rows `rows[0..n)` of `args` into *acc, retracting those whose `retract` byte is set.
  absl::Status Accumulate(std::string* acc, const std::vector<const Column*>& args,
                          const uint32_t* rows, const uint8_t* retract, size_t n);
  // Merges `other` (of the same function) into *acc.
  absl::Status Merge(std::string* acc, std::string_view other);
  // Appends the result of `acc` to `out` (a column of the result type).
  absl::Status GetValue(std::string_view acc, Column* out);

 private:
  UserFunctionInstance(std::shared_ptr<const UserFunction> function, std::string name, void* self)
      : function_(std::move(function)), name_(std::move(name)), self_(self) {}

  // The library's new accumulator, written while the old one is still read.
  absl::Status TakeAccumulator(int32_t rc, std::string* acc);

  std::shared_ptr<const UserFunction> function_;
  std::string name_;
  void* self_;
  std::string next_acc_;                 // swapped with the accumulator after each call
  std::vector<EddyUdfColumn> udf_args_;  // reused argument views
};

}  // namespace eddy
