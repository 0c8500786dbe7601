// The elements of a GROUP BY clause: expressions, parenthesized lists `(a, b)` and the grand total
// `()`, and GROUPING SETS (...), ROLLUP (...) and CUBE (...) as standard SQL (and Calcite) nest
// them: GROUPING SETS takes any element, ROLLUP and CUBE take expressions and non-empty lists.
// GROUPING, SETS, ROLLUP and CUBE are keywords only where such an element starts, so columns may
// still bear those names.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/sql/parse_error.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {

bool Parser::PeekParenthesizedList(size_t k) const {
  if (!PeekSymbol("(", k)) return false;
  if (PeekSymbol(")", k + 1)) return true;
  if (IsQueryStart(k + 1)) return false;  // a scalar subquery
  int depth = 0;
  for (size_t i = k;; ++i) {
    const Token& t = Peek(i);
    if (t.kind == TokenKind::kEnd) return false;
    if (t.kind != TokenKind::kSymbol) continue;
    if (t.text == "(") {
      ++depth;
    } else if (t.text == ")") {
      if (--depth == 0) return false;  // a parenthesized expression: no comma at its top level
    } else if (t.text == "," && depth == 1) {
      return true;
    } else if (t.text == ";") {
      return false;
    }
  }
}

absl::StatusOr<ExprPtr> Parser::ParseGroupingElement(GroupingContext context) {
  NestingGuard guard(depth_);
  RETURN_IF_ERROR(CheckNesting());
  const Token& start = Peek();
  const bool grouping_sets = PeekKeyword("GROUPING") && PeekKeyword("SETS", 1);
  const bool rollup_or_cube = (PeekKeyword("ROLLUP") || PeekKeyword("CUBE")) && PeekSymbol("(", 1);
  if (grouping_sets || rollup_or_cube) {
    const std::string name = grouping_sets ? "GROUPING SETS" : start.upper;
    if (context == GroupingContext::kRollupOrCube) {
      return ErrorAt(start, absl::StrCat(name,
                                         " cannot be nested in ROLLUP or CUBE; nest them in "
                                         "GROUPING SETS instead"));
    }
    const SourcePos pos = Advance().pos;
    if (grouping_sets) Advance();  // SETS
    return ParseGroupingConstruct(
        name, pos, grouping_sets ? GroupingContext::kGroupingSets : GroupingContext::kRollupOrCube);
  }
  if (PeekParenthesizedList()) {
    auto list = std::make_unique<Expr>();
    list->kind = ExprKind::kGroupingElement;
    list->op = "()";
    list->pos = Advance().pos;  // '('
    if (AcceptSymbol(")")) {
      if (context == GroupingContext::kRollupOrCube) {
        return ErrorAt(start,
                       "the grand total '()' is not allowed in ROLLUP or CUBE, which add it "
                       "themselves");
      }
      return list;
    }
    do {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      list->args.push_back(std::move(e));
    } while (AcceptSymbol(","));
    RETURN_IF_ERROR(ExpectSymbol(")"));
    return list;
  }
  return ParseExpr();
}

absl::StatusOr<ExprPtr> Parser::ParseGroupingConstruct(std::string name, SourcePos pos,
                                                       GroupingContext inner) {
  auto construct = std::make_unique<Expr>();
  construct->kind = ExprKind::kGroupingElement;
  construct->pos = pos;
  RETURN_IF_ERROR(ExpectSymbol("("));
  if (PeekSymbol(")")) {
    return ParseError(pos, absl::StrCat(name, " needs at least one ",
                                        inner == GroupingContext::kGroupingSets
                                            ? "grouping set, e.g. GROUPING SETS ((a), ())"
                                            : "expression, e.g. " + name + " (a, b)"));
  }
  do {
    ASSIGN_OR_RETURN(ExprPtr element, ParseGroupingElement(inner));
    construct->args.push_back(std::move(element));
  } while (AcceptSymbol(","));
  RETURN_IF_ERROR(ExpectSymbol(")"));
  construct->op = std::move(name);
  return construct;
}

}  // namespace eddy::sql
