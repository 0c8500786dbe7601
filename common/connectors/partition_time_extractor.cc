#include "common/connectors/partition_time_extractor.h"

#include <cctype>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"

namespace eddy {
namespace {

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Reads 1 to `max_digits` digits (exactly `max_digits` when `exact`) at text[*pos].
bool ReadNumber(std::string_view text, size_t* pos, size_t max_digits, bool exact, int64_t* out) {
  size_t n = 0;
  int64_t v = 0;
  while (n < max_digits && *pos + n < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[*pos + n]))) {
    v = v * 10 + (text[*pos + n] - '0');
    ++n;
  }
  if (n == 0 || (exact && n != max_digits)) return false;
  *pos += n;
  *out = v;
  return true;
}

struct Fields {
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
};

// 'yyyy-M-d[ H:m:s[.fraction]]'.
bool ParseLenient(std::string_view text, Fields* f) {
  size_t pos = 0;
  auto literal = [&](char c) {
    if (pos >= text.size() || text[pos] != c) return false;
    ++pos;
    return true;
  };
  if (!ReadNumber(text, &pos, 9, false, &f->year) || !literal('-') ||
      !ReadNumber(text, &pos, 2, false, &f->month) || !literal('-') ||
      !ReadNumber(text, &pos, 2, false, &f->day)) {
    return false;
  }
  if (pos == text.size()) return true;
  if (!literal(' ') || !ReadNumber(text, &pos, 2, false, &f->hour) || !literal(':') ||
      !ReadNumber(text, &pos, 2, false, &f->minute) || !literal(':') ||
      !ReadNumber(text, &pos, 2, false, &f->second)) {
    return false;
  }
  if (pos == text.size()) return true;
  int64_t fraction = 0;
  return literal('.') && ReadNumber(text, &pos, 9, false, &fraction) && pos == text.size();
}

// The letters a formatter may use, each a fixed number of digits.
struct FormatterField {
  const char* letters;
  int64_t Fields::*field;
};
constexpr FormatterField kFormatterFields[] = {{"yyyy", &Fields::year}, {"MM", &Fields::month},
                                               {"dd", &Fields::day},    {"HH", &Fields::hour},
                                               {"mm", &Fields::minute}, {"ss", &Fields::second}};

const FormatterField* FormatterFieldAt(std::string_view formatter, size_t i) {
  for (const FormatterField& f : kFormatterFields) {
    if (formatter.substr(i).starts_with(f.letters)) return &f;
  }
  return nullptr;
}

bool ParseFormatted(std::string_view formatter, std::string_view text, Fields* f) {
  size_t pos = 0;
  for (size_t i = 0; i < formatter.size();) {
    if (const FormatterField* field = FormatterFieldAt(formatter, i)) {
      const size_t digits = std::string_view(field->letters).size();
      if (!ReadNumber(text, &pos, digits, true, &(f->*field->field))) return false;
      i += digits;
      continue;
    }
    if (pos >= text.size() || text[pos] != formatter[i]) return false;
    ++pos;
    ++i;
  }
  return pos == text.size();
}

}  // namespace

absl::StatusOr<PartitionTimeExtractor> PartitionTimeExtractor::Create(
    std::string pattern, std::string formatter, std::string time_zone,
    std::vector<std::string> partition_keys) {
  PartitionTimeExtractor e;
  if (partition_keys.empty()) {
    return absl::InvalidArgumentError(
        "the 'partition-time' commit trigger needs a partitioned table (PARTITIONED BY)");
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '$') continue;
    size_t end = i + 1;
    while (end < pattern.size() && IsNameChar(pattern[end])) ++end;
    const std::string name = pattern.substr(i + 1, end - i - 1);
    bool known = false;
    for (const std::string& k : partition_keys) known = known || k == name;
    if (!known) {
      return absl::InvalidArgumentError(
          absl::StrCat("option 'partition.time-extractor.timestamp-pattern' names '$", name,
                       "', which is not a partition column"));
    }
  }
  for (size_t i = 0; i < formatter.size();) {
    if (const FormatterField* field = FormatterFieldAt(formatter, i)) {
      i += std::string_view(field->letters).size();
    } else if (std::isalpha(static_cast<unsigned char>(formatter[i]))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "option 'partition.time-extractor.timestamp-formatter' has '", formatter.substr(i, 1),
          "' in '", formatter,
          "'; supported: the fields yyyy, MM, dd, HH, mm and ss and literal characters"));
    } else {
      ++i;
    }
  }
  absl::StatusOr<SessionTimeZone> zone = SessionTimeZone::Parse(time_zone);
  if (!zone.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "option 'sink.partition-commit.watermark-time-zone' names an unknown time zone '",
        time_zone, "'"));
  }
  e.zone_ = *std::move(zone);
  e.pattern_ = std::move(pattern);
  e.formatter_ = std::move(formatter);
  e.keys_ = std::move(partition_keys);
  return e;
}

absl::StatusOr<int64_t> PartitionTimeExtractor::ExtractMillis(const PartitionSpec& spec) const {
  auto value_of = [&](std::string_view key) -> const std::string* {
    for (const auto& [k, v] : spec) {
      if (k == key) return &v;
    }
    return nullptr;
  };
  std::string text;
  if (pattern_.empty()) {
    const std::string* v = value_of(keys_.front());
    if (v != nullptr) text = *v;
  } else {
    for (size_t i = 0; i < pattern_.size();) {
      if (pattern_[i] != '$') {
        text += pattern_[i++];
        continue;
      }
      size_t end = i + 1;
      while (end < pattern_.size() && IsNameChar(pattern_[end])) ++end;
      if (const std::string* v = value_of(pattern_.substr(i + 1, end - i - 1))) text += *v;
      i = end;
    }
  }
  Fields f;
  const bool parsed =
      formatter_.empty() ? ParseLenient(text, &f) : ParseFormatted(formatter_, text, &f);
  const absl::CivilSecond civil(f.year, f.month, f.day, f.hour, f.minute, f.second);
  if (!parsed || civil.year() != f.year || civil.month() != f.month || civil.day() != f.day ||
      civil.hour() != f.hour || civil.minute() != f.minute || civil.second() != f.second) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the partition '", PartitionSpecText(spec), "' has no time: '", text,
        "' does not parse as ", formatter_.empty() ? "yyyy-MM-dd[ HH:mm:ss]" : formatter_));
  }
  // The wall clock as a TIMESTAMP(3) value, then the instant it names in the zone.
  const int64_t local = absl::ToUnixMillis(absl::FromCivil(civil, absl::UTCTimeZone()));
  return zone_.FromLocal(local, /*precision=*/3);
}

}  // namespace eddy
