#include "common/expr/aggregate_signature.h"

#include <algorithm>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {

namespace {

bool NameIs(std::string_view name, std::string_view upper) {
  if (name.size() != upper.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (absl::ascii_toupper(static_cast<unsigned char>(name[i])) != upper[i]) return false;
  }
  return true;
}

absl::Status CannotApply(AggKind kind, const DataType& arg) {
  std::string_view name = AggKindName(kind);
  return absl::InvalidArgumentError(
      absl::StrCat("Cannot apply '", absl::string_view(name.data(), name.size()),
                   "' to arguments of type <", arg.WithNullable(true).ToString(), ">"));
}

}  // namespace

absl::StatusOr<AggKind> ParseAggKind(std::string_view name, bool star_argument) {
  std::optional<AggKind> kind;
  if (NameIs(name, "COUNT")) {
    kind = star_argument ? AggKind::kCountStar : AggKind::kCount;
  } else if (NameIs(name, "SUM")) {
    kind = AggKind::kSum;
  } else if (NameIs(name, "AVG")) {
    kind = AggKind::kAvg;
  } else if (NameIs(name, "MIN")) {
    kind = AggKind::kMin;
  } else if (NameIs(name, "MAX")) {
    kind = AggKind::kMax;
  } else if (NameIs(name, "FIRST_VALUE")) {
    kind = AggKind::kFirstValue;
  } else if (NameIs(name, "LAST_VALUE")) {
    kind = AggKind::kLastValue;
  } else if (NameIs(name, "LISTAGG")) {
    kind = AggKind::kListAgg;
  }
  std::string n(name);
  if (!kind) return absl::NotFoundError(absl::StrCat("Unknown aggregate function '", n, "'"));
  if (star_argument && *kind != AggKind::kCountStar) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'*' is only allowed as the argument of COUNT, not of ", absl::AsciiStrToUpper(n)));
  }
  return *kind;
}

const std::vector<std::string>& BuiltinAggregateNames() {
  static const std::vector<std::string> names = {"AVG",     "COUNT", "FIRST_VALUE", "LAST_VALUE",
                                                 "LISTAGG", "MAX",   "MIN",         "SUM"};
  return names;
}

bool IsBuiltinAggregate(std::string_view name) {
  for (const std::string& n : BuiltinAggregateNames()) {
    if (NameIs(name, n)) return true;
  }
  return false;
}

std::string_view AggKindName(AggKind kind) {
  switch (kind) {
    case AggKind::kCountStar:
    case AggKind::kCount:
      return "COUNT";
    case AggKind::kSum:
      return "SUM";
    case AggKind::kAvg:
      return "AVG";
    case AggKind::kMin:
      return "MIN";
    case AggKind::kMax:
      return "MAX";
    case AggKind::kFirstValue:
      return "FIRST_VALUE";
    case AggKind::kLastValue:
      return "LAST_VALUE";
    case AggKind::kListAgg:
      return "LISTAGG";
    case AggKind::kUser:
      return "USER";
  }
  return "?";
}

absl::StatusOr<DataType> AggResultType(AggKind kind, const DataType& arg) {
  switch (kind) {
    case AggKind::kCountStar:
    case AggKind::kCount:
      return DataType::BigInt().WithNullable(false);
    case AggKind::kSum:
    case AggKind::kAvg:
      if (arg.IsInteger() || arg.IsApproximate()) {
        DataType t = arg;
        t.nullable = true;
        return t;
      }
      if (arg.id == TypeId::kDecimal) {
        int scale = kind == AggKind::kSum ? arg.scale : std::max(6, arg.scale);
        return DataType::Decimal(kMaxDecimalPrecision, std::min(scale, kMaxDecimalPrecision));
      }
      return CannotApply(kind, arg);
    case AggKind::kMin:
    case AggKind::kMax:
      // Collections are equal or not; they have no order. Flink has no MIN/MAX of binary strings.
      if (arg.id == TypeId::kNull || arg.IsCollection() || arg.IsBinary()) {
        return CannotApply(kind, arg);
      }
      return arg.WithNullable(true);
    case AggKind::kFirstValue:
    case AggKind::kLastValue:
      // As Flink's, no FIRST_VALUE / LAST_VALUE of binary strings.
      if (arg.id == TypeId::kNull || arg.IsBinary()) return CannotApply(kind, arg);
      return arg.WithNullable(true);
    case AggKind::kListAgg:
      if (!arg.IsString()) return CannotApply(kind, arg);
      return DataType::String();
    case AggKind::kUser:
      return absl::InternalError("a user-defined aggregate's result type is the function's");
  }
  return absl::InternalError("unknown AggKind");
}

absl::StatusOr<std::vector<AggPartialField>> AggPartialFields(AggKind kind, const DataType& arg,
                                                              bool distinct, bool retracting) {
  std::string_view name = AggKindName(kind);
  const absl::string_view fn(name.data(), name.size());
  if (distinct) {
    return absl::FailedPreconditionError(
        absl::StrCat(fn, "(DISTINCT ...) has no partial form for two-phase aggregation"));
  }
  const DataType count = DataType::BigInt().WithNullable(false);
  switch (kind) {
    case AggKind::kCountStar:
      return std::vector<AggPartialField>{{"count1", count}};
    case AggKind::kCount:
      return std::vector<AggPartialField>{{"count", count}};
    case AggKind::kSum:
    case AggKind::kAvg: {
      ASSIGN_OR_RETURN(DataType result, AggResultType(kind, arg));
      DataType sum;
      if (arg.IsInteger()) {
        sum = DataType::BigInt();
      } else if (arg.id == TypeId::kDecimal) {
        sum = DataType::Decimal(kMaxDecimalPrecision, arg.scale);
      } else if (kind == AggKind::kSum) {
        sum = result;  // FLOAT sums in float arithmetic, DOUBLE in double
      } else {
        sum = DataType::Double();
      }
      if (kind == AggKind::kSum && !retracting) {
        return std::vector<AggPartialField>{{"sum", sum.WithNullable(true)}};
      }
      return std::vector<AggPartialField>{{"sum", sum.WithNullable(false)}, {"count", count}};
    }
    case AggKind::kMin:
    case AggKind::kMax: {
      if (retracting) {
        return absl::FailedPreconditionError(absl::StrCat(
            fn, " over a retracting input has no partial form for two-phase aggregation"));
      }
      ASSIGN_OR_RETURN(DataType result, AggResultType(kind, arg));
      return std::vector<AggPartialField>{
          {kind == AggKind::kMin ? "min" : "max", result.WithNullable(true)}};
    }
    case AggKind::kFirstValue:
    case AggKind::kLastValue:
      return absl::FailedPreconditionError(absl::StrCat(
          fn, " has no partial form for two-phase aggregation (it has no merge, as in Flink)"));
    case AggKind::kListAgg: {
      if (retracting) {
        return absl::FailedPreconditionError(absl::StrCat(
            fn, " over a retracting input has no partial form for two-phase aggregation"));
      }
      ASSIGN_OR_RETURN(DataType result, AggResultType(kind, arg));
      return std::vector<AggPartialField>{{"concatAcc", result.WithNullable(true)}};
    }
    case AggKind::kUser:
      return std::vector<AggPartialField>{{"acc", DataType::String().WithNullable(false)}};
  }
  return absl::InternalError("unknown AggKind");
}

}  // namespace eddy
