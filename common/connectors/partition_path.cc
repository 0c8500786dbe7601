#include "common/connectors/partition_path.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/base/status_macros.h"
#include "common/expr/cast_column.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

bool NeedsEscaping(unsigned char c) {
  if (c >= 0x01 && c <= 0x1F) return true;
  switch (c) {
    case '"':
    case '#':
    case '%':
    case '\'':
    case '*':
    case '/':
    case ':':
    case '=':
    case '?':
    case '\\':
    case 0x7F:
    case '{':
    case '[':
    case ']':
    case '^':
      return true;
  }
  return false;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool Hidden(const std::string& name) { return name.empty() || name[0] == '.' || name[0] == '_'; }

}  // namespace

void AppendEscapedPartitionName(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (NeedsEscaping(c)) {
      out->push_back('%');
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(ch);
    }
  }
}

std::string EscapePartitionName(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  AppendEscapedPartitionName(s, &out);
  return out;
}

std::string UnescapePartitionName(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = HexDigit(s[i + 1]);
      const int lo = HexDigit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

std::string PartitionPath(const PartitionSpec& spec) {
  std::vector<std::string> levels;
  levels.reserve(spec.size());
  for (const auto& [key, value] : spec) {
    levels.push_back(absl::StrCat(EscapePartitionName(key), "=", EscapePartitionName(value)));
  }
  return absl::StrJoin(levels, "/");
}

bool IsPartitionPath(std::string_view path) {
  if (path.empty()) return false;
  for (absl::string_view level : absl::StrSplit(absl::string_view(path.data(), path.size()), '/')) {
    if (level.empty() || level[0] == '.' || level.find('=') == absl::string_view::npos) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<PartitionSpec> ParsePartitionPath(std::string_view path) {
  PartitionSpec spec;
  for (absl::string_view piece :
       absl::StrSplit(absl::string_view(path.data(), path.size()), '/', absl::SkipEmpty())) {
    const std::string_view level(piece.data(), piece.size());
    const size_t eq = level.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      return absl::InvalidArgumentError(absl::StrCat("partition directory '", std::string(path),
                                                     "' has a level '", std::string(level),
                                                     "' that is not <column>=<value>"));
    }
    spec.emplace_back(UnescapePartitionName(level.substr(0, eq)),
                      UnescapePartitionName(level.substr(eq + 1)));
  }
  return spec;
}

std::string PartitionSpecText(const PartitionSpec& spec) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : spec) parts.push_back(absl::StrCat(key, "=", value));
  return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
}

absl::StatusOr<std::vector<std::string>> ListPartitionDirectories(
    const std::string& dir, const std::vector<std::string>& keys) {
  std::vector<std::string> found;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return found;
  // Level by level: the directories of level i whose names are `<keys[i]>=...`.
  std::vector<std::string> level = {""};
  for (const std::string& key : keys) {
    const std::string prefix = EscapePartitionName(key) + "=";
    std::vector<std::string> next;
    for (const std::string& rel : level) {
      const std::string at = rel.empty() ? dir : absl::StrCat(dir, "/", rel);
      for (fs::directory_iterator it(at, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code dir_ec;
        if (Hidden(name) || name.rfind(prefix, 0) != 0 || !it->is_directory(dir_ec)) continue;
        next.push_back(rel.empty() ? name : absl::StrCat(rel, "/", name));
      }
      if (ec) {
        return absl::InvalidArgumentError(
            absl::StrCat("cannot list directory '", at, "': ", ec.message()));
      }
    }
    level = std::move(next);
  }
  if (keys.empty()) return found;
  std::sort(level.begin(), level.end());
  return level;
}

absl::StatusOr<Column> CastPartitionColumn(const Column& column) {
  if (column.type().IsString()) return column;
  return CastColumn(column, DataType::String(), /*try_cast=*/false);
}

std::string_view PartitionValueText(const Column& texts, size_t row,
                                    const std::string& default_name) {
  if (texts.IsNull(row)) return default_name;
  std::string_view text = texts.GetString(row);
  if (text.empty()) return default_name;
  return text;
}

absl::StatusOr<Value> PartitionValue(const std::string& column, const std::string& text,
                                     const DataType& type, const std::string& default_name) {
  if (text == default_name) return Value::Null();
  Column in(DataType::String());
  in.AppendString(text);
  auto cast = CastColumn(in, type, /*try_cast=*/false);
  if (!cast.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("partition value '", text, "' of column '", column, "' is not a valid ",
                     type.WithNullable(true).ToString(), ": ", cast.status().message()));
  }
  return cast->GetValue(0);
}

}  // namespace eddy
