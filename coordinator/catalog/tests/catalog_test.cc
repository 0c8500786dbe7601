#include "coordinator/catalog/catalog.h"

#include <gtest/gtest.h>

namespace eddy {
namespace {

sql::QualifiedName Name(std::vector<std::string> parts) {
  sql::QualifiedName n;
  n.parts = std::move(parts);
  return n;
}

CatalogTable Table(const ObjectPath& p, const std::string& connector) {
  CatalogTable t;
  t.path = p;
  t.schema.fields.push_back({"word", DataType::String()});
  t.options = {{"connector", connector}};
  return t;
}

TEST(SessionCatalog, ResolvesNamesAgainstCurrentCatalogAndDatabase) {
  Catalog catalog;
  SessionCatalog session(&catalog);
  EXPECT_EQ(session.Resolve(Name({"t"}))->ToString(), "default_catalog.default_database.t");
  EXPECT_EQ(session.Resolve(Name({"db", "t"}))->ToString(), "default_catalog.db.t");
  EXPECT_EQ(session.Resolve(Name({"c", "db", "t"}))->ToString(), "c.db.t");
  EXPECT_FALSE(session.Resolve(Name({"a", "b", "c", "d"})).ok());
  ASSERT_TRUE(catalog.CreateDatabase(kDefaultCatalog, "other", false).ok());
  ASSERT_TRUE(session.UseDatabase(Name({"other"})).ok());
  EXPECT_EQ(session.Resolve(Name({"t"}))->ToString(), "default_catalog.other.t");
  EXPECT_EQ(session.UseDatabase(Name({"missing"})).message(),
            "Validation error: database 'default_catalog.missing' not found");
}

TEST(SessionCatalog, TemporaryShadowsPermanentAndSessionsAreIsolated) {
  Catalog catalog;
  SessionCatalog a(&catalog), b(&catalog);
  ObjectPath p{kDefaultCatalog, kDefaultDatabase, "t"};
  ASSERT_TRUE(a.CreateTable(Table(p, "blackhole"), /*temporary=*/false, false).ok());
  EXPECT_FALSE(a.CreateTable(Table(p, "blackhole"), false, false).ok());
  EXPECT_TRUE(a.CreateTable(Table(p, "blackhole"), false, /*if_not_exists=*/true).ok());
  ASSERT_TRUE(a.CreateTable(Table(p, "print"), /*temporary=*/true, false).ok());
  EXPECT_EQ(a.FindTable(p)->connector(), "print");
  EXPECT_EQ(b.FindTable(p)->connector(), "blackhole");
  ASSERT_TRUE(a.DropTable(p, /*temporary=*/true, false).ok());
  EXPECT_EQ(a.FindTable(p)->connector(), "blackhole");
  EXPECT_TRUE(a.DropTable(p, false, false).ok());
  EXPECT_EQ(b.FindTable(p), nullptr);
  EXPECT_TRUE(a.DropTable(p, false, /*if_exists=*/true).ok());
  EXPECT_EQ(a.DropTable(p, false, false).message(),
            "Validation error: table 'default_catalog.default_database.t' not found");
}

}  // namespace
}  // namespace eddy
