#include "worker/operators/operator_snapshot.h"

#include "absl/strings/str_cat.h"

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

bool GetString(std::string_view* in, std::string* out) {
  uint64_t n = 0;
  if (!GetVarint(in, &n) || n > in->size()) return false;
  out->assign(in->data(), n);
  in->remove_prefix(n);
  return true;
}

}  // namespace

void OperatorSnapshot::PutInt64(std::string name, int64_t value) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<char>((static_cast<uint64_t>(value) >> (8 * i)) & 0xff);
  }
  Put(std::move(name), std::move(bytes));
}

absl::StatusOr<std::optional<int64_t>> OperatorSnapshot::GetInt64(const std::string& name) const {
  std::optional<std::string_view> bytes = Get(name);
  if (!bytes) return std::optional<int64_t>();
  if (bytes->size() != 8) {
    return absl::DataLossError(
        absl::StrCat("snapshot entry '", name, "' has ", bytes->size(), " bytes, not 8"));
  }
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>((*bytes)[i]);
  return std::optional<int64_t>(static_cast<int64_t>(v));
}

std::string OperatorSnapshot::Encode() const {
  std::string out;
  for (const auto& [name, value] : entries_) {
    PutVarint(name.size(), &out);
    out += name;
    PutVarint(value.size(), &out);
    out += value;
  }
  return out;
}

absl::StatusOr<OperatorSnapshot> OperatorSnapshot::Decode(std::string_view bytes) {
  OperatorSnapshot snapshot;
  while (!bytes.empty()) {
    std::string name, value;
    if (!GetString(&bytes, &name) || !GetString(&bytes, &value)) {
      return absl::DataLossError("operator state is truncated or corrupt");
    }
    snapshot.Put(std::move(name), std::move(value));
  }
  return snapshot;
}

}  // namespace eddy
