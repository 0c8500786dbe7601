#include "common/expr/aggregate_signature.h"

#include <algorithm>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

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
  return absl::InvalidArgumentError(absl::StrCat("Cannot apply '",
                                                 absl::string_view(name.data(), name.size()),
                                                 "' to arguments of type <",
                                                 arg.WithNullable(true).ToString(), ">"));
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
  }
  std::string n(name);
  if (!kind) return absl::NotFoundError(absl::StrCat("Unknown aggregate function '", n, "'"));
  if (star_argument && *kind != AggKind::kCountStar) {
    return absl::InvalidArgumentError(
        absl::StrCat("'*' is only allowed as the argument of COUNT, not of ",
                     absl::AsciiStrToUpper(n)));
  }
  return *kind;
}

bool IsBuiltinAggregate(std::string_view name) {
  return NameIs(name, "COUNT") || NameIs(name, "SUM") || NameIs(name, "AVG") ||
         NameIs(name, "MIN") || NameIs(name, "MAX");
}

std::string_view AggKindName(AggKind kind) {
  switch (kind) {
    case AggKind::kCountStar:
    case AggKind::kCount: return "COUNT";
    case AggKind::kSum: return "SUM";
    case AggKind::kAvg: return "AVG";
    case AggKind::kMin: return "MIN";
    case AggKind::kMax: return "MAX";
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
      if (arg.id == TypeId::kNull) return CannotApply(kind, arg);
      return arg.WithNullable(true);
  }
  return absl::InternalError("unknown AggKind");
}

}  // namespace eddy
