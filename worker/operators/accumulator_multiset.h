// A multiset of values with counts, kept as a sorted vector: MIN/MAX that must survive retraction
// of the current extreme, and DISTINCT filtering. A flat vector is compact, serializes in order,
// and reuses its memory across groups; inserting a new distinct value is O(n), fine for the small
// per-group sets aggregates usually see (Flink keeps these in MapState; a per-value state layout
// would be the next step for huge groups).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "worker/operators/accumulator_codec.h"

namespace eddy {

// Java's Double.compare order (-0.0 < 0.0, NaN above +inf), a total order, as Flink's MIN/MAX use.
inline int64_t DoubleOrderKey(double d) {
  int64_t b = std::bit_cast<int64_t>(d);
  return b ^ ((b >> 63) & 0x7fffffffffffffffLL);
}

struct MultisetLess {
  bool operator()(int64_t a, int64_t b) const { return a < b; }
  bool operator()(double a, double b) const { return DoubleOrderKey(a) < DoubleOrderKey(b); }
  bool operator()(std::string_view a, std::string_view b) const { return a < b; }
};

// T is int64_t, double or std::string; V is the lookup type (std::string_view for strings).
template <typename T, typename V = T>
class ValueMultiset {
 public:
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  void Clear() { entries_.clear(); }
  const T& min() const { return entries_.front().first; }
  const T& max() const { return entries_.back().first; }

  // Returns the value's count after adding one.
  int64_t Add(V v) {
    auto it = LowerBound(v);
    if (it != entries_.end() && Equal(it->first, v)) return ++it->second;
    entries_.emplace(it, T(v), 1);
    return 1;
  }
  // Adds `n` (> 0) copies; returns the value's count before (0: the value is new).
  int64_t AddCopies(V v, int64_t n) {
    auto it = LowerBound(v);
    if (it != entries_.end() && Equal(it->first, v)) {
      const int64_t before = it->second;
      it->second += n;
      return before;
    }
    entries_.emplace(it, T(v), n);
    return 0;
  }
  // The value's count; 0 when absent.
  int64_t Count(V v) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), v,
                               [](const Entry& e, V x) { return MultisetLess()(V(e.first), x); });
    return it != entries_.end() && Equal(it->first, v) ? it->second : 0;
  }
  // The (value, count) pairs in value order.
  const std::vector<std::pair<T, int64_t>>& entries() const { return entries_; }
  // Returns the count after removing one; -1 if the value was absent (nothing changes).
  int64_t Remove(V v) {
    auto it = LowerBound(v);
    if (it == entries_.end() || !Equal(it->first, v)) return -1;
    int64_t left = --it->second;
    if (left == 0) entries_.erase(it);
    return left;
  }

  void Serialize(std::string* out) const {
    agg_codec::PutVarint(entries_.size(), out);
    for (const auto& [v, n] : entries_) {
      if constexpr (std::is_same_v<T, int64_t>) {
        agg_codec::PutSigned(v, out);
      } else if constexpr (std::is_same_v<T, double>) {
        agg_codec::PutDouble(v, out);
      } else {
        agg_codec::PutString(v, out);
      }
      agg_codec::PutSigned(n, out);
    }
  }
  // Entries were written in order, so they are appended without searching.
  void Deserialize(agg_codec::Reader* r) {
    entries_.clear();
    uint64_t n = r->Varint();
    for (uint64_t i = 0; i < n && r->ok(); ++i) {
      if constexpr (std::is_same_v<T, int64_t>) {
        int64_t v = r->Signed();
        entries_.emplace_back(v, r->Signed());
      } else if constexpr (std::is_same_v<T, double>) {
        double v = r->Double();
        entries_.emplace_back(v, r->Signed());
      } else {
        std::string_view v = r->String();
        entries_.emplace_back(std::string(v), r->Signed());
      }
    }
  }

 private:
  using Entry = std::pair<T, int64_t>;
  typename std::vector<Entry>::iterator LowerBound(V v) {
    return std::lower_bound(entries_.begin(), entries_.end(), v,
                            [](const Entry& e, V x) { return MultisetLess()(V(e.first), x); });
  }
  static bool Equal(const T& a, V b) {
    MultisetLess less;
    return !less(V(a), b) && !less(b, V(a));
  }

  std::vector<Entry> entries_;
};

}  // namespace eddy
