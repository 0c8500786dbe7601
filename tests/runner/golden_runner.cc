// Runs golden SQL files against the real `eddy` binary on an embedded cluster. Each record runs as
// one eddy invocation whose script is every earlier `statement ok` record of the file followed by
// the record itself. `query` compares stdout (print-sink rows) line by line; `statement error`
// expects a non-zero exit and each expected line to appear in stderr. `file` writes an input file
// into the scratch directory eddy runs in; `output` and `files` check what filesystem sinks wrote
// there.
//
// Usage: golden_runner [--stdin] EDDY_BINARY FILE.test [FILE.test ...]
// With --stdin each script goes to the shell's standard input, as a user pipes or types it.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "tests/runner/golden_file.h"
#include "tests/util/subprocess.h"

namespace {

using eddy::testing::ReadFileToString;
using eddy::testing::RunResult;

// `${EDDY_UDF_EXAMPLES}` in a script stands for the directory of the example user-function
// libraries (examples/udf), which CTest passes in the environment variable of that name.
std::string SubstituteVariables(std::string script) {
  static const std::string kName = "${EDDY_UDF_EXAMPLES}";
  const char* value = std::getenv("EDDY_UDF_EXAMPLES");
  if (value == nullptr) return script;
  for (size_t at = script.find(kName); at != std::string::npos; at = script.find(kName, at)) {
    script.replace(at, kName.size(), value);
    at += std::strlen(value);
  }
  return script;
}

// --stdin: the script is typed into the shell on its standard input (as `eddy < file`), not run
// with -f.
bool g_stdin_mode = false;

RunResult RunEddy(const std::string& eddy, const std::vector<std::string>& extra,
                  const std::string& script, const std::string& tmp) {
  std::string sql_path = tmp + "/script.sql";
  std::ofstream(sql_path) << SubstituteVariables(script);
  std::vector<std::string> args;
  if (g_stdin_mode) {
    args = {"/bin/sh", "-c", "f=\"$1\"; shift; exec \"$0\" \"$@\" < \"$f\"", eddy, sql_path};
  } else {
    args = {eddy, "-f", sql_path};
  }
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

namespace fs = std::filesystem;

void WriteScratchFile(const std::string& tmp, const eddy::golden::Record& r) {
  const fs::path path = fs::path(tmp) / r.path;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (const auto& l : r.expected) out << l << "\n";
}

// Checks an `output` or `files` record; returns the problem, or "".
std::string CheckFiles(const std::string& tmp, const eddy::golden::Record& r) {
  const fs::path path = fs::path(tmp) / r.path;
  std::vector<fs::path> entries;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const auto& e : fs::directory_iterator(path, ec)) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());
  } else if (fs::exists(path, ec)) {
    entries.push_back(path);
  }
  if (r.kind == eddy::golden::Record::Kind::kFiles) {
    // Job ids differ from run to run.
    static const std::regex job_id("[0-9a-f]{32}");
    std::vector<std::string> names;
    for (const auto& e : entries) {
      names.push_back(std::regex_replace(e.filename().string(), job_id, "<job>"));
    }
    if (names != r.expected) {
      return "files differ.\n  expected:\n" + Join(r.expected) + "  actual:\n" + Join(names);
    }
    return "";
  }
  std::string text;
  for (const auto& e : entries) {
    const std::string name = e.filename().string();
    if (name[0] == '.' || name[0] == '_') {
      return "a hidden (in-progress) file is left: " + name;
    }
    text += ReadFileToString(e.string());
  }
  if (entries.empty()) return "no file at " + r.path;
  std::vector<std::string> got = absl::StrSplit(text, '\n');
  if (!got.empty() && got.back().empty()) {
    got.pop_back();
  } else {
    return "the output does not end with a line break:\n" + Join(got);
  }
  std::vector<std::string> want = r.expected;
  if (r.sorted) {
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
  }
  if (got != want) return "output differs.\n  expected:\n" + Join(want) + "  actual:\n" + Join(got);
  return "";
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
    using Kind = eddy::golden::Record::Kind;
    if (r.kind == Kind::kFile) {
      WriteScratchFile(tmp, r);
      continue;
    }
    if (r.kind == Kind::kOutput || r.kind == Kind::kFiles) {
      const std::string problem = CheckFiles(tmp, r);
      if (!problem.empty()) {
        ++failed;
        std::fprintf(stderr, "FAIL %s:%d: %s\n", path.c_str(), r.line, problem.c_str());
      }
      continue;
    }
    RunResult res = RunEddy(eddy, r.eddy_args, prefix + r.sql, tmp);
    std::string problem;
    // The shell on stdin goes on after an error and exits with the last statement's status: an
    // error anywhere shows as an [ERROR] report.
    const bool reported_error = res.err.find("[ERROR]") != std::string::npos;
    const bool went_wrong =
        g_stdin_mode ? reported_error || res.exit_code != 0 : res.exit_code != 0;
    if (r.kind == Kind::kStatementOk) {
      if (went_wrong) problem = "expected success, got exit code " + std::to_string(res.exit_code);
    } else if (r.kind == Kind::kStatementError) {
      if (!went_wrong) {
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
  if (argc > 1 && std::strcmp(argv[1], "--stdin") == 0) {
    g_stdin_mode = true;
    --argc;
    ++argv;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s [--stdin] EDDY_BINARY FILE.test...\n", argv[0]);
    return 2;
  }
  std::string tmpl = (std::filesystem::temp_directory_path() / "eddy-golden-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) return 2;
  // eddy runs in the scratch directory: relative paths of filesystem tables (and `file`/`output`
  // records) point into it, and it is eddy's default --filesystem-allowed-dirs.
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) paths.push_back(std::filesystem::absolute(argv[i]).string());
  if (chdir(tmpl.c_str()) != 0) return 2;
  int failed = 0;
  for (size_t i = 1; i < paths.size(); ++i) failed += RunFile(paths[0], paths[i], tmpl);
  std::filesystem::remove_all(tmpl);
  return failed == 0 ? 0 : 1;
}
