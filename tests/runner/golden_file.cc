#include "tests/runner/golden_file.h"

#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace eddy::golden {

absl::StatusOr<std::vector<Record>> ParseGoldenFile(const std::string& text) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  std::vector<Record> records;
  std::vector<std::string> args;  // from `eddy-args` lines, applied to the records after them
  size_t i = 0;
  while (i < lines.size()) {
    std::string line(absl::StripTrailingAsciiWhitespace(lines[i]));
    if (line.empty() || line[0] == '#') {
      ++i;
      continue;
    }
    Record r;
    r.line = static_cast<int>(i + 1);
    std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words[0] == "eddy-args") {
      args.assign(words.begin() + 1, words.end());
      ++i;
      continue;
    }
    if (words[0] == "file" || words[0] == "output" || words[0] == "files") {
      // File records: a path, then the file's lines (file) or `----` and the expected lines.
      const bool sorted = words[0] == "output" && words.size() == 3 && words[1] == "sorted";
      if (words.size() != (sorted ? 3u : 2u) || words.back()[0] == '/' ||
          words.back().find("..") != std::string::npos) {
        return absl::InvalidArgumentError(absl::StrCat("line ", i + 1, ": expected '", words[0],
                                                       words[0] == "output" ? " [sorted]" : "",
                                                       " RELATIVE-PATH', found '", line, "'"));
      }
      r.kind = words[0] == "file"     ? Record::Kind::kFile
               : words[0] == "output" ? Record::Kind::kOutput
                                      : Record::Kind::kFiles;
      r.sorted = sorted;
      r.path = words.back();
      ++i;
      if (r.kind != Record::Kind::kFile) {
        if (i >= lines.size() || absl::StripTrailingAsciiWhitespace(lines[i]) != "----") {
          return absl::InvalidArgumentError(absl::StrCat("line ", r.line, ": '", words[0],
                                                         "' needs ---- and the expected lines"));
        }
        ++i;
      }
      // Until a blank line; a file's lines are kept as written.
      while (i < lines.size() && !absl::StripTrailingAsciiWhitespace(lines[i]).empty()) {
        r.expected.push_back(r.kind == Record::Kind::kFile
                                 ? lines[i]
                                 : std::string(absl::StripTrailingAsciiWhitespace(lines[i])));
        ++i;
      }
      records.push_back(std::move(r));
      continue;
    }
    if (words[0] == "statement" && words.size() == 2 && words[1] == "ok") {
      r.kind = Record::Kind::kStatementOk;
    } else if (words[0] == "statement" && words.size() == 2 && words[1] == "error") {
      r.kind = Record::Kind::kStatementError;
    } else if (words[0] == "query" &&
               (words.size() == 1 || (words.size() == 2 && words[1] == "sorted"))) {
      r.kind = Record::Kind::kQuery;
      r.sorted = words.size() == 2;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", i + 1,
                       ": expected 'statement ok', 'statement error', 'query', "
                       "'query sorted', 'file', 'output', 'files' or 'eddy-args', found '",
                       line, "'"));
    }
    r.eddy_args = args;
    ++i;
    // SQL until a blank line or `----`.
    std::string sql;
    while (i < lines.size()) {
      std::string l(absl::StripTrailingAsciiWhitespace(lines[i]));
      if (l.empty() || l == "----") break;
      absl::StrAppend(&sql, l, "\n");
      ++i;
    }
    if (sql.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("line ", r.line, ": record has no SQL"));
    }
    r.sql = sql;
    if (i < lines.size() && absl::StripTrailingAsciiWhitespace(lines[i]) == "----") {
      ++i;
      while (i < lines.size()) {
        std::string l(absl::StripTrailingAsciiWhitespace(lines[i]));
        if (l.empty()) break;
        r.expected.push_back(l);
        ++i;
      }
    }
    if (r.kind == Record::Kind::kStatementOk && !r.expected.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", r.line, ": 'statement ok' takes no expected output"));
    }
    if (r.kind == Record::Kind::kStatementError && r.expected.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "line ", r.line, ": 'statement error' needs the expected message after ----"));
    }
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace eddy::golden
