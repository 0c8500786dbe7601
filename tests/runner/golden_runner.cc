// Runs golden SQL files against the real `eddy` binary on an embedded cluster. Each record runs as
// one eddy invocation whose script is every earlier `statement ok` record of the file followed by the
// record itself. `query` compares stdout (print-sink rows) line by line; `statement error` expects a
// non-zero exit and each expected line to appear in stderr.
//
// Usage: golden_runner EDDY_BINARY FILE.test [FILE.test ...]
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "tests/runner/golden_file.h"
#include "tests/util/subprocess.h"

namespace {

using eddy::testing::ReadFileToString;
using eddy::testing::RunResult;

RunResult RunEddy(const std::string& eddy, const std::vector<std::string>& extra,
                  const std::string& script, const std::string& tmp) {
  std::string sql_path = tmp + "/script.sql";
  std::ofstream(sql_path) << script;
  std::vector<std::string> args = {eddy, "-f", sql_path};
  args.insert(args.end(), extra.begin(), extra.end());
  return eddy::testing::RunToCompletion(args, tmp);
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out = absl::StrSplit(s, '\n', absl::SkipEmpty());
  return out;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += "    " + l + "\n";
  return s;
}

// Returns the number of failed records.
int RunFile(const std::string& eddy, const std::string& path, const std::string& tmp) {
  auto records = eddy::golden::ParseGoldenFile(ReadFileToString(path));
  if (!records.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), std::string(records.status().message()).c_str());
    return 1;
  }
  int failed = 0;
  std::string prefix;  // accumulated `statement ok` SQL
  for (const auto& r : *records) {
    RunResult res = RunEddy(eddy, r.eddy_args, prefix + r.sql, tmp);
    std::string problem;
    using Kind = eddy::golden::Record::Kind;
    if (r.kind == Kind::kStatementOk) {
      if (res.exit_code != 0) problem = "expected success, got exit code " + std::to_string(res.exit_code);
    } else if (r.kind == Kind::kStatementError) {
      if (res.exit_code == 0) {
        problem = "expected an error, but the statement succeeded";
      } else {
        for (const auto& want : r.expected) {
          if (res.err.find(want) == std::string::npos) {
            problem = "error message lacks: " + want;
            break;
          }
        }
      }
    } else {
      std::vector<std::string> got = Lines(res.out), want = r.expected;
      if (r.sorted) {
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
      }
      if (res.exit_code != 0) {
        problem = "exit code " + std::to_string(res.exit_code);
      } else if (got != want) {
        problem = "output differs.\n  expected:\n" + Join(want) + "  actual:\n" + Join(got);
      }
    }
    if (!problem.empty()) {
      ++failed;
      std::fprintf(stderr, "FAIL %s:%d: %s\n  stderr:\n%s\n", path.c_str(), r.line, problem.c_str(),
                   res.err.c_str());
    }
    if (r.kind == Kind::kStatementOk) prefix += r.sql;
  }
  std::printf("%s: %zu records, %d failed\n", path.c_str(), records->size(), failed);
  return failed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s EDDY_BINARY FILE.test...\n", argv[0]);
    return 2;
  }
  std::string tmpl = (std::filesystem::temp_directory_path() / "eddy-golden-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) return 2;
  int failed = 0;
  for (int i = 2; i < argc; ++i) failed += RunFile(argv[1], argv[i], tmpl);
  std::filesystem::remove_all(tmpl);
  return failed == 0 ? 0 : 1;
}
