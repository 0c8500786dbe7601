// Golden SQL test files (tests/sql/**/*.test): parsing the format documented in
// docs/test-format.md into records — `statement ok`, `statement error`, `query [sorted]`, and for
// the filesystem connector `file PATH`, `output [sorted] PATH`, `files PATH`.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy::golden {

struct Record {
  enum class Kind {
    kStatementOk,
    kStatementError,
    kQuery,
    kFile,    // writes `expected` (one line each) to `path` in the scratch directory
    kOutput,  // the files at `path` (a file, or a directory's non-hidden files) hold `expected`
    kFiles,   // the names in directory `path` (job ids as <job>) are `expected`
  } kind = Kind::kStatementOk;
  int line = 0;                       // line of the record's header in the file
  std::string sql;                    // the statements of the record
  std::vector<std::string> expected;  // query: expected stdout lines; error: expected message lines
  bool sorted = false;                // query, output: compare as sorted multisets of lines
  std::string path;                   // file, output, files: relative to the scratch directory
  std::vector<std::string> eddy_args;  // extra arguments for eddy (e.g. --workers 2)
};

absl::StatusOr<std::vector<Record>> ParseGoldenFile(const std::string& text);

}  // namespace eddy::golden
