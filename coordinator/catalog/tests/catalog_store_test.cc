// CatalogStore and Catalog::AttachStore: permanent objects (tables, views, functions, models)
// written through the store come back, in full, in a new Catalog over the same directory; drops
// stay dropped; temporary objects are never stored; a damaged entry is an error naming it.
#include "coordinator/catalog/catalog_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "coordinator/catalog/catalog.h"
#include "rocksdb/db.h"

namespace eddy {
namespace {

std::string FreshDir() {
  static std::atomic<int> n{0};
  std::string dir = testing::TempDir() + "/eddy_catalog_store_" + std::to_string(getpid()) + "_" +
                    std::to_string(n++);
  std::filesystem::remove_all(dir);
  return dir + "/catalog";
}

std::unique_ptr<CatalogStore> OpenOrDie(const std::string& path) {
  auto s = CatalogStore::Open(path);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

CatalogTable Orders(const ObjectPath& path) {
  CatalogTable t;
  t.path = path;
  t.schema.fields = {{"id", DataType::BigInt().WithNullable(false)},
                     {"amount", DataType::Decimal(10, 2)},
                     {"ts", DataType::Timestamp(3)}};
  t.primary_key = {"id"};
  t.options = {{"connector", "datagen"}, {"number-of-rows", "10"}, {"fields.id.kind", "sequence"}};
  t.watermark_column = "ts";
  t.watermark_expr = "ts - INTERVAL '5' SECOND";
  t.comment = "all orders";
  t.partition_keys = {"ts", "amount"};
  t.distribution = TableDistribution{"HASH", {"id"}, 4};
  return t;
}

TEST(CatalogStoreTest, PermanentObjectsSurviveAReopen) {
  const std::string path = FreshDir();
  const ObjectPath orders{kDefaultCatalog, "shop", "orders"};
  const ObjectPath big{kDefaultCatalog, "shop", "big_orders"};
  const ObjectPath gone{kDefaultCatalog, kDefaultDatabase, "gone"};
  {
    Catalog catalog;
    ASSERT_TRUE(catalog.AttachStore(OpenOrDie(path)).ok());
    ASSERT_TRUE(catalog.CreateDatabase(kDefaultCatalog, "shop", false).ok());
    ASSERT_TRUE(catalog.CreateTable(Orders(orders), false).ok());
    CatalogView v;
    v.path = big;
    v.query_text = "SELECT id FROM orders WHERE amount > 100";
    v.column_aliases = {"order_id"};
    v.schema.fields = {{"order_id", DataType::BigInt().WithNullable(false)}};
    ASSERT_TRUE(catalog.CreateView(v, false).ok());
    ASSERT_TRUE(catalog.CreateTable(Orders(gone), false).ok());
    ASSERT_TRUE(catalog.DropTable(gone).ok());
    // Temporary objects belong to a session and are never stored.
    SessionCatalog session(&catalog);
    ASSERT_TRUE(session
                    .CreateTable(Orders({kDefaultCatalog, kDefaultDatabase, "tmp"}),
                                 /*temporary=*/true, false)
                    .ok());
  }
  Catalog reopened;
  ASSERT_TRUE(reopened.AttachStore(OpenOrDie(path)).ok());
  EXPECT_TRUE(reopened.DatabaseExists(kDefaultCatalog, "shop"));
  auto t = reopened.FindTable(orders);
  ASSERT_NE(t, nullptr);
  const CatalogTable want = Orders(orders);
  ASSERT_EQ(t->schema.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t->schema.fields[i].name, want.schema.fields[i].name);
    EXPECT_TRUE(t->schema.fields[i].type.SameAs(want.schema.fields[i].type)) << i;
  }
  EXPECT_EQ(t->primary_key, want.primary_key);
  EXPECT_EQ(t->options, want.options);  // in the order written
  EXPECT_EQ(t->watermark_column, "ts");
  EXPECT_EQ(t->watermark_expr, want.watermark_expr);
  EXPECT_EQ(t->comment, "all orders");
  EXPECT_EQ(t->partition_keys, want.partition_keys);  // PARTITIONED BY, in the order written
  ASSERT_TRUE(t->distribution.has_value());
  EXPECT_EQ(t->distribution->ToString(), "DISTRIBUTED BY HASH(`id`) INTO 4 BUCKETS");
  auto v = reopened.FindView(big);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->query_text, "SELECT id FROM orders WHERE amount > 100");
  EXPECT_EQ(v->column_aliases, std::vector<std::string>{"order_id"});
  EXPECT_EQ(reopened.FindTable(gone), nullptr);
  EXPECT_EQ(reopened.FindTable({kDefaultCatalog, kDefaultDatabase, "tmp"}), nullptr);
  EXPECT_EQ(reopened.ListTables(kDefaultCatalog, "shop"), std::vector<std::string>{"orders"});
}

// ANALYZE TABLE's statistics, of the table and of partitions, come back with the table.
TEST(CatalogStoreTest, TableStatisticsSurviveAReopen) {
  const std::string path = FreshDir();
  const ObjectPath orders{kDefaultCatalog, kDefaultDatabase, "orders"};
  {
    Catalog catalog;
    ASSERT_TRUE(catalog.AttachStore(OpenOrDie(path)).ok());
    ASSERT_TRUE(catalog.CreateTable(Orders(orders), false).ok());
    ASSERT_TRUE(catalog
                    .UpdateStatistics(orders,
                                      [](CatalogTable& t) {
                                        TableStatistics s;
                                        s.row_count = 7;
                                        s.columns["id"].ndv = 7;
                                        s.columns["id"].null_count = 0;
                                        s.columns["id"].min = "1";
                                        s.columns["id"].max = "7";
                                        s.columns["amount"].avg_length = 2.5;
                                        t.statistics = s;
                                        t.partition_statistics["day=1"].row_count = 3;
                                      })
                    .ok());
    EXPECT_EQ(catalog.FindTable(orders)->statistics->row_count, 7);
  }
  Catalog reopened;
  ASSERT_TRUE(reopened.AttachStore(OpenOrDie(path)).ok());
  auto t = reopened.FindTable(orders);
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->statistics.has_value());
  EXPECT_EQ(t->statistics->row_count, 7);
  const ColumnStatistics& id = t->statistics->columns.at("id");
  EXPECT_EQ(id.ndv, 7);
  EXPECT_EQ(id.null_count, 0);
  EXPECT_EQ(id.min, "1");
  EXPECT_EQ(id.max, "7");
  EXPECT_FALSE(id.avg_length.has_value());
  EXPECT_EQ(t->statistics->columns.at("amount").avg_length, 2.5);
  EXPECT_FALSE(t->statistics->columns.at("amount").ndv.has_value());
  EXPECT_EQ(t->partition_statistics.at("day=1").row_count, 3);
  // Statistics of a table that is gone cannot be written.
  EXPECT_EQ(
      reopened.UpdateStatistics({kDefaultCatalog, kDefaultDatabase, "gone"}, [](CatalogTable&) {})
          .code(),
      absl::StatusCode::kNotFound);
}

// A materialized table's definition and refresh state come back with it; a plain table has none.
TEST(CatalogStoreTest, MaterializedTableStateSurvivesAReopen) {
  const std::string path = FreshDir();
  const ObjectPath mt{kDefaultCatalog, kDefaultDatabase, "mt"};
  const ObjectPath plain{kDefaultCatalog, kDefaultDatabase, "orders"};
  {
    Catalog catalog;
    ASSERT_TRUE(catalog.AttachStore(OpenOrDie(path)).ok());
    CatalogTable table = Orders(mt);
    MaterializedTableInfo info;
    info.query_text = "SELECT id, amount, ts FROM orders";
    info.query_catalog = kDefaultCatalog;
    info.query_database = kDefaultDatabase;
    info.freshness_value = 30;
    info.freshness_unit = "SECOND";
    info.refresh_mode_written = true;
    info.refresh_status = MaterializedTableInfo::RefreshStatus::kSuspended;
    info.refresh_job_id = "0123456789abcdef0123456789abcdef";
    info.savepoint_path = "/tmp/savepoints/savepoint-1";
    table.materialized = info;
    ASSERT_TRUE(catalog.CreateTable(std::move(table), false).ok());
    ASSERT_TRUE(catalog.CreateTable(Orders(plain), false).ok());
  }
  Catalog reopened;
  ASSERT_TRUE(reopened.AttachStore(OpenOrDie(path)).ok());
  auto t = reopened.FindTable(mt);
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->materialized.has_value());
  const MaterializedTableInfo& m = *t->materialized;
  EXPECT_EQ(m.query_text, "SELECT id, amount, ts FROM orders");
  EXPECT_EQ(m.query_catalog, kDefaultCatalog);
  EXPECT_EQ(m.query_database, kDefaultDatabase);
  EXPECT_EQ(m.freshness_value, 30);
  EXPECT_EQ(m.freshness_unit, "SECOND");
  EXPECT_TRUE(m.refresh_mode_written);
  EXPECT_EQ(m.refresh_status, MaterializedTableInfo::RefreshStatus::kSuspended);
  EXPECT_EQ(m.refresh_job_id, "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(m.savepoint_path, "/tmp/savepoints/savepoint-1");
  ASSERT_NE(reopened.FindTable(plain), nullptr);
  EXPECT_FALSE(reopened.FindTable(plain)->materialized.has_value());
}

CatalogModel Sentiment(const ObjectPath& path) {
  CatalogModel m;
  m.path = path;
  m.input.fields = {{"text", DataType::String()}, {"lang", DataType::String()}};
  m.output.fields = {{"label", DataType::String().WithNullable(false)}};
  m.input_comments = {"what a user wrote", ""};
  m.options = {{"provider", "openai"}, {"model", "gpt-4o"}};
  m.comment = "classifies reviews";
  return m;
}

// Models come back with their columns, comments and options as ALTER MODEL left them (a rename
// included); dropped and temporary ones do not, and DROP DATABASE ... CASCADE takes its models.
TEST(CatalogStoreTest, ModelsSurviveAReopen) {
  const std::string path = FreshDir();
  const ObjectPath sentiment{kDefaultCatalog, kDefaultDatabase, "sentiment"};
  const ObjectPath renamed{kDefaultCatalog, kDefaultDatabase, "reviews"};
  const ObjectPath gone{kDefaultCatalog, kDefaultDatabase, "gone"};
  const ObjectPath in_shop{kDefaultCatalog, "shop", "m"};
  {
    Catalog catalog;
    ASSERT_TRUE(catalog.AttachStore(OpenOrDie(path)).ok());
    ASSERT_TRUE(catalog.CreateModel(Sentiment(sentiment), false).ok());
    CatalogModel altered = Sentiment(renamed);
    altered.options = {{"provider", "openai"}, {"model", "gpt-5"}};
    ASSERT_TRUE(catalog.AlterModel(sentiment, altered).ok());
    ASSERT_TRUE(catalog.CreateModel(Sentiment(gone), false).ok());
    ASSERT_TRUE(catalog.DropModel(gone).ok());
    ASSERT_TRUE(catalog.CreateDatabase(kDefaultCatalog, "shop", false).ok());
    ASSERT_TRUE(catalog.CreateModel(Sentiment(in_shop), false).ok());
    EXPECT_FALSE(catalog.DropDatabase(kDefaultCatalog, "shop", false, /*cascade=*/false).ok());
    ASSERT_TRUE(catalog.DropDatabase(kDefaultCatalog, "shop", false, /*cascade=*/true).ok());
    SessionCatalog session(&catalog);
    ASSERT_TRUE(session
                    .CreateModel(Sentiment({kDefaultCatalog, kDefaultDatabase, "tmp"}),
                                 /*temporary=*/true, false)
                    .ok());
  }
  Catalog reopened;
  ASSERT_TRUE(reopened.AttachStore(OpenOrDie(path)).ok());
  EXPECT_EQ(reopened.ListModels(kDefaultCatalog, kDefaultDatabase),
            std::vector<std::string>{"reviews"});
  EXPECT_EQ(reopened.FindModel(sentiment), nullptr);
  auto m = reopened.FindModel(renamed);
  ASSERT_NE(m, nullptr);
  const CatalogModel want = Sentiment(renamed);
  ASSERT_EQ(m->input.size(), 2u);
  ASSERT_EQ(m->output.size(), 1u);
  EXPECT_EQ(m->input.fields[0].name, "text");
  EXPECT_TRUE(m->input.fields[1].type.SameAs(DataType::String()));
  EXPECT_EQ(m->output.fields[0].name, "label");
  EXPECT_FALSE(m->output.fields[0].type.nullable);
  EXPECT_EQ(m->input_comments, want.input_comments);
  EXPECT_TRUE(m->output_comments.empty());
  EXPECT_EQ(m->options, (OptionList{{"provider", "openai"}, {"model", "gpt-5"}}));
  EXPECT_EQ(m->comment, "classifies reviews");
  EXPECT_FALSE(reopened.DatabaseExists(kDefaultCatalog, "shop"));
  EXPECT_EQ(reopened.FindModel(in_shop), nullptr);
}

// Catalogs of the persistent type and their objects come back; those of a generic_in_memory
// catalog do not. Database comments and properties (with ALTER DATABASE's changes) come back; a
// database dropped with CASCADE takes its objects with it.
TEST(CatalogStoreTest, PersistentCatalogsAndDatabasePropertiesSurviveAReopen) {
  const std::string path = FreshDir();
  {
    Catalog catalog;
    ASSERT_TRUE(catalog.AttachStore(OpenOrDie(path)).ok());
    CatalogInfo kept;
    kept.type = kPersistentCatalogType;
    kept.options = {{"type", kPersistentCatalogType}, {"default-database", "main"}};
    ASSERT_TRUE(catalog.CreateCatalog("kept", kept, "main", false).ok());
    ASSERT_TRUE(catalog.CreateTable(Orders({"kept", "main", "orders"}), false).ok());
    CatalogInfo memory;
    memory.type = kInMemoryCatalogType;
    memory.options = {{"type", kInMemoryCatalogType}};
    ASSERT_TRUE(catalog.CreateCatalog("scratch", memory, "default", false).ok());
    ASSERT_TRUE(catalog.CreateTable(Orders({"scratch", "default", "orders"}), false).ok());
    EXPECT_EQ(catalog.CreateCatalog("scratch", memory, "default", false).code(),
              absl::StatusCode::kAlreadyExists);

    ASSERT_TRUE(
        catalog.CreateDatabase(kDefaultCatalog, "shop", false, {"the shop", {{"a", "1"}}}).ok());
    ASSERT_TRUE(catalog.AlterDatabase(kDefaultCatalog, "shop", {{"a", "2"}, {"b", "3"}}).ok());
    ASSERT_TRUE(catalog.CreateDatabase(kDefaultCatalog, "old", false).ok());
    ASSERT_TRUE(catalog.CreateTable(Orders({kDefaultCatalog, "old", "orders"}), false).ok());
    EXPECT_EQ(catalog.DropDatabase(kDefaultCatalog, "old", false, /*cascade=*/false).code(),
              absl::StatusCode::kFailedPrecondition);
    ASSERT_TRUE(catalog.DropDatabase(kDefaultCatalog, "old", false, /*cascade=*/true).ok());
  }
  {
    Catalog reopened;
    ASSERT_TRUE(reopened.AttachStore(OpenOrDie(path)).ok());
    ASSERT_TRUE(reopened.FindCatalog("kept").has_value());
    EXPECT_EQ(reopened.FindCatalog("kept")->DefaultDatabase(), "main");
    EXPECT_NE(reopened.FindTable({"kept", "main", "orders"}), nullptr);
    EXPECT_FALSE(reopened.CatalogExists("scratch"));
    std::optional<DatabaseInfo> shop = reopened.FindDatabase(kDefaultCatalog, "shop");
    ASSERT_TRUE(shop.has_value());
    EXPECT_EQ(shop->comment, "the shop");
    EXPECT_EQ(shop->properties, (OptionList{{"a", "2"}, {"b", "3"}}));
    EXPECT_FALSE(reopened.DatabaseExists(kDefaultCatalog, "old"));
    EXPECT_EQ(reopened.FindTable({kDefaultCatalog, "old", "orders"}), nullptr);

    // Dropping the persistent catalog removes it and its objects from the store too.
    ASSERT_TRUE(reopened.DropCatalog("kept", false).ok());
  }
  Catalog again;
  ASSERT_TRUE(again.AttachStore(OpenOrDie(path)).ok());
  EXPECT_FALSE(again.CatalogExists("kept"));
  EXPECT_EQ(again.FindTable({"kept", "main", "orders"}), nullptr);
}

TEST(CatalogStoreTest, ADamagedEntryIsAnErrorNamingIt) {
  const std::string path = FreshDir();
  {
    Catalog catalog;
    ASSERT_TRUE(catalog.AttachStore(OpenOrDie(path)).ok());
    ASSERT_TRUE(
        catalog.CreateTable(Orders({kDefaultCatalog, kDefaultDatabase, "orders"}), false).ok());
  }
  {
    rocksdb::DB* raw = nullptr;
    rocksdb::Options o;
    ASSERT_TRUE(rocksdb::DB::Open(o, path, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(),
                        std::string("t/default_catalog\0default_database\0orders", 41),
                        "\xff\xff not a table")
                    .ok());
  }
  Catalog catalog;
  absl::Status s = catalog.AttachStore(OpenOrDie(path));
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("default_catalog.default_database.orders"), std::string::npos)
      << s.message();
}

// The job store keeps its records in the same database under `j/`: the catalog skips them, and
// they stay readable through db() while the catalog holds the store.
TEST(CatalogStoreTest, TheJobStoresKeysInTheSameDatabaseAreLeftAlone) {
  const std::string path = FreshDir();
  {
    Catalog catalog;
    std::unique_ptr<CatalogStore> store = OpenOrDie(path);
    std::shared_ptr<rocksdb::DB> db = store->db();
    ASSERT_TRUE(catalog.AttachStore(std::move(store)).ok());
    ASSERT_TRUE(
        catalog.CreateTable(Orders({kDefaultCatalog, kDefaultDatabase, "orders"}), false).ok());
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "j/0123/spec", "\xff a job's record").ok());
  }
  Catalog catalog;
  std::unique_ptr<CatalogStore> store = OpenOrDie(path);
  std::shared_ptr<rocksdb::DB> db = store->db();
  ASSERT_TRUE(catalog.AttachStore(std::move(store)).ok());
  EXPECT_NE(catalog.FindTable({kDefaultCatalog, kDefaultDatabase, "orders"}), nullptr);
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "j/0123/spec", &value).ok());
  EXPECT_EQ(value, "\xff a job's record");
}

}  // namespace
}  // namespace eddy
