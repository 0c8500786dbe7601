// A compiled plan's JSON: what CompiledPlanJson writes ParseCompiledPlan reads back unchanged, and
// anything else (not JSON, unknown fields, another format version, no nodes) is refused by name.
#include "coordinator/service/compiled_plan.h"

#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"

namespace eddy {
namespace {

PlannedJob TwoNodeJob() {
  PlannedJob job;
  job.name = "insert-into_default_catalog.default_database.out";
  job.bounded = false;
  job.nodes.resize(2);
  job.nodes[0].set_id(1);
  v1::TableSource* src = job.nodes[0].mutable_table_source();
  src->set_connector("datagen");
  (*src->mutable_options())["rows-per-second"] = "5";
  job.nodes[1].set_id(2);
  job.nodes[1].add_inputs(1);
  job.nodes[1].mutable_sink()->set_connector("print");
  return job;
}

TEST(CompiledPlanTest, TheJsonReadsBackAsTheSamePlan) {
  const PlannedJob job = TwoNodeJob();
  const std::string json = CompiledPlanJson(job);
  EXPECT_NE(json.find("\"format_version\": 1"), std::string::npos) << json;
  absl::StatusOr<PlannedJob> back = ParseCompiledPlan(json, "the plan file 'p.json'");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->name, job.name);
  EXPECT_FALSE(back->bounded);
  ASSERT_EQ(back->nodes.size(), 2u);
  for (size_t i = 0; i < job.nodes.size(); ++i) {
    EXPECT_EQ(back->nodes[i].SerializeAsString(), job.nodes[i].SerializeAsString()) << i;
  }
}

TEST(CompiledPlanTest, WhatIsNotAPlanOfThisFormatIsRefused) {
  const std::string json = CompiledPlanJson(TwoNodeJob());
  const std::string origin = "the plan file 'p.json'";
  EXPECT_EQ(ParseCompiledPlan("1,a\n2,b\n", origin).status().message().substr(0, 69),
            "Cannot load the plan file 'p.json': it is not a compiled plan of Eddy");
  // A Flink plan: its fields are unknown here, and unknown fields are errors, never dropped.
  EXPECT_EQ(ParseCompiledPlan(R"({"flinkVersion": "1.20", "nodes": []})", origin)
                .status()
                .message()
                .substr(0, 69),
            "Cannot load the plan file 'p.json': it is not a compiled plan of Eddy");
  EXPECT_EQ(
      ParseCompiledPlan(
          absl::StrReplaceAll(json, {{"\"format_version\": 1", "\"format_version\": 7"}}), origin)
          .status()
          .message(),
      "Cannot load the plan file 'p.json': its plan format version is 7, and this Eddy "
      "runs version 1 only");
  EXPECT_EQ(
      ParseCompiledPlan(R"({"format_version": 1, "job_name": "j"})", origin).status().message(),
      "Cannot load the plan file 'p.json': it has no nodes");
}

}  // namespace
}  // namespace eddy
