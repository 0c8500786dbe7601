// What an operator or source records at a checkpoint besides its keyed state store: small values
// that live in memory (a source's position, the current watermark, pending timers), as named byte
// strings. The runtime stores it with the checkpoint and hands it back at a restore.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace eddy {

class OperatorSnapshot {
 public:
  void Put(std::string name, std::string bytes) { entries_[std::move(name)] = std::move(bytes); }
  std::optional<std::string_view> Get(const std::string& name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) return std::nullopt;
    return std::string_view(it->second);
  }
  bool empty() const { return entries_.empty(); }
  const std::map<std::string, std::string>& entries() const { return entries_; }

 private:
  std::map<std::string, std::string> entries_;
};

}  // namespace eddy
