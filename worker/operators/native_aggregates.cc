#include "worker/operators/native_aggregates.h"

#include "worker/operators/accumulator_multiset.h"
#include "worker/operators/accumulator_values.h"

namespace eddy {

std::optional<NativeAggregates> NativeAggregates::Create(const AggregateFunctions& functions) {
  using Mode = AggregateFunctions::Mode;
  NativeAggregates n;
  n.functions_ = &functions;
  uint32_t offset = sizeof(int64_t);  // the row count
  for (size_t i = 0; i < functions.plans_.size(); ++i) {
    const AggregateFunctions::Plan& p = functions.plans_[i];
    if (p.distinct || p.value_class == ValueClass::kString) return std::nullopt;
    Call c{Op::kCount, p.arg, p.arg_type, offset};
    const bool is_int = p.value_class == ValueClass::kInt;
    switch (p.mode) {
      case Mode::kCountStar:
        n.count_star_calls_.push_back(static_cast<int>(i));
        continue;
      case Mode::kCount:
        c.op = Op::kCount;
        break;
      case Mode::kSumInt:
      case Mode::kAvgInt:
      case Mode::kAvgDecimal:
        c.op = Op::kSumInt;
        break;
      case Mode::kSumFloat:
        c.op = Op::kSumFloat;
        break;
      case Mode::kSumDouble:
      case Mode::kAvgDouble:
        c.op = Op::kSumDouble;
        break;
      case Mode::kMinMaxInsertOnly:
        c.op = is_int ? (p.is_max ? Op::kMaxInt : Op::kMinInt)
                      : (p.is_max ? Op::kMaxDouble : Op::kMinDouble);
        break;
      case Mode::kFirstLastInsertOnly:
        c.op = is_int ? (p.is_last ? Op::kLastInt : Op::kFirstInt)
                      : (p.is_last ? Op::kLastDouble : Op::kFirstDouble);
        break;
      case Mode::kMinMaxRetract:
      case Mode::kFirstLastList:
      case Mode::kListAggInsertOnly:
      case Mode::kListAggList:
      case Mode::kUser:
        return std::nullopt;
    }
    offset += c.op == Op::kCount ? 8 : 16;
    n.calls_.push_back(c);
    n.call_of_.push_back(static_cast<int>(i));
  }
  n.payload_bytes_ = offset;
  return n;
}

void NativeAggregates::Update(uint8_t* payload, const ChangelogBatch& batch, size_t row,
                              bool accumulate) const {
  const int64_t step = accumulate ? 1 : -1;
  Store64<int64_t>(payload, Load64<int64_t>(payload) + step);
  for (const Call& c : calls_) {
    const Column& col = batch.column(c.arg);
    if (col.IsNull(row)) continue;  // every aggregate but COUNT(*) ignores NULL arguments
    uint8_t* count = payload + c.offset;
    uint8_t* value = count + 8;
    switch (c.op) {
      case Op::kCount:
        Store64<int64_t>(count, Load64<int64_t>(count) + step);
        break;
      case Op::kSumInt: {
        const uint64_t v = static_cast<uint64_t>(ReadIntArgument(col, row, c.arg_type));
        Store64<int64_t>(count, Load64<int64_t>(count) + step);
        Store64<uint64_t>(value, Load64<uint64_t>(value) + (accumulate ? v : -v));
        break;
      }
      case Op::kSumFloat: {
        const float s = static_cast<float>(Load64<double>(value));
        const float v = static_cast<float>(ReadDoubleArgument(col, row, c.arg_type));
        Store64<double>(value, static_cast<double>(accumulate ? s + v : s - v));
        Store64<int64_t>(count, Load64<int64_t>(count) + step);
        break;
      }
      case Op::kSumDouble: {
        const double v = ReadDoubleArgument(col, row, c.arg_type);
        Store64<double>(value, Load64<double>(value) + (accumulate ? v : -v));
        Store64<int64_t>(count, Load64<int64_t>(count) + step);
        break;
      }
      case Op::kMinInt:
      case Op::kMaxInt: {
        if (!accumulate) break;  // the operator rejects retractions in insert-only mode
        const int64_t v = ReadIntArgument(col, row, c.arg_type);
        const int64_t kept = Load64<int64_t>(value);
        if (Load64<int64_t>(count) == 0 || (c.op == Op::kMaxInt ? kept < v : v < kept)) {
          Store64<int64_t>(value, v);
        }
        Store64<int64_t>(count, 1);
        break;
      }
      case Op::kMinDouble:
      case Op::kMaxDouble: {
        if (!accumulate) break;
        const double v = ReadDoubleArgument(col, row, c.arg_type);
        const double kept = Load64<double>(value);
        MultisetLess less;
        if (Load64<int64_t>(count) == 0 ||
            (c.op == Op::kMaxDouble ? less(kept, v) : less(v, kept))) {
          Store64<double>(value, v);
        }
        Store64<int64_t>(count, 1);
        break;
      }
      case Op::kFirstInt:
      case Op::kFirstDouble:
        if (!accumulate || Load64<int64_t>(count) != 0) break;  // keeps its first value
        [[fallthrough]];
      case Op::kLastInt:
      case Op::kLastDouble:
        if (!accumulate) break;
        if (c.op == Op::kFirstInt || c.op == Op::kLastInt) {
          Store64<int64_t>(value, ReadIntArgument(col, row, c.arg_type));
        } else {
          Store64<double>(value, ReadDoubleArgument(col, row, c.arg_type));
        }
        Store64<int64_t>(count, 1);
        break;
    }
  }
}

void NativeAggregates::Load(const uint8_t* payload, GroupAccumulators* g) const {
  g->row_count = RowCount(payload);
  for (int i : count_star_calls_) g->accs[i].count = g->row_count;
  for (size_t k = 0; k < calls_.size(); ++k) {
    const Call& c = calls_[k];
    Accumulator& a = g->accs[call_of_[k]];
    const uint8_t* count = payload + c.offset;
    const uint8_t* value = count + 8;
    switch (c.op) {
      case Op::kCount:
        a.count = Load64<int64_t>(count);
        break;
      case Op::kSumInt:
        a.count = Load64<int64_t>(count);
        a.isum = Load64<uint64_t>(value);
        break;
      case Op::kSumFloat:
      case Op::kSumDouble:
        a.count = Load64<int64_t>(count);
        a.dsum = Load64<double>(value);
        break;
      case Op::kMinInt:
      case Op::kMaxInt:
      case Op::kFirstInt:
      case Op::kLastInt:
        a.has_extreme = Load64<int64_t>(count) != 0;
        a.ext_i = Load64<int64_t>(value);
        break;
      case Op::kMinDouble:
      case Op::kMaxDouble:
      case Op::kFirstDouble:
      case Op::kLastDouble:
        a.has_extreme = Load64<int64_t>(count) != 0;
        a.ext_d = Load64<double>(value);
        break;
    }
  }
}

void NativeAggregates::Store(const GroupAccumulators& g, uint8_t* payload) const {
  Store64<int64_t>(payload, g.row_count);
  for (size_t k = 0; k < calls_.size(); ++k) {
    const Call& c = calls_[k];
    const Accumulator& a = g.accs[call_of_[k]];
    uint8_t* count = payload + c.offset;
    uint8_t* value = count + 8;
    switch (c.op) {
      case Op::kCount:
        Store64<int64_t>(count, a.count);
        break;
      case Op::kSumInt:
        Store64<int64_t>(count, a.count);
        Store64<uint64_t>(value, a.isum);
        break;
      case Op::kSumFloat:
      case Op::kSumDouble:
        Store64<int64_t>(count, a.count);
        Store64<double>(value, a.dsum);
        break;
      case Op::kMinInt:
      case Op::kMaxInt:
      case Op::kFirstInt:
      case Op::kLastInt:
        Store64<int64_t>(count, a.has_extreme ? 1 : 0);
        Store64<int64_t>(value, a.ext_i);
        break;
      case Op::kMinDouble:
      case Op::kMaxDouble:
      case Op::kFirstDouble:
      case Op::kLastDouble:
        Store64<int64_t>(count, a.has_extreme ? 1 : 0);
        Store64<double>(value, a.ext_d);
        break;
    }
  }
}

}  // namespace eddy
