// The coordinator's SQL planner: binds CREATE TABLE / CREATE VIEW against the catalog and plans one
// or more INSERT statements (a statement set) into one job of physical plan nodes for the workers.
// Pipeline: bind (binder_*.cc) -> logical plan (logical_plan.h) -> logical optimizer rules
// (optimizer.h) -> changelog-mode inference
// (changelog_mode.h) -> physical translation (physical_planner.h) -> sub-plan reuse
// (reuse_sub_plans.h). EXPLAIN renders the same stages (explain_*.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/sql/ast.h"
#include "coordinator/catalog/catalog.h"
#include "coordinator/catalog/catalog_objects.h"
#include "eddy/v1/plan.pb.h"

namespace eddy {

using ConfigMap = std::map<std::string, std::string>;  // session SET values

struct PlannedJob {
  // Flink-like: "insert-into_<catalog>.<db>.<table>"; statement sets join the names with ','.
  std::string name;
  // ONE task, topologically ordered (inputs before consumers), ids unique.
  std::vector<v1::PlanNode> nodes;
  // Every source ends (VALUES; datagen with number-of-rows or a sequence field).
  bool bounded = true;
};

// Binds and validates a CREATE TABLE (types, primary key, watermark, LIKE, connector options). Does
// not check whether the table exists: the caller handles IF NOT EXISTS. `allow_internal`: the
// coordinator declares the table itself (FromStream's client-stream table), not a user's DDL.
absl::StatusOr<CatalogTable> BindCreateTable(const sql::CreateTable& ddl,
                                             const SessionCatalog& catalog,
                                             bool allow_internal = false);

// Binds the view's query (to validate it and derive its schema) and returns the catalog object.
absl::StatusOr<CatalogView> BindCreateView(const sql::CreateView& ddl,
                                           const SessionCatalog& catalog, const ConfigMap& config);

// The time attribute marker of each column of `view` as DESCRIBE shows it: "*ROWTIME*",
// "*PROCTIME*" or "" (the view's query is bound again, against the catalog as it is now).
absl::StatusOr<std::vector<std::string>> ViewTimeAttributeMarkers(const CatalogView& view,
                                                                  const SessionCatalog& catalog,
                                                                  const ConfigMap& config);

// Plans INSERT statements into one job (a statement set when there are several).
absl::StatusOr<PlannedJob> PlanInserts(const std::vector<const sql::Insert*>& inserts,
                                       const SessionCatalog& catalog, const ConfigMap& config);

// A SELECT planned as a job whose rows go to a collect sink at parallelism 1, from which the client
// pulls them (FetchResults). `schema` is the result's columns.
struct PlannedQuery {
  PlannedJob job;
  Schema schema;
  std::optional<int64_t> limit;  // the outermost LIMIT, applied by the client
};
absl::StatusOr<PlannedQuery> PlanQuery(const sql::Query& query, const SessionCatalog& catalog,
                                       const ConfigMap& config);

// EXPLAIN [CHANGELOG_MODE] of an INSERT, a statement set or a bare query: Flink's three sections
// (`== Abstract Syntax Tree ==`, `== Optimized Physical Plan ==`, `== Optimized Execution Plan ==`)
// as one text, blank lines between trees and sections, ending in a newline.
absl::StatusOr<std::string> ExplainStatement(const sql::Explain& explain,
                                             const SessionCatalog& catalog,
                                             const ConfigMap& config);

}  // namespace eddy
