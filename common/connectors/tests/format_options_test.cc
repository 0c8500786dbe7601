#include "common/connectors/format_options.h"

#include <map>
#include <string>

#include "gtest/gtest.h"

namespace eddy {
namespace {

absl::StatusOr<FormatOptions> Read(std::map<std::string, std::string> options,
                                   const std::string& key = "format",
                                   std::initializer_list<FormatKind> allowed = {
                                       FormatKind::kCsv, FormatKind::kJson}) {
  ConnectorConfig config("filesystem", "t", std::move(options));
  auto f = ReadFormat(config, key, allowed, /*with_ignore_first_line=*/true);
  if (f.ok()) {
    absl::Status all = config.CheckAllRead();
    if (!all.ok()) return all;
  }
  return f;
}

TEST(FormatOptions, ParsesTableOptions) {
  auto f = Read({{"format", "csv"},
                 {"csv.field-delimiter", "\\t"},
                 {"csv.quote-character", "'"},
                 {"csv.null-literal", ""},
                 {"csv.ignore-parse-errors", "TRUE"}});
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->csv.field_delimiter, '\t');
  EXPECT_EQ(f->csv.quote_character, '\'');
  EXPECT_TRUE(f->csv.has_null_literal);
  EXPECT_TRUE(f->ignore_parse_errors());
  EXPECT_EQ(f->extension(), "csv");
  f = Read({{"format", "json"}, {"json.timestamp-format.standard", "ISO-8601"}});
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->json.iso8601_timestamps);
  EXPECT_EQ(f->extension(), "json");
}

TEST(FormatOptions, ErrorsNameTheOptionAndTheTable) {
  EXPECT_EQ(Read({{"format", "avro"}}).status().message(),
            "option 'format' of table 't' expects one of csv, json, got 'avro'");
  EXPECT_EQ(Read({{"format", "csv"}, {"csv.field-delimiter", ";;"}}).status().message(),
            "option 'csv.field-delimiter' of table 't' expects a single character, got ';;'");
  EXPECT_EQ(Read({{"format", "csv"}, {"csv.quote-character", ","}}).status().message(),
            "options 'csv.field-delimiter' and 'csv.quote-character' of table 't' must differ");
  EXPECT_EQ(Read({}).status().message(),
            "table 't' (connector 'filesystem') needs option 'format' ('csv' or 'json')");
  // Another format's options are not options of this one.
  EXPECT_EQ(Read({{"format", "json"}, {"csv.field-delimiter", ";"}}).status().message(),
            "unsupported option 'csv.field-delimiter' for connector 'filesystem' of table 't'");
}

TEST(FormatOptions, PrefixedFormatsReadTheirOwnOptions) {
  const std::initializer_list<FormatKind> all = {FormatKind::kCsv, FormatKind::kJson,
                                                 FormatKind::kRaw};
  auto f = Read({{"value.format", "json"}, {"value.json.ignore-parse-errors", "true"}},
                "value.format", all);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->json.ignore_parse_errors);
  // The unprefixed spelling belongs to 'format', not to 'value.format'.
  EXPECT_EQ(
      Read({{"value.format", "json"}, {"json.ignore-parse-errors", "true"}}, "value.format", all)
          .status()
          .message(),
      "unsupported option 'json.ignore-parse-errors' for connector 'filesystem' of table 't'");
  f = Read({{"key.format", "raw"}}, "key.format", all);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->kind, FormatKind::kRaw);
  EXPECT_EQ(Read({{"key.format", "raw"}, {"key.raw.charset", "latin1"}}, "key.format", all)
                .status()
                .message(),
            "option 'key.raw.charset' of table 't' expects one of UTF-8, got 'latin1'");
}

TEST(FormatOptions, RawHoldsOneStringColumn) {
  FormatOptions raw;
  raw.kind = FormatKind::kRaw;
  EXPECT_TRUE(
      CheckFormatColumns(raw, Schema{{{"v", DataType::String()}}}, "t", "the columns").ok());
  EXPECT_EQ(
      CheckFormatColumns(raw, Schema{{{"a", DataType::Int()}, {"b", DataType::String()}}}, "t",
                         "the value columns")
          .message(),
      "table 't': the 'raw' format holds exactly one STRING or BYTES column, but the value columns "
      "are [a INT, b STRING]");
}

}  // namespace
}  // namespace eddy
