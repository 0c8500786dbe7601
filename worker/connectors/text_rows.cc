#include "worker/connectors/text_rows.h"

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/cast_column.h"
#include "common/expr/gather.h"
#include "worker/connectors/base64_column.h"
#include "worker/connectors/json_collection_text.h"

namespace eddy {
namespace {

// Plain STRING columns, and binary ones of the raw format, take the text as it is; everything else
// is parsed from a STRING column.
bool TakesTextAsIs(const TextRows::ColumnSpec& s) {
  return (s.type.IsString() && s.type.length == 0) || (s.raw && s.type.IsBinary());
}

DataType StagingType(const TextRows::ColumnSpec& s) {
  return TakesTextAsIs(s) ? s.type : DataType::String();
}

// The value as messages quote it, cut at 80 bytes.
std::string Quoted(std::string_view s) {
  const absl::string_view v(s.data(), s.size());
  if (v.size() > 80) return absl::StrCat("'", v.substr(0, 80), "...'");
  return absl::StrCat("'", v, "'");
}

}  // namespace

TextRows::TextRows(std::vector<ColumnSpec> columns) : specs_(std::move(columns)) {
  text_.reserve(specs_.size());
  for (const auto& s : specs_) text_.emplace_back(StagingType(s));
}

void TextRows::AppendRow(const FieldText* values, int64_t line) {
  for (size_t c = 0; c < specs_.size(); ++c) {
    if (values[c].null) {
      text_[c].AppendNull();
    } else {
      text_[c].AppendString(values[c].text);
    }
  }
  lines_.push_back(line);
}

absl::StatusOr<ChangelogBatch> TextRows::TakeBatch(bool ignore_errors) {
  const size_t n = lines_.size();
  std::vector<Column> columns;
  columns.reserve(specs_.size());
  std::vector<bool> drop;  // allocated only when a row is dropped
  auto Drop = [&](size_t r) {
    if (drop.empty()) drop.assign(n, false);
    drop[r] = true;
  };
  for (size_t c = 0; c < specs_.size(); ++c) {
    const ColumnSpec& spec = specs_[c];
    Column& text = text_[c];
    Column result;
    std::vector<bool> failed;
    if (TakesTextAsIs(spec)) {
      result = std::move(text);
      text = Column(StagingType(spec));
      text.Reserve(n);
    } else {
      if (spec.type.IsCollection()) {
        result = CollectionsFromJsonText(text, spec.type);  // only the json format has them
      } else if (spec.type.IsBinary()) {
        result = BinaryFromBase64Text(text, spec.type);
      } else if (spec.type.id == TypeId::kTime) {
        // HH:mm:ss[.fff] in whole seconds, as Flink's csv and json formats read a TIME.
        ASSIGN_OR_RETURN(Column seconds, CastColumn(text, DataType::Time(0), /*try_cast=*/true));
        ASSIGN_OR_RETURN(result, CastColumn(seconds, spec.type.WithNullable(true), false));
      } else {
        ASSIGN_OR_RETURN(result, CastColumn(text, spec.type, /*try_cast=*/true));
      }
      if (result.null_count() > text.null_count()) {
        for (size_t r = 0; r < n; ++r) {
          if (!result.IsNull(r) || text.IsNull(r)) continue;
          if (!ignore_errors) {
            return absl::InvalidArgumentError(absl::StrCat(
                "line ", lines_[r], ", ", spec.label, ": cannot parse ", Quoted(text.GetString(r)),
                " as ", spec.type.WithNullable(true).ToString()));
          }
          if (failed.empty()) failed.assign(n, false);
          failed[r] = true;
          if (!spec.type.nullable) Drop(r);
        }
      }
      text.Clear();
    }
    if (!spec.type.nullable && result.HasNulls()) {
      for (size_t r = 0; r < n; ++r) {
        if (!result.IsNull(r) || (!failed.empty() && failed[r])) continue;
        if (!ignore_errors) {
          return absl::InvalidArgumentError(absl::StrCat("line ", lines_[r], ", ", spec.label,
                                                         ": no value for a NOT NULL column"));
        }
        Drop(r);
      }
    }
    columns.push_back(std::move(result));
  }
  lines_.clear();
  ChangelogBatch batch(std::move(columns), std::vector<RowKind>(n, RowKind::kInsert));
  if (drop.empty()) return batch;
  std::vector<uint32_t> keep;
  keep.reserve(n);
  for (size_t r = 0; r < n; ++r) {
    if (!drop[r]) keep.push_back(static_cast<uint32_t>(r));
  }
  return Gather(batch, keep);
}

}  // namespace eddy
