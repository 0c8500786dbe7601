#include "worker/connectors/kafka/upsert_normalizer.h"

#include <cstdint>

namespace eddy {
namespace {

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view* in, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && !in->empty(); shift += 7) {
    const uint8_t b = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    *v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

bool GetBytes(std::string_view* in, std::string_view* out) {
  uint64_t n = 0;
  if (!GetVarint(in, &n) || n > in->size()) return false;
  *out = in->substr(0, n);
  in->remove_prefix(n);
  return true;
}

}  // namespace

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
    PutVarint(key.size(), &out);
    out.append(key);
    PutVarint(value.size(), &out);
    out.append(value);
  }
  return out;
}

absl::Status UpsertNormalizer::Decode(std::string_view bytes) {
  values_.clear();
  while (!bytes.empty()) {
    std::string_view key, value;
    if (!GetBytes(&bytes, &key) || !GetBytes(&bytes, &value)) {
      return absl::DataLossError("upsert-kafka source state is truncated");
    }
    values_.emplace(std::string(key), std::string(value));
  }
  return absl::OkStatus();
}

}  // namespace eddy
