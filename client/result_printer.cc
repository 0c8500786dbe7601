#include "client/result_printer.h"

#include <algorithm>
#include <deque>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace eddy {
namespace {

constexpr char kNull[] = "<NULL>";
constexpr char kTruncated[] = "...";

int TimestampWidth(int precision) {
  if (precision == 0) return 19;
  if (precision <= 3) return 23;
  if (precision <= 6) return 26;
  return 29;
}

// Display width: one per code point (UTF-8 continuation bytes do not count).
int DisplayWidth(const std::string& s) {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

// The first `width` code points of `s`.
std::string Prefix(const std::string& s, int width) {
  size_t i = 0;
  int seen = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && seen++ == width) break;
  }
  return s.substr(0, i);
}

std::string Cell(const std::string& text, int width) {
  const int w = DisplayWidth(text);
  if (w <= width) return std::string(width - w, ' ') + text;
  const int keep = std::max(0, width - static_cast<int>(sizeof(kTruncated) - 1));
  std::string cut = Prefix(text, keep);
  return std::string(keep - DisplayWidth(cut), ' ') + cut + kTruncated;
}

std::string CellText(const Column& c, size_t row) {
  if (c.IsNull(row)) return kNull;
  // As the SQL client shows them (a cast to STRING); the print sink keeps Java's true/false.
  if (c.type().id == TypeId::kBoolean) return c.GetValue(row).bool_value() ? "TRUE" : "FALSE";
  return FormatValue(c.GetValue(row), c.type());
}

// Borders, header and rows of a tableau with fixed column widths.
class Tableau {
 public:
  Tableau(std::vector<std::string> names, std::vector<int> widths, FILE* out)
      : names_(std::move(names)), widths_(std::move(widths)), out_(out) {}

  void Border() {
    std::string line = "+";
    for (int w : widths_) line += std::string(w + 2, '-') + "+";
    std::fprintf(out_, "%s\n", line.c_str());
  }
  void Row(const std::vector<std::string>& cells) {
    std::string line = "|";
    for (size_t i = 0; i < cells.size(); ++i) line += " " + Cell(cells[i], widths_[i]) + " |";
    std::fprintf(out_, "%s\n", line.c_str());
  }
  void Header() {
    Border();
    Row(names_);
    Border();
  }

 private:
  std::vector<std::string> names_;
  std::vector<int> widths_;
  FILE* out_;
};

std::vector<std::string> Names(const Schema& schema) {
  std::vector<std::string> names;
  for (const Field& f : schema.fields) names.push_back(f.name);
  return names;
}
std::vector<int> Widths(const Schema& schema, int max_column_width) {
  std::vector<int> widths;
  for (const Field& f : schema.fields) widths.push_back(TableauColumnWidth(f, max_column_width));
  return widths;
}

class ChangelogTableau : public ResultPrinter {
 public:
  ChangelogTableau(const Schema& schema, FILE* out, int max_column_width)
      : tableau_(WithOp(Names(schema)), WithOpWidth(Widths(schema, max_column_width)), out),
        out_(out) {}

  void Begin() override {
    tableau_.Header();
    std::fflush(out_);
  }
  void Add(const ChangelogBatch& batch) override {
    std::vector<std::string> cells(batch.num_columns() + 1);
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      cells[0] = std::string(RowKindShortString(batch.kind(r)));
      for (size_t c = 0; c < batch.num_columns(); ++c) cells[c + 1] = CellText(batch.column(c), r);
      tableau_.Row(cells);
      ++rows_;
    }
    std::fflush(out_);
  }
  void End() override {
    tableau_.Border();
    std::fprintf(out_, "Received a total of %lld %s%s\n", static_cast<long long>(rows_),
                 rows_ > 1 ? "rows" : "row", TimeCost().c_str());
    std::fflush(out_);
  }
  int64_t rows_received() const override { return rows_; }

 private:
  static std::vector<std::string> WithOp(std::vector<std::string> names) {
    names.insert(names.begin(), "op");
    return names;
  }
  static std::vector<int> WithOpWidth(std::vector<int> widths) {
    widths.insert(widths.begin(), 2);
    return widths;
  }

  Tableau tableau_;
  FILE* out_;
  int64_t rows_ = 0;
};

class MaterializedTable : public ResultPrinter {
 public:
  MaterializedTable(const Schema& schema, FILE* out, bool live, int max_column_width,
                    int64_t max_rows)
      : tableau_(Names(schema), Widths(schema, max_column_width), out),
        out_(out),
        live_(live),
        max_rows_(max_rows > 0 ? static_cast<size_t>(max_rows) : 0) {}

  void Begin() override {}
  void Add(const ChangelogBatch& batch) override {
    std::vector<std::string> cells(batch.num_columns());
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      for (size_t c = 0; c < batch.num_columns(); ++c) cells[c] = CellText(batch.column(c), r);
      ++received_;
      changed_ = true;
      const RowKind kind = batch.kind(r);
      if (kind == RowKind::kInsert || kind == RowKind::kUpdateAfter) {
        if (max_rows_ > 0 && rows_.size() >= max_rows_) rows_.pop_front();
        rows_.push_back(cells);
      } else if (auto it = std::find(rows_.begin(), rows_.end(), cells); it != rows_.end()) {
        rows_.erase(it);
      }
    }
  }
  void Refresh(std::chrono::steady_clock::time_point now) override {
    if (!live_ || !changed_ || now - last_draw_ < kRedrawInterval) return;
    last_draw_ = now;
    changed_ = false;
    std::fputs(kClearScreen, out_);
    Draw();
    std::fputs("Refreshing as the result changes; Ctrl-C stops the query.\n", out_);
    std::fflush(out_);
  }
  void End() override {
    if (live_ && last_draw_ != std::chrono::steady_clock::time_point{})
      std::fputs(kClearScreen, out_);
    Draw();
    std::fflush(out_);
  }
  int64_t rows_received() const override { return received_; }

 private:
  static constexpr auto kRedrawInterval = std::chrono::milliseconds(500);
  static constexpr char kClearScreen[] = "\x1b[H\x1b[2J";  // cursor home, erase the screen

  void Draw() {
    if (rows_.empty()) {
      std::fprintf(out_, "Empty set%s\n", TimeCost().c_str());
      return;
    }
    tableau_.Header();
    for (const auto& row : rows_) tableau_.Row(row);
    tableau_.Border();
    std::fprintf(out_, "%zu %s in set%s\n", rows_.size(), rows_.size() > 1 ? "rows" : "row",
                 TimeCost().c_str());
  }

  Tableau tableau_;
  FILE* out_;
  const bool live_;
  const size_t max_rows_;  // 0: no limit
  std::deque<std::vector<std::string>> rows_;
  int64_t received_ = 0;
  bool changed_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
};

// A batch query's result in TABLEAU mode, as Flink's SQL client prints batch results: the rows are
// final (+I only), so there is no op column; the result is printed when the query ends, each column
// as wide as its name or its widest cell (at most sql-client.display.max-column-width), ending with
// `N rows in set`, or `Empty set` alone.
class BatchTableau : public ResultPrinter {
 public:
  BatchTableau(const Schema& schema, FILE* out, int max_column_width)
      : names_(Names(schema)), out_(out), max_column_width_(max_column_width) {}

  void Begin() override {}
  void Add(const ChangelogBatch& batch) override {
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      std::vector<std::string>& cells = rows_.emplace_back(batch.num_columns());
      for (size_t c = 0; c < batch.num_columns(); ++c) cells[c] = CellText(batch.column(c), r);
    }
  }
  void End() override {
    if (rows_.empty()) {
      std::fprintf(out_, "Empty set%s\n", TimeCost().c_str());
      std::fflush(out_);
      return;
    }
    std::vector<int> widths;
    for (const std::string& name : names_) widths.push_back(DisplayWidth(name));
    for (const auto& row : rows_) {
      for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    }
    for (int& w : widths) w = std::min(w, max_column_width_);
    Tableau tableau(names_, std::move(widths), out_);
    tableau.Header();
    for (const auto& row : rows_) tableau.Row(row);
    tableau.Border();
    std::fprintf(out_, "%zu %s in set%s\n", rows_.size(), rows_.size() > 1 ? "rows" : "row",
                 TimeCost().c_str());
    std::fflush(out_);
  }
  int64_t rows_received() const override { return static_cast<int64_t>(rows_.size()); }

 private:
  std::vector<std::string> names_;
  FILE* out_;
  int max_column_width_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace

std::string ResultPrinter::TimeCost() const {
  if (!time_cost_since_) return "";
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - *time_cost_since_).count();
  return absl::StrFormat(" (%.2f seconds)", seconds);
}

int TableauColumnWidth(const Field& field, int max_column_width) {
  const DataType& t = field.type;
  int len = max_column_width;
  switch (t.id) {
    case TypeId::kTinyInt:
      len = 4;
      break;
    case TypeId::kSmallInt:
      len = 6;
      break;
    case TypeId::kInt:
      len = 11;
      break;
    case TypeId::kBigInt:
      len = 20;
      break;
    case TypeId::kDecimal:
      len = t.precision + 2;
      break;
    case TypeId::kBoolean:
      len = 5;
      break;
    case TypeId::kDate:
      len = 10;
      break;
    case TypeId::kTime:  // 23:59:59[.999999999]
      len = t.precision == 0 ? 8 : t.precision + 9;
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
      len = TimestampWidth(t.precision);
      break;
    default:
      break;
  }
  len = std::max<int>(len, sizeof(kNull) - 1);
  return std::max(len, DisplayWidth(field.name));
}

std::unique_ptr<ResultPrinter> MakeResultPrinter(const std::string& mode, const Schema& schema,
                                                 FILE* out, bool live, bool batch,
                                                 int max_column_width, int64_t max_table_rows) {
  if (absl::AsciiStrToUpper(mode) == "TABLE") {
    return std::make_unique<MaterializedTable>(schema, out, live, max_column_width, max_table_rows);
  }
  if (batch) return std::make_unique<BatchTableau>(schema, out, max_column_width);
  return std::make_unique<ChangelogTableau>(schema, out, max_column_width);
}

}  // namespace eddy
