// Example aggregate function (Flink's classic WeightedAvg), built into libeddy_example_udfs.so:
//   weighted_avg(BIGINT value, INT weight) -> DOUBLE   sum(value * weight) / sum(weight), NULL
//   when the weights sum to 0; rows with a NULL argument are skipped.
// Its accumulator is two integers, so it retracts exactly and merges by adding (two-phase
// aggregation); Eddy keeps it in keyed state and checkpoints.
#include "eddy/udf.h"

namespace {

using eddy::udf::Args;
using eddy::udf::Output;
using eddy::udf::Type;

class WeightedAvg {
 public:
  struct Accumulator {
    int64_t sum = 0;
    int64_t weight = 0;
  };
  static eddy::udf::Signature Signature() {
    return {{Type::BigInt(), Type::Int()}, {Type::Double()}};
  }
  void Accumulate(Accumulator& acc, const Args& args, int64_t row) {
    if (args[0].IsNull(row) || args[1].IsNull(row)) return;
    const int64_t w = args[1].Get<int32_t>(row);
    acc.sum += args[0].Get<int64_t>(row) * w;
    acc.weight += w;
  }
  void Retract(Accumulator& acc, const Args& args, int64_t row) {
    if (args[0].IsNull(row) || args[1].IsNull(row)) return;
    const int64_t w = args[1].Get<int32_t>(row);
    acc.sum -= args[0].Get<int64_t>(row) * w;
    acc.weight -= w;
  }
  void Merge(Accumulator& acc, const Accumulator& other) {
    acc.sum += other.sum;
    acc.weight += other.weight;
  }
  void GetValue(const Accumulator& acc, Output& out) {
    if (acc.weight == 0) {
      out.AppendNull();
    } else {
      out.Append(static_cast<double>(acc.sum) / static_cast<double>(acc.weight));
    }
  }
};

}  // namespace

EDDY_AGGREGATE_FUNCTION(weighted_avg, WeightedAvg)
