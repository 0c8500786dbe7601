// ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (k = v, ...) ... and ALTER TABLE t DROP [IF EXISTS]
// PARTITION (k = v, ...), ...: a partitioned filesystem table's partitions are its partition
// directories (SHOW PARTITIONS lists them), so ADD creates a partition's directory, empty, and DROP
// removes it with its files, as in a Hive table. Every spec is checked (every partition column
// given a value of its type, existence as the IF clause wants) before any directory changes.
#pragma once

#include "absl/status/status.h"
#include "common/sql/ast.h"
#include "coordinator/catalog/catalog_objects.h"
#include "coordinator/service/session.h"

namespace eddy {

// `ddl` is an ADD or DROP PARTITION of `table`, found at `path`.
absl::Status ExecuteAlterTablePartitions(Session& session, const sql::AlterTable& ddl,
                                         const CatalogTable& table);

}  // namespace eddy
