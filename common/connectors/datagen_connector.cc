#include "common/connectors/datagen_connector.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

constexpr double kDefaultRowsPerSecond = 10000;
constexpr int kDefaultRandomStringLength = 100;

// One column's 'fields.<name>.*' options.
absl::Status ReadField(const ConnectorTable& table, ConnectorConfig& config, const Field& f,
                       v1::DatagenField* df) {
  const std::string prefix = "fields." + f.name + ".";
  df->set_name(f.name);
  ASSIGN_OR_RETURN(const std::string kind,
                   config.Enum(prefix + "kind", {"random", "sequence"}, "random"));
  df->set_kind(kind);
  if (config.Has(prefix + "start")) {
    ASSIGN_OR_RETURN(const int64_t start, config.Int(prefix + "start", 0));
    df->set_has_start(true);
    df->set_start(start);
  }
  if (config.Has(prefix + "end")) {
    ASSIGN_OR_RETURN(const int64_t end, config.Int(prefix + "end", 0));
    df->set_has_end(true);
    df->set_end(end);
  }
  if (config.Has(prefix + "min")) {
    ASSIGN_OR_RETURN(const double min, config.Number(prefix + "min", 0));
    df->set_has_min(true);
    df->set_min(min);
  }
  if (config.Has(prefix + "max")) {
    ASSIGN_OR_RETURN(const double max, config.Number(prefix + "max", 0));
    df->set_has_max(true);
    df->set_max(max);
  }
  ASSIGN_OR_RETURN(const int64_t length,
                   config.Int(prefix + "length", kDefaultRandomStringLength, 1));
  df->set_length(static_cast<int32_t>(std::min<int64_t>(length, INT32_MAX)));
  ASSIGN_OR_RETURN(const double null_rate, config.Number(prefix + "null-rate", 0));
  if (null_rate < 0 || null_rate > 1) {
    return config.Bad(prefix + "null-rate", "a number between 0 and 1");
  }
  df->set_null_rate(null_rate);
  if (kind != "sequence") return absl::OkStatus();
  if (f.type.IsBinary()) {  // as Flink: a sequence counts numbers or their text
    return ConnectorConfig::Error(absl::StrCat("field '", f.name, "' of table '", table.name,
                                               "' is of type ", f.type.ToString(),
                                               ", which a sequence does not generate"));
  }
  if (!df->has_start() || !df->has_end()) {
    return ConnectorConfig::Error(absl::StrCat("field '", f.name, "' of table '", table.name,
                                               "' is a sequence and needs options '", prefix,
                                               "start' and '", prefix, "end'"));
  }
  if (df->start() > df->end()) {
    return ConnectorConfig::Error(absl::StrCat("option '", prefix, "start' of table '", table.name,
                                               "' must not be greater than '", prefix, "end' (",
                                               df->start(), " > ", df->end(), ")"));
  }
  return absl::OkStatus();
}

class Datagen : public ConnectorFactory {
 public:
  std::string_view name() const override { return "datagen"; }
  bool can_read() const override { return true; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    return ReadDatagenSpec(table, config, {}).status();
  }
  bool Bounded(const ConnectorTable& table, ConnectorConfig& config) const override {
    auto spec = ReadDatagenSpec(table, config, {});
    return spec.ok() && spec->bounded();
  }
  std::optional<double> RowCount(ConnectorConfig& config) const override {
    auto rows = config.Int("number-of-rows", -1, 0);
    if (!rows.ok() || *rows < 0) return std::nullopt;
    return static_cast<double>(*rows);
  }
};

}  // namespace

const ConnectorFactory& DatagenConnector() {
  static const Datagen kDatagen;
  return kDatagen;
}

absl::StatusOr<v1::DatagenSource> ReadDatagenSpec(const ConnectorTable& table,
                                                  ConnectorConfig& config,
                                                  const std::vector<int>& columns) {
  v1::DatagenSource out;
  ASSIGN_OR_RETURN(const double rps,
                   config.PositiveNumber("rows-per-second", kDefaultRowsPerSecond));
  // The source's own parallelism (Flink's scan.parallelism); the job graph reads it.
  RETURN_IF_ERROR(config.Int("scan.parallelism", 1, 1).status());
  out.set_rows_per_second(rps);
  const bool has_row_count = config.Has("number-of-rows");
  ASSIGN_OR_RETURN(const int64_t rows, config.Int("number-of-rows", 0, 0));
  bool bounded = has_row_count;
  if (has_row_count) out.set_number_of_rows(rows);
  const Schema& physical = table.columns;
  for (const Field& f : physical.fields) {
    if (!f.type.IsCollection()) continue;
    return ConnectorConfig::Error(
        absl::StrCat("table '", table.name, "': the datagen connector does not generate column '",
                     f.name, "' of type ", f.type.ToString()));
  }
  std::vector<bool> read(physical.size(), columns.empty());
  for (int c : columns) read[c] = true;
  // Read columns in output order; the others only for their bounds.
  std::vector<int> order = columns;
  if (order.empty()) {
    for (size_t c = 0; c < physical.size(); ++c) order.push_back(static_cast<int>(c));
  }
  for (size_t c = 0; c < physical.size(); ++c) {
    if (!read[c]) order.push_back(static_cast<int>(c));
  }
  int64_t unread_sequence_rows = -1;
  for (int c : order) {
    v1::DatagenField unread;
    v1::DatagenField* df = read[c] ? out.add_fields() : &unread;
    RETURN_IF_ERROR(ReadField(table, config, physical.fields[c], df));
    // A sequence ends, so the table is bounded by its shortest sequence.
    if (df->kind() != "sequence") continue;
    bounded = true;
    if (!read[c]) {
      const int64_t n = df->end() - df->start() + 1;
      unread_sequence_rows = unread_sequence_rows < 0 ? n : std::min(unread_sequence_rows, n);
    }
  }
  // The worker splits number-of-rows and every sequence the same way over subtasks, so bounding the
  // row count by the unread sequences' length gives each subtask the rows it would have had.
  if (unread_sequence_rows > 0 && (!has_row_count || unread_sequence_rows < out.number_of_rows())) {
    out.set_number_of_rows(unread_sequence_rows);
  }
  out.set_bounded(bounded);
  return out;
}

}  // namespace eddy
