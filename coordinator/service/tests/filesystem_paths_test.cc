// The coordinator's check of filesystem paths before deployment: relative paths become canonical
// absolute ones, and a path outside the allowed directories is a validation error.
#include "coordinator/service/filesystem_paths.h"

#include <unistd.h>

#include <filesystem>

#include "common/base/allowed_paths.h"
#include "gtest/gtest.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

std::vector<v1::PlanNode> Plan(const std::string& source_path, const std::string& sink_path) {
  std::vector<v1::PlanNode> nodes(2);
  v1::TableSource* src = nodes[0].mutable_table_source();
  src->set_connector("filesystem");
  src->set_table_name("default_catalog.default_database.src");
  (*src->mutable_options())["path"] = source_path;
  v1::TableSink* sink = nodes[1].mutable_sink();
  sink->set_table_name("default_catalog.default_database.out");
  sink->set_connector("filesystem");
  (*sink->mutable_options())["path"] = sink_path;
  return nodes;
}

TEST(FilesystemPathsTest, ResolvesAndChecksEverySourceAndSink) {
  const std::string cwd = DefaultFilesystemAllowedDir();
  std::vector<v1::PlanNode> nodes = Plan("in/./a.csv", "out/../out2");
  ASSERT_TRUE(ResolveFilesystemPaths({cwd}, &nodes).ok());
  EXPECT_EQ(nodes[0].table_source().options().at("path"), cwd + "/in/a.csv");
  EXPECT_EQ(nodes[1].sink().options().at("path"), cwd + "/out2");

  nodes = Plan("in/a.csv", "../elsewhere");
  absl::Status s = ResolveFilesystemPaths({cwd}, &nodes);
  EXPECT_EQ(s.message(),
            "Validation error: path '../elsewhere' of filesystem table "
            "'default_catalog.default_database.out' is outside the directories this "
            "server allows (--filesystem-allowed-dirs: '" +
                cwd + "')");
  nodes = Plan("/etc/passwd", "out");
  s = ResolveFilesystemPaths({cwd}, &nodes);
  EXPECT_NE(s.message().find("path '/etc/passwd' of filesystem table "
                             "'default_catalog.default_database.src' is outside"),
            absl::string_view::npos)
      << s;
  nodes = Plan("in/a.csv", "out");
  s = ResolveFilesystemPaths({}, &nodes);
  EXPECT_NE(s.message().find("(--filesystem-allowed-dirs: none)"), absl::string_view::npos) << s;
  // Other sinks are left alone.
  nodes = Plan("in/a.csv", "/anywhere");
  nodes[1].mutable_sink()->set_connector("print");
  EXPECT_TRUE(ResolveFilesystemPaths({cwd}, &nodes).ok());
}

}  // namespace
}  // namespace eddy
