// Shared checks of the operator factory's tests: a malformed plan node must be refused with
// InvalidArgument, naming the node (`plan node <id> (<description>)`) and what is wrong.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "worker/runtime/operator_factory.h"

namespace eddy::testing {

inline void ExpectNodeRejected(const v1::PlanNode& n, const std::string& what,
                               const std::vector<std::vector<DataType>>& inputs) {
  auto built = BuildNode(n, inputs);
  ASSERT_FALSE(built.ok()) << what;
  EXPECT_EQ(built.status().code(), absl::StatusCode::kInvalidArgument) << built.status();
  const std::string name = absl::StrCat("plan node ", n.id(), " (", n.description(), ")");
  EXPECT_NE(built.status().message().find(name), std::string::npos) << built.status();
  EXPECT_NE(built.status().message().find(what), std::string::npos) << built.status();
}

}  // namespace eddy::testing
