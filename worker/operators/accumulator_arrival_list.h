// Values in arrival order, repeats included: the state of FIRST_VALUE, LAST_VALUE and LISTAGG over
// input with retractions (Flink's FirstValueWithRetract, LastValueWithRetract and
// ListAggWithRetract), where retracting the current first or last value falls back to the next one.
// A retraction removes the earliest equal value, as Flink's functions do (the oldest order of the
// value; List.remove). A flat vector: appends are O(1), a retraction searches linearly, and the
// list serializes as one part of its group's state value (Flink keeps these in MapState and
// ListState).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "worker/operators/accumulator_codec.h"
#include "worker/operators/accumulator_multiset.h"

namespace eddy {

// T is int64_t, double or std::string; V is the lookup type (std::string_view for strings). Values
// are equal as ValueMultiset's are (doubles by Java's Double.compare order, so bitwise).
template <typename T, typename V = T>
class ArrivalList {
 public:
  bool empty() const { return values_.empty(); }
  size_t size() const { return values_.size(); }
  void Clear() { values_.clear(); }
  const T& front() const { return values_.front(); }
  const T& back() const { return values_.back(); }
  // The values, earliest first.
  const std::vector<T>& values() const { return values_; }

  void Add(V v) { values_.emplace_back(v); }
  // Removes the earliest value equal to `v`; false (and no change) when there is none.
  bool Remove(V v) {
    auto it = std::find_if(values_.begin(), values_.end(), [v](const T& x) { return Same(x, v); });
    if (it == values_.end()) return false;
    values_.erase(it);
    return true;
  }

  void Serialize(std::string* out) const {
    agg_codec::PutVarint(values_.size(), out);
    for (const T& v : values_) {
      if constexpr (std::is_same_v<T, int64_t>) {
        agg_codec::PutSigned(v, out);
      } else if constexpr (std::is_same_v<T, double>) {
        agg_codec::PutDouble(v, out);
      } else {
        agg_codec::PutString(v, out);
      }
    }
  }
  void Deserialize(agg_codec::Reader* r) {
    values_.clear();
    const uint64_t n = r->Varint();
    for (uint64_t i = 0; i < n && r->ok(); ++i) {
      if constexpr (std::is_same_v<T, int64_t>) {
        values_.push_back(r->Signed());
      } else if constexpr (std::is_same_v<T, double>) {
        values_.push_back(r->Double());
      } else {
        values_.emplace_back(r->String());
      }
    }
  }

 private:
  static bool Same(const T& a, V b) {
    MultisetLess less;
    return !less(V(a), b) && !less(b, V(a));
  }

  std::vector<T> values_;
};

}  // namespace eddy
