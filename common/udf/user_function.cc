#include "common/udf/user_function.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/udf/user_library.h"

namespace eddy {
namespace {

absl::StatusOr<DataType> FromUdfType(const EddyUdfType& t) {
  switch (t.id) {
    case EDDY_UDF_BOOLEAN:
      return DataType::Boolean();
    case EDDY_UDF_TINYINT:
      return DataType::TinyInt();
    case EDDY_UDF_SMALLINT:
      return DataType::SmallInt();
    case EDDY_UDF_INT:
      return DataType::Int();
    case EDDY_UDF_BIGINT:
      return DataType::BigInt();
    case EDDY_UDF_FLOAT:
      return DataType::Float();
    case EDDY_UDF_DOUBLE:
      return DataType::Double();
    case EDDY_UDF_DECIMAL:
      if (t.precision < 1 || t.precision > kMaxDecimalPrecision || t.scale < 0 ||
          t.scale > t.precision) {
        return absl::InvalidArgumentError(
            absl::StrCat("DECIMAL(", t.precision, ", ", t.scale, ") is not supported"));
      }
      return DataType::Decimal(t.precision, t.scale);
    case EDDY_UDF_STRING:
      return DataType::String();
    case EDDY_UDF_DATE:
      return DataType::Date();
    case EDDY_UDF_TIMESTAMP:
      if (t.precision < 0 || t.precision > 9) {
        return absl::InvalidArgumentError(
            absl::StrCat("TIMESTAMP(", t.precision, ") is not supported"));
      }
      return DataType::Timestamp(t.precision);
    default:
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown type id ", t.id));
}

EddyUdfColumn ToUdfColumn(const Column& c) {
  EddyUdfColumn out{};
  const DataType& t = c.type();
  out.type.precision = t.precision;
  out.type.scale = t.scale;
  switch (t.id) {
    case TypeId::kBoolean:
      out.type.id = EDDY_UDF_BOOLEAN;
      break;
    case TypeId::kTinyInt:
      out.type.id = EDDY_UDF_TINYINT;
      break;
    case TypeId::kSmallInt:
      out.type.id = EDDY_UDF_SMALLINT;
      break;
    case TypeId::kInt:
    case TypeId::kTime:               // its milliseconds of the day
    case TypeId::kIntervalYearMonth:  // its months
      out.type.id = EDDY_UDF_INT;
      break;
    case TypeId::kBigInt:
    case TypeId::kInterval:
      out.type.id = EDDY_UDF_BIGINT;
      break;
    case TypeId::kFloat:
      out.type.id = EDDY_UDF_FLOAT;
      break;
    case TypeId::kDouble:
      out.type.id = EDDY_UDF_DOUBLE;
      break;
    case TypeId::kDecimal:
      out.type.id = EDDY_UDF_DECIMAL;
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap:
    case TypeId::kRow:
    case TypeId::kNull:
      out.type.id = EDDY_UDF_STRING;
      break;
    case TypeId::kDate:
      out.type.id = EDDY_UDF_DATE;
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz:  // never an argument: a TIMESTAMP_LTZ is cast to the declared type
      out.type.id = EDDY_UDF_TIMESTAMP;
      break;
  }
  out.size = static_cast<int64_t>(c.size());
  out.validity = c.raw_validity().empty() ? nullptr : c.raw_validity().data();
  out.values = c.raw_data().data();
  out.offsets = c.is_string() ? c.raw_offsets().data() : nullptr;
  out.heap = c.raw_heap().data();
  return out;
}

// The host side of EddyUdfSink: appends into result columns and records rows and failures.
struct HostSink {
  std::vector<Column>* columns = nullptr;
  std::vector<uint32_t>* input_rows = nullptr;  // table functions
  std::string error;
  std::string misuse;  // how the library broke the protocol (first occurrence)

  static void Append(void* host, int32_t column, const void* value, size_t len) {
    auto* s = static_cast<HostSink*>(host);
    if (column < 0 || static_cast<size_t>(column) >= s->columns->size()) {
      if (s->misuse.empty()) s->misuse = absl::StrCat("appended to result column ", column);
      return;
    }
    Column& c = (*s->columns)[column];
    if (value == nullptr) {
      c.AppendNull();
      return;
    }
    if (c.is_string()) {
      c.AppendString(std::string_view(static_cast<const char*>(value), len));
      return;
    }
    if (len != static_cast<size_t>(c.width())) {
      if (s->misuse.empty()) {
        s->misuse = absl::StrCat("appended a value of ", len, " bytes to a ", c.type().ToString(),
                                 " result, which takes ", c.width());
      }
      c.AppendNull();
      return;
    }
    switch (c.width()) {
      case 1: {
        uint8_t v;
        std::memcpy(&v, value, 1);
        c.Append(v);
        break;
      }
      case 2: {
        int16_t v;
        std::memcpy(&v, value, 2);
        c.Append(v);
        break;
      }
      case 4: {
        int32_t v;
        std::memcpy(&v, value, 4);
        c.Append(v);
        break;
      }
      default: {
        int64_t v;
        std::memcpy(&v, value, 8);
        c.Append(v);
        break;
      }
    }
  }
  static void EndRow(void* host, int64_t input_row) {
    auto* s = static_cast<HostSink*>(host);
    if (s->input_rows == nullptr) {
      if (s->misuse.empty()) s->misuse = "ended a row, which only table functions do";
      return;
    }
    s->input_rows->push_back(static_cast<uint32_t>(input_row));
  }
  static void Fail(void* host, const char* message, size_t len) {
    auto* s = static_cast<HostSink*>(host);
    if (s->error.empty()) s->error.assign(message, len);
    if (s->error.empty()) s->error = "failed without a message";
  }
  EddyUdfSink Sink() { return EddyUdfSink{this, &Append, &EndRow, &Fail}; }
};

}  // namespace

const char* UserFunctionKindName(UserFunctionKind kind) {
  switch (kind) {
    case UserFunctionKind::kScalar:
      return "scalar";
    case UserFunctionKind::kTable:
      return "table";
    case UserFunctionKind::kAggregate:
      return "aggregate";
  }
  return "scalar";
}

absl::StatusOr<std::shared_ptr<const UserFunction>> UserFunction::FromDescriptor(
    std::shared_ptr<const UserLibrary> library, const std::string& symbol,
    const EddyUdfDescriptor* d) {
  const std::string where =
      absl::StrCat("user function '", symbol, "' of library '", library->name(), "'");
  if (d == nullptr)
    return absl::InvalidArgumentError(absl::StrCat("The ", where, " has no descriptor"));
  if (d->abi_version != EDDY_UDF_ABI_VERSION) {
    return absl::FailedPreconditionError(
        absl::StrCat("The ", where, " was built for UDF ABI version ", d->abi_version,
                     " but this Eddy supports version ", EDDY_UDF_ABI_VERSION,
                     ": rebuild the library against this Eddy's include/eddy/udf.h"));
  }
  auto fn = std::shared_ptr<UserFunction>(new UserFunction());
  fn->library_ = std::move(library);
  fn->symbol_ = symbol;
  fn->descriptor_ = d;
  switch (d->kind) {
    case EDDY_UDF_SCALAR:
      fn->kind_ = UserFunctionKind::kScalar;
      break;
    case EDDY_UDF_TABLE:
      fn->kind_ = UserFunctionKind::kTable;
      break;
    case EDDY_UDF_AGGREGATE:
      fn->kind_ = UserFunctionKind::kAggregate;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("The ", where, " declares an unknown kind ", d->kind));
  }
  if (d->num_args < 0 || (d->num_args > 0 && d->arg_types == nullptr) || d->num_results < 1 ||
      d->result_types == nullptr || d->create == nullptr || d->destroy == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("The ", where, " has a malformed descriptor"));
  }
  if (fn->kind_ != UserFunctionKind::kTable && d->num_results != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("The ", where, " must declare one result type, not ", d->num_results));
  }
  if (fn->kind_ == UserFunctionKind::kAggregate
          ? (d->accumulate == nullptr || d->merge == nullptr || d->get_value == nullptr)
          : d->eval == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("The ", where, " lacks the entry points of a ",
                                                   UserFunctionKindName(fn->kind_), " function"));
  }
  for (int32_t i = 0; i < d->num_args; ++i) {
    auto t = FromUdfType(d->arg_types[i]);
    if (!t.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("The ", where, " argument ", i + 1, ": ", t.status().message()));
    }
    fn->arg_types_.push_back(*t);
  }
  for (int32_t i = 0; i < d->num_results; ++i) {
    auto t = FromUdfType(d->result_types[i]);
    if (!t.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("The ", where, " result ", i + 1, ": ", t.status().message()));
    }
    fn->result_types_.push_back(*t);
    const char* name = d->result_names != nullptr ? d->result_names[i] : nullptr;
    fn->result_names_.push_back(name != nullptr && *name != '\0' ? std::string(name)
                                                                 : absl::StrCat("f", i));
  }
  return std::shared_ptr<const UserFunction>(std::move(fn));
}

absl::StatusOr<std::unique_ptr<UserFunctionInstance>> UserFunctionInstance::Create(
    std::shared_ptr<const UserFunction> function, std::string name) {
  void* self = function->descriptor().create();
  if (self == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("User-defined function '", name, "' failed: its constructor threw"));
  }
  return std::unique_ptr<UserFunctionInstance>(
      new UserFunctionInstance(std::move(function), std::move(name), self));
}

UserFunctionInstance::~UserFunctionInstance() { function_->descriptor().destroy(self_); }

namespace {

absl::Status Failed(const std::string& name, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("User-defined function '", name, "' failed: ", std::string(why)));
}

}  // namespace

absl::StatusOr<Column> UserFunctionInstance::EvalScalar(const std::vector<const Column*>& args,
                                                        size_t rows) {
  std::vector<EddyUdfColumn> in;
  in.reserve(args.size());
  for (const Column* a : args) in.push_back(ToUdfColumn(*a));
  std::vector<Column> out;
  out.emplace_back(function_->result_types()[0]);
  out[0].Reserve(rows);
  HostSink host;
  host.columns = &out;
  EddyUdfSink sink = host.Sink();
  int32_t rc = function_->descriptor().eval(self_, in.data(), static_cast<int64_t>(rows), &sink);
  if (rc != 0 || !host.error.empty()) {
    return Failed(name_,
                  host.error.empty() ? "it returned an error without a message" : host.error);
  }
  if (!host.misuse.empty()) return Failed(name_, host.misuse);
  if (out[0].size() != rows) {
    return Failed(name_,
                  absl::StrCat("it returned ", out[0].size(), " values for ", rows, " rows"));
  }
  return std::move(out[0]);
}

namespace {

// The host side of an aggregate's accumulator result: one value, bytes.
struct AccumulatorSink {
  std::string* out = nullptr;
  int values = 0;
  std::string error;

  static void Append(void* host, int32_t column, const void* value, size_t len) {
    auto* s = static_cast<AccumulatorSink*>(host);
    ++s->values;
    if (value == nullptr) {
      s->out->clear();
    } else {
      s->out->assign(static_cast<const char*>(value), len);
    }
  }
  static void EndRow(void*, int64_t) {}
  static void Fail(void* host, const char* message, size_t len) {
    auto* s = static_cast<AccumulatorSink*>(host);
    if (s->error.empty()) s->error.assign(message, len);
    if (s->error.empty()) s->error = "failed without a message";
  }
  EddyUdfSink Sink() { return EddyUdfSink{this, &Append, &EndRow, &Fail}; }
};

}  // namespace

absl::Status UserFunctionInstance::Accumulate(std::string* acc,
                                              const std::vector<const Column*>& args,
                                              const uint32_t* rows, const uint8_t* retract,
                                              size_t n) {
  udf_args_.clear();
  for (const Column* a : args) udf_args_.push_back(ToUdfColumn(*a));
  AccumulatorSink host;
  host.out = &next_acc_;
  EddyUdfSink sink = host.Sink();
  int32_t rc = function_->descriptor().accumulate(self_, acc->data(), acc->size(), udf_args_.data(),
                                                  rows, retract, static_cast<int64_t>(n), &sink);
  if (rc != 0 || !host.error.empty()) {
    return Failed(name_,
                  host.error.empty() ? "it returned an error without a message" : host.error);
  }
  if (host.values != 1) {
    return Failed(name_, absl::StrCat("accumulate wrote ", host.values, " accumulators, not 1"));
  }
  acc->swap(next_acc_);
  return absl::OkStatus();
}

absl::Status UserFunctionInstance::Merge(std::string* acc, std::string_view other) {
  AccumulatorSink host;
  host.out = &next_acc_;
  EddyUdfSink sink = host.Sink();
  int32_t rc = function_->descriptor().merge(self_, acc->data(), acc->size(), other.data(),
                                             other.size(), &sink);
  if (rc != 0 || !host.error.empty()) {
    return Failed(name_,
                  host.error.empty() ? "it returned an error without a message" : host.error);
  }
  if (host.values != 1) {
    return Failed(name_, absl::StrCat("merge wrote ", host.values, " accumulators, not 1"));
  }
  acc->swap(next_acc_);
  return absl::OkStatus();
}

absl::Status UserFunctionInstance::GetValue(std::string_view acc, Column* out) {
  const size_t before = out->size();
  std::vector<Column> columns;
  columns.push_back(std::move(*out));
  HostSink host;
  host.columns = &columns;
  EddyUdfSink sink = host.Sink();
  int32_t rc = function_->descriptor().get_value(self_, acc.data(), acc.size(), &sink);
  *out = std::move(columns[0]);
  if (rc != 0 || !host.error.empty()) {
    return Failed(name_,
                  host.error.empty() ? "it returned an error without a message" : host.error);
  }
  if (!host.misuse.empty()) return Failed(name_, host.misuse);
  if (out->size() != before + 1) {
    return Failed(name_, absl::StrCat("get_value wrote ", out->size() - before, " values, not 1"));
  }
  return absl::OkStatus();
}

absl::StatusOr<TableFunctionRows> UserFunctionInstance::EvalTable(
    const std::vector<const Column*>& args, size_t rows) {
  std::vector<EddyUdfColumn> in;
  in.reserve(args.size());
  for (const Column* a : args) in.push_back(ToUdfColumn(*a));
  TableFunctionRows result;
  for (const DataType& t : function_->result_types()) result.columns.emplace_back(t);
  HostSink host;
  host.columns = &result.columns;
  host.input_rows = &result.input_rows;
  EddyUdfSink sink = host.Sink();
  int32_t rc = function_->descriptor().eval(self_, in.data(), static_cast<int64_t>(rows), &sink);
  if (rc != 0 || !host.error.empty()) {
    return Failed(name_,
                  host.error.empty() ? "it returned an error without a message" : host.error);
  }
  if (!host.misuse.empty()) return Failed(name_, host.misuse);
  const size_t n = result.input_rows.size();
  uint32_t previous = 0;
  for (uint32_t r : result.input_rows) {
    if (r >= rows || r < previous) {
      return Failed(name_, absl::StrCat("it ended a row of input row ", r,
                                        ", which is out of order or range"));
    }
    previous = r;
  }
  for (const Column& c : result.columns) {
    if (c.size() != n) {
      return Failed(name_,
                    absl::StrCat("it produced ", n, " rows but a column of ", c.size(), " values"));
    }
  }
  return result;
}

}  // namespace eddy
