// ModuleManager: loading, unloading and using modules, with Flink's errors.
#include "coordinator/catalog/module_manager.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

TEST(ModuleManagerTest, CoreIsLoadedAndUsedAtFirst) {
  ModuleManager modules;
  EXPECT_THAT(modules.used(), ElementsAre("core"));
  EXPECT_THAT(modules.All(), ElementsAre(Pair("core", true)));
  EXPECT_TRUE(modules.CoreUsed());
}

TEST(ModuleManagerTest, UnusedCoreStaysLoadedAndComesBackWithUse) {
  ModuleManager modules;
  ASSERT_TRUE(modules.Use({}).ok());
  EXPECT_THAT(modules.used(), IsEmpty());
  EXPECT_THAT(modules.All(), ElementsAre(Pair("core", false)));
  EXPECT_FALSE(modules.CoreUsed());
  ASSERT_TRUE(modules.Use({"core"}).ok());
  EXPECT_TRUE(modules.CoreUsed());
}

TEST(ModuleManagerTest, UnloadThenLoadRestoresCore) {
  ModuleManager modules;
  ASSERT_TRUE(modules.Unload("core").ok());
  EXPECT_THAT(modules.All(), IsEmpty());
  EXPECT_FALSE(modules.CoreUsed());
  EXPECT_THAT(modules.Unload("core").message(), HasSubstr("No module with name 'core' exists"));
  ASSERT_TRUE(modules.Load("core", {}).ok());
  EXPECT_TRUE(modules.CoreUsed());
}

TEST(ModuleManagerTest, BadRequestsAreRefusedWithFlinksMessages) {
  ModuleManager modules;
  EXPECT_THAT(modules.Load("core", {}).message(),
              HasSubstr("A module with name 'core' already exists"));
  EXPECT_THAT(modules.Load("hive", {}).message(),
              HasSubstr("Could not find any module factory for identifier 'hive'"));
  sql::PropertyList typed;
  typed.entries = {{"type", "hive"}};
  EXPECT_THAT(modules.Load("myhive", typed).message(),
              HasSubstr("Property 'type' = 'hive' is not supported"));
  EXPECT_THAT(modules.Use({"core", "core"}).message(),
              HasSubstr("Module 'core' appears more than once"));
  EXPECT_THAT(modules.Use({"hive"}).message(), HasSubstr("No module with name 'hive' exists"));
  // A refused request changes nothing.
  EXPECT_THAT(modules.used(), ElementsAre("core"));
}

}  // namespace
}  // namespace eddy
