// Abstract syntax tree of Eddy's Flink-style SQL, produced by the parser (parser.h) and consumed by
// the coordinator's binder. Nodes carry the source position of their first token so that validation
// errors can name the place. The tree is plain data: no types, no catalog lookups.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace eddy::sql {

struct SourcePos {
  int line = 1;    // 1-based
  int column = 1;  // 1-based
};

// A possibly qualified name: `a`, `db.t`, `cat.db.t`, with backticks already removed.
struct QualifiedName {
  std::vector<std::string> parts;
  SourcePos pos;
  std::string ToString() const;  // parts joined with '.'
};

// A SQL type as written, e.g. DECIMAL(10, 2), VARCHAR(20), TIMESTAMP(3) NOT NULL.
struct TypeSpec {
  std::string name;  // upper-case canonical: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT,
                     // DOUBLE, DECIMAL, STRING, VARCHAR, CHAR, DATE, TIMESTAMP, TIMESTAMP_LTZ
                     // (also TIME, BYTES), ARRAY, MAP, ROW (also MULTISET)
  std::vector<int> params;               // precision/scale/length as written (may be empty)
  std::vector<TypeSpec> children;        // ARRAY: element; MAP: key, value; ROW: field types
  std::vector<std::string> field_names;  // ROW: field names, as written
  bool not_null = false;
  SourcePos pos;
};

// ---------------------------------------------------------------- expressions

enum class ExprKind {
  kLiteral,     // literal_kind + text
  kIdentifier,  // name (possibly qualified: t.col)
  kStar,        // `*` or `t.*` in a select list or COUNT(*); name holds the qualifier if any
  kUnary,       // op in {"-", "+", "NOT"}; args[0]
  kBinary,    // op in {"+","-","*","/","%","=","<>","<","<=",">",">=","AND","OR","||"}; args[0..1]
  kIsNull,    // args[0] IS [NOT] NULL; negated
  kLike,      // args[0] [NOT] LIKE args[1] [ESCAPE args[2]]; negated
  kIn,        // args[0] [NOT] IN (args[1..]); negated
  kBetween,   // args[0] [NOT] BETWEEN args[1] AND args[2]; negated
  kCase,      // CASE [operand] WHEN .. THEN .. [ELSE ..] END: see case_* fields
  kCast,      // CAST(args[0] AS cast_type); TRY_CAST sets try_cast
  kFunction,  // name(args), e.g. UPPER(x), COUNT(x), COUNT(DISTINCT x), COUNT(*) (args[0] is kStar)
  kInterval,  // INTERVAL 'text' unit [TO unit]: text + interval_unit
  kSubquery,  // (SELECT ...) as a scalar/IN operand
  kExists,    // EXISTS (subquery); NOT EXISTS is NOT over it
  kIsTrue,    // args[0] IS [NOT] TRUE; negated
  kIsFalse,   // args[0] IS [NOT] FALSE; negated
  // GROUP BY only, an element that is no expression: op is "GROUPING SETS", "ROLLUP" or "CUBE"
  // (args: its elements), or "()" for a parenthesized list of expressions (args; none for the grand
  // total `()`).
  kGroupingElement,
};

enum class LiteralKind {
  kNull,
  kBoolean,
  kInteger,
  kDecimal,
  kDouble,
  kString,
  kDate,
  kTime,
  kTimestamp,
  kBinary,  // X'0A1B': text holds the hex digits
};

struct Query;
struct OverClause;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  SourcePos pos;

  LiteralKind literal_kind = LiteralKind::kNull;
  std::string
      text;  // literal text (string literal unescaped; numbers as written; TRUE/FALSE), or op

  QualifiedName name;  // identifier / function name / star qualifier
  std::string op;      // operator spelling, upper-case for keywords
  bool negated = false;
  bool distinct = false;  // COUNT(DISTINCT x)
  bool try_cast = false;

  std::vector<std::unique_ptr<Expr>> args;

  // CASE: optional operand, WHEN/THEN pairs, optional ELSE.
  std::unique_ptr<Expr> case_operand;
  std::vector<std::pair<std::unique_ptr<Expr>, std::unique_ptr<Expr>>> case_when_then;
  std::unique_ptr<Expr> case_else;

  TypeSpec cast_type;
  std::string
      interval_unit;  // SECOND, MINUTE, HOUR, DAY, MONTH, YEAR (upper-case), "DAY TO SECOND"..

  std::unique_ptr<Query> subquery;

  // kFunction followed by FILTER (WHERE cond): an aggregate over the rows where cond holds.
  std::unique_ptr<Expr> filter;
  // kFunction followed by OVER (...): an analytic function such as ROW_NUMBER() over a window.
  std::unique_ptr<OverClause> over;
};
using ExprPtr = std::unique_ptr<Expr>;

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // NULLS FIRST / NULLS LAST as written; unset: the default
  SourcePos pos;
};

// One end of a ROWS/RANGE frame: UNBOUNDED PRECEDING, `offset` PRECEDING, CURRENT ROW, `offset`
// FOLLOWING or UNBOUNDED FOLLOWING.
struct FrameBound {
  enum class Kind {
    kUnboundedPreceding,
    kPreceding,
    kCurrentRow,
    kFollowing,
    kUnboundedFollowing
  } kind = Kind::kCurrentRow;
  ExprPtr offset;  // kPreceding / kFollowing: a row count or an INTERVAL
  SourcePos pos;
};

// OVER (PARTITION BY .. ORDER BY .. [frame]) of an analytic function, or OVER w naming a window of
// the query's WINDOW clause (then only `window_name` is set).
struct OverClause {
  SourcePos pos;
  std::string window_name;
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  bool has_frame = false;
  bool rows = false;  // ROWS (a row count) or RANGE (a value range)
  FrameBound frame_start;
  FrameBound frame_end;  // CURRENT ROW when the frame names one bound only
};

// ---------------------------------------------------------------- queries

// Key/value pairs of a WITH ('k' = 'v', ...) clause, in the order written (keys unique).
struct PropertyList {
  std::vector<std::pair<std::string, std::string>> entries;
  std::vector<SourcePos> positions;  // position of each key
};

// A hint, /*+ NAME(...) */: OPTIONS('k' = 'v', ...) after a table's name (Flink's dynamic table
// options), or a query hint after SELECT (BROADCAST(t), STATE_TTL('t' = '1d'), ...).
struct HintDef {
  std::string name;               // upper-case
  PropertyList options;           // 'k' = 'v' (or k = v) arguments
  std::vector<std::string> args;  // plain arguments: identifiers or strings
  SourcePos pos;
};

struct SelectItem {
  ExprPtr expr;  // kStar for `*` / `t.*`
  std::optional<std::string> alias;
  SourcePos pos;
};

enum class TableRefKind {
  kTable,     // name [AS alias]
  kSubquery,  // (query) [AS] alias [(col, ...)]
  kValues,    // (VALUES (..), (..)) [AS] alias (cols)  or  VALUES (...) AS t(cols) directly in FROM
  kFunction,  // TABLE(fn(args)) or fn(TABLE t, DESCRIPTOR(c), ...): window TVFs; see function_*
  kJoin,      // left JOIN right ON condition
};

struct TableRef {
  TableRefKind kind = TableRefKind::kTable;
  SourcePos pos;
  QualifiedName name;               // kTable; function name for kFunction
  std::unique_ptr<Query> subquery;  // kSubquery / kValues (a Query whose body is VALUES)
  std::optional<std::string> alias;
  std::vector<std::string> column_aliases;

  // kFunction: arguments; a `TABLE t` argument sets table_arg, `DESCRIPTOR(c)` sets
  // descriptor_cols.
  std::vector<ExprPtr> function_args;
  std::unique_ptr<TableRef> table_arg;
  std::vector<std::string> descriptor_cols;
  std::vector<std::string> table_arg_partition_by;  // TABLE t PARTITION BY k (or (k1, k2))
  std::optional<QualifiedName> model_arg;           // ML_PREDICT's `MODEL m`
  std::vector<HintDef> hints;                       // kTable: `name /*+ OPTIONS(...) */`
  bool lateral = false;  // LATERAL TABLE(fn(args)): a table function correlated with the left input

  // kTable: `FOR SYSTEM_TIME AS OF expr` (the right side of a temporal join); null otherwise.
  ExprPtr system_time;

  // kJoin
  std::string join_type;  // INNER, LEFT, RIGHT, FULL, CROSS
  std::unique_ptr<TableRef> left, right;
  ExprPtr join_condition;
};

// One SELECT block, or a VALUES list, or a UNION ALL of queries, or one of the other set
// operations (UNION, INTERSECT [ALL], EXCEPT [ALL]) of two queries.
struct Query {
  enum class Kind { kSelect, kValues, kUnionAll, kSetOperation } kind = Kind::kSelect;
  SourcePos pos;

  // kSelect
  std::vector<HintDef> hints;  // SELECT /*+ ... */ (query hints)
  bool distinct = false;
  std::vector<SelectItem> select_list;
  std::unique_ptr<TableRef> from;  // may be null: SELECT 1
  ExprPtr where;
  // Expressions, or kGroupingElement items (GROUPING SETS, ROLLUP, CUBE, `(a, b)`, `()`).
  std::vector<ExprPtr> group_by;
  ExprPtr having;
  // WINDOW name AS (...), in order.
  std::vector<std::pair<std::string, std::unique_ptr<OverClause>>> windows;

  // kValues: rows of expressions
  std::vector<std::vector<ExprPtr>> values_rows;

  // kUnionAll: two or more inputs, left to right; kSetOperation: the two inputs
  std::vector<std::unique_ptr<Query>> union_inputs;
  // kSetOperation: which one, and whether ALL (keep duplicates) was given (else DISTINCT)
  enum class SetOperator { kUnion, kIntersect, kExcept } set_operator = SetOperator::kUnion;
  bool set_all = false;

  // Applies to the whole query (after UNION ALL when present).
  std::vector<OrderItem> order_by;
  std::optional<int64_t> limit;
  std::optional<int64_t> offset;  // LIMIT n OFFSET m
};
using QueryPtr = std::unique_ptr<Query>;

// ---------------------------------------------------------------- statements

struct ColumnDef {
  std::string name;
  TypeSpec type;
  ExprPtr computed;  // `name AS expr` (computed column); type is then empty
  // `name type METADATA [FROM 'key'] [VIRTUAL]`: the connector's metadata `key` (the column's name
  // without FROM); a VIRTUAL one is only read.
  std::optional<std::string> metadata;
  bool metadata_virtual = false;
  std::optional<std::string> comment;
  SourcePos pos;
};

struct WatermarkDef {
  std::string column;
  ExprPtr expr;
  SourcePos pos;
};

struct LikeClause {
  QualifiedName source;
  // Options as written: e.g. {"EXCLUDING", "OPTIONS"}, {"INCLUDING", "ALL"} pairs, in order.
  std::vector<std::pair<std::string, std::string>> options;
};

// DISTRIBUTED BY [HASH | RANGE] (c, ...) [INTO n BUCKETS] | DISTRIBUTED INTO n BUCKETS of CREATE
// TABLE (ALTER TABLE spells it DISTRIBUTION): how the connector lays the rows out in buckets.
struct DistributionDef {
  std::string kind;  // HASH, RANGE, or empty: the connector's choice
  std::vector<std::string> keys;
  std::optional<int64_t> buckets;
  SourcePos pos;
};

struct CreateTable {
  // CREATE TABLE, REPLACE TABLE ... AS query (the table must exist) or CREATE OR REPLACE TABLE ...
  // AS query (created when absent).
  enum class Replace { kNo, kReplace, kCreateOrReplace } replace = Replace::kNo;
  QualifiedName name;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::vector<std::string> primary_key;
  std::optional<WatermarkDef> watermark;
  std::optional<std::string> comment;  // table-level COMMENT 'x'
  std::optional<DistributionDef> distribution;
  std::vector<std::string> partition_keys;  // PARTITIONED BY (a, b)
  SourcePos partition_pos;                  // of PARTITIONED
  PropertyList properties;
  std::optional<LikeClause> like;
  QueryPtr as_query;  // CREATE TABLE ... AS query: the table takes the query's columns and rows
};

struct CreateView {
  QualifiedName name;
  bool temporary = false;
  bool if_not_exists = false;
  std::vector<std::string> column_aliases;
  QueryPtr query;
  std::string query_text;  // the view's query as written, for SHOW CREATE VIEW
};

struct Drop {
  enum class What { kTable, kView, kDatabase, kFunction, kCatalog } what = What::kTable;
  QualifiedName name;
  bool temporary = false;
  bool system = false;  // DROP TEMPORARY SYSTEM FUNCTION
  bool if_exists = false;
  bool cascade =
      false;  // DROP DATABASE ... CASCADE (RESTRICT, the default, refuses a non-empty one)
};

// CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] name AS 'symbol' [LANGUAGE lang]
// [USING JAR 'path' [, JAR 'path']*].
// CREATE [TEMPORARY [SYSTEM]] FUNCTION, and ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS]
// (`alter`), which gives an existing function a new definition.
struct CreateFunction {
  QualifiedName name;
  bool temporary = false;
  bool system = false;
  bool if_not_exists = false;
  bool alter = false;
  bool if_exists = false;  // ALTER ... IF EXISTS
  std::string identifier;  // the symbol the library exports
  std::string language;    // upper-case as written; empty when not given
  std::vector<std::string> jars;
};

// One `column = literal` of a PARTITION (...) clause; the literal as text (a string's content,
// a number as written, TRUE/FALSE), `null` for NULL.
struct PartitionValueDef {
  std::string column;
  std::string value;
  bool null = false;
  bool any = false;  // ANALYZE TABLE's `PARTITION (a)`: the column with no value, every value
  SourcePos pos;
};

struct Insert {
  QualifiedName target;
  std::vector<HintDef> target_hints;         // INSERT INTO t /*+ OPTIONS(...) */
  std::vector<PartitionValueDef> partition;  // INSERT INTO t PARTITION (a = 'x') ...: static
  std::vector<std::string> columns;          // optional column list
  bool overwrite = false;
  QueryPtr query;
};

struct Statement;

struct StatementSet {
  std::vector<Insert> inserts;
};

struct Explain {
  std::vector<std::string> details;   // e.g. {"CHANGELOG_MODE"}, upper-case
  std::unique_ptr<Statement> target;  // a query, an insert or a statement set
};

struct Set {
  std::optional<std::string> key;  // SET; (no key) lists the configuration
  std::optional<std::string> value;
};

struct Reset {
  std::optional<std::string> key;  // RESET; resets all
};

struct Use {
  bool catalog = false;  // USE CATALOG c vs USE db
  QualifiedName name;
};

struct Show {
  std::string what;    // CATALOGS, DATABASES, TABLES, VIEWS, FUNCTIONS, USER FUNCTIONS, COLUMNS,
                       // MODULES, FULL MODULES, JOBS, WORKERS, JARS, CURRENT CATALOG, CURRENT
                       // DATABASE, CREATE TABLE, CREATE MATERIALIZED TABLE, CREATE VIEW, CREATE
                       // CATALOG, CREATE MODEL, PROCEDURES, MODELS
  QualifiedName name;  // SHOW CREATE ... / SHOW COLUMNS FROM / SHOW PARTITIONS: the object
  std::vector<PartitionValueDef> partition;  // SHOW PARTITIONS t PARTITION (...)
  std::optional<QualifiedName> from;         // FROM | IN: the catalog or database listed
  // [NOT] LIKE | ILIKE '<pattern>' filtering the names listed (ILIKE ignores case).
  std::optional<std::string> like;
  bool not_like = false;
  bool ilike = false;
};

// DESCRIBE [EXTENDED] table, DESCRIBE CATALOG [EXTENDED] catalog, DESCRIBE FUNCTION [EXTENDED] f,
// DESCRIBE MODEL m or DESCRIBE JOB 'id' (the id in `job_id`).
struct Describe {
  QualifiedName name;
  bool catalog = false;
  bool function = false;
  bool model = false;
  bool extended = false;
  std::optional<std::string> job_id;
};

struct CreateDatabase {
  QualifiedName name;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  PropertyList properties;  // WITH (...)
};

// ALTER TABLE [IF EXISTS] t <action>, one action per statement as Flink has them.
struct AlterTable {
  enum class Action {
    kRename,              // RENAME TO new_name
    kRenameColumn,        // RENAME column TO new_column
    kSetOptions,          // SET ('k' = 'v', ...)
    kResetOptions,        // RESET ('k', ...)
    kAdd,                 // ADD column | PRIMARY KEY | WATERMARK, or a parenthesized list of them
    kModify,              // MODIFY (as ADD), replacing what exists
    kDropColumns,         // DROP column | (column, ...)
    kDropPrimaryKey,      // DROP PRIMARY KEY | DROP CONSTRAINT name
    kDropWatermark,       // DROP WATERMARK
    kAddPartitions,       // ADD [IF NOT EXISTS] PARTITION (k = v, ...) [WITH (...)] ...
    kDropPartitions,      // DROP [IF EXISTS] PARTITION (k = v, ...) [, PARTITION (...)] ...
    kAddDistribution,     // ADD DISTRIBUTION BY ... | INTO n BUCKETS (in elements.distribution)
    kModifyDistribution,  // MODIFY DISTRIBUTION ..., replacing the one there is
    kDropDistribution,    // DROP DISTRIBUTION
    kCompact,             // [PARTITION (k = v, ...)] COMPACT (in partitions[0] when given)
  };
  // Where ADD/MODIFY puts a column: FIRST, AFTER `after`, or (neither) last / where it was.
  struct Position {
    bool first = false;
    std::optional<std::string> after;
  };
  QualifiedName name;
  bool if_exists = false;
  Action action = Action::kRename;
  QualifiedName new_name;
  std::string column;
  std::string new_column;
  PropertyList options;
  std::vector<std::string> keys;    // RESET keys, DROP columns
  CreateTable elements;             // ADD/MODIFY: columns, primary key, watermark as written
  std::vector<Position> positions;  // per elements.columns entry
  // ADD/DROP PARTITION: the partition specs; ADD's WITH properties per spec (empty without WITH);
  // `partition_if` is ADD's IF NOT EXISTS or DROP's IF EXISTS.
  std::vector<std::vector<PartitionValueDef>> partitions;
  std::vector<PropertyList> partition_properties;
  bool partition_if = false;
  SourcePos pos;
};

// ALTER VIEW v RENAME TO w | ALTER VIEW v AS query.
struct AlterView {
  QualifiedName name;
  std::optional<QualifiedName> new_name;
  QueryPtr query;
  std::string query_text;
};

// ALTER DATABASE [catalog.]db SET ('k' = 'v', ...).
struct AlterDatabase {
  QualifiedName name;
  PropertyList properties;
};

// ALTER CATALOG c SET ('k' = 'v', ...) | RESET ('k', ...) | COMMENT '...'.
struct AlterCatalog {
  enum class Action { kSet, kReset, kComment };
  std::string name;
  Action action = Action::kSet;
  PropertyList properties;        // kSet
  std::vector<std::string> keys;  // kReset
  std::string comment;            // kComment
};

// CREATE CATALOG [IF NOT EXISTS] c [COMMENT '...'] WITH ('type' = '...', ...).
struct CreateCatalog {
  std::string name;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  PropertyList properties;
};

// STOP JOB '<id>' [WITH SAVEPOINT] [WITH DRAIN] (WITH DRAIN only with WITH SAVEPOINT).
struct StopJob {
  std::string job_id;
  bool with_savepoint = false;
  bool drain = false;
};

// ADD JAR '<path>' / REMOVE JAR '<path>': a user function library (a .so) the session's CREATE
// FUNCTION statements without USING JAR look in.
struct JarStatement {
  bool remove = false;
  std::string path;
};

// LOAD MODULE name [WITH (...)], UNLOAD MODULE name, USE MODULES name, ...: the modules of
// built-in functions the session resolves names in.
struct ModuleStatement {
  enum class Op { kLoad, kUnload, kUse } op = Op::kLoad;
  std::vector<std::string> names;  // one for LOAD and UNLOAD
  PropertyList properties;         // LOAD's WITH (...)
};

// ANALYZE TABLE t [PARTITION (a = 'x', b)] COMPUTE STATISTICS [FOR COLUMNS c1, c2 | FOR ALL
// COLUMNS]: runs a batch job that counts the table's rows (and the columns' statistics) and keeps
// them in the catalog.
struct AnalyzeTable {
  QualifiedName table;
  std::vector<PartitionValueDef> partition;  // empty: no PARTITION clause
  bool all_columns = false;
  std::vector<std::string> columns;  // FOR COLUMNS
  SourcePos columns_pos;
};

// COMPILE PLAN ['file'] [IF NOT EXISTS] FOR <insert | STATEMENT SET BEGIN ... END>: plans the
// INSERTs and writes the plan to `file` (without it, returns the plan as a one-row result).
// EXECUTE PLAN 'file': submits the plan written there. COMPILE AND EXECUTE PLAN 'file' FOR ...:
// compiles unless `file` exists, then submits the plan in `file`.
struct CompiledPlanStatement {
  enum class Op { kCompile, kExecute, kCompileAndExecute };
  Op op = Op::kCompile;
  std::optional<std::string> path;
  bool if_not_exists = false;
  std::vector<Insert> inserts;  // kCompile, kCompileAndExecute: one, or a statement set's
};

// DELETE FROM t [WHERE cond] and UPDATE t SET c = e, ... [WHERE cond]: Flink's row-level
// modifications (batch mode, for sinks that can modify rows).
struct RowLevelModification {
  enum class Kind { kDelete, kUpdate };
  Kind kind = Kind::kDelete;
  QualifiedName table;
  std::vector<std::pair<std::string, ExprPtr>> assignments;  // kUpdate
  ExprPtr where;                                             // null: every row
};

// TRUNCATE TABLE t: removes every row of a table (batch mode only).
struct TruncateTable {
  QualifiedName table;
};

// CALL [catalog.][db.]procedure(arg, ...): runs a stored procedure of a catalog.
struct CallProcedure {
  QualifiedName name;
  std::vector<ExprPtr> args;
};

// CREATE MATERIALIZED TABLE, ALTER MATERIALIZED TABLE ... SUSPEND | RESUME | REFRESH and DROP
// MATERIALIZED TABLE (Flink 1.20's grammar: FRESHNESS is required).
struct MaterializedTableStatement {
  enum class Op { kCreate, kSuspend, kResume, kRefresh, kDrop };
  Op op = Op::kCreate;
  QualifiedName name;
  bool if_not_exists = false;  // kCreate
  bool if_exists = false;      // kDrop
  // kCreate: [(CONSTRAINT c PRIMARY KEY (..) NOT ENFORCED)] [COMMENT] [PARTITIONED BY] [WITH]
  std::vector<std::string> primary_key;
  std::optional<std::string> comment;
  std::vector<std::string> partition_keys;
  PropertyList properties;  // kCreate: WITH (...); kResume: its dynamic options
  // FRESHNESS = INTERVAL [-]'<text>' <unit> [TO <unit>], as written (validated when executed).
  std::string freshness_text;
  std::string freshness_unit;       // SECOND, MINUTE, HOUR, DAY, MONTH, YEAR or "DAY TO HOUR"...
  bool freshness_negative = false;  // a '-' before the quoted value
  SourcePos freshness_pos;
  std::optional<std::string> refresh_mode;  // REFRESH_MODE = CONTINUOUS | FULL
  QueryPtr query;
  std::string query_text;                    // the query as written, kept as the table's definition
  std::vector<PartitionValueDef> partition;  // kRefresh: PARTITION (k = v, ...)
};

// One column of a model's INPUT (...) or OUTPUT (...): `name type [COMMENT '...']`.
struct ModelColumnDef {
  std::string name;
  TypeSpec type;
  std::optional<std::string> comment;
  SourcePos pos;
};

// Flink 2.x models: CREATE [TEMPORARY] MODEL [IF NOT EXISTS] m [INPUT (...) OUTPUT (...)]
// [COMMENT '...'] WITH (...), ALTER MODEL [IF EXISTS] m SET (...) | RESET (...) | RENAME TO n,
// and DROP [TEMPORARY] MODEL [IF EXISTS] m.
struct ModelStatement {
  enum class Op { kCreate, kSet, kReset, kRename, kDrop };
  Op op = Op::kCreate;
  QualifiedName name;
  bool temporary = false;      // kCreate, kDrop
  bool if_not_exists = false;  // kCreate
  bool if_exists = false;      // kSet, kReset, kRename, kDrop
  std::vector<ModelColumnDef> input;
  std::vector<ModelColumnDef> output;
  std::optional<std::string> comment;
  PropertyList properties;        // kCreate's WITH, kSet's options
  std::vector<std::string> keys;  // kReset
  QualifiedName new_name;         // kRename
  SourcePos pos;                  // of MODEL
};

enum class StatementKind {
  kQuery,
  kInsert,
  kStatementSet,
  kCreateTable,
  kCreateView,
  kDrop,
  kExplain,
  kSet,
  kReset,
  kUse,
  kShow,
  kDescribe,
  kCreateDatabase,
  kCreateFunction,
  kCreateCatalog,
  kAlterTable,
  kAlterView,
  kAlterDatabase,
  kAlterCatalog,
  kStopJob,
  kJar,
  kModule,
  kAnalyzeTable,
  kCompiledPlan,
  kTruncateTable,
  kRowLevelModification,
  kCall,
  kMaterializedTable,
  kModel,
  kHelp,
  kClear,
  kQuit,
};

struct Statement {
  StatementKind kind = StatementKind::kQuery;
  SourcePos pos;
  std::string text;  // the statement's source text, without the trailing ';'

  QueryPtr query;  // kQuery
  std::unique_ptr<Insert> insert;
  std::unique_ptr<StatementSet> statement_set;
  std::unique_ptr<CreateTable> create_table;
  std::unique_ptr<CreateView> create_view;
  std::unique_ptr<Drop> drop;
  std::unique_ptr<Explain> explain;
  std::unique_ptr<Set> set;
  std::unique_ptr<Reset> reset;
  std::unique_ptr<Use> use;
  std::unique_ptr<Show> show;
  std::unique_ptr<Describe> describe;
  std::unique_ptr<CreateDatabase> create_database;
  std::unique_ptr<CreateFunction> create_function;
  std::unique_ptr<CreateCatalog> create_catalog;
  std::unique_ptr<AlterTable> alter_table;
  std::unique_ptr<AlterView> alter_view;
  std::unique_ptr<AlterDatabase> alter_database;
  std::unique_ptr<AlterCatalog> alter_catalog;
  std::unique_ptr<StopJob> stop_job;
  std::unique_ptr<JarStatement> jar;
  std::unique_ptr<ModuleStatement> module;
  std::unique_ptr<AnalyzeTable> analyze_table;
  std::unique_ptr<CompiledPlanStatement> compiled_plan;
  std::unique_ptr<TruncateTable> truncate_table;
  std::unique_ptr<RowLevelModification> modification;
  std::unique_ptr<CallProcedure> call;
  std::unique_ptr<MaterializedTableStatement> materialized_table;
  std::unique_ptr<ModelStatement> model;
};
using StatementPtr = std::unique_ptr<Statement>;

}  // namespace eddy::sql
