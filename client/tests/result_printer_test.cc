// ResultPrinter: tableau widths by type, right alignment, <NULL>, truncation of wide (UTF-8)
// values, the row count line, and TABLE mode's materialization of retractions.
#include "client/result_printer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace eddy {
namespace {

// Runs `fill` against a printer writing to a memory stream and returns what it printed.
template <typename F>
std::string Printed(const std::string& mode, const Schema& schema, F fill) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* out = open_memstream(&buf, &len);
  auto printer = MakeResultPrinter(mode, schema, out);
  printer->Begin();
  fill(*printer);
  printer->End();
  std::fclose(out);
  std::string text(buf, len);
  std::free(buf);
  return text;
}

ChangelogBatch Rows(const Schema& schema,
                    const std::vector<std::pair<RowKind, std::vector<Value>>>& rows) {
  ChangelogBatch b(schema.Types());
  for (const auto& [kind, values] : rows) b.AppendValues(values, kind);
  return b;
}

TEST(ResultPrinterTest, ColumnWidthsFollowTheTypesAsInFlink) {
  EXPECT_EQ(TableauColumnWidth({"x", DataType::TinyInt()}), 6);  // <NULL> is wider than 4
  EXPECT_EQ(TableauColumnWidth({"x", DataType::Int()}), 11);
  EXPECT_EQ(TableauColumnWidth({"x", DataType::BigInt()}), 20);
  EXPECT_EQ(TableauColumnWidth({"x", DataType::Decimal(10, 2)}), 12);
  EXPECT_EQ(TableauColumnWidth({"x", DataType::Date()}), 10);
  EXPECT_EQ(TableauColumnWidth({"x", DataType::Timestamp(3)}), 23);
  EXPECT_EQ(TableauColumnWidth({"x", DataType::String()}), 30);
  EXPECT_EQ(TableauColumnWidth({"x", DataType::Double()}), 30);
  EXPECT_EQ(TableauColumnWidth({"a_rather_long_column_name_here_xyz", DataType::Int()}), 34);
}

TEST(ResultPrinterTest, TableauPrintsEveryChangeAndTheCount) {
  Schema schema;
  schema.fields = {{"w", DataType::String()}, {"n", DataType::Int()}};
  std::string text = Printed("tableau", schema, [&](ResultPrinter& p) {
    p.Add(Rows(schema,
               {{RowKind::kInsert, {Value::String("ü-straße"), Value::Int(1)}},
                {RowKind::kUpdateBefore, {Value::String(std::string(40, 'x')), Value::Null()}}}));
  });
  EXPECT_EQ(text,
            "+----+--------------------------------+-------------+\n"
            "| op |                              w |           n |\n"
            "+----+--------------------------------+-------------+\n"
            "| +I |                       ü-straße |           1 |\n"
            "| -U | xxxxxxxxxxxxxxxxxxxxxxxxxxx... |      <NULL> |\n"
            "+----+--------------------------------+-------------+\n"
            "Received a total of 2 rows\n");
  std::string none = Printed("CHANGELOG", schema, [](ResultPrinter&) {});
  EXPECT_THAT(none, ::testing::EndsWith("Received a total of 0 row\n"));
}

TEST(ResultPrinterTest, TableModeShowsTheMaterializedResult) {
  Schema schema;
  schema.fields = {{"w", DataType::String()}, {"n", DataType::BigInt()}};
  std::string text = Printed("TABLE", schema, [&](ResultPrinter& p) {
    p.Add(Rows(schema, {{RowKind::kInsert, {Value::String("a"), Value::Int(1)}},
                        {RowKind::kInsert, {Value::String("b"), Value::Int(1)}},
                        {RowKind::kUpdateBefore, {Value::String("a"), Value::Int(1)}},
                        {RowKind::kUpdateAfter, {Value::String("a"), Value::Int(2)}},
                        {RowKind::kDelete, {Value::String("b"), Value::Int(1)}}}));
    EXPECT_EQ(p.rows_received(), 5);
  });
  EXPECT_EQ(text,
            "+--------------------------------+----------------------+\n"
            "|                              w |                    n |\n"
            "+--------------------------------+----------------------+\n"
            "|                              a |                    2 |\n"
            "+--------------------------------+----------------------+\n"
            "1 row in set\n");
  EXPECT_EQ(Printed("table", schema, [](ResultPrinter&) {}), "Empty set\n");
}

TEST(ResultPrinterTest, LiveTableRedrawsInPlaceOnlyWhenChangedAndAtMostTwiceASecond) {
  Schema schema;
  schema.fields = {{"n", DataType::Int()}};
  char* buf = nullptr;
  size_t len = 0;
  FILE* out = open_memstream(&buf, &len);
  auto printer = MakeResultPrinter("table", schema, out, /*live=*/true);
  printer->Begin();
  const auto t0 = std::chrono::steady_clock::now();
  printer->Refresh(t0);  // nothing received yet: nothing drawn
  std::fflush(out);
  EXPECT_EQ(len, 0u);
  printer->Add(Rows(schema, {{RowKind::kInsert, {Value::Int(7)}}}));
  printer->Refresh(t0 + std::chrono::seconds(1));
  std::fflush(out);
  std::string first(buf, len);
  EXPECT_EQ(first,
            "\x1b[H\x1b[2J"
            "+-------------+\n"
            "|           n |\n"
            "+-------------+\n"
            "|           7 |\n"
            "+-------------+\n"
            "1 row in set\n"
            "Refreshing as the result changes; Ctrl-C stops the query.\n");
  printer->Refresh(t0 + std::chrono::seconds(2));  // unchanged: no redraw
  printer->Add(Rows(schema, {{RowKind::kUpdateBefore, {Value::Int(7)}},
                             {RowKind::kUpdateAfter, {Value::Int(8)}}}));
  printer->Refresh(t0 + std::chrono::milliseconds(2100));  // changed; last drawn at 1 s
  std::fflush(out);
  std::string second(buf + first.size(), len - first.size());
  EXPECT_THAT(second, ::testing::HasSubstr("|           8 |\n"));
  EXPECT_THAT(second, ::testing::Not(::testing::HasSubstr("|           7 |")));
  printer->Add(Rows(schema, {{RowKind::kInsert, {Value::Int(9)}}}));
  printer->Refresh(t0 + std::chrono::milliseconds(2200));  // 100 ms after the last draw: waits
  std::fflush(out);
  EXPECT_EQ(len, first.size() + second.size());
  printer->End();  // the final view replaces the live one
  std::fclose(out);
  std::string final_view(buf + first.size() + second.size(), len - first.size() - second.size());
  std::free(buf);
  EXPECT_THAT(final_view, ::testing::StartsWith("\x1b[H\x1b[2J"));
  EXPECT_THAT(final_view, ::testing::HasSubstr("2 rows in set\n"));
}

}  // namespace
}  // namespace eddy
