// Shared fixture for planner tests: a catalog populated by SQL DDL, and helpers that plan INSERTs
// and look at the resulting plan nodes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/datagen_connector.h"
#include "common/connectors/table_spec.h"
#include "common/sql/parser.h"
#include "coordinator/catalog/catalog.h"
#include "coordinator/planner/planner.h"
#include "gtest/gtest.h"

namespace eddy::planner_test {

class PlannerTest : public ::testing::Test {
 protected:
  PlannerTest() : session_(&catalog_) {}

  // Runs CREATE TABLE / CREATE VIEW statements through the planner's binders into the catalog.
  absl::Status Ddl(const std::string& sql) {
    auto stmt = sql::ParseStatement(sql);
    if (!stmt.ok()) return stmt.status();
    const sql::Statement& s = **stmt;
    if (s.kind == sql::StatementKind::kCreateTable) {
      auto t = BindCreateTable(*s.create_table, session_);
      if (!t.ok()) return t.status();
      return session_.CreateTable(*std::move(t), s.create_table->temporary,
                                  s.create_table->if_not_exists);
    }
    if (s.kind == sql::StatementKind::kCreateView) {
      auto v = BindCreateView(*s.create_view, session_, config_);
      if (!v.ok()) return v.status();
      return session_.CreateView(*std::move(v), s.create_view->temporary,
                                 s.create_view->if_not_exists);
    }
    return absl::InvalidArgumentError("not DDL: " + sql);
  }

  void MustDdl(const std::string& sql) {
    absl::Status s = Ddl(sql);
    ASSERT_TRUE(s.ok()) << sql << "\n" << s;
  }

  // Plans one INSERT or a statement set of INSERTs.
  absl::StatusOr<PlannedJob> Plan(const std::string& sql) {
    auto stmt = sql::ParseStatement(sql);
    if (!stmt.ok()) return stmt.status();
    statements_.push_back(*std::move(stmt));
    const sql::Statement& s = *statements_.back();
    std::vector<const sql::Insert*> inserts;
    if (s.kind == sql::StatementKind::kInsert) {
      inserts.push_back(s.insert.get());
    } else if (s.kind == sql::StatementKind::kStatementSet) {
      for (const auto& i : s.statement_set->inserts) inserts.push_back(&i);
    } else {
      return absl::InvalidArgumentError("not an INSERT: " + sql);
    }
    return PlanInserts(inserts, session_, config_);
  }

  // The text of an EXPLAIN statement, or the error message.
  std::string Explain(const std::string& sql) {
    auto stmt = sql::ParseStatement(sql);
    if (!stmt.ok()) return std::string(stmt.status().message());
    if ((*stmt)->kind != sql::StatementKind::kExplain) return "not an EXPLAIN: " + sql;
    auto text = ExplainStatement(*(*stmt)->explain, session_, config_);
    if (!text.ok()) return std::string(text.status().message());
    return *text;
  }

  std::string PlanError(const std::string& sql) {
    auto job = Plan(sql);
    if (job.ok()) return "<planned OK>";
    return std::string(job.status().message());
  }
  std::string DdlError(const std::string& sql) {
    absl::Status s = Ddl(sql);
    if (s.ok()) return "<OK>";
    return std::string(s.message());
  }

  // "values,group_aggregate,calc,sink": the op of each node in order.
  static std::string Ops(const PlannedJob& job) {
    std::string out;
    for (const auto& n : job.nodes) {
      if (!out.empty()) out += ",";
      switch (n.op_case()) {
        case v1::PlanNode::kValues:
          out += "values";
          break;
        case v1::PlanNode::kTableSource:
          out += n.table_source().connector();
          break;
        case v1::PlanNode::kCalc:
          out += "calc";
          break;
        case v1::PlanNode::kGroupAggregate:
          out += "group_aggregate";
          break;
        case v1::PlanNode::kUnionAll:
          out += "union_all";
          break;
        case v1::PlanNode::kSink:
          out += "sink";
          break;
        case v1::PlanNode::kMiniBatchAssigner:
          out += "mini_batch_assigner";
          break;
        default:
          out += "?";
          break;
      }
    }
    return out;
  }

  static std::vector<const v1::PlanNode*> NodesOf(const PlannedJob& job, v1::PlanNode::OpCase op) {
    std::vector<const v1::PlanNode*> out;
    for (const auto& n : job.nodes) {
      if (n.op_case() == op) out.push_back(&n);
    }
    return out;
  }

  // The scans of tables of `connector`.
  static std::vector<const v1::PlanNode*> ScansOf(const PlannedJob& job,
                                                  const std::string& connector) {
    std::vector<const v1::PlanNode*> out;
    for (const auto& n : job.nodes) {
      if (n.has_table_source() && n.table_source().connector() == connector) out.push_back(&n);
    }
    return out;
  }

  // The datagen spec a worker derives from a datagen scan.
  static v1::DatagenSource DatagenOf(const v1::PlanNode& scan) {
    auto table = ConnectorTableOf(scan.table_source());
    EXPECT_TRUE(table.ok()) << table.status();
    ConnectorConfig config = ConnectorConfigOf(scan.table_source());
    const auto& c = scan.table_source().columns();
    auto spec = ReadDatagenSpec(*table, config, std::vector<int>(c.begin(), c.end()));
    EXPECT_TRUE(spec.ok()) << spec.status();
    return spec.ok() ? *spec : v1::DatagenSource();
  }

  Catalog catalog_;
  SessionCatalog session_;
  ConfigMap config_;
  std::vector<sql::StatementPtr> statements_;
};

}  // namespace eddy::planner_test
