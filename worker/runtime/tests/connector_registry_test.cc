#include "worker/runtime/connector_registry.h"

#include <set>
#include <string>

#include "common/connectors/connector_registry.h"
#include "gtest/gtest.h"

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

}  // namespace
}  // namespace eddy
