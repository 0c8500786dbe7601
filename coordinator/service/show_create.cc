#include "coordinator/service/show_create.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace eddy {
namespace {

std::string Quote(const std::string& identifier) {
  return absl::StrCat("`", absl::StrReplaceAll(identifier, {{"`", "``"}}), "`");
}
std::string Literal(const std::string& s) {
  return absl::StrCat("'", absl::StrReplaceAll(s, {{"'", "''"}}), "'");
}
std::string QuotedPath(const ObjectPath& p) {
  return absl::StrCat(Quote(p.catalog), ".", Quote(p.database), ".", Quote(p.object));
}

// As Flink's serializable type strings: TIMESTAMP_LTZ(p) is spelled TIMESTAMP(p) WITH LOCAL TIME
// ZONE (DESCRIBE shows the short form).
std::string ColumnType(const DataType& t) {
  if (t.id != TypeId::kTimestampLtz) return t.ToString();
  return absl::StrCat("TIMESTAMP(", t.precision, ") WITH LOCAL TIME ZONE",
                      t.nullable ? "" : " NOT NULL");
}

// WITH (...), one option a line, in the order written.
std::string Options(const OptionList& options) {
  std::vector<std::string> lines;
  for (const auto& [k, v] : options) lines.push_back(Literal(k) + " = " + Literal(v));
  return absl::StrCat("WITH (\n  ", absl::StrJoin(lines, ",\n  "), "\n)\n");
}

// `a` STRING COMMENT '...', `b` INT: a model's INPUT or OUTPUT columns.
std::string ModelColumns(const Schema& schema, const std::vector<std::string>& comments) {
  std::vector<std::string> columns;
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    std::string column =
        absl::StrCat(Quote(schema.fields[i].name), " ", ColumnType(schema.fields[i].type));
    if (i < comments.size() && !comments[i].empty()) {
      absl::StrAppend(&column, " COMMENT ", Literal(comments[i]));
    }
    columns.push_back(std::move(column));
  }
  return absl::StrJoin(columns, ", ");
}

}  // namespace

std::string ShowCreateTable(const CatalogTable& t, bool temporary) {
  std::vector<std::string> lines;
  for (size_t i = 0; i < t.schema.fields.size(); ++i) {
    const Field& f = t.schema.fields[i];
    std::string line = t.IsComputed(i) ? absl::StrCat(Quote(f.name), " AS ", t.computed_exprs[i])
                                       : absl::StrCat(Quote(f.name), " ", ColumnType(f.type));
    if (t.IsMetadata(i)) {
      absl::StrAppend(&line, " METADATA FROM ", Literal(t.metadata_keys[i]),
                      t.IsVirtual(i) ? " VIRTUAL" : "");
    }
    if (!t.ColumnComment(i).empty())
      absl::StrAppend(&line, " COMMENT ", Literal(t.ColumnComment(i)));
    lines.push_back(std::move(line));
  }
  if (!t.watermark_column.empty()) {
    lines.push_back(
        absl::StrCat("WATERMARK FOR ", Quote(t.watermark_column), " AS ", t.watermark_expr));
  }
  if (!t.primary_key.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : t.primary_key) keys.push_back(Quote(k));
    lines.push_back(absl::StrCat("CONSTRAINT ", Quote("PK_" + absl::StrJoin(t.primary_key, "_")),
                                 " PRIMARY KEY (", absl::StrJoin(keys, ", "), ") NOT ENFORCED"));
  }
  std::string out =
      absl::StrCat("CREATE ", temporary ? "TEMPORARY " : "", "TABLE ", QuotedPath(t.path), " (\n  ",
                   absl::StrJoin(lines, ",\n  "), "\n)");
  if (!t.comment.empty()) absl::StrAppend(&out, "\nCOMMENT ", Literal(t.comment));
  if (t.distribution) absl::StrAppend(&out, "\n", t.distribution->ToString());
  if (!t.partition_keys.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : t.partition_keys) keys.push_back(Quote(k));
    absl::StrAppend(&out, "\nPARTITIONED BY (", absl::StrJoin(keys, ", "), ")");
  }
  absl::StrAppend(&out, "\n", Options(t.options));
  return out;
}

std::string ShowCreateMaterializedTable(const CatalogTable& t) {
  std::string out = absl::StrCat("CREATE MATERIALIZED TABLE ", QuotedPath(t.path));
  if (!t.primary_key.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : t.primary_key) keys.push_back(Quote(k));
    absl::StrAppend(&out, " (\n  CONSTRAINT ", Quote("PK_" + absl::StrJoin(t.primary_key, "_")),
                    " PRIMARY KEY (", absl::StrJoin(keys, ", "), ") NOT ENFORCED\n)");
  }
  if (!t.comment.empty()) absl::StrAppend(&out, "\nCOMMENT ", Literal(t.comment));
  if (!t.partition_keys.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : t.partition_keys) keys.push_back(Quote(k));
    absl::StrAppend(&out, "\nPARTITIONED BY (", absl::StrJoin(keys, ", "), ")");
  }
  if (!t.options.empty()) {
    std::vector<std::string> options;
    for (const auto& [k, v] : t.options) options.push_back(Literal(k) + " = " + Literal(v));
    absl::StrAppend(&out, "\nWITH (\n  ", absl::StrJoin(options, ",\n  "), "\n)");
  }
  if (t.materialized) {
    const MaterializedTableInfo& m = *t.materialized;
    absl::StrAppend(&out, "\nFRESHNESS = INTERVAL '", m.freshness_value, "' ", m.freshness_unit,
                    "\nREFRESH_MODE = CONTINUOUS\nAS ", m.query_text);
  }
  return out + "\n";
}

std::string ShowCreateView(const CatalogView& v, bool temporary) {
  std::string out =
      absl::StrCat("CREATE ", temporary ? "TEMPORARY " : "", "VIEW ", QuotedPath(v.path));
  if (!v.column_aliases.empty()) {
    std::vector<std::string> cols;
    for (const auto& c : v.column_aliases) cols.push_back(Quote(c));
    absl::StrAppend(&out, " (", absl::StrJoin(cols, ", "), ")");
  }
  absl::StrAppend(&out, " AS\n", v.query_text, "\n");
  return out;
}

std::string ShowCreateCatalog(const std::string& name, const CatalogInfo& info) {
  std::vector<std::string> options;
  for (const auto& [k, v] : info.options) options.push_back(Literal(k) + " = " + Literal(v));
  std::sort(options.begin(), options.end());
  std::string out = absl::StrCat("CREATE CATALOG ", Quote(name));
  absl::StrAppend(&out, info.comment.empty() ? " " : "\nCOMMENT " + Literal(info.comment) + "\n",
                  "WITH (\n  ", absl::StrJoin(options, ",\n  "), "\n)\n");
  return out;
}

std::string ShowCreateModel(const CatalogModel& m, bool temporary) {
  std::string out =
      absl::StrCat("CREATE ", temporary ? "TEMPORARY " : "", "MODEL ", QuotedPath(m.path), "\n");
  if (!m.input.fields.empty()) {
    absl::StrAppend(&out, "INPUT (", ModelColumns(m.input, m.input_comments), ")\n");
  }
  if (!m.output.fields.empty()) {
    absl::StrAppend(&out, "OUTPUT (", ModelColumns(m.output, m.output_comments), ")\n");
  }
  if (!m.comment.empty()) absl::StrAppend(&out, "COMMENT ", Literal(m.comment), "\n");
  return out + Options(m.options);
}

}  // namespace eddy
