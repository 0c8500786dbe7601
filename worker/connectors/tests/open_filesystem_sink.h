// Test helper: a FilesystemSink created for `spec` and opened as subtask `subtask` of two in job
// "j", the way the filesystem sink and partition committer tests need one.
#pragma once

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "tests/util/status_matchers.h"
#include "worker/connectors/filesystem_sink.h"

namespace eddy {

inline std::unique_ptr<FilesystemSink> OpenFilesystemSink(const v1::TableSink& spec,
                                                          const Schema& schema,
                                                          const std::string& root, int subtask,
                                                          int attempt, bool checkpointing) {
  auto sink = FilesystemSink::Create(spec, schema, {root});
  EXPECT_TRUE(sink.ok()) << sink.status();
  if (!sink.ok()) return nullptr;
  OperatorContext ctx;
  ctx.job_id = "j";
  ctx.subtask_index = subtask;
  ctx.parallelism = 2;
  ctx.attempt = attempt;
  ctx.checkpointing = checkpointing;
  EXPECT_OK((*sink)->Open(ctx));
  return std::move(*sink);
}

}  // namespace eddy
