#include "worker/operators/accumulator.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/aggregate_signature.h"
#include "worker/operators/accumulator_codec.h"
#include "worker/operators/accumulator_values.h"

namespace eddy {

namespace {

constexpr int64_t kDecimalLimit = 1000000000000000000LL;  // 10^18: DECIMAL(18, s) overflow bound

ValueClass ValueClassOf(TypeId t) {
  switch (t) {
    case TypeId::kFloat:
    case TypeId::kDouble:
      return ValueClass::kDouble;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      return ValueClass::kString;
    default:
      return ValueClass::kInt;
  }
}

bool SameDouble(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;  // bitwise, as Flink compares binary rows
}

}  // namespace

absl::StatusOr<AggregateFunctions::Plan> AggregateFunctions::PlanCall(const AggregateCall& c,
                                                                      size_t i,
                                                                      bool retractions_possible) {
  Plan p;
  p.distinct = c.distinct;
  std::string_view name = AggKindName(c.kind);
  std::string where =
      absl::StrCat("Aggregate call ", i, " (", absl::string_view(name.data(), name.size()), ")");
  if (c.kind == AggKind::kCountStar) {
    if (c.distinct) return absl::InvalidArgumentError(where + ": COUNT(DISTINCT *) is invalid");
    p.mode = Mode::kCountStar;
  } else {
    p.arg = c.arg;
    p.arg_type = c.arg_type.id;
    p.value_class = ValueClassOf(c.arg_type.id);
  }
  if (c.kind == AggKind::kUser) {
    if (c.user_function == nullptr || !c.user_function->result_types()[0].SameAs(c.result_type)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": result type differs from the user function's"));
    }
    p.mode = Mode::kUser;
    p.value_class = ValueClass::kString;  // the accumulator bytes; never the native form
    return p;
  }
  ASSIGN_OR_RETURN(DataType expected, AggResultType(c.kind, c.arg_type));
  if (!expected.SameAs(c.result_type)) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": result type ", c.result_type.ToString(), ", expected ", expected.ToString()));
  }
  switch (c.kind) {
    case AggKind::kCountStar:
      break;
    case AggKind::kCount:
      p.mode = Mode::kCount;
      break;
    case AggKind::kSum:
      p.mode = c.arg_type.id == TypeId::kFloat    ? Mode::kSumFloat
               : c.arg_type.id == TypeId::kDouble ? Mode::kSumDouble
                                                  : Mode::kSumInt;
      break;
    case AggKind::kAvg:
      if (c.arg_type.IsApproximate()) {
        p.mode = Mode::kAvgDouble;
      } else if (c.arg_type.id == TypeId::kDecimal) {
        p.mode = Mode::kAvgDecimal;
        for (int s = c.arg_type.scale; s < c.result_type.scale; ++s) p.avg_scale_factor *= 10;
      } else {
        p.mode = Mode::kAvgInt;
      }
      break;
    case AggKind::kMin:
    case AggKind::kMax:
      p.is_max = c.kind == AggKind::kMax;
      p.mode = retractions_possible ? Mode::kMinMaxRetract : Mode::kMinMaxInsertOnly;
      break;
    // With DISTINCT these keep the list too, so that MergeDistinct can take the values it adds in
    // arrival order.
    case AggKind::kFirstValue:
    case AggKind::kLastValue:
      p.is_last = c.kind == AggKind::kLastValue;
      p.mode =
          retractions_possible || c.distinct ? Mode::kFirstLastList : Mode::kFirstLastInsertOnly;
      break;
    case AggKind::kListAgg:
      p.separator = c.separator;
      p.mode = retractions_possible || c.distinct ? Mode::kListAggList : Mode::kListAggInsertOnly;
      break;
    case AggKind::kUser:
      break;  // returned above
  }
  return p;
}

absl::Status AggregateFunctions::MakeUserCall(const AggregateCall& c, Plan* p) {
  if (c.distinct) {
    return absl::InvalidArgumentError(
        absl::StrCat("DISTINCT is not supported with user-defined aggregate '", c.user_name, "'"));
  }
  auto call = std::make_shared<UserCall>();
  ASSIGN_OR_RETURN(call->instance, UserFunctionInstance::Create(c.user_function, c.user_name));
  call->args = c.user_args;
  call->value = Column(c.result_type);
  p->user = static_cast<int>(users_.size());
  users_.push_back(std::move(call));
  if (user_status_ == nullptr) user_status_ = std::make_shared<absl::Status>();
  return absl::OkStatus();
}

void AggregateFunctions::RecordUserFailure(absl::Status s) const {
  if (user_status_->ok()) *user_status_ = std::move(s);
}

void AggregateFunctions::UserAccumulate(const Plan& p, Accumulator* a, const ChangelogBatch& batch,
                                        size_t row, bool accumulate) const {
  UserCall& call = *users_[p.user];
  call.arg_columns.clear();
  for (int c : call.args) call.arg_columns.push_back(&batch.column(c));
  const uint32_t rows[1] = {static_cast<uint32_t>(row)};
  const uint8_t retract[1] = {static_cast<uint8_t>(accumulate ? 0 : 1)};
  absl::Status s = call.instance->Accumulate(&a->user_acc, call.arg_columns, rows, retract, 1);
  if (!s.ok()) RecordUserFailure(std::move(s));
}

void AggregateFunctions::UserMerge(const Plan& p, Accumulator* a, std::string_view other) const {
  absl::Status s = users_[p.user]->instance->Merge(&a->user_acc, other);
  if (!s.ok()) RecordUserFailure(std::move(s));
}

void AggregateFunctions::UserValue(const Plan& p, const Accumulator& a, AggValue* v) const {
  UserCall& call = *users_[p.user];
  Column& col = call.value;
  col.Clear();
  absl::Status s = call.instance->GetValue(a.user_acc, &col);
  v->null = true;
  if (!s.ok()) {
    RecordUserFailure(std::move(s));
    return;
  }
  if (col.IsNull(0)) return;
  v->null = false;
  switch (col.type().id) {
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      v->s.assign(col.GetString(0));
      break;
    case TypeId::kFloat:
      v->d = col.Get<float>(0);
      break;
    case TypeId::kDouble:
      v->d = col.Get<double>(0);
      break;
    case TypeId::kBoolean:
      v->i = col.Get<uint8_t>(0);
      break;
    case TypeId::kTinyInt:
      v->i = col.Get<int8_t>(0);
      break;
    case TypeId::kSmallInt:
      v->i = col.Get<int16_t>(0);
      break;
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      v->i = col.Get<int32_t>(0);
      break;
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      v->i = col.Get<int64_t>(0);
      break;
    case TypeId::kNull:
      v->null = true;
      break;
  }
}

absl::StatusOr<AggregateFunctions> AggregateFunctions::Create(
    const std::vector<AggregateCall>& calls, const std::vector<DataType>& input_types,
    bool retractions_possible) {
  AggregateFunctions f;
  f.calls_ = calls;
  f.retractions_possible_ = retractions_possible;
  for (size_t i = 0; i < calls.size(); ++i) {
    const AggregateCall& c = calls[i];
    if (c.kind == AggKind::kUser) {
      if (c.user_function == nullptr || c.user_args.size() != c.user_function->arg_types().size()) {
        return absl::InvalidArgumentError(absl::StrCat("Aggregate call ", i, " (", c.user_name,
                                                       "): arguments differ from the function's"));
      }
      for (size_t k = 0; k < c.user_args.size(); ++k) {
        const int col = c.user_args[k];
        if (col < 0 || static_cast<size_t>(col) >= input_types.size() ||
            !input_types[col].SameAs(c.user_function->arg_types()[k])) {
          return absl::InvalidArgumentError(absl::StrCat("Aggregate call ", i, " (", c.user_name,
                                                         "): argument ", k + 1,
                                                         " is not a column of its type"));
        }
      }
      ASSIGN_OR_RETURN(Plan p, PlanCall(c, i, retractions_possible));
      RETURN_IF_ERROR(f.MakeUserCall(c, &p));
      f.plans_.push_back(p);
      continue;
    }
    if (c.kind != AggKind::kCountStar) {
      std::string_view name = AggKindName(c.kind);
      std::string where = absl::StrCat("Aggregate call ", i, " (",
                                       absl::string_view(name.data(), name.size()), ")");
      if (c.arg < 0 || static_cast<size_t>(c.arg) >= input_types.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": argument column ", c.arg, " out of range"));
      }
      if (!input_types[c.arg].SameAs(c.arg_type)) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": argument type ", c.arg_type.ToString(),
                         " differs from input column type ", input_types[c.arg].ToString()));
      }
    }
    ASSIGN_OR_RETURN(Plan p, PlanCall(c, i, retractions_possible));
    if (p.distinct || UsesLists(p.mode) || p.mode == Mode::kListAggInsertOnly ||
        p.mode == Mode::kMinMaxRetract) {
      f.keeping_calls_.push_back(i);
    }
    f.plans_.push_back(p);
  }
  return f;
}

absl::StatusOr<AggregateFunctions> AggregateFunctions::CreateMerging(
    const std::vector<AggregateCall>& calls, const std::vector<DataType>& partial_types,
    bool retracting, int row_count_column) {
  AggregateFunctions f;
  f.calls_ = calls;
  f.retractions_possible_ = retracting;
  f.row_count_column_ = row_count_column;
  for (size_t i = 0; i < calls.size(); ++i) {
    const AggregateCall& c = calls[i];
    std::string_view name = AggKindName(c.kind);
    std::string where =
        absl::StrCat("Aggregate call ", i, " (", absl::string_view(name.data(), name.size()), ")");
    auto fields = AggPartialFields(c.kind, c.arg_type, c.distinct, retracting);
    if (!fields.ok())
      return absl::InvalidArgumentError(where + ": " + std::string(fields.status().message()));
    if (c.arg < 0 || static_cast<size_t>(c.arg) + fields->size() > partial_types.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": partial columns from ", c.arg, " out of range"));
    }
    for (size_t k = 0; k < fields->size(); ++k) {
      const DataType& have = partial_types[c.arg + k];
      if (!have.SameAs((*fields)[k].type)) {
        return absl::InvalidArgumentError(absl::StrCat(where, ": partial column ", c.arg + k,
                                                       " is ", have.ToString(), ", expected ",
                                                       (*fields)[k].type.ToString()));
      }
    }
    ASSIGN_OR_RETURN(Plan p, PlanCall(c, i, retracting));
    p.arg = c.arg;  // the first partial column
    if (c.kind == AggKind::kUser) RETURN_IF_ERROR(f.MakeUserCall(c, &p));
    f.plans_.push_back(p);
  }
  if (row_count_column >= 0 && (static_cast<size_t>(row_count_column) >= partial_types.size() ||
                                partial_types[row_count_column].id != TypeId::kBigInt)) {
    return absl::InvalidArgumentError(
        absl::StrCat("partial row-count column ", row_count_column, " is not a BIGINT column"));
  }
  if (retracting && row_count_column < 0) {
    return absl::InvalidArgumentError("retracting partials need a row-count column");
  }
  return f;
}

void AggregateFunctions::Reset(GroupAccumulators* g) const {
  g->row_count = 0;
  g->accs.resize(plans_.size());
  for (size_t i = 0; i < plans_.size(); ++i) {
    Accumulator& a = g->accs[i];
    a.count = 0;
    a.isum = 0;
    a.dsum = 0;
    a.has_extreme = false;
    a.user_acc.clear();
    a.ints.Clear();
    a.doubles.Clear();
    a.strings.Clear();
    a.distinct_ints.Clear();
    a.distinct_doubles.Clear();
    a.distinct_strings.Clear();
    if (UsesLists(plans_[i].mode)) {
      if (a.lists == nullptr) a.lists = std::make_unique<ArrivalLists>();
      a.lists->ints.Clear();
      a.lists->doubles.Clear();
      a.lists->strings.Clear();
    }
  }
}

void AggregateFunctions::Update(GroupAccumulators* g, const ChangelogBatch& batch, size_t row,
                                bool accumulate) const {
  g->row_count += accumulate ? 1 : -1;
  for (size_t i = 0; i < plans_.size(); ++i) {
    const Plan& p = plans_[i];
    Accumulator* a = &g->accs[i];
    if (p.mode == Mode::kCountStar) {
      a->count += accumulate ? 1 : -1;
      continue;
    }
    if (p.mode == Mode::kUser) {  // sees NULL arguments too
      UserAccumulate(p, a, batch, row, accumulate);
      continue;
    }
    UpdateOne(p, a, batch.column(p.arg), row, accumulate);
  }
}

size_t AggregateFunctions::BytesKept(const ChangelogBatch& batch, size_t row) const {
  size_t bytes = 0;
  for (size_t i : keeping_calls_) {
    const Plan& p = plans_[i];
    const Column& col = batch.column(p.arg);
    if (col.IsNull(row)) continue;
    if (p.value_class == ValueClass::kString) {
      bytes += col.GetString(row).size() + p.separator.size() + sizeof(std::string);
    } else {
      bytes += 16;
    }
  }
  return bytes;
}

void AggregateFunctions::UpdateOne(const Plan& p, Accumulator* a, const Column& col, size_t row,
                                   bool accumulate) {
  if (col.IsNull(row)) return;  // every aggregate but COUNT(*) ignores NULL arguments
  int64_t iv = 0;
  double dv = 0;
  std::string_view sv;
  switch (p.value_class) {
    case ValueClass::kInt:
      iv = ReadIntArgument(col, row, p.arg_type);
      break;
    case ValueClass::kDouble:
      dv = ReadDoubleArgument(col, row, p.arg_type);
      break;
    case ValueClass::kString:
      sv = col.GetString(row);
      break;
  }
  if (p.distinct) {
    // Only the first copy of a value accumulates and only the last copy retracts.
    int64_t n = 0;
    switch (p.value_class) {
      case ValueClass::kInt:
        n = accumulate ? a->distinct_ints.Add(iv) : a->distinct_ints.Remove(iv);
        break;
      case ValueClass::kDouble:
        n = accumulate ? a->distinct_doubles.Add(dv) : a->distinct_doubles.Remove(dv);
        break;
      case ValueClass::kString:
        n = accumulate ? a->distinct_strings.Add(sv) : a->distinct_strings.Remove(sv);
        break;
    }
    if (accumulate ? n != 1 : n != 0) return;
  }
  ApplyValue(p, a, iv, dv, sv, accumulate);
}

void AggregateFunctions::ApplyValue(const Plan& p, Accumulator* a, int64_t iv, double dv,
                                    std::string_view sv, bool accumulate) {
  const int64_t step = accumulate ? 1 : -1;
  switch (p.mode) {
    case Mode::kCountStar:
    case Mode::kCount:
      a->count += step;
      break;
    case Mode::kSumInt:
    case Mode::kAvgInt:
    case Mode::kAvgDecimal:
      a->count += step;
      a->isum += accumulate ? static_cast<uint64_t>(iv) : -static_cast<uint64_t>(iv);
      break;
    case Mode::kSumFloat: {
      float s = static_cast<float>(a->dsum);
      float v = static_cast<float>(dv);
      a->dsum = static_cast<double>(accumulate ? s + v : s - v);
      a->count += step;
      break;
    }
    case Mode::kSumDouble:
    case Mode::kAvgDouble:
      a->dsum += accumulate ? dv : -dv;
      a->count += step;
      break;
    case Mode::kMinMaxInsertOnly: {
      if (!accumulate) break;  // the operator rejects retractions in insert-only mode
      MultisetLess less;
      bool take = !a->has_extreme;
      switch (p.value_class) {
        case ValueClass::kInt:
          take = take || (p.is_max ? less(a->ext_i, iv) : less(iv, a->ext_i));
          if (take) a->ext_i = iv;
          break;
        case ValueClass::kDouble:
          take = take || (p.is_max ? less(a->ext_d, dv) : less(dv, a->ext_d));
          if (take) a->ext_d = dv;
          break;
        case ValueClass::kString:
          take = take || (p.is_max ? less(std::string_view(a->ext_s), sv)
                                   : less(sv, std::string_view(a->ext_s)));
          if (take) a->ext_s.assign(sv.data(), sv.size());
          break;
      }
      a->has_extreme = true;
      break;
    }
    case Mode::kMinMaxRetract:
      // Retracting a value that was never accumulated is ignored (inconsistent input).
      switch (p.value_class) {
        case ValueClass::kInt:
          accumulate ? a->ints.Add(iv) : a->ints.Remove(iv);
          break;
        case ValueClass::kDouble:
          accumulate ? a->doubles.Add(dv) : a->doubles.Remove(dv);
          break;
        case ValueClass::kString:
          accumulate ? a->strings.Add(sv) : a->strings.Remove(sv);
          break;
      }
      break;
    case Mode::kFirstLastInsertOnly:
      if (!accumulate) break;                   // as kMinMaxInsertOnly
      if (a->has_extreme && !p.is_last) break;  // FIRST_VALUE keeps its first value
      a->has_extreme = true;
      switch (p.value_class) {
        case ValueClass::kInt:
          a->ext_i = iv;
          break;
        case ValueClass::kDouble:
          a->ext_d = dv;
          break;
        case ValueClass::kString:
          a->ext_s.assign(sv.data(), sv.size());
          break;
      }
      break;
    case Mode::kFirstLastList:
      // A retraction removes the earliest equal value; one never accumulated is ignored.
      switch (p.value_class) {
        case ValueClass::kInt:
          accumulate ? a->lists->ints.Add(iv) : (void)a->lists->ints.Remove(iv);
          break;
        case ValueClass::kDouble:
          accumulate ? a->lists->doubles.Add(dv) : (void)a->lists->doubles.Remove(dv);
          break;
        case ValueClass::kString:
          accumulate ? a->lists->strings.Add(sv) : (void)a->lists->strings.Remove(sv);
          break;
      }
      break;
    case Mode::kListAggInsertOnly:
      if (!accumulate) break;  // as kMinMaxInsertOnly
      if (a->has_extreme) {
        a->ext_s.append(p.separator);
        a->ext_s.append(sv.data(), sv.size());
      } else {
        a->ext_s.assign(sv.data(), sv.size());
        a->has_extreme = true;
      }
      break;
    case Mode::kListAggList:
      accumulate ? a->lists->strings.Add(sv) : (void)a->lists->strings.Remove(sv);
      break;
    case Mode::kUser:
      break;  // UserAccumulate
  }
}

void AggregateFunctions::GetValues(const GroupAccumulators& g, std::vector<AggValue>* out) const {
  out->resize(plans_.size());
  for (size_t i = 0; i < plans_.size(); ++i) {
    const Plan& p = plans_[i];
    const Accumulator& a = g.accs[i];
    AggValue& v = (*out)[i];
    v.null = false;
    switch (p.mode) {
      case Mode::kCountStar:
      case Mode::kCount:
        v.i = a.count;
        break;
      case Mode::kSumInt:
        v.i = static_cast<int64_t>(a.isum);
        // SUM over DECIMAL(18, s) that no longer fits is NULL, as Flink's decimal overflow.
        v.null = a.count == 0 || (p.arg_type == TypeId::kDecimal &&
                                  (v.i >= kDecimalLimit || v.i <= -kDecimalLimit));
        break;
      case Mode::kSumFloat:
      case Mode::kSumDouble:
        v.null = a.count == 0;
        v.d = a.dsum;
        break;
      case Mode::kAvgInt:
        v.null = a.count == 0;
        // 128-bit so that INT64_MIN / -1 (only on inconsistent input) is defined.
        if (!v.null) {
          v.i = static_cast<int64_t>(static_cast<__int128>(static_cast<int64_t>(a.isum)) / a.count);
        }
        break;
      case Mode::kAvgDecimal: {
        v.null = a.count == 0;
        if (v.null) break;
        // Rescale to the result scale, then divide rounding half up (Flink's decimal division).
        __int128 num = static_cast<__int128>(static_cast<int64_t>(a.isum)) * p.avg_scale_factor;
        __int128 q = num / a.count;
        __int128 r = num % a.count;
        __int128 abs_r = r < 0 ? -r : r;
        __int128 abs_c = a.count < 0 ? -static_cast<__int128>(a.count) : a.count;
        if (2 * abs_r >= abs_c) q += ((num < 0) != (a.count < 0)) ? -1 : 1;
        if (q >= kDecimalLimit || q <= -kDecimalLimit) {
          v.null = true;
        } else {
          v.i = static_cast<int64_t>(q);
        }
        break;
      }
      case Mode::kAvgDouble:
        v.null = a.count == 0;
        if (!v.null) v.d = a.dsum / static_cast<double>(a.count);
        break;
      case Mode::kMinMaxInsertOnly:
      case Mode::kFirstLastInsertOnly:
        v.null = !a.has_extreme;
        if (v.null) break;
        switch (p.value_class) {
          case ValueClass::kInt:
            v.i = a.ext_i;
            break;
          case ValueClass::kDouble:
            v.d = a.ext_d;
            break;
          case ValueClass::kString:
            v.s.assign(a.ext_s);
            break;
        }
        break;
      case Mode::kMinMaxRetract:
        switch (p.value_class) {
          case ValueClass::kInt:
            v.null = a.ints.empty();
            if (!v.null) v.i = p.is_max ? a.ints.max() : a.ints.min();
            break;
          case ValueClass::kDouble:
            v.null = a.doubles.empty();
            if (!v.null) v.d = p.is_max ? a.doubles.max() : a.doubles.min();
            break;
          case ValueClass::kString:
            v.null = a.strings.empty();
            if (!v.null) v.s.assign(p.is_max ? a.strings.max() : a.strings.min());
            break;
        }
        break;
      case Mode::kFirstLastList:
        switch (p.value_class) {
          case ValueClass::kInt:
            v.null = a.lists->ints.empty();
            if (!v.null) v.i = p.is_last ? a.lists->ints.back() : a.lists->ints.front();
            break;
          case ValueClass::kDouble:
            v.null = a.lists->doubles.empty();
            if (!v.null) v.d = p.is_last ? a.lists->doubles.back() : a.lists->doubles.front();
            break;
          case ValueClass::kString:
            v.null = a.lists->strings.empty();
            if (!v.null) v.s.assign(p.is_last ? a.lists->strings.back() : a.lists->strings.front());
            break;
        }
        break;
      case Mode::kListAggInsertOnly:
        v.null = !a.has_extreme;
        if (!v.null) v.s.assign(a.ext_s);
        break;
      case Mode::kListAggList:
        v.null = a.lists->strings.empty();
        v.s.clear();
        for (size_t k = 0; k < a.lists->strings.size(); ++k) {
          if (k > 0) v.s.append(p.separator);
          v.s.append(a.lists->strings.values()[k]);
        }
        break;
      case Mode::kUser:
        UserValue(p, a, &v);
        break;
    }
  }
}

void AggregateFunctions::MergeAccumulators(GroupAccumulators* into,
                                           const GroupAccumulators& from) const {
  into->row_count += from.row_count;
  for (size_t i = 0; i < plans_.size(); ++i) {
    const Plan& p = plans_[i];
    Accumulator* a = &into->accs[i];
    const Accumulator& b = from.accs[i];
    if (p.mode == Mode::kUser) {
      UserMerge(p, a, b.user_acc);
    } else if (p.distinct) {
      MergeDistinct(p, a, b);
    } else {
      MergeOne(p, a, b);
    }
  }
}

void AggregateFunctions::MergeDistinct(const Plan& p, Accumulator* a, const Accumulator& b) {
  // The value sets add up; a value new to `a` reaches its aggregate once. FIRST_VALUE,
  // LAST_VALUE and LISTAGG take them in `b`'s arrival order (their list holds each of `b`'s
  // values once), the others in value order.
  if (UsesLists(p.mode)) {
    switch (p.value_class) {
      case ValueClass::kInt:
        for (int64_t v : b.lists->ints.values()) {
          const int64_t n = b.distinct_ints.Count(v);
          if (n > 0 && a->distinct_ints.AddCopies(v, n) == 0) ApplyValue(p, a, v, 0, {}, true);
        }
        break;
      case ValueClass::kDouble:
        for (double v : b.lists->doubles.values()) {
          const int64_t n = b.distinct_doubles.Count(v);
          if (n > 0 && a->distinct_doubles.AddCopies(v, n) == 0) ApplyValue(p, a, 0, v, {}, true);
        }
        break;
      case ValueClass::kString:
        for (const std::string& v : b.lists->strings.values()) {
          const int64_t n = b.distinct_strings.Count(v);
          if (n > 0 && a->distinct_strings.AddCopies(v, n) == 0) ApplyValue(p, a, 0, 0, v, true);
        }
        break;
    }
    return;
  }
  switch (p.value_class) {
    case ValueClass::kInt:
      for (const auto& [v, n] : b.distinct_ints.entries()) {
        if (a->distinct_ints.AddCopies(v, n) == 0) ApplyValue(p, a, v, 0, {}, true);
      }
      break;
    case ValueClass::kDouble:
      for (const auto& [v, n] : b.distinct_doubles.entries()) {
        if (a->distinct_doubles.AddCopies(v, n) == 0) ApplyValue(p, a, 0, v, {}, true);
      }
      break;
    case ValueClass::kString:
      for (const auto& [v, n] : b.distinct_strings.entries()) {
        if (a->distinct_strings.AddCopies(v, n) == 0) ApplyValue(p, a, 0, 0, v, true);
      }
      break;
  }
}

void AggregateFunctions::MergeOne(const Plan& p, Accumulator* a, const Accumulator& b) {
  switch (p.mode) {
    case Mode::kCountStar:
    case Mode::kCount:
      a->count += b.count;
      break;
    case Mode::kSumInt:
    case Mode::kAvgInt:
    case Mode::kAvgDecimal:
      a->count += b.count;
      a->isum += b.isum;
      break;
    case Mode::kSumFloat:
      a->count += b.count;
      a->dsum = static_cast<double>(static_cast<float>(a->dsum) + static_cast<float>(b.dsum));
      break;
    case Mode::kSumDouble:
    case Mode::kAvgDouble:
      a->count += b.count;
      a->dsum += b.dsum;
      break;
    case Mode::kMinMaxInsertOnly:
    case Mode::kFirstLastInsertOnly:  // FIRST_VALUE keeps a's value, LAST_VALUE takes b's
    case Mode::kListAggInsertOnly:    // b's values joined after a's
      if (b.has_extreme) ApplyValue(p, a, b.ext_i, b.ext_d, b.ext_s, /*accumulate=*/true);
      break;
    case Mode::kMinMaxRetract:
      for (const auto& [v, n] : b.ints.entries()) a->ints.AddCopies(v, n);
      for (const auto& [v, n] : b.doubles.entries()) a->doubles.AddCopies(v, n);
      for (const auto& [v, n] : b.strings.entries()) a->strings.AddCopies(v, n);
      break;
    case Mode::kFirstLastList:
    case Mode::kListAggList:  // b's values after a's
      for (int64_t v : b.lists->ints.values()) a->lists->ints.Add(v);
      for (double v : b.lists->doubles.values()) a->lists->doubles.Add(v);
      for (const std::string& v : b.lists->strings.values()) a->lists->strings.Add(v);
      break;
    case Mode::kUser:
      break;  // MergeAccumulators merges through the function
  }
}

bool AggregateFunctions::Equal(const std::vector<AggValue>& a, const std::vector<AggValue>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].null != b[i].null) return false;
    if (a[i].null) continue;
    // Unused fields hold stale data, but the same call always fills the same field; comparing all
    // three is cheaper than dispatching on the kind.
    if (a[i].i != b[i].i || !SameDouble(a[i].d, b[i].d) || a[i].s != b[i].s) return false;
  }
  return true;
}

void AggregateFunctions::AppendValue(size_t i, const AggValue& v, Column* col) const {
  if (v.null) {
    col->AppendNull();
    return;
  }
  switch (calls_[i].result_type.id) {
    case TypeId::kBoolean:
      col->Append<uint8_t>(v.i != 0 ? 1 : 0);
      break;
    case TypeId::kTinyInt:
      col->Append<int8_t>(static_cast<int8_t>(v.i));
      break;
    case TypeId::kSmallInt:
      col->Append<int16_t>(static_cast<int16_t>(v.i));
      break;
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kIntervalYearMonth:
      col->Append<int32_t>(static_cast<int32_t>(v.i));
      break;
    case TypeId::kBigInt:
    case TypeId::kDecimal:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:
    case TypeId::kInterval:
      col->Append<int64_t>(v.i);
      break;
    case TypeId::kFloat:
      col->Append<float>(static_cast<float>(v.d));
      break;
    case TypeId::kDouble:
      col->Append<double>(v.d);
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
      col->AppendString(v.s);
      break;
    case TypeId::kNull:
      col->AppendNull();
      break;
  }
}

namespace {

void PutClassValue(ValueClass c, int64_t i, double d, std::string_view s, std::string* out) {
  switch (c) {
    case ValueClass::kInt:
      agg_codec::PutSigned(i, out);
      break;
    case ValueClass::kDouble:
      agg_codec::PutDouble(d, out);
      break;
    case ValueClass::kString:
      agg_codec::PutString(s, out);
      break;
  }
}

}  // namespace

// Layout: signed varint row count, then per call: [distinct set] then the kind's fields (see
// Mode): counts and integer sums as zigzag varints, double sums as 8 raw bytes, one kept value as a
// presence byte and the value, multisets as a varint size and (value, count) pairs in order,
// arrival lists as a varint size and the values in arrival order.
void AggregateFunctions::Serialize(const GroupAccumulators& g, std::string* out) const {
  agg_codec::PutSigned(g.row_count, out);
  for (size_t i = 0; i < plans_.size(); ++i) {
    const Plan& p = plans_[i];
    const Accumulator& a = g.accs[i];
    if (p.distinct) {
      switch (p.value_class) {
        case ValueClass::kInt:
          a.distinct_ints.Serialize(out);
          break;
        case ValueClass::kDouble:
          a.distinct_doubles.Serialize(out);
          break;
        case ValueClass::kString:
          a.distinct_strings.Serialize(out);
          break;
      }
    }
    switch (p.mode) {
      case Mode::kCountStar:
      case Mode::kCount:
        agg_codec::PutSigned(a.count, out);
        break;
      case Mode::kSumInt:
      case Mode::kAvgInt:
      case Mode::kAvgDecimal:
        agg_codec::PutSigned(a.count, out);
        agg_codec::PutSigned(static_cast<int64_t>(a.isum), out);
        break;
      case Mode::kSumFloat:
      case Mode::kSumDouble:
      case Mode::kAvgDouble:
        agg_codec::PutSigned(a.count, out);
        agg_codec::PutDouble(a.dsum, out);
        break;
      case Mode::kMinMaxInsertOnly:
      case Mode::kFirstLastInsertOnly:
      case Mode::kListAggInsertOnly:
        out->push_back(a.has_extreme ? 1 : 0);
        if (a.has_extreme) PutClassValue(p.value_class, a.ext_i, a.ext_d, a.ext_s, out);
        break;
      case Mode::kMinMaxRetract:
        switch (p.value_class) {
          case ValueClass::kInt:
            a.ints.Serialize(out);
            break;
          case ValueClass::kDouble:
            a.doubles.Serialize(out);
            break;
          case ValueClass::kString:
            a.strings.Serialize(out);
            break;
        }
        break;
      case Mode::kFirstLastList:
      case Mode::kListAggList:
        switch (p.value_class) {
          case ValueClass::kInt:
            a.lists->ints.Serialize(out);
            break;
          case ValueClass::kDouble:
            a.lists->doubles.Serialize(out);
            break;
          case ValueClass::kString:
            a.lists->strings.Serialize(out);
            break;
        }
        break;
      case Mode::kUser:
        agg_codec::PutString(a.user_acc, out);
        break;
    }
  }
}

absl::Status AggregateFunctions::Deserialize(std::string_view in, GroupAccumulators* g) const {
  Reset(g);
  agg_codec::Reader r(in);
  g->row_count = r.Signed();
  for (size_t i = 0; i < plans_.size() && r.ok(); ++i) {
    const Plan& p = plans_[i];
    Accumulator& a = g->accs[i];
    if (p.distinct) {
      switch (p.value_class) {
        case ValueClass::kInt:
          a.distinct_ints.Deserialize(&r);
          break;
        case ValueClass::kDouble:
          a.distinct_doubles.Deserialize(&r);
          break;
        case ValueClass::kString:
          a.distinct_strings.Deserialize(&r);
          break;
      }
    }
    switch (p.mode) {
      case Mode::kCountStar:
      case Mode::kCount:
        a.count = r.Signed();
        break;
      case Mode::kSumInt:
      case Mode::kAvgInt:
      case Mode::kAvgDecimal:
        a.count = r.Signed();
        a.isum = static_cast<uint64_t>(r.Signed());
        break;
      case Mode::kSumFloat:
      case Mode::kSumDouble:
      case Mode::kAvgDouble:
        a.count = r.Signed();
        a.dsum = r.Double();
        break;
      case Mode::kMinMaxInsertOnly:
      case Mode::kFirstLastInsertOnly:
      case Mode::kListAggInsertOnly:
        a.has_extreme = r.Byte() != 0;
        if (a.has_extreme) {
          switch (p.value_class) {
            case ValueClass::kInt:
              a.ext_i = r.Signed();
              break;
            case ValueClass::kDouble:
              a.ext_d = r.Double();
              break;
            case ValueClass::kString: {
              std::string_view s = r.String();
              a.ext_s.assign(s.data(), s.size());
              break;
            }
          }
        }
        break;
      case Mode::kMinMaxRetract:
        switch (p.value_class) {
          case ValueClass::kInt:
            a.ints.Deserialize(&r);
            break;
          case ValueClass::kDouble:
            a.doubles.Deserialize(&r);
            break;
          case ValueClass::kString:
            a.strings.Deserialize(&r);
            break;
        }
        break;
      case Mode::kFirstLastList:
      case Mode::kListAggList:
        switch (p.value_class) {
          case ValueClass::kInt:
            a.lists->ints.Deserialize(&r);
            break;
          case ValueClass::kDouble:
            a.lists->doubles.Deserialize(&r);
            break;
          case ValueClass::kString:
            a.lists->strings.Deserialize(&r);
            break;
        }
        break;
      case Mode::kUser: {
        std::string_view acc = r.String();
        a.user_acc.assign(acc.data(), acc.size());
        break;
      }
    }
  }
  if (!r.ok() || !r.done()) {
    return absl::DataLossError("Corrupt aggregate state value (" + std::to_string(in.size()) +
                               " bytes)");
  }
  return absl::OkStatus();
}

// ---- Two-phase aggregation ----

void AggregateFunctions::AppendPartials(const GroupAccumulators& g, ChangelogBatch* out,
                                        size_t first_column) const {
  size_t c = first_column;
  const bool deltas = retractions_possible_;
  AggValue extreme;
  for (size_t i = 0; i < plans_.size(); ++i) {
    const Plan& p = plans_[i];
    const Accumulator& a = g.accs[i];
    switch (p.mode) {
      case Mode::kCountStar:
      case Mode::kCount:
        out->mutable_column(c++).Append<int64_t>(a.count);
        break;
      case Mode::kSumInt:
        if (!deltas && a.count == 0) {
          out->mutable_column(c++).AppendNull();
        } else {
          out->mutable_column(c++).Append<int64_t>(static_cast<int64_t>(a.isum));
        }
        if (deltas) out->mutable_column(c++).Append<int64_t>(a.count);
        break;
      case Mode::kSumFloat:
      case Mode::kSumDouble: {
        Column& col = out->mutable_column(c++);
        if (!deltas && a.count == 0) {
          col.AppendNull();
        } else if (p.mode == Mode::kSumFloat) {
          col.Append<float>(static_cast<float>(a.dsum));
        } else {
          col.Append<double>(a.dsum);
        }
        if (deltas) out->mutable_column(c++).Append<int64_t>(a.count);
        break;
      }
      case Mode::kAvgInt:
      case Mode::kAvgDecimal:
        out->mutable_column(c++).Append<int64_t>(static_cast<int64_t>(a.isum));
        out->mutable_column(c++).Append<int64_t>(a.count);
        break;
      case Mode::kAvgDouble:
        out->mutable_column(c++).Append<double>(a.dsum);
        out->mutable_column(c++).Append<int64_t>(a.count);
        break;
      case Mode::kMinMaxInsertOnly:
      case Mode::kListAggInsertOnly:  // the joined values
        extreme.null = !a.has_extreme;
        extreme.i = a.ext_i;
        extreme.d = a.ext_d;
        if (p.value_class == ValueClass::kString) extreme.s.assign(a.ext_s);
        AppendValue(i, extreme, &out->mutable_column(c++));
        break;
      case Mode::kMinMaxRetract:
      case Mode::kFirstLastInsertOnly:
      case Mode::kFirstLastList:
      case Mode::kListAggList:
        // No partial form (AggPartialFields); the planner keeps such aggregates in one phase.
        out->mutable_column(c++).AppendNull();
        break;
      case Mode::kUser:
        out->mutable_column(c++).AppendString(a.user_acc);
        break;
    }
  }
}

bool AggregateFunctions::IsEmptyDelta(const GroupAccumulators& g) const {
  if (g.row_count != 0) return false;
  for (const Accumulator& a : g.accs) {
    if (a.count != 0 || a.isum != 0 || a.dsum != 0 || a.has_extreme || !a.user_acc.empty()) {
      return false;
    }
  }
  return true;
}

void AggregateFunctions::Merge(GroupAccumulators* g, const ChangelogBatch& partials,
                               size_t row) const {
  g->row_count += PartialRowCount(partials, row);
  const bool deltas = retractions_possible_;
  for (size_t i = 0; i < plans_.size(); ++i) {
    const Plan& p = plans_[i];
    Accumulator* a = &g->accs[i];
    const Column& col = partials.column(p.arg);
    switch (p.mode) {
      case Mode::kCountStar:
      case Mode::kCount:
        a->count += col.Get<int64_t>(row);
        break;
      case Mode::kSumInt:
      case Mode::kAvgInt:
      case Mode::kAvgDecimal:
        if (col.IsNull(row)) break;  // insert-only SUM: no value in that mini-batch
        a->isum += static_cast<uint64_t>(col.Get<int64_t>(row));
        a->count +=
            deltas || p.mode != Mode::kSumInt ? partials.column(p.arg + 1).Get<int64_t>(row) : 1;
        break;
      case Mode::kSumFloat: {
        if (col.IsNull(row)) break;
        const float s = static_cast<float>(a->dsum) + col.Get<float>(row);
        a->dsum = static_cast<double>(s);
        a->count += deltas ? partials.column(p.arg + 1).Get<int64_t>(row) : 1;
        break;
      }
      case Mode::kSumDouble:
      case Mode::kAvgDouble:
        if (col.IsNull(row)) break;
        a->dsum += col.Get<double>(row);
        a->count +=
            deltas || p.mode != Mode::kSumDouble ? partials.column(p.arg + 1).Get<int64_t>(row) : 1;
        break;
      case Mode::kMinMaxInsertOnly:
      case Mode::kListAggInsertOnly:
        // The partial is a value of the result type (LISTAGG: the joined values of a mini-batch):
        // accumulate it like an input value.
        UpdateOne(p, a, col, row, /*accumulate=*/true);
        break;
      case Mode::kMinMaxRetract:
      case Mode::kFirstLastInsertOnly:
      case Mode::kFirstLastList:
      case Mode::kListAggList:
        break;  // not splittable (rejected by CreateMerging)
      case Mode::kUser:
        UserMerge(p, a, col.GetString(row));
        break;
    }
  }
}

}  // namespace eddy
