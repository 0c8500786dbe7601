// Binding of query bodies other than SELECT blocks: VALUES lists (literal rows with a common type
// per column) and UNION ALL (common types, names from the first input), plus the clauses this
// milestone rejects (ORDER BY anywhere, LIMIT below the outermost query).
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/evaluator.h"
#include "common/expr/function_registry.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {

std::vector<ScopeColumn> UnqualifiedColumns(const Schema& s) {
  std::vector<ScopeColumn> cols;
  for (const auto& f : s.fields) cols.push_back({"", f.name});
  return cols;
}

std::vector<std::string> UniquifyNames(std::vector<std::string> names) {
  std::set<std::string> seen;
  for (auto& n : names) {
    if (seen.insert(n).second) continue;
    for (int k = 0;; ++k) {
      std::string candidate = absl::StrCat(n, k);
      if (seen.insert(candidate).second) {
        n = candidate;
        break;
      }
    }
  }
  return names;
}

absl::StatusOr<BoundRelation> Binder::BindQuery(const sql::Query& q) {
  ASSIGN_OR_RETURN(BoundRelation body, BindQueryBody(q));
  return BindOrderAndLimit(q, std::move(body), /*client_limit=*/false);
}

absl::StatusOr<BoundRelation> Binder::BindOutermostQuery(const sql::Query& q) {
  ASSIGN_OR_RETURN(BoundRelation body, BindQueryBody(q));
  return BindOrderAndLimit(q, std::move(body), /*client_limit=*/true);
}

absl::StatusOr<BoundRelation> Binder::BindQueryBody(const sql::Query& q) {
  switch (q.kind) {
    case sql::Query::Kind::kSelect:
      return BindSelect(q);
    case sql::Query::Kind::kValues:
      return BindValues(q);
    case sql::Query::Kind::kUnionAll:
      return BindUnion(q);
    case sql::Query::Kind::kSetOperation:
      return BindSetOperation(q);
  }
  return ValidationErrorAt(q.pos, "unsupported query");
}

absl::StatusOr<BoundRelation> Binder::BindValues(const sql::Query& q) {
  if (q.values_rows.empty()) return ValidationErrorAt(q.pos, "VALUES needs at least one row");
  const size_t width = q.values_rows.front().size();
  ExprScope scope;
  scope.clause = "VALUES";
  std::vector<std::vector<ExprPtr>> cells;
  std::vector<DataType> types(width, DataType::Null());
  for (const auto& row : q.values_rows) {
    if (row.size() != width) {
      const sql::SourcePos& pos = row.empty() || !row[0] ? q.pos : row[0]->pos;
      return ValidationErrorAt(pos, absl::StrCat("VALUES rows have different numbers of columns (",
                                                 width, " and ", row.size(), ")"));
    }
    std::vector<ExprPtr> bound;
    for (size_t c = 0; c < width; ++c) {
      if (row[c] == nullptr) return ValidationErrorAt(q.pos, "missing VALUES expression");
      ASSIGN_OR_RETURN(ExprPtr e, BindExpr(*row[c], scope));
      if (!IsConstant(*e)) {
        return ValidationErrorAt(row[c]->pos, "VALUES supports only constant expressions");
      }
      std::optional<DataType> common = CommonType(types[c], e->type);
      if (!common) {
        return ValidationErrorAt(row[c]->pos,
                                 absl::StrCat("VALUES column ", c + 1, " has incompatible types ",
                                              types[c].WithNullable(true).ToString(), " and ",
                                              e->type.WithNullable(true).ToString()));
      }
      types[c] = *common;
      bound.push_back(std::move(e));
    }
    cells.push_back(std::move(bound));
  }
  // The first row's nullability seeds the fold; a column is NOT NULL only if every cell is.
  for (size_t c = 0; c < width; ++c) {
    bool nullable = false;
    for (const auto& row : cells) nullable = nullable || row[c]->type.nullable;
    types[c].nullable = nullable;
    if (types[c].id == TypeId::kNull) {
      return ValidationErrorAt(q.pos,
                               absl::StrCat("cannot infer the type of VALUES column ", c + 1,
                                            ": every value is NULL; use CAST(NULL AS type)"));
    }
  }
  Schema schema;
  for (size_t c = 0; c < width; ++c) schema.fields.push_back({absl::StrCat("EXPR$", c), types[c]});
  std::vector<std::vector<Value>> rows;
  for (size_t r = 0; r < cells.size(); ++r) {
    std::vector<Value> row;
    for (size_t c = 0; c < width; ++c) {
      const sql::SourcePos& pos = q.values_rows[r][c]->pos;
      if (absl::Status s = CheckCast(cells[r][c]->type, types[c]); !s.ok()) {
        return AsValidationError(pos, s);
      }
      auto v = EvaluateConstant(*MakeCast(cells[r][c], types[c]));
      if (!v.ok()) return AsValidationError(pos, v.status());
      row.push_back(*std::move(v));
    }
    rows.push_back(std::move(row));
  }
  BoundRelation out;
  out.columns = UnqualifiedColumns(schema);
  out.node = MakeValues(std::move(schema), std::move(rows));
  return out;
}

absl::StatusOr<BoundRelation> Binder::BindUnion(const sql::Query& q) {
  ASSIGN_OR_RETURN(SetInputs in, BindSetInputs(q, "UNION ALL"));
  BoundRelation out;
  out.node = MakeUnionOf(std::move(in));
  out.columns = UnqualifiedColumns(out.node->schema);
  return out;
}

absl::StatusOr<Binder::SetInputs> Binder::BindSetInputs(const sql::Query& q,
                                                        const std::string& op) {
  std::vector<BoundRelation> inputs;
  for (const auto& in : q.union_inputs) {
    if (in == nullptr) return ValidationErrorAt(q.pos, absl::StrCat("missing ", op, " input"));
    ASSIGN_OR_RETURN(BoundRelation r, BindQuery(*in));
    if (!inputs.empty() && r.node->schema.size() != inputs.front().node->schema.size()) {
      return ValidationErrorAt(in->pos, absl::StrCat(op,
                                                     " inputs have different numbers of "
                                                     "columns (",
                                                     inputs.front().node->schema.size(), " and ",
                                                     r.node->schema.size(), ")"));
    }
    inputs.push_back(std::move(r));
  }
  if (inputs.empty()) return ValidationErrorAt(q.pos, absl::StrCat(op, " needs inputs"));
  const Schema& first = inputs.front().node->schema;
  SetInputs out;
  out.types = first.Types();
  out.names = first.Names();
  for (size_t i = 1; i < inputs.size(); ++i) {
    const Schema& s = inputs[i].node->schema;
    for (size_t c = 0; c < out.types.size(); ++c) {
      std::optional<DataType> common = CommonType(out.types[c], s.fields[c].type);
      if (!common) {
        return ValidationErrorAt(
            q.union_inputs[i]->pos,
            absl::StrCat(op, " column ", c + 1, " ('", first.fields[c].name,
                         "') has incompatible types ", out.types[c].WithNullable(true).ToString(),
                         " and ", s.fields[c].type.WithNullable(true).ToString()));
      }
      out.types[c] = *common;
    }
  }
  for (auto& in : inputs) {
    const Schema& s = in.node->schema;
    std::vector<ExprPtr> casts;
    bool changed = false;
    for (size_t c = 0; c < out.types.size(); ++c) {
      ExprPtr ref = MakeColumnRef(static_cast<int>(c), s.fields[c].type);
      if (!s.fields[c].type.SameAs(out.types[c])) {
        if (absl::Status st = CheckCast(s.fields[c].type, out.types[c]); !st.ok()) {
          return AsValidationError(q.pos, st);
        }
        ref = MakeCast(ref, out.types[c]);
        changed = true;
      }
      casts.push_back(std::move(ref));
    }
    out.nodes.push_back(changed ? MakeProject(in.node, std::move(casts), out.names) : in.node);
  }
  return out;
}

LogicalNodePtr Binder::MakeUnionOf(SetInputs in) {
  LogicalNodePtr u = MakeUnion(std::move(in.nodes));
  // The union's column types are the common types, nullable if any input's column is.
  for (size_t c = 0; c < in.types.size(); ++c) {
    bool nullable = false;
    for (const auto& input : u->inputs)
      nullable = nullable || input->schema.fields[c].type.nullable;
    u->schema.fields[c].type = in.types[c].WithNullable(nullable);
    u->schema.fields[c].name = in.names[c];
  }
  return u;
}

}  // namespace eddy::planner
