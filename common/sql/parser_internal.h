// The recursive-descent parser behind parser.h, shared by parser.cc (token navigation, entry
// points), parse_expression.cc, parse_query.cc, parse_statement.cc and parse_create_table.cc. Not a
// public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "common/sql/token.h"

namespace eddy::sql {

class Parser {
 public:
  Parser(std::string_view sql, std::vector<Token> tokens);

  absl::StatusOr<std::vector<StatementPtr>> ParseScriptBody();
  absl::StatusOr<StatementPtr> ParseSingleStatement();
  absl::StatusOr<ExprPtr> ParseStandaloneExpression();

 private:
  // Limits recursion so that hostile input cannot overflow the stack of a server thread.
  static constexpr int kMaxNesting = 200;
  class NestingGuard {
   public:
    explicit NestingGuard(int& depth) : depth_(depth) { ++depth_; }
    ~NestingGuard() { --depth_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

   private:
    int& depth_;
  };
  absl::Status CheckNesting() const;

  // ---- token navigation and errors (parser.cc)
  const Token& Peek(size_t k = 0) const;
  const Token& Advance();
  bool PeekKeyword(std::string_view upper, size_t k = 0) const;
  bool AcceptKeyword(std::string_view upper);
  absl::Status ExpectKeyword(std::string_view upper);
  bool PeekSymbol(std::string_view symbol, size_t k = 0) const;
  bool AcceptSymbol(std::string_view symbol);
  absl::Status ExpectSymbol(std::string_view symbol);
  bool AtStatementEnd() const;  // ';' or end of input
  // True when token k starts a query: SELECT or VALUES, possibly after '('s.
  bool IsQueryStart(size_t k = 0) const;

  // "expected <what> but found <next token>" at the next token.
  absl::Status ErrorExpected(std::string_view what) const;
  absl::Status ErrorAt(const Token& token, std::string_view message) const;
  // 'spelling as in the source', or `end of input`.
  std::string FoundText(const Token& token) const;
  std::string SourceText(size_t begin, size_t end) const;

  bool PeekIdentifier(size_t k = 0) const;  // unquoted non-reserved word or `quoted`
  absl::StatusOr<std::string> ParseIdentifier();
  absl::StatusOr<QualifiedName> ParseQualifiedName();
  absl::StatusOr<std::vector<std::string>> ParseIdentifierList();  // ( a, b, ... )
  absl::StatusOr<std::string> ParseStringLiteral();
  absl::Status ParseOptionKeys(std::vector<std::string>& keys);
  // PARTITION (k = literal, ...), PARTITION already consumed.
  // `(a = 'x', b = 1)`; with `values_optional` a column may stand alone (`(a, b = 1)`).
  absl::StatusOr<std::vector<PartitionValueDef>> ParsePartitionSpec(bool values_optional = false);
  absl::StatusOr<int64_t> ParseIntegerLiteral();
  // A SET/RESET key or value: a string literal, or (as the SQL client also accepts) the source
  // text of the tokens up to '=' (`until_equals`) or the end of the statement, trimmed:
  // `SET execution.runtime-mode = batch`. `what` names it in the error when there is none.
  absl::StatusOr<std::string> ParseConfigWord(std::string_view what, bool until_equals);

  // ---- statements (parse_statement.cc)
  absl::StatusOr<StatementPtr> ParseStatementWithText();
  absl::Status ParseStatementBody(Statement& stmt);
  absl::StatusOr<std::unique_ptr<Insert>> ParseInsert();
  absl::Status ParseCompilePlan(Statement& stmt);
  // After the opening BEGIN: INSERT ...; INSERT ...; END
  // (The BEGIN STATEMENT SET form may be empty: the SQL client then submits nothing.)
  absl::StatusOr<std::unique_ptr<StatementSet>> ParseStatementSetBody(bool allow_empty);
  absl::Status ParseCreate(Statement& stmt);
  absl::Status ParseCreateView(Statement& stmt, bool temporary);
  // `alter`: ALTER ... FUNCTION [IF EXISTS] (FUNCTION is next in both).
  absl::Status ParseCreateFunction(Statement& stmt, bool temporary, bool system,
                                   bool alter = false);
  absl::Status ParseDrop(Statement& stmt);
  absl::Status ParseExplain(Statement& stmt);
  absl::Status ParseShow(Statement& stmt);  // parse_show.cc
  // ---- ALTER TABLE | VIEW | DATABASE, CREATE CATALOG (parse_alter.cc)
  absl::Status ParseAlter(Statement& stmt);
  absl::Status ParseAlterTable(Statement& stmt);
  absl::Status ParseAlterTableElements(AlterTable& alter);
  absl::Status ParseAddPartitions(AlterTable& alter);
  absl::Status ParseDropPartitions(AlterTable& alter);
  absl::Status ParseCreateCatalog(Statement& stmt);
  absl::StatusOr<bool> ParseIfNotExists();
  absl::StatusOr<bool> ParseIfExists();

  // ---- CREATE | ALTER | DROP MATERIALIZED TABLE (parse_materialized_table.cc); MATERIALIZED is
  // next. CREATE's `temporary` and `or_replace` are refused with Flink's messages.
  absl::Status ParseCreateMaterializedTable(Statement& stmt, bool temporary, bool or_replace);
  absl::Status ParseAlterMaterializedTable(Statement& stmt);
  absl::Status ParseDropMaterializedTable(Statement& stmt, bool temporary);
  // FRESHNESS = INTERVAL ..., FRESHNESS already consumed.
  absl::Status ParseFreshness(MaterializedTableStatement& mt);

  // ---- CREATE | ALTER | DROP MODEL (parse_model.cc); MODEL is next.
  absl::Status ParseCreateModel(Statement& stmt, bool temporary);
  absl::Status ParseAlterModel(Statement& stmt);
  absl::Status ParseDropModel(Statement& stmt, bool temporary);
  // ( name type [COMMENT '...'], ... ) of INPUT or OUTPUT.
  absl::StatusOr<std::vector<ModelColumnDef>> ParseModelColumns();

  // ---- CREATE TABLE and types (parse_create_table.cc)
  absl::Status ParseCreateTable(Statement& stmt, bool temporary,
                                CreateTable::Replace replace = CreateTable::Replace::kNo);
  absl::Status ParseTableElement(CreateTable& table);
  absl::Status ParseColumn(CreateTable& table);
  absl::Status ParseNotEnforced();
  // After DISTRIBUTED (CREATE TABLE) or DISTRIBUTION (ALTER TABLE): BY [HASH | RANGE] (c, ...)
  // [INTO n BUCKETS] | INTO n BUCKETS; `keyword` is the word consumed, for the position.
  absl::StatusOr<DistributionDef> ParseDistribution(const Token& keyword);
  absl::Status ParseProperties(PropertyList& properties);
  absl::StatusOr<LikeClause> ParseLikeClause();
  absl::StatusOr<TypeSpec> ParseType();                          // also for CAST
  absl::StatusOr<TypeSpec> ParseTypeNullability(TypeSpec type);  // [NOT] NULL after a type
  absl::Status ParseNestedTypes(TypeSpec* type);                 // <...> of ARRAY, MAP, ROW
  absl::StatusOr<std::vector<int>> ParseTypeParams();            // ( n [, m] )

  // ---- queries (parse_query.cc)
  absl::StatusOr<QueryPtr> ParseQuery();
  absl::StatusOr<QueryPtr> ParseQueryTerm();
  // Query terms joined by INTERSECT [ALL | DISTINCT].
  absl::StatusOr<QueryPtr> ParseIntersectTerm();
  static QueryPtr MakeSetOperation(Query::SetOperator op, bool all, QueryPtr left, QueryPtr right);
  absl::StatusOr<QueryPtr> ParseSelect();
  absl::StatusOr<QueryPtr> ParseValues();
  // ---- GROUP BY (parse_group_by.cc)
  // Where a grouping element stands: the GROUP BY list, inside GROUPING SETS (any element), or
  // inside ROLLUP / CUBE (an expression or a non-empty parenthesized list).
  enum class GroupingContext { kGroupBy, kGroupingSets, kRollupOrCube };
  absl::StatusOr<ExprPtr> ParseGroupingElement(GroupingContext context);
  // After GROUPING SETS, ROLLUP or CUBE (`name`, at `pos`): their parenthesized elements (at
  // least one), each in context `inner`.
  absl::StatusOr<ExprPtr> ParseGroupingConstruct(std::string name, SourcePos pos,
                                                 GroupingContext inner);
  // Whether the '(' at token k opens a list of expressions, `()` or `(a, b, ...)`, rather than a
  // parenthesized expression.
  bool PeekParenthesizedList(size_t k = 0) const;
  absl::StatusOr<SelectItem> ParseSelectItem();
  bool PeekQualifiedStar() const;
  absl::Status ParseOrderByAndLimit(Query& query);
  // One ORDER BY item: expr [ASC|DESC] [NULLS FIRST|LAST].
  absl::StatusOr<OrderItem> ParseOrderItem();
  // OVER (...) after an analytic function call; the OVER keyword is next.
  absl::StatusOr<std::unique_ptr<OverClause>> ParseOverClause();
  // The parenthesized window specification of OVER (...) or WINDOW w AS (...); '(' is next.
  absl::Status ParseWindowSpec(OverClause* over);
  absl::StatusOr<FrameBound> ParseFrameBound();
  absl::StatusOr<std::unique_ptr<TableRef>> ParseFromList();
  absl::StatusOr<std::unique_ptr<TableRef>> ParseJoinedTable();
  absl::StatusOr<std::unique_ptr<TableRef>> ParseTablePrimary();
  absl::Status ParseTableFunctionArgs(TableRef& ref);
  absl::Status ParseTableAlias(TableRef& ref);
  // /*+ NAME[(args)] [, NAME[(args)]]* */, the opening mark next (parse_hints.cc).
  absl::StatusOr<std::vector<HintDef>> ParseHints();

  // ---- expressions (parse_expression.cc)
  absl::StatusOr<ExprPtr> ParseExpr();
  absl::StatusOr<ExprPtr> ParseOr();
  absl::StatusOr<ExprPtr> ParseAnd();
  absl::StatusOr<ExprPtr> ParseNot();
  absl::StatusOr<ExprPtr> ParseComparison();
  absl::StatusOr<ExprPtr> ParseAdditive();
  absl::StatusOr<ExprPtr> ParseMultiplicative();
  absl::StatusOr<ExprPtr> ParseUnary();
  absl::StatusOr<ExprPtr> ParsePostfix();  // primary [i] / .field ...
  absl::StatusOr<ExprPtr> ParsePrimary();
  absl::StatusOr<ExprPtr> ParseCollectionConstructor();  // ARRAY[..], MAP[..]
  absl::StatusOr<ExprPtr> ParseNameOrCall();
  absl::StatusOr<ExprPtr> ParseFunctionCall(QualifiedName name);
  absl::StatusOr<ExprPtr> ParseCast();
  absl::StatusOr<ExprPtr> ParseCase();
  absl::StatusOr<ExprPtr> ParseInterval();
  absl::StatusOr<std::string> ParseIntervalUnit();
  // Functions with keyword-separated arguments (parse_special_functions.cc).
  bool PeekSpecialFunction() const;
  absl::StatusOr<ExprPtr> ParseSpecialFunction();
  absl::StatusOr<ExprPtr> ParseJsonQueryCall(const std::string& word, SourcePos pos);
  absl::StatusOr<ExprPtr> ParseJsonConstructor(const std::string& word, SourcePos pos);

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t next_ = 0;      // index of the next token
  size_t prev_end_ = 0;  // byte offset just after the last consumed token
  int depth_ = 0;
};

}  // namespace eddy::sql
