// The time of a partition, for the filesystem sink's 'partition-time' commit trigger: Flink's
// default extractor (partition.time-extractor.kind = 'default'). The timestamp pattern names
// partition columns as `$name` ('$dt $hour:00:00'); without one the first partition column's value
// is the timestamp. The formatter parses the result: without one, leniently as
// 'yyyy-MM-dd[ HH:mm:ss[.fraction]]' (one or two digits for month, day and time fields, as Flink's
// default); with one, a pattern of the letters yyyy, MM, dd, HH, mm and ss and literal characters.
// The local date-time becomes an instant in the watermark time zone (named as
// table.local-time-zone names zones: 'UTC', 'GMT+08:00', 'Asia/Shanghai').
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/connectors/partition_path.h"
#include "common/types/time_zone.h"

namespace eddy {

class PartitionTimeExtractor {
 public:
  // Fails naming the option at fault: a `$name` in `pattern` that is no partition column, a
  // formatter with other letters, an unknown time zone.
  static absl::StatusOr<PartitionTimeExtractor> Create(std::string pattern, std::string formatter,
                                                       std::string time_zone,
                                                       std::vector<std::string> partition_keys);

  // The partition's time in milliseconds since the epoch; an error naming the partition and the
  // text when its values do not make a time.
  absl::StatusOr<int64_t> ExtractMillis(const PartitionSpec& spec) const;

 private:
  std::string pattern_;
  std::string formatter_;
  SessionTimeZone zone_;
  std::vector<std::string> keys_;
};

}  // namespace eddy
