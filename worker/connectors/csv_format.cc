#include "worker/connectors/csv_format.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/cast_column.h"
#include "worker/connectors/base64_column.h"

namespace eddy {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string Printable(char c) {
  if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
    return absl::StrCat("\\x", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
  }
  return std::string(1, c);
}

}  // namespace

CsvDecoder::CsvDecoder(CsvOptions options, const Schema& file_schema,
                       const std::vector<int>& columns)
    : options_(std::move(options)),
      num_fields_(file_schema.size()),
      field_to_column_(file_schema.size(), -1) {
  for (size_t c = 0; c < columns.size(); ++c) {
    field_to_column_[columns[c]] = static_cast<int>(c);
    column_is_string_.push_back(file_schema.fields[columns[c]].type.IsString());
  }
  values_.resize(columns.size());
}

void CsvDecoder::StartFile() {
  line_ = 1;
  at_file_start_ = true;
  header_pending_ = false;
}

void CsvDecoder::ResumeFile(int64_t next_line) {
  line_ = next_line;
  at_file_start_ = false;
  header_pending_ = false;
}

std::string CsvDecoder::Where(std::string_view data, size_t start, size_t pos) const {
  int64_t line = line_;
  size_t line_start = start;
  for (size_t i = start; i < pos && i < data.size(); ++i) {
    if (data[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return absl::StrCat("line ", line, ", column ", pos - line_start + 1);
}

CsvDecoder::Parse CsvDecoder::ParseRecord(std::string_view data, size_t start, bool eof,
                                          size_t* end, int64_t* newlines, std::string* error,
                                          size_t* error_pos) {
  spans_.clear();
  unescaped_.clear();
  unterminated_ = false;
  const size_t n = data.size();
  const char* d = data.data();
  const char delim = options_.field_delimiter;
  const char quote = options_.quote_character;
  *newlines = 0;
  size_t i = start;
  while (true) {
    Span s;
    if (options_.quoting && i < n && d[i] == quote) {
      s.quoted = true;
      size_t j = i + 1, segment = j;
      while (true) {
        const void* found = std::memchr(d + j, quote, n - j);
        if (found == nullptr) {
          if (!eof) return Parse::kNeedMore;
          *error = absl::StrCat("unterminated quoted field ", spans_.size() + 1);
          *error_pos = i;
          unterminated_ = true;
          return Parse::kError;
        }
        const size_t k = static_cast<const char*>(found) - d;
        if (k + 1 == n && !eof) return Parse::kNeedMore;  // a doubled quote may follow
        if (k + 1 < n && d[k + 1] == quote) {
          if (!s.in_scratch) {
            s.in_scratch = true;
            s.begin = unescaped_.size();
          }
          unescaped_.append(d + segment, k + 1 - segment);  // up to and including one quote
          j = segment = k + 2;
          continue;
        }
        if (s.in_scratch) {
          unescaped_.append(d + segment, k - segment);
          s.size = unescaped_.size() - s.begin;
        } else {
          s.begin = i + 1;
          s.size = k - (i + 1);
        }
        *newlines += std::count(d + i + 1, d + k, '\n');
        i = k + 1;
        break;
      }
      spans_.push_back(s);
      if (i == n) {  // only at eof (checked above)
        *end = n;
        return Parse::kOk;
      }
      const char c = d[i];
      if (c == delim) {
        ++i;
        continue;
      }
      if (c == '\n') {
        *end = i + 1;
        return Parse::kOk;
      }
      if (c == '\r') {
        if (i + 1 == n) {
          if (!eof) return Parse::kNeedMore;
          *end = n;
          return Parse::kOk;
        }
        if (d[i + 1] == '\n') {
          *end = i + 2;
          return Parse::kOk;
        }
      }
      *error = absl::StrCat("unexpected character '", Printable(c),
                            "' after the closing quote of field ", spans_.size());
      *error_pos = i;
      return Parse::kError;
    }
    // Unquoted: up to the delimiter or the line end (LF or CRLF; a lone CR is data).
    size_t j = i;
    while (j < n) {
      const char c = d[j];
      if (c == delim || c == '\n') break;
      if (c == '\r') {
        if (j + 1 == n) {
          if (!eof) return Parse::kNeedMore;
          break;
        }
        if (d[j + 1] == '\n') break;
      }
      ++j;
    }
    if (j == n && !eof) return Parse::kNeedMore;
    s.begin = i;
    s.size = j - i;
    spans_.push_back(s);
    if (j == n) {
      *end = n;
      return Parse::kOk;
    }
    if (d[j] == delim) {
      i = j + 1;
      continue;
    }
    *end = d[j] == '\n' ? j + 1 : std::min(n, j + 2);  // LF, CRLF, or a CR ending the file
    return Parse::kOk;
  }
}

absl::StatusOr<size_t> CsvDecoder::Decode(std::string_view data, bool eof, size_t max_rows,
                                          TextRows* rows) {
  const size_t n = data.size();
  size_t pos = 0;
  if (at_file_start_) {
    if (n < kByteOrderMark.size() && !eof && kByteOrderMark.substr(0, n) == data) return 0;
    if (data.substr(0, kByteOrderMark.size()) == kByteOrderMark) pos = kByteOrderMark.size();
    at_file_start_ = false;
    header_pending_ = options_.ignore_first_line;
  }
  // Skips through the end of the line at `pos`; false when that needs more data.
  auto SkipLine = [&]() {
    const void* nl = std::memchr(data.data() + pos, '\n', n - pos);
    if (nl == nullptr) {
      if (!eof) return false;
      pos = n;
    } else {
      pos = static_cast<const char*>(nl) - data.data() + 1;
    }
    ++line_;
    return true;
  };
  if (header_pending_) {
    if (!SkipLine()) return pos;
    header_pending_ = false;
  }
  std::string error;
  while (rows->num_rows() < max_rows && pos < n) {
    const char c = data[pos];
    if (c == '\n') {  // empty line
      ++pos;
      ++line_;
      continue;
    }
    if (c == '\r' && (pos + 1 < n || eof)) {
      if (pos + 1 == n) {
        pos = n;
        continue;
      }
      if (data[pos + 1] == '\n') {
        pos += 2;
        ++line_;
        continue;
      }
    }
    if (options_.allow_comments && c == '#') {
      if (!SkipLine()) break;
      continue;
    }
    size_t end = 0, error_pos = 0;
    int64_t newlines = 0;
    Parse p = ParseRecord(data, pos, eof, &end, &newlines, &error, &error_pos);
    if (p == Parse::kNeedMore) break;
    if (p == Parse::kError) {
      if (!options_.ignore_parse_errors) {
        return absl::InvalidArgumentError(absl::StrCat(Where(data, pos, error_pos), ": ", error));
      }
      // Skip the record through the end of the line the error is on; an unterminated quote takes
      // the rest of the file with it.
      size_t next = n;
      if (!unterminated_) {
        const void* nl = std::memchr(data.data() + error_pos, '\n', n - error_pos);
        if (nl == nullptr && !eof) break;  // the line end is not here yet
        if (nl != nullptr) next = static_cast<const char*>(nl) - data.data() + 1;
      }
      line_ += std::count(data.data() + pos, data.data() + next, '\n');
      pos = next;
      continue;
    }
    const size_t found = spans_.size();
    if (found != num_fields_ && (found > num_fields_ || !options_.ignore_parse_errors)) {
      if (!options_.ignore_parse_errors) {
        return absl::InvalidArgumentError(
            absl::StrCat("line ", line_, ": expected ", num_fields_, " fields but found ", found));
      }
      pos = end;
      line_ += 1 + newlines;
      continue;  // too many fields: skipped
    }
    for (auto& v : values_) v = FieldText{{}, true};  // missing trailing fields are NULL
    for (size_t k = 0; k < found; ++k) {
      const int col = field_to_column_[k];
      if (col < 0) continue;
      const Span& s = spans_[k];
      std::string_view text = s.in_scratch ? std::string_view(unescaped_).substr(s.begin, s.size)
                                           : data.substr(s.begin, s.size);
      const bool null = (options_.has_null_literal && !s.quoted && text == options_.null_literal) ||
                        (text.empty() && !column_is_string_[col]);
      values_[col] = FieldText{text, null};
    }
    rows->AppendRow(values_.data(), line_);
    pos = end;
    line_ += 1 + newlines;
  }
  return pos;
}

CsvEncoder::CsvEncoder(CsvOptions options, const Schema& schema)
    : options_(std::move(options)), schema_(schema) {}

void CsvEncoder::AppendField(std::string_view text, bool is_string, bool first,
                             std::string* out) const {
  const char delim = options_.field_delimiter;
  const char quote = options_.quote_character;
  bool needs_quotes = false;
  if (options_.quoting) {
    needs_quotes = (is_string && text.empty()) ||
                   (is_string && options_.has_null_literal && text == options_.null_literal) ||
                   (first && options_.allow_comments && !text.empty() && text[0] == '#');
    for (size_t i = 0; i < text.size() && !needs_quotes; ++i) {
      const char c = text[i];
      needs_quotes = c == delim || c == quote || c == '\n' || c == '\r';
    }
  }
  if (!needs_quotes) {
    out->append(text.data(), text.size());
    return;
  }
  out->push_back(quote);
  size_t segment = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == quote) {
      out->append(text.data() + segment, i + 1 - segment);
      out->push_back(quote);
      segment = i + 1;
    }
  }
  out->append(text.data() + segment, text.size() - segment);
  out->push_back(quote);
}

absl::Status CsvEncoder::Encode(const ChangelogBatch& batch, std::string* out) {
  const size_t ncols = batch.num_columns();
  // Every column as text once per batch (CAST rules: DOUBLE as Java prints it), except strings
  // (as they are) and booleans (Flink writes true/false, CAST gives TRUE/FALSE).
  std::vector<Column> cast(ncols);
  std::vector<const Column*> text(ncols, nullptr);
  for (size_t c = 0; c < ncols; ++c) {
    const Column& col = batch.column(c);
    const TypeId id = col.type().id;
    if (id == TypeId::kString) {
      text[c] = &col;
    } else if (id == TypeId::kBinary) {  // base64, as Flink's csv format
      cast[c] = Base64TextColumn(col);
      text[c] = &cast[c];
    } else if (id != TypeId::kBoolean && id != TypeId::kNull) {
      ASSIGN_OR_RETURN(cast[c], CastColumn(col, DataType::String(), /*try_cast=*/false));
      text[c] = &cast[c];
    }
  }
  std::string ltz_text;
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    for (size_t c = 0; c < ncols; ++c) {
      if (c > 0) out->push_back(options_.field_delimiter);
      const Column& col = batch.column(c);
      if (col.IsNull(r) || col.type().id == TypeId::kNull) {
        if (options_.has_null_literal) out->append(options_.null_literal);
        continue;
      }
      const TypeId id = col.type().id;
      if (id == TypeId::kBoolean) {
        out->append(col.Get<uint8_t>(r) ? "true" : "false");
        continue;
      }
      std::string_view v = text[c]->GetString(r);
      if (id == TypeId::kTimestamp) v = TrimTimestampFraction(v);
      if (id == TypeId::kTime) v = v.substr(0, 8);  // HH:mm:ss, as Flink's csv format
      if (id == TypeId::kTimestampLtz) {
        // As Flink's csv format: the instant in UTC, marked 'Z'.
        ltz_text.assign(TrimTimestampFraction(v));
        ltz_text.push_back('Z');
        v = ltz_text;
      }
      AppendField(v, id == TypeId::kString, c == 0, out);
    }
    out->push_back('\n');
  }
  return absl::OkStatus();
}

}  // namespace eddy
