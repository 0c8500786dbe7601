// Helpers for the expression tests: batches from boxed rows, columns to boxed values, and
// shorthand constructors for literals, column refs and calls.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/batch/changelog_batch.h"
#include "common/expr/evaluator.h"
#include "common/expr/expr.h"
#include "common/expr/function_registry.h"

namespace eddy::testing {

inline ChangelogBatch MakeBatch(const std::vector<DataType>& types,
                                const std::vector<std::vector<Value>>& rows) {
  ChangelogBatch b(types);
  for (const auto& r : rows) b.AppendValues(r, RowKind::kInsert);
  return b;
}

inline std::vector<Value> Values(const Column& c) {
  std::vector<Value> out;
  for (size_t i = 0; i < c.size(); ++i) out.push_back(c.GetValue(i));
  return out;
}

inline ExprPtr Col(int i, DataType t) { return MakeColumnRef(i, t); }
inline ExprPtr IntLit(int64_t v) { return MakeLiteral(Value::Int(v), DataType::Int()); }
inline ExprPtr BigLit(int64_t v) { return MakeLiteral(Value::Int(v), DataType::BigInt()); }
inline ExprPtr DblLit(double v) { return MakeLiteral(Value::Double(v), DataType::Double()); }
inline ExprPtr StrLit(std::string s) {
  return MakeLiteral(Value::String(std::move(s)), DataType::String());
}
inline ExprPtr BoolLit(bool b) { return MakeLiteral(Value::Bool(b), DataType::Boolean()); }
inline ExprPtr DecLit(int64_t unscaled, int p, int s) {
  return MakeLiteral(Value::Int(unscaled), DataType::Decimal(p, s));
}
inline ExprPtr NullLit() { return MakeLiteral(Value::Null(), DataType::Null()); }
inline ExprPtr TypedNull(DataType t) { return MakeLiteral(Value::Null(), t); }

// MakeCall that fails the test on error.
inline ExprPtr Call(std::string_view fn, std::vector<ExprPtr> args) {
  auto r = MakeCall(fn, std::move(args));
  EXPECT_TRUE(r.ok()) << fn << ": " << r.status();
  return r.ok() ? *r : MakeLiteral(Value::Null(), DataType::Null());
}

// Folds a constant expression, failing the test on error.
inline Value Fold(const ExprPtr& e) {
  auto r = EvaluateConstant(*e);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : Value::Null();
}

inline std::string FoldError(const ExprPtr& e) {
  auto r = EvaluateConstant(*e);
  return r.ok() ? "<ok>" : std::string(r.status().message());
}

inline std::string CallError(std::string_view fn, std::vector<ExprPtr> args) {
  auto r = MakeCall(fn, std::move(args));
  return r.ok() ? "<ok>" : std::string(r.status().message());
}

}  // namespace eddy::testing
