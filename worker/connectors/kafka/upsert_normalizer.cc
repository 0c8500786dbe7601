#include "worker/connectors/kafka/upsert_normalizer.h"

#include <cstdint>

#include "worker/operators/accumulator_codec.h"

namespace eddy {

UpsertNormalizer::Change UpsertNormalizer::Apply(std::string_view key, std::string_view value,
                                                 bool tombstone, std::string* previous) {
  auto it = values_.find(absl::string_view(key.data(), key.size()));
  if (tombstone) {
    if (it == values_.end()) return Change::kNone;
    previous->swap(it->second);
    values_.erase(it);
    return Change::kDelete;
  }
  if (it == values_.end()) {
    values_.emplace(std::string(key), std::string(value));
    return Change::kInsert;
  }
  if (it->second == value) return Change::kNone;
  previous->swap(it->second);
  it->second.assign(value.data(), value.size());
  return Change::kUpdate;
}

std::string UpsertNormalizer::Encode() const {
  std::string out;
  for (const auto& [key, value] : values_) {
    agg_codec::PutString(key, &out);
    agg_codec::PutString(value, &out);
  }
  return out;
}

absl::Status UpsertNormalizer::Decode(std::string_view bytes) {
  values_.clear();
  agg_codec::Reader in(bytes);
  while (!in.done()) {
    const std::string_view key = in.String();
    const std::string_view value = in.String();
    if (!in.ok()) return absl::DataLossError("upsert-kafka source state is truncated");
    values_.emplace(std::string(key), std::string(value));
  }
  return absl::OkStatus();
}

}  // namespace eddy
