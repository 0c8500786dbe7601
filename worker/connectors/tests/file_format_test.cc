// CSV and JSON lines decoders and encoders of the filesystem connector: quoting, delimiters, nulls,
// malformed records with their line numbers, and records split across read chunks.
#include "worker/connectors/file_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "common/types/temporal_text.h"
#include "common/types/value.h"
#include "worker/connectors/csv_format.h"
#include "worker/connectors/json_lines_format.h"

namespace eddy {
namespace {

using Rows = std::vector<std::string>;

Schema MakeSchema(std::vector<std::pair<std::string, DataType>> cols) {
  Schema s;
  for (auto& [n, t] : cols) s.fields.push_back({n, t});
  return s;
}

std::vector<int> AllColumns(const Schema& s) {
  std::vector<int> c;
  for (size_t i = 0; i < s.size(); ++i) c.push_back(static_cast<int>(i));
  return c;
}

// Decodes `text` the way the source feeds a decoder: the unread rest of what was read so far,
// `chunk` more bytes at a time (0: everything at once), batches of `batch_rows`. Rows print as the
// print sink shows them.
absl::StatusOr<Rows> Decode(const FormatOptions& format, const Schema& schema,
                            const std::string& text, size_t chunk = 0,
                            std::vector<int> columns = {}, size_t batch_rows = 1024) {
  if (columns.empty()) columns = AllColumns(schema);
  auto decoder = MakeRecordDecoder(format, schema, columns);
  TextRows rows = MakeTextRows(format, schema, columns);
  decoder->StartFile();
  Rows out;
  auto take = [&]() -> absl::Status {
    auto batch = rows.TakeBatch(format.ignore_parse_errors());
    if (!batch.ok()) return batch.status();
    for (size_t r = 0; r < batch->num_rows(); ++r) out.push_back(FormatRow(*batch, r));
    return absl::OkStatus();
  };
  size_t read = chunk == 0 ? text.size() : std::min(chunk, text.size());
  size_t begin = 0;
  while (true) {
    const bool eof = read == text.size();
    auto consumed =
        decoder->Decode(std::string_view(text).substr(begin, read - begin), eof, batch_rows, &rows);
    if (!consumed.ok()) return consumed.status();
    begin += *consumed;
    if (rows.num_rows() >= batch_rows) {
      if (auto s = take(); !s.ok()) return s;
      continue;
    }
    if (eof) {
      if (begin != text.size()) return absl::InternalError("bytes left at the end");
      break;
    }
    read = std::min(text.size(), read + (chunk == 0 ? text.size() : chunk));
  }
  if (auto s = take(); !s.ok()) return s;
  return out;
}

// All of `text` decoded into one batch.
absl::StatusOr<ChangelogBatch> DecodeBatch(const FormatOptions& format, const Schema& schema,
                                           const std::string& text) {
  auto decoder = MakeRecordDecoder(format, schema, AllColumns(schema));
  TextRows rows = MakeTextRows(format, schema, AllColumns(schema));
  decoder->StartFile();
  auto consumed = decoder->Decode(text, /*eof=*/true, 1 << 20, &rows);
  if (!consumed.ok()) return consumed.status();
  return rows.TakeBatch(format.ignore_parse_errors());
}

FormatOptions Csv(CsvOptions o = {}) {
  FormatOptions f;
  f.kind = FormatKind::kCsv;
  f.csv = o;
  return f;
}

FormatOptions Json(JsonOptions o = {}) {
  FormatOptions f;
  f.kind = FormatKind::kJson;
  f.json = o;
  return f;
}

const Schema kWordCount = MakeSchema({{"word", DataType::String()}, {"cnt", DataType::Int()}});

std::string Error(const absl::StatusOr<Rows>& r) {
  return r.ok() ? "(no error)" : std::string(r.status().message());
}

// ---- CSV reading ----

TEST(CsvDecoder, QuotingFollowsRfc4180) {
  const std::string text =
      "a,1\n"
      "\"b,c\",2\n"
      "\"say \"\"hi\"\"\",3\n"
      "\"two\nlines\",4\r\n"
      "\"\",5\n"
      "e,6";  // no line end at the end of the file
  auto rows = Decode(Csv(), kWordCount, text);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]", "+I[b,c, 2]", "+I[say \"hi\", 3]", "+I[two\nlines, 4]",
                         "+I[, 5]", "+I[e, 6]"}));
}

TEST(CsvDecoder, EveryChunkBoundaryGivesTheSameRows) {
  const std::string text =
      "\xEF\xBB\xBF"
      "a,1\r\n\"b,\"\"c\"\"\r\nx\",2\n\n,3\r\n\"\",\n\"q\"\"\",5";
  auto whole = Decode(Csv(), kWordCount, text);
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(*whole,
            (Rows{"+I[a, 1]", "+I[b,\"c\"\r\nx, 2]", "+I[, 3]", "+I[, null]", "+I[q\", 5]"}));
  for (size_t chunk = 1; chunk <= text.size(); ++chunk) {
    for (size_t batch : {1, 2, 1024}) {
      auto rows = Decode(Csv(), kWordCount, text, chunk, {}, batch);
      ASSERT_TRUE(rows.ok()) << "chunk " << chunk << ": " << rows.status();
      EXPECT_EQ(*rows, *whole) << "chunk " << chunk << " batch " << batch;
    }
  }
}

TEST(CsvDecoder, DelimiterAndQuoteCharacterOptions) {
  CsvOptions o;
  o.field_delimiter = ';';
  o.quote_character = '\'';
  auto rows = Decode(Csv(o), kWordCount, "a;1\n'b;''c''';2\n\"d\";3\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]", "+I[b;'c', 2]", "+I[\"d\", 3]"}));

  CsvOptions tab;
  tab.field_delimiter = '\t';
  rows = Decode(Csv(tab), kWordCount, "a b\t1\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a b, 1]"}));

  CsvOptions unquoted;
  unquoted.quoting = false;
  rows = Decode(Csv(unquoted), kWordCount, "\"a\",1\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[\"a\", 1]"}));
}

TEST(CsvDecoder, NullsEmptyFieldsAndTheNullLiteral) {
  const Schema schema =
      MakeSchema({{"s", DataType::String()}, {"i", DataType::Int()}, {"d", DataType::Date()}});
  // No null literal: an empty field is NULL except in a STRING column.
  auto rows = Decode(Csv(), schema, ",,\n\"\",\"\",\"\"\nnull,1,2024-01-31\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[, null, null]", "+I[, null, null]", "+I[null, 1, 2024-01-31]"}));
  // With one: that text, unquoted, is NULL in any column; quoted it is the text.
  CsvOptions o;
  o.has_null_literal = true;
  o.null_literal = "null";
  rows = Decode(Csv(o), schema, "null,null,null\n\"null\",,\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[null, null, null]", "+I[null, null, null]"}));
  // The print format cannot tell NULL from the text 'null': look at the column.
  const Schema one = MakeSchema({{"s", DataType::String()}, {"i", DataType::Int()}});
  auto batch = DecodeBatch(Csv(o), one, "\"null\",1\nnull,2\n");
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_FALSE(batch->column(0).IsNull(0));
  EXPECT_EQ(batch->column(0).GetString(0), "null");
  EXPECT_TRUE(batch->column(0).IsNull(1));
  // The empty literal: an empty unquoted field is NULL in every column, "" the empty string.
  CsvOptions empty;
  empty.has_null_literal = true;
  batch = DecodeBatch(Csv(empty), one, "\"\",\n,1\n");
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_FALSE(batch->column(0).IsNull(0));
  EXPECT_EQ(batch->column(0).GetString(0), "");
  EXPECT_TRUE(batch->column(1).IsNull(0));
  EXPECT_TRUE(batch->column(0).IsNull(1));
}

TEST(CsvDecoder, ParsesEveryTypeByCastRules) {
  const Schema schema = MakeSchema({{"b", DataType::BigInt()},
                                    {"d", DataType::Double()},
                                    {"m", DataType::Decimal(10, 2)},
                                    {"t", DataType::Boolean()},
                                    {"day", DataType::Date()},
                                    {"ts", DataType::Timestamp(3)},
                                    {"v", DataType::Varchar(3)}});
  auto rows = Decode(Csv(), schema,
                     " 12345678901 ,1e7,12.5,true,2024-02-29,2024-01-31 10:00:00.123,abcdef\n"
                     "-1,0.5,-0.005,FALSE,1970-01-01,2024-01-31 10:00:00,x\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[12345678901, 1.0E7, 12.50, true, 2024-02-29, 2024-01-31 "
                         "10:00:00.123, abc]",
                         "+I[-1, 0.5, -0.01, false, 1970-01-01, 2024-01-31 10:00:00.000, x]"}));
}

TEST(CsvDecoder, BadValueNamesFileLineAndField) {
  auto rows = Decode(Csv(), kWordCount, "a,1\n\"multi\nline\",2\nb,x\n");
  EXPECT_EQ(Error(rows), "line 4, field 2 (column 'cnt'): cannot parse 'x' as INT");
  rows = Decode(Csv(), MakeSchema({{"d", DataType::Date()}}), "2024-02-30\n");
  EXPECT_EQ(Error(rows), "line 1, field 1 (column 'd'): cannot parse '2024-02-30' as DATE");
  // The field number counts every field of the line, also with only some columns read.
  rows = Decode(Csv(), kWordCount, "a,1\nb,x\n", 0, {1});
  EXPECT_EQ(Error(rows), "line 2, field 2 (column 'cnt'): cannot parse 'x' as INT");
  // Ignoring parse errors: the value becomes NULL (as Flink does).
  CsvOptions o;
  o.ignore_parse_errors = true;
  rows = Decode(Csv(o), kWordCount, "a,1\nb,x\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]", "+I[b, null]"}));
}

TEST(CsvDecoder, NotNullColumns) {
  const Schema schema =
      MakeSchema({{"w", DataType::String()}, {"c", DataType::Int().WithNullable(false)}});
  EXPECT_EQ(Error(Decode(Csv(), schema, "a,1\nb,\n")),
            "line 2, field 2 (column 'c'): no value for a NOT NULL column");
  CsvOptions o;
  o.ignore_parse_errors = true;
  auto rows = Decode(Csv(o), schema, "a,1\nb,\nc,x\nd,4\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]", "+I[d, 4]"}));  // rows without a value are dropped
}

TEST(CsvDecoder, MalformedRecordsNameTheirLine) {
  EXPECT_EQ(Error(Decode(Csv(), kWordCount, "a,1\nb\n")), "line 2: expected 2 fields but found 1");
  EXPECT_EQ(Error(Decode(Csv(), kWordCount, "a,1\n\nb,2,3\n")),
            "line 3: expected 2 fields but found 3");
  EXPECT_EQ(Error(Decode(Csv(), kWordCount, "a,1\n\"b,2\nc,3\n")),
            "line 2, column 1: unterminated quoted field 1");
  EXPECT_EQ(Error(Decode(Csv(), kWordCount, "a,1\n\"x\ny\"z,2\n")),
            "line 3, column 3: unexpected character 'z' after the closing quote of field 1");
  // Ignored: too many fields or a broken record is skipped, missing fields are NULL.
  CsvOptions o;
  o.ignore_parse_errors = true;
  auto rows = Decode(Csv(o), kWordCount, "a,1\nb\nc,2,3\n\"d\"x,4\ne,5\n\"f,6\ng,7\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]", "+I[b, null]", "+I[e, 5]"}));
}

TEST(CsvDecoder, HeaderCommentsAndEmptyLines) {
  CsvOptions o;
  o.ignore_first_line = true;
  o.allow_comments = true;
  auto rows = Decode(Csv(o), kWordCount, "word,cnt\n# a comment\n\na,1\r\n\r\n#x,2\nb,x\n");
  EXPECT_EQ(Error(rows), "line 7, field 2 (column 'cnt'): cannot parse 'x' as INT");
  rows = Decode(Csv(o), kWordCount, "\xEF\xBB\xBFword,cnt\na,1\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]"}));
  // Without allow-comments '#' is data.
  rows = Decode(Csv(), kWordCount, "#a,1\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[#a, 1]"}));
}

TEST(CsvDecoder, ReadsOnlyTheProjectedColumns) {
  const Schema schema =
      MakeSchema({{"a", DataType::Int()}, {"b", DataType::String()}, {"c", DataType::Int()}});
  auto rows = Decode(Csv(), schema, "1,x,3\n4,\"y,z\",6\n", 0, {2, 0});
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[3, 1]", "+I[6, 4]"}));
}

// ---- CSV writing ----

std::string Encode(const FormatOptions& format, const Schema& schema,
                   const std::vector<std::vector<Value>>& rows) {
  ChangelogBatch batch(schema.Types());
  for (const auto& r : rows) batch.AppendValues(r, RowKind::kInsert);
  auto encoder = MakeRecordEncoder(format, schema);
  std::string out;
  absl::Status s = encoder->Encode(batch, &out);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

int64_t Ts(const std::string& text) {
  int64_t ms = 0;
  EXPECT_TRUE(ParseTimestampText(text, &ms));
  return ms;
}

int32_t Day(const std::string& text) {
  int32_t d = 0;
  EXPECT_TRUE(ParseDateText(text, &d));
  return d;
}

const Schema kAllTypes = MakeSchema({{"s", DataType::String()},
                                     {"i", DataType::Int()},
                                     {"d", DataType::Double()},
                                     {"m", DataType::Decimal(10, 2)},
                                     {"b", DataType::Boolean()},
                                     {"day", DataType::Date()},
                                     {"ts", DataType::Timestamp(3)}});

TEST(CsvEncoder, QuotesOnlyWhatNeedsIt) {
  const std::string out =
      Encode(Csv(), kAllTypes,
             {{Value::String("plain"), Value::Int(1), Value::Double(1e7), Value::Int(1250),
               Value::Bool(true), Value::Int(Day("2024-01-31")),
               Value::Int(Ts("2024-01-31 10:00:00.120"))},
              {Value::String("a,b"), Value::Int(-2), Value::Double(0.5), Value::Int(-5),
               Value::Bool(false), Value::Null(), Value::Int(Ts("2024-01-31 10:00:00"))},
              {Value::String("say \"hi\"\nthere"), Value::Null(), Value::Null(), Value::Null(),
               Value::Null(), Value::Null(), Value::Null()},
              {Value::String(""), Value::Int(0), Value::Double(-0.0), Value::Int(0), Value::Null(),
               Value::Null(), Value::Int(Ts("1970-01-01 00:00:00.001"))}});
  EXPECT_EQ(out,
            "plain,1,1.0E7,12.50,true,2024-01-31,2024-01-31 10:00:00.12\n"
            "\"a,b\",-2,0.5,-0.05,false,,2024-01-31 10:00:00\n"
            "\"say \"\"hi\"\"\nthere\",,,,,,\n"
            "\"\",0,-0.0,0.00,,,1970-01-01 00:00:00.001\n");
}

TEST(CsvEncoder, DelimiterNullLiteralAndCommentOptions) {
  CsvOptions o;
  o.field_delimiter = '|';
  o.has_null_literal = true;
  o.null_literal = "N/A";
  o.allow_comments = true;
  EXPECT_EQ(Encode(Csv(o), kWordCount,
                   {{Value::String("a|b"), Value::Null()},
                    {Value::String("N/A"), Value::Int(1)},
                    {Value::String("#x"), Value::Int(2)},
                    {Value::String("a,b"), Value::Int(3)}}),
            "\"a|b\"|N/A\n\"N/A\"|1\n\"#x\"|2\na,b|3\n");
  CsvOptions unquoted;
  unquoted.quoting = false;
  EXPECT_EQ(Encode(Csv(unquoted), kWordCount, {{Value::String("a,\"b"), Value::Int(1)}}),
            "a,\"b,1\n");
}

TEST(CsvEncoder, RoundTripsThroughTheDecoder) {
  CsvOptions o;
  o.has_null_literal = true;  // the empty literal: NULL and '' both survive
  const std::vector<std::vector<Value>> rows = {
      {Value::String("x,\"y\"\r\nz"), Value::Int(7), Value::Double(3.25), Value::Int(-99),
       Value::Bool(true), Value::Int(Day("1999-12-31")), Value::Int(Ts("2000-01-01 00:00:00.5"))},
      {Value::String(""), Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Null(),
       Value::Null()},
      {Value::Null(), Value::Int(0), Value::Double(0), Value::Int(0), Value::Bool(false),
       Value::Int(0), Value::Int(0)}};
  const std::string text = Encode(Csv(o), kAllTypes, rows);
  auto decoded = Decode(Csv(o), kAllTypes, text);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ChangelogBatch expected(kAllTypes.Types());
  for (const auto& r : rows) expected.AppendValues(r, RowKind::kInsert);
  ASSERT_EQ(decoded->size(), rows.size());
  for (size_t r = 0; r < rows.size(); ++r) EXPECT_EQ((*decoded)[r], FormatRow(expected, r));
}

// ---- JSON lines ----

TEST(JsonLinesDecoder, FieldsByNameMissingAndUnknownFields) {
  const std::string text =
      "{\"word\":\"a\",\"cnt\":1}\n"
      "  {\"cnt\": 2 , \"extra\": {\"x\": [1, \"]\"]}, \"word\" : \"b\"}\r\n"
      "\n"
      "{\"word\":\"c\"}\n"
      "{\"word\":null,\"cnt\":\"4\",\"other\":true}\n"
      "{}";
  auto rows = Decode(Json(), kWordCount, text);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]", "+I[b, 2]", "+I[c, null]", "+I[null, 4]", "+I[null, null]"}));
  for (size_t chunk = 1; chunk <= text.size(); ++chunk) {
    auto chunked = Decode(Json(), kWordCount, text, chunk, {}, 2);
    ASSERT_TRUE(chunked.ok()) << chunked.status();
    EXPECT_EQ(*chunked, *rows) << "chunk " << chunk;
  }
}

TEST(JsonLinesDecoder, StringsEscapesNumbersAndNestedValues) {
  const Schema schema = MakeSchema({{"s", DataType::String()},
                                    {"d", DataType::Double()},
                                    {"m", DataType::Decimal(10, 2)},
                                    {"b", DataType::Boolean()},
                                    {"ts", DataType::Timestamp(3)},
                                    {"raw", DataType::String()}});
  auto rows = Decode(
      Json(), schema,
      "{\"s\":\"q\\\"\\\\\\/\\n\\t\\u00e9\\ud83d\\ude00\",\"d\":-1.5e3,\"m\":12.345,\"b\":true,"
      "\"ts\":\"2024-01-31T10:00:00.5\",\"raw\":{\"a\": [1, 2]}}\n"
      "{\"s\":\"\",\"d\":0,\"m\":\"7\",\"b\":false,\"ts\":\"2024-01-31 10:00:00\",\"raw\":42}\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[q\"\\/\n\t\xC3\xA9\xF0\x9F\x98\x80, -1500.0, 12.35, true, "
                         "2024-01-31 10:00:00.500, {\"a\": [1, 2]}]",
                         "+I[, 0.0, 7.00, false, 2024-01-31 10:00:00.000, 42]"}));
}

TEST(JsonLinesDecoder, MalformedLinesNameLineAndColumn) {
  EXPECT_EQ(
      Error(Decode(Json(), kWordCount, "{\"word\":\"a\",\"cnt\":1}\n{\"word\":\"b\" \"cnt\":2}\n")),
      "line 2, column 13: expected ',' or '}' but found '\"'");
  EXPECT_EQ(Error(Decode(Json(), kWordCount, "[1]\n")),
            "line 1, column 1: expected '{' but found '['");
  EXPECT_EQ(Error(Decode(Json(), kWordCount, "{\"word\":\"a}\n")),
            "line 1, column 9: unterminated string");
  EXPECT_EQ(Error(Decode(Json(), kWordCount, "{\"cnt\":01}\n")),
            "line 1, column 9: expected ',' or '}' but found '1'");
  EXPECT_EQ(Error(Decode(Json(), kWordCount, "{\"cnt\":1} x\n")),
            "line 1, column 11: unexpected 'x' after the object");
  EXPECT_EQ(Error(Decode(Json(), kWordCount, "{\"word\":\"\\x\"}\n")),
            "line 1, column 10: invalid escape '\\x' in a string");
  EXPECT_EQ(Error(Decode(Json(), kWordCount, "\n\n{\"cnt\":\"x\"}\n")),
            "line 3, field 'cnt': cannot parse 'x' as INT");
  JsonOptions strict;
  strict.fail_on_missing_field = true;
  EXPECT_EQ(
      Error(Decode(Json(strict), kWordCount, "{\"word\":\"a\",\"cnt\":1}\n{\"word\":\"b\"}\n")),
      "line 2: field 'cnt' is missing");
  JsonOptions lenient;
  lenient.ignore_parse_errors = true;
  auto rows = Decode(Json(lenient), kWordCount,
                     "{\"word\":\"a\",\"cnt\":1}\nnot json\n{\"word\":\"c\",\"cnt\":\"x\"}\n");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Rows{"+I[a, 1]", "+I[c, null]"}));
}

TEST(JsonLinesEncoder, WritesFlinkStyleObjects) {
  EXPECT_EQ(
      Encode(
          Json(), kAllTypes,
          {{Value::String("a\"b\\c\n\x01"), Value::Int(1), Value::Double(1e7), Value::Int(1250),
            Value::Bool(true), Value::Int(Day("2024-01-31")),
            Value::Int(Ts("2024-01-31 10:00:00.120"))},
           {Value::Null(), Value::Null(), Value::Double(std::numeric_limits<double>::quiet_NaN()),
            Value::Null(), Value::Null(), Value::Null(), Value::Null()}}),
      "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"i\":1,\"d\":1.0E7,\"m\":12.50,\"b\":true,"
      "\"day\":\"2024-01-31\",\"ts\":\"2024-01-31 10:00:00.12\"}\n"
      "{\"s\":null,\"i\":null,\"d\":\"NaN\",\"m\":null,\"b\":null,\"day\":null,\"ts\":null}\n");
  JsonOptions iso;
  iso.iso8601_timestamps = true;
  EXPECT_EQ(Encode(Json(iso), MakeSchema({{"t", DataType::Timestamp(3)}}),
                   {{Value::Int(Ts("2024-01-31 10:00:00"))}}),
            "{\"t\":\"2024-01-31T10:00:00\"}\n");
}

TEST(JsonLinesEncoder, RoundTripsThroughTheDecoder) {
  const std::vector<std::vector<Value>> rows = {
      {Value::String("x\t\"y\"\\ \xC3\xA9"), Value::Int(7), Value::Double(3.25), Value::Int(-99),
       Value::Bool(false), Value::Int(Day("1999-12-31")), Value::Int(Ts("2000-01-01 00:00:00.5"))},
      {Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Null(), Value::Null(),
       Value::Null()}};
  auto decoded = Decode(Json(), kAllTypes, Encode(Json(), kAllTypes, rows));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ChangelogBatch expected(kAllTypes.Types());
  for (const auto& r : rows) expected.AppendValues(r, RowKind::kInsert);
  ASSERT_EQ(decoded->size(), 2u);
  for (size_t r = 0; r < rows.size(); ++r) EXPECT_EQ((*decoded)[r], FormatRow(expected, r));
}

// ---- options ----

TEST(FileFormat, TrimsTimestampFractions) {
  EXPECT_EQ(TrimTimestampFraction("2024-01-31 10:00:00.000"), "2024-01-31 10:00:00");
  EXPECT_EQ(TrimTimestampFraction("2024-01-31 10:00:00.100"), "2024-01-31 10:00:00.1");
  EXPECT_EQ(TrimTimestampFraction("2024-01-31 10:00:00"), "2024-01-31 10:00:00");
}

}  // namespace
}  // namespace eddy
