// Encodes a ChangelogBatch into its wire message (proto/eddy/v1/data.proto) and back. Decoding
// checks every buffer size against the row count and types, so a malformed frame is an error, not a
// crash.
#pragma once

#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "eddy/v1/data.pb.h"

namespace eddy {

void EncodeBatch(const ChangelogBatch& batch, v1::ChangelogBatch* out);
absl::StatusOr<ChangelogBatch> DecodeBatch(const v1::ChangelogBatch& msg);

}  // namespace eddy
