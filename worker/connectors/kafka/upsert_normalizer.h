// The changelog normalisation of an upsert-kafka source (Flink's ChangelogNormalize, run in the
// source subtask): the last value of every key this subtask reads, so that each record becomes
// the full change it means: +I for a new key, -U (the previous value) and +U for a changed one,
// -D (the previous value) for a tombstone of a known key; a repeated value or a tombstone of an
// unknown key changes nothing. A key always lands in one partition and a partition is read by one
// subtask, so the subtask holds every value of its keys. Values are kept as the record's bytes
// (with the record's metadata when the table reads metadata columns) and decoded again for -U and
// -D; the whole map is part of the source's checkpoint.
#pragma once

#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace eddy {

class UpsertNormalizer {
 public:
  enum class Change {
    kNone,    // nothing to emit
    kInsert,  // +I value
    kUpdate,  // -U previous, +U value
    kDelete,  // -D previous
  };
  // Applies one record; `previous` points to the key's earlier value for kUpdate and kDelete,
  // valid until the next call.
  Change Apply(std::string_view key, std::string_view value, bool tombstone, std::string* previous);

  size_t size() const { return values_.size(); }
  std::string Encode() const;
  absl::Status Decode(std::string_view bytes);

 private:
  absl::flat_hash_map<std::string, std::string> values_;
};

}  // namespace eddy
