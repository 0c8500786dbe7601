// Compact byte encoding helpers for aggregate state values stored in RocksDB (and other state a
// task saves, e.g. the Kafka connectors'): LEB128 varints, zigzag for signed numbers, raw 8-byte
// doubles. A Reader never reads past its input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace eddy::agg_codec {

inline void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
inline void PutSigned(int64_t v, std::string* out) {
  PutVarint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63), out);
}
inline void PutDouble(double d, std::string* out) {
  char b[8];
  std::memcpy(b, &d, 8);
  out->append(b, 8);
}
inline void PutString(std::string_view s, std::string* out) {
  PutVarint(s.size(), out);
  out->append(s.data(), s.size());
}

// Reads values in order; any failure sets ok() to false and later reads return zeros.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool done() const { return pos_ == in_.size(); }

  uint64_t Varint() {
    uint64_t result = 0;
    for (int shift = 0; shift < 64 && pos_ < in_.size(); shift += 7) {
      uint8_t b = static_cast<uint8_t>(in_[pos_++]);
      result |= uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return result;
    }
    ok_ = false;
    return 0;
  }
  int64_t Signed() {
    uint64_t z = Varint();
    return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
  }
  double Double() {
    if (in_.size() - pos_ < 8) {
      ok_ = false;
      pos_ = in_.size();
      return 0;
    }
    double d;
    std::memcpy(&d, in_.data() + pos_, 8);
    pos_ += 8;
    return d;
  }
  std::string_view String() {
    uint64_t n = Varint();
    if (!ok_) return {};
    return Bytes(n);
  }
  // The next n bytes as they are.
  std::string_view Bytes(uint64_t n) {
    if (in_.size() - pos_ < n) {
      ok_ = false;
      pos_ = in_.size();
      return {};
    }
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  uint8_t Byte() {
    if (pos_ >= in_.size()) {
      ok_ = false;
      return 0;
    }
    return static_cast<uint8_t>(in_[pos_++]);
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace eddy::agg_codec
