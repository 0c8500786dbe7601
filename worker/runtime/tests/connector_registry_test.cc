#include "worker/runtime/connector_registry.h"

#include <set>
#include <string>

#include "common/connectors/connector_registry.h"
#include "gtest/gtest.h"
#include "worker/connectors/sink_not_null_enforcer.h"

namespace eddy {
namespace {

// Each connector is one factory (planning) and one runtime (workers), under the same name.
TEST(ConnectorRegistryTest, EveryFactoryHasARuntimeAndNoRuntimeLacksAFactory) {
  std::set<std::string> factories, runtimes;
  for (const ConnectorFactory* f : AllConnectorFactories())
    factories.insert(std::string(f->name()));
  for (const ConnectorRuntime* r : AllConnectorRuntimes()) runtimes.insert(std::string(r->name()));
  EXPECT_EQ(factories, runtimes);
}

TEST(ConnectorRegistryTest, AnUnknownConnectorIsAnErrorNamingIt) {
  v1::TableSource source;
  source.set_connector("nope");
  source.set_table_name("db.t");
  EXPECT_EQ(CreateTableSource(source, {}).status().message(),
            "unknown connector 'nope' for table 'db.t'");
  v1::TableSink sink;
  sink.set_connector("nope");
  sink.set_table_name("db.s");
  EXPECT_EQ(CreateTableSink(sink, Schema{}, {}).status().message(),
            "unknown connector 'nope' for table 'db.s'");
}

TEST(ConnectorRegistryTest, ASinkOnlyConnectorCannotBeRead) {
  v1::TableSource source;
  source.set_connector("print");
  source.set_table_name("db.p");
  EXPECT_EQ(CreateTableSource(source, {}).status().message(),
            "connector 'print' of table 'db.p' cannot be read");
}

TEST(ConnectorRegistryTest, ValidationNamesTheUnknownConnectorAndTheSupportedOnes) {
  ConnectorTable table;
  table.name = "db.t";
  absl::Status s = ValidateConnectorTable(table, {{"connector", "nope"}});
  EXPECT_EQ(s.message(),
            "unknown connector 'nope' for table 'db.t'; supported: " + SupportedConnectorList());
  EXPECT_EQ(SupportedConnectorList().find("collect"), std::string::npos);  // internal
  s = ValidateConnectorTable(table, {{"connector", "collect"}});
  EXPECT_NE(s.message().find("unknown connector 'collect'"), absl::string_view::npos);
}

// Whatever the connector, a sink of a table with NOT NULL columns is wrapped by the enforcer.
TEST(ConnectorRegistryTest, ASinkWithNotNullColumnsIsEnforced) {
  v1::TableSink sink;
  sink.set_connector("blackhole");
  sink.set_table_name("db.hole");
  const Schema input{{{"id", DataType::Int()}, {"name", DataType::String()}}};
  auto plain = CreateTableSink(sink, input, {});
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(dynamic_cast<SinkNotNullEnforcer*>(plain->get()), nullptr);

  sink.add_not_null_columns(1);
  auto enforced = CreateTableSink(sink, input, {});
  ASSERT_TRUE(enforced.ok()) << enforced.status();
  ASSERT_NE(dynamic_cast<SinkNotNullEnforcer*>(enforced->get()), nullptr);
  ASSERT_TRUE((*enforced)->Open(OperatorContext{}).ok());
  ChangelogBatch batch({DataType::Int(), DataType::String()});
  batch.AppendValues({Value::Int(1), Value::Null()}, RowKind::kInsert);
  EXPECT_NE((*enforced)->Process(0, batch).message().find("Column 'name' is NOT NULL"),
            absl::string_view::npos);

  sink.set_drop_rows_with_nulls(true);
  enforced = CreateTableSink(sink, input, {});
  ASSERT_TRUE(enforced.ok()) << enforced.status();
  ASSERT_TRUE((*enforced)->Open(OperatorContext{}).ok());
  EXPECT_TRUE((*enforced)->Process(0, batch).ok());
  EXPECT_EQ(dynamic_cast<SinkNotNullEnforcer*>(enforced->get())->null_rows_dropped(), 1u);

  sink.add_not_null_columns(2);
  EXPECT_EQ(CreateTableSink(sink, input, {}).status().message(),
            "sink of table 'db.hole': NOT NULL column 2 out of range");
}

}  // namespace
}  // namespace eddy
