// What an operator or source records at a checkpoint besides its keyed state store: small values
// that live in memory (a source's position, the current watermark, pending timers), as named byte
// strings. The runtime stores it with the checkpoint (OperatorStateHandle.operator_state, in the
// byte form of Encode) and hands it back at a restore.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace eddy {

class OperatorSnapshot {
 public:
  void Put(std::string name, std::string bytes) { entries_[std::move(name)] = std::move(bytes); }
  std::optional<std::string_view> Get(const std::string& name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) return std::nullopt;
    return std::string_view(it->second);
  }
  // A number, as 8 bytes little-endian (source positions).
  void PutInt64(std::string name, int64_t value);
  // nullopt when absent; an error when present but not 8 bytes.
  absl::StatusOr<std::optional<int64_t>> GetInt64(const std::string& name) const;

  bool empty() const { return entries_.empty(); }
  const std::map<std::string, std::string>& entries() const { return entries_; }

  // Byte form: per entry, varint name length, name, varint value length, value (name order).
  std::string Encode() const;
  static absl::StatusOr<OperatorSnapshot> Decode(std::string_view bytes);

 private:
  std::map<std::string, std::string> entries_;
};

}  // namespace eddy
