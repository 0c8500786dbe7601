// Retractable accumulators for the built-in aggregates of GroupAggregate (Flink's *WithRetract
// functions): per group a row count plus one Accumulator per call, updated row by row, evaluated
// into AggValues, and serialized compactly into the group's RocksDB value. FIRST_VALUE, LAST_VALUE
// and LISTAGG depend on the order in which rows are accumulated: arrival order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/batch/changelog_batch.h"
#include "common/batch/column.h"
#include "common/expr/aggregate_signature.h"
#include "common/types/data_type.h"
#include "common/udf/user_function.h"
#include "worker/operators/accumulator_arrival_list.h"
#include "worker/operators/accumulator_multiset.h"

namespace eddy {

// One aggregate call of a GroupAggregate, as the planner resolved it.
struct AggregateCall {
  AggKind kind = AggKind::kCountStar;
  int arg = -1;           // input column; -1 for COUNT(*)
  DataType arg_type;      // ignored for COUNT(*)
  DataType result_type;   // AggResultType(kind, arg_type)
  bool distinct = false;  // COUNT(DISTINCT x), SUM(DISTINCT x), ...
  // LISTAGG's separator (a literal of the call); other functions ignore it.
  std::string separator{kDefaultListAggSeparator};
  // kUser: the user-defined aggregate function (registered as `user_name`) and every argument
  // column (`arg` is the first).
  std::shared_ptr<const UserFunction> user_function;
  std::string user_name;
  std::vector<int> user_args;
};

// How an argument's values are held: integers, BOOLEAN, DECIMAL (unscaled), DATE and TIMESTAMP as
// int64; FLOAT and DOUBLE as double; strings as bytes.
enum class ValueClass : uint8_t { kInt, kDouble, kString };

// FIRST_VALUE, LAST_VALUE and LISTAGG with retraction (or DISTINCT): every value, in arrival order,
// in the list of the argument's value class.
struct ArrivalLists {
  ArrivalList<int64_t> ints;
  ArrivalList<double> doubles;
  ArrivalList<std::string, std::string_view> strings;
};

// One aggregate's current result.
struct AggValue {
  bool null = true;
  int64_t i = 0;
  double d = 0;
  std::string s;
};

// State of one call in one group. Only the fields its kind uses are meaningful.
struct Accumulator {
  int64_t count = 0;  // rows (COUNT(*)) or non-null values (COUNT, SUM, AVG)
  uint64_t isum = 0;  // integer/decimal sum; unsigned so overflow wraps as Java's does
  double dsum = 0;
  // One value over input without retractions: MIN/MAX's extreme, FIRST_VALUE/LAST_VALUE's value,
  // LISTAGG's values joined so far (ext_s).
  bool has_extreme = false;
  int64_t ext_i = 0;
  double ext_d = 0;
  std::string ext_s;
  // MIN/MAX with retraction: every value with its count.
  ValueMultiset<int64_t> ints;
  ValueMultiset<double> doubles;
  ValueMultiset<std::string, std::string_view> strings;
  // Allocated (by Reset) only for the calls that keep lists, so that the other functions'
  // accumulators stay small.
  std::unique_ptr<ArrivalLists> lists;
  // A user-defined aggregate's accumulator: the library's bytes (empty: fresh).
  std::string user_acc;
  // DISTINCT: the values seen, with counts; only the first copy reaches the aggregate.
  ValueMultiset<int64_t> distinct_ints;
  ValueMultiset<double> distinct_doubles;
  ValueMultiset<std::string, std::string_view> distinct_strings;
};

struct GroupAccumulators {
  int64_t row_count = 0;  // accumulated minus retracted rows; 0 means the group is gone
  std::vector<Accumulator> accs;
};

// Evaluates a fixed list of calls over GroupAccumulators; holds no per-group data.
class AggregateFunctions {
 public:
  // `retractions_possible` = false lets MIN/MAX keep only the extreme (input is insert-only).
  static absl::StatusOr<AggregateFunctions> Create(const std::vector<AggregateCall>& calls,
                                                   const std::vector<DataType>& input_types,
                                                   bool retractions_possible);

  size_t size() const { return calls_.size(); }
  const std::vector<AggregateCall>& calls() const { return calls_; }

  void Reset(GroupAccumulators* g) const;
  // Accumulates (+I/+U) or retracts (-U/-D) row `row` of `batch`, including the row count.
  void Update(GroupAccumulators* g, const ChangelogBatch& batch, size_t row, bool accumulate) const;
  // Roughly how many bytes accumulating row `row` can add to the accumulators beyond their fixed
  // size: the values that LISTAGG joins and that lists and DISTINCT sets keep (0 when no call keeps
  // values). For memory accounting of accumulators held in memory.
  size_t BytesKept(const ChangelogBatch& batch, size_t row) const;
  // Current results, one per call.
  void GetValues(const GroupAccumulators& g, std::vector<AggValue>* out) const;
  // Folds `from` into `into` as if `into` had also accumulated every row `from` did (merging
  // windows): counts and sums add, MIN/MAX keep the extreme, a DISTINCT call takes only the values
  // `into` had not seen yet. For FIRST_VALUE, LAST_VALUE and LISTAGG `from`'s rows count as later
  // than `into`'s: FIRST_VALUE keeps `into`'s value, LAST_VALUE takes `from`'s, LISTAGG appends.
  void MergeAccumulators(GroupAccumulators* into, const GroupAccumulators& from) const;
  static bool Equal(const std::vector<AggValue>& a, const std::vector<AggValue>& b);
  // Appends call `i`'s value to a column of its result type.
  void AppendValue(size_t i, const AggValue& v, Column* col) const;

  // The first failure of a user-defined aggregate function since the functions were made (OK
  // while none failed): the operator fails its task with it after the batch. Built-in aggregates
  // never fail.
  absl::Status status() const { return user_status_ == nullptr ? absl::OkStatus() : *user_status_; }

  void Serialize(const GroupAccumulators& g, std::string* out) const;
  absl::Status Deserialize(std::string_view in, GroupAccumulators* g) const;

  // Two-phase aggregation, with the partial fields of AggPartialFields (common/expr).
  //
  // Functions made by Create (over input rows; `retractions_possible` = the input retracts) write
  // each group's accumulators as partial fields, for a LocalGroupAggregate. All calls must have a
  // partial form.
  void AppendPartials(const GroupAccumulators& g, ChangelogBatch* out, size_t first_column) const;
  // True when `g` holds no change at all (a local mini-batch whose rows cancelled out).
  bool IsEmptyDelta(const GroupAccumulators& g) const;
  //
  // Functions made by CreateMerging read partial rows instead, for a GlobalGroupAggregate:
  // `calls[i].arg` is the first column of call i's partial fields in `partial_types` (arg_type is
  // still the original argument's type), `retracting` says which layout the partials have, and
  // `row_count_column` holds each partial's row-count delta (-1: each partial is one row, which
  // suits insert-only input).
  static absl::StatusOr<AggregateFunctions> CreateMerging(
      const std::vector<AggregateCall>& calls, const std::vector<DataType>& partial_types,
      bool retracting, int row_count_column);
  // The row-count delta of partial row `row`.
  int64_t PartialRowCount(const ChangelogBatch& partials, size_t row) const {
    return row_count_column_ < 0 ? 1 : partials.column(row_count_column_).Get<int64_t>(row);
  }
  // Merges partial row `row` into `g`, row count included.
  void Merge(GroupAccumulators* g, const ChangelogBatch& partials, size_t row) const;

 private:
  // The native form of the scalar accumulators (group_table.h's payloads) shares the plans.
  friend class NativeAggregates;

  enum class Mode : uint8_t {
    kCountStar,
    kCount,
    kSumInt,
    kSumFloat,  // FLOAT: Flink sums in float arithmetic
    kSumDouble,
    kAvgInt,
    kAvgDecimal,
    kAvgDouble,  // FLOAT and DOUBLE: summed in double
    kMinMaxInsertOnly,
    kMinMaxRetract,
    kFirstLastInsertOnly,  // FIRST_VALUE/LAST_VALUE: one value (ext_*)
    kFirstLastList,        // FIRST_VALUE/LAST_VALUE: every value in arrival order (lists)
    kListAggInsertOnly,    // LISTAGG: the joined string (ext_s)
    kListAggList,          // LISTAGG: every value in arrival order (lists->strings)
    kUser,                 // a user-defined aggregate: the library's accumulator (user_acc)
  };
  static bool UsesLists(Mode m) { return m == Mode::kFirstLastList || m == Mode::kListAggList; }
  struct Plan {
    Mode mode;
    bool is_max = false;
    bool is_last = false;  // LAST_VALUE (not FIRST_VALUE)
    bool distinct = false;
    ValueClass value_class = ValueClass::kInt;
    int arg = -1;
    TypeId arg_type = TypeId::kNull;
    int64_t avg_scale_factor = 1;  // AVG(DECIMAL): 10^(result scale - argument scale)
    std::string separator;         // LISTAGG
    int user = -1;                 // kUser: index in users_
  };
  // One user-defined aggregate call: its instance of the function and scratch space.
  struct UserCall {
    std::unique_ptr<UserFunctionInstance> instance;
    std::vector<int> args;
    std::vector<const Column*> arg_columns;
    Column value;  // of the result type: GetValue's output
  };
  // Calls user call `p.user`; a failure is kept in user_status_ (the first one).
  void UserAccumulate(const Plan& p, Accumulator* a, const ChangelogBatch& batch, size_t row,
                      bool accumulate) const;
  void UserMerge(const Plan& p, Accumulator* a, std::string_view other) const;
  void UserValue(const Plan& p, const Accumulator& a, AggValue* v) const;
  void RecordUserFailure(absl::Status s) const;
  absl::Status MakeUserCall(const AggregateCall& c, Plan* p);

  static void UpdateOne(const Plan& p, Accumulator* a, const Column& col, size_t row,
                        bool accumulate);
  // Accumulates or retracts one non-NULL argument value (in the field of the plan's value class),
  // past DISTINCT filtering.
  static void ApplyValue(const Plan& p, Accumulator* a, int64_t iv, double dv, std::string_view sv,
                         bool accumulate);
  // MergeAccumulators for one call without DISTINCT.
  static void MergeOne(const Plan& p, Accumulator* into, const Accumulator& from);
  // MergeAccumulators for one DISTINCT call.
  static void MergeDistinct(const Plan& p, Accumulator* into, const Accumulator& from);
  // The plan of call `i` (mode from its kind and argument type); checks the result type.
  static absl::StatusOr<Plan> PlanCall(const AggregateCall& c, size_t i, bool retractions_possible);

  std::vector<AggregateCall> calls_;
  std::vector<Plan> plans_;
  std::vector<size_t> keeping_calls_;  // calls whose state grows with their values (BytesKept)
  // User-defined aggregate calls (shared: AggregateFunctions is copied and moved by value; every
  // copy belongs to the same operator and thread).
  std::vector<std::shared_ptr<UserCall>> users_;
  std::shared_ptr<absl::Status> user_status_;
  bool retractions_possible_ = true;  // partial layout: retracting (signed deltas)
  int row_count_column_ = -1;         // CreateMerging only
};

}  // namespace eddy
