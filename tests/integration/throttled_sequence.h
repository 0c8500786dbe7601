// The source most fault-tolerance tests read: `seq (id BIGINT)`, the ids 1 to `rows` from datagen
// at 4000 rows a second, so that a job runs long enough for kills and checkpoints to land in it.
#pragma once

#include <cstdint>
#include <string>

namespace eddy::testing {

// `CREATE TEMPORARY TABLE seq ...;`
inline std::string ThrottledSequenceTable(int64_t rows) {
  return "CREATE TEMPORARY TABLE seq (id BIGINT) WITH ('connector' = 'datagen', "
         "'rows-per-second' = '4000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
         "'fields.id.end' = '" +
         std::to_string(rows) + "');";
}

}  // namespace eddy::testing
