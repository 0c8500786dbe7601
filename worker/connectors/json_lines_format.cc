#include "worker/connectors/json_lines_format.h"

#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/json_string.h"
#include "common/base/status_macros.h"
#include "common/expr/cast_column.h"
#include "worker/connectors/base64_column.h"
#include "worker/connectors/json_collection_text.h"

namespace eddy {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string Printable(char c) {
  if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
    return absl::StrCat("\\x", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
  }
  return std::string(1, c);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four hex digits at s[i]; -1 when malformed.
int32_t Hex4(std::string_view s, size_t i) {
  if (i + 4 > s.size()) return -1;
  int32_t v = 0;
  for (size_t k = i; k < i + 4; ++k) {
    const int d = HexDigit(s[k]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Reads the string literal at s[*i] (a '"'): its text is s[*begin, +*size) when it has no escapes,
// otherwise appended to *scratch at *begin (and *in_scratch set). *i ends past the closing quote.
absl::Status ReadString(std::string_view s, size_t* i, std::string* scratch, size_t* begin,
                        size_t* size, bool* in_scratch, size_t* error_column) {
  const size_t n = s.size();
  size_t j = *i + 1, segment = j;
  bool escaped = false;
  size_t start = 0;
  auto fail = [&](size_t at, std::string message) {
    *error_column = at + 1;
    return absl::InvalidArgumentError(std::move(message));
  };
  while (true) {
    if (j >= n) return fail(*i, "unterminated string");
    const unsigned char c = static_cast<unsigned char>(s[j]);
    if (c == '"') break;
    if (c < 0x20) return fail(j, "unescaped control character in a string");
    if (c != '\\') {
      ++j;
      continue;
    }
    if (!escaped) {
      escaped = true;
      start = scratch->size();
    }
    scratch->append(s.data() + segment, j - segment);
    if (j + 1 >= n) return fail(j, "unterminated string");
    const char e = s[j + 1];
    size_t next = j + 2;
    switch (e) {
      case '"':
        scratch->push_back('"');
        break;
      case '\\':
        scratch->push_back('\\');
        break;
      case '/':
        scratch->push_back('/');
        break;
      case 'b':
        scratch->push_back('\b');
        break;
      case 'f':
        scratch->push_back('\f');
        break;
      case 'n':
        scratch->push_back('\n');
        break;
      case 'r':
        scratch->push_back('\r');
        break;
      case 't':
        scratch->push_back('\t');
        break;
      case 'u': {
        int32_t cp = Hex4(s, j + 2);
        if (cp < 0) return fail(j, "invalid \\u escape");
        next = j + 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair
          const int32_t low =
              next + 1 < n && s[next] == '\\' && s[next + 1] == 'u' ? Hex4(s, next + 2) : -1;
          if (low < 0xDC00 || low > 0xDFFF) return fail(j, "unpaired surrogate in a \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          next += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail(j, "unpaired surrogate in a \\u escape");
        }
        AppendUtf8(static_cast<uint32_t>(cp), scratch);
        break;
      }
      default:
        return fail(j, absl::StrCat("invalid escape '\\", Printable(e), "' in a string"));
    }
    j = segment = next;
  }
  if (escaped) {
    scratch->append(s.data() + segment, j - segment);
    *begin = start;
    *size = scratch->size() - start;
    *in_scratch = true;
  } else {
    *begin = *i + 1;
    *size = j - (*i + 1);
    *in_scratch = false;
  }
  *i = j + 1;
  return absl::OkStatus();
}

}  // namespace

JsonLinesDecoder::JsonLinesDecoder(JsonOptions options, const Schema& file_schema,
                                   const std::vector<int>& columns)
    : options_(options) {
  for (size_t c = 0; c < columns.size(); ++c) {
    names_.push_back(file_schema.fields[columns[c]].name);
    column_of_.emplace(names_.back(), static_cast<int>(c));
  }
  spans_.resize(columns.size());
  values_.resize(columns.size());
}

void JsonLinesDecoder::StartFile() {
  line_ = 1;
  at_file_start_ = true;
}

void JsonLinesDecoder::ResumeFile(int64_t next_line) {
  line_ = next_line;
  at_file_start_ = false;
}

absl::Status JsonLinesDecoder::ParseLine(std::string_view line, size_t* error_column) {
  for (Span& s : spans_) s = Span{};
  scratch_.clear();
  const size_t n = line.size();
  size_t i = 0;
  auto skip_space = [&] {
    while (i < n && IsSpace(line[i])) ++i;
  };
  auto fail = [&](std::string message) {
    *error_column = i + 1;
    return absl::InvalidArgumentError(std::move(message));
  };
  auto found = [&]() {
    return i < n ? absl::StrCat("'", Printable(line[i]), "'") : "the line end";
  };
  skip_space();
  if (i >= n || line[i] != '{') return fail(absl::StrCat("expected '{' but found ", found()));
  ++i;
  skip_space();
  if (i < n && line[i] == '}') {
    ++i;
  } else {
    while (true) {
      skip_space();
      if (i >= n || line[i] != '"') {
        return fail(absl::StrCat("expected a field name but found ", found()));
      }
      size_t begin = 0, size = 0;
      bool in_scratch = false;
      key_.clear();
      RETURN_IF_ERROR(ReadString(line, &i, &key_, &begin, &size, &in_scratch, error_column));
      const std::string_view key =
          in_scratch ? std::string_view(key_).substr(begin, size) : line.substr(begin, size);
      skip_space();
      if (i >= n || line[i] != ':') {
        return fail(absl::StrCat("expected ':' after the field name but found ", found()));
      }
      ++i;
      skip_space();
      auto it = column_of_.find(absl::string_view(key.data(), key.size()));
      Span* span = it == column_of_.end() ? nullptr : &spans_[it->second];
      Span value;
      value.null = false;
      value.begin = i;
      if (i >= n) return fail("expected a value but found the line end");
      const char c = line[i];
      if (c == '"') {
        RETURN_IF_ERROR(ReadString(line, &i, &scratch_, &value.begin, &value.size,
                                   &value.in_scratch, error_column));
      } else if (c == 't' || c == 'f' || c == 'n') {
        const std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        if (line.substr(i, word.size()) != word) {
          return fail(absl::StrCat("unexpected character ", found(), " where a value should be"));
        }
        i += word.size();
        value.size = word.size();
        value.null = c == 'n';
      } else if (c == '-' || IsDigit(c)) {
        size_t j = i + (c == '-' ? 1 : 0);
        auto digits = [&] {
          const size_t from = j;
          while (j < n && IsDigit(line[j])) ++j;
          return j > from;
        };
        bool ok = j < n && (line[j] == '0' ? (++j, true) : digits());
        if (ok && j < n && line[j] == '.') {
          ++j;
          ok = digits();
        }
        if (ok && j < n && (line[j] == 'e' || line[j] == 'E')) {
          ++j;
          if (j < n && (line[j] == '+' || line[j] == '-')) ++j;
          ok = digits();
        }
        if (!ok) {
          i = j;
          return fail("malformed number");
        }
        value.size = j - i;
        i = j;
      } else if (c == '{' || c == '[') {
        // A nested value: skipped, its text kept for a STRING column.
        int depth = 0;
        size_t j = i;
        while (j < n) {
          const char d = line[j];
          if (d == '"') {
            size_t b, s;
            bool in;
            skipped_.clear();
            RETURN_IF_ERROR(ReadString(line, &j, &skipped_, &b, &s, &in, error_column));
            continue;
          }
          if (d == '{' || d == '[') ++depth;
          if (d == '}' || d == ']') {
            if (--depth == 0) {
              ++j;
              break;
            }
          }
          ++j;
        }
        if (depth != 0) return fail("unterminated object or array");
        value.size = j - i;
        i = j;
      } else {
        return fail(absl::StrCat("unexpected character ", found(), " where a value should be"));
      }
      if (span != nullptr) {
        *span = value;
        span->seen = true;
      }
      skip_space();
      if (i < n && line[i] == ',') {
        ++i;
        continue;
      }
      if (i < n && line[i] == '}') {
        ++i;
        break;
      }
      return fail(absl::StrCat("expected ',' or '}' but found ", found()));
    }
  }
  skip_space();
  if (i != n) return fail(absl::StrCat("unexpected ", found(), " after the object"));
  return absl::OkStatus();
}

absl::StatusOr<size_t> JsonLinesDecoder::Decode(std::string_view data, bool eof, size_t max_rows,
                                                TextRows* rows) {
  const size_t n = data.size();
  size_t pos = 0;
  if (at_file_start_) {
    if (n < kByteOrderMark.size() && !eof && kByteOrderMark.substr(0, n) == data) return 0;
    if (data.substr(0, kByteOrderMark.size()) == kByteOrderMark) pos = kByteOrderMark.size();
    at_file_start_ = false;
  }
  while (rows->num_rows() < max_rows && pos < n) {
    const void* nl = std::memchr(data.data() + pos, '\n', n - pos);
    if (nl == nullptr && !eof) break;
    const size_t line_end = nl ? static_cast<const char*>(nl) - data.data() : n;
    const size_t next = nl ? line_end + 1 : n;
    std::string_view line = data.substr(pos, line_end - pos);
    pos = next;
    const int64_t line_number = line_++;
    size_t first = 0;
    while (first < line.size() && IsSpace(line[first])) ++first;
    if (first == line.size()) continue;  // blank line
    size_t error_column = 0;
    absl::Status s = ParseLine(line, &error_column);
    if (!s.ok()) {
      if (options_.ignore_parse_errors) continue;
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_number, ", column ", error_column, ": ", s.message()));
    }
    bool skip = false;
    for (size_t c = 0; c < spans_.size(); ++c) {
      const Span& span = spans_[c];
      if (!span.seen && options_.fail_on_missing_field) {
        if (options_.ignore_parse_errors) {
          skip = true;
          break;
        }
        return absl::InvalidArgumentError(
            absl::StrCat("line ", line_number, ": field '", names_[c], "' is missing"));
      }
      if (span.null) {
        values_[c] = FieldText{{}, true};
      } else {
        values_[c] =
            FieldText{span.in_scratch ? std::string_view(scratch_).substr(span.begin, span.size)
                                      : line.substr(span.begin, span.size),
                      false};
      }
    }
    if (!skip) rows->AppendRow(values_.data(), line_number);
  }
  return pos;
}

JsonLinesEncoder::JsonLinesEncoder(JsonOptions options, const Schema& schema) : options_(options) {
  for (size_t c = 0; c < schema.size(); ++c) {
    std::string key = c == 0 ? "{" : ",";
    AppendJsonString(schema.fields[c].name, &key);
    key.push_back(':');
    keys_.push_back(std::move(key));
  }
}

absl::Status JsonLinesEncoder::Encode(const ChangelogBatch& batch, std::string* out) {
  const size_t ncols = batch.num_columns();
  if (ncols != keys_.size()) {
    return absl::InternalError(
        absl::StrCat("JSON encoder for ", keys_.size(), " columns got a batch of ", ncols));
  }
  // Every column as text once per batch, by CAST rules, except strings and booleans.
  std::vector<Column> cast(ncols);
  std::vector<const Column*> text(ncols, nullptr);
  for (size_t c = 0; c < ncols; ++c) {
    const Column& col = batch.column(c);
    const TypeId id = col.type().id;
    if (id == TypeId::kString) {
      text[c] = &col;
    } else if (id == TypeId::kBinary) {  // base64, as Flink's json format
      cast[c] = Base64TextColumn(col);
      text[c] = &cast[c];
    } else if (id != TypeId::kBoolean && id != TypeId::kNull && !col.type().IsCollection()) {
      ASSIGN_OR_RETURN(cast[c], CastColumn(col, DataType::String(), /*try_cast=*/false));
      text[c] = &cast[c];
    }
  }
  std::string timestamp;
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    for (size_t c = 0; c < ncols; ++c) {
      out->append(keys_[c]);
      const Column& col = batch.column(c);
      const TypeId id = col.type().id;
      if (col.IsNull(r) || id == TypeId::kNull) {
        out->append("null");
        continue;
      }
      switch (id) {
        case TypeId::kBoolean:
          out->append(col.Get<uint8_t>(r) ? "true" : "false");
          break;
        case TypeId::kString:
        case TypeId::kBinary:
        case TypeId::kDate:
          AppendJsonString(text[c]->GetString(r), out);
          break;
        case TypeId::kTime:  // HH:mm:ss, as Flink's json format (no fraction)
          AppendJsonString(text[c]->GetString(r).substr(0, 8), out);
          break;
        case TypeId::kArray:
        case TypeId::kMap:
        case TypeId::kRow:
          AppendCollectionJson(col.GetString(r), col.type(), out);
          break;
        case TypeId::kTimestamp:
        case TypeId::kTimestampLtz: {
          std::string_view v = TrimTimestampFraction(text[c]->GetString(r));
          if (options_.iso8601_timestamps && v.size() > 10 && v[10] == ' ') {
            timestamp.assign(v.data(), v.size());
            timestamp[10] = 'T';
            v = timestamp;
          }
          if (id == TypeId::kTimestampLtz) {
            // As Flink's json format: the instant in UTC, marked 'Z' (both standards).
            if (v.data() != timestamp.data()) timestamp.assign(v.data(), v.size());
            timestamp.push_back('Z');
            v = timestamp;
          }
          AppendJsonString(v, out);
          break;
        }
        case TypeId::kFloat:
        case TypeId::kDouble: {
          const std::string_view v = text[c]->GetString(r);
          // Jackson quotes the values JSON numbers cannot spell.
          if (v == "NaN" || v == "Infinity" || v == "-Infinity") {
            AppendJsonString(v, out);
          } else {
            out->append(v.data(), v.size());
          }
          break;
        }
        default: {  // integers and DECIMAL
          const std::string_view v = text[c]->GetString(r);
          out->append(v.data(), v.size());
          break;
        }
      }
    }
    out->append("}\n");
  }
  return absl::OkStatus();
}

}  // namespace eddy
