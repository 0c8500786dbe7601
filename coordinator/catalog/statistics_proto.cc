#include "coordinator/catalog/statistics_proto.h"

namespace eddy {

void StatisticsToProto(const TableStatistics& stats, v1::StoredTableStatistics* out) {
  out->set_row_count(stats.row_count);
  for (const auto& [name, c] : stats.columns) {
    v1::StoredColumnStatistics& p = (*out->mutable_columns())[name];
    if (c.ndv) p.set_ndv(*c.ndv);
    if (c.null_count) p.set_null_count(*c.null_count);
    if (c.avg_length) p.set_avg_length(*c.avg_length);
    if (c.max_length) p.set_max_length(*c.max_length);
    if (c.min) p.set_min(*c.min);
    if (c.max) p.set_max(*c.max);
    if (c.true_count) p.set_true_count(*c.true_count);
    if (c.false_count) p.set_false_count(*c.false_count);
  }
}

TableStatistics StatisticsFromProto(const v1::StoredTableStatistics& p) {
  TableStatistics stats;
  stats.row_count = p.row_count();
  for (const auto& [name, s] : p.columns()) {
    ColumnStatistics& c = stats.columns[name];
    if (s.has_ndv()) c.ndv = s.ndv();
    if (s.has_null_count()) c.null_count = s.null_count();
    if (s.has_avg_length()) c.avg_length = s.avg_length();
    if (s.has_max_length()) c.max_length = s.max_length();
    if (s.has_min()) c.min = s.min();
    if (s.has_max()) c.max = s.max();
    if (s.has_true_count()) c.true_count = s.true_count();
    if (s.has_false_count()) c.false_count = s.false_count();
  }
  return stats;
}

}  // namespace eddy
