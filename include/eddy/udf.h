// Eddy user-defined function SDK: header-only, versioned. A shared library built against this
// header exports one symbol per function (EDDY_SCALAR_FUNCTION / EDDY_TABLE_FUNCTION); Eddy loads
// the library, checks EDDY_UDF_ABI_VERSION and calls the function a batch of rows at a time.
// docs/udf.md describes how to write, build and register functions.
//
// Below the C++ layer (namespace eddy::udf) is the C ABI between the library and Eddy (the
// EddyUdf* structs): only plain C types cross it, so a library built with another compiler or
// standard library works as long as the ABI version matches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

// Raised whenever the C structs below change shape; Eddy refuses a library of another version.
#ifndef EDDY_UDF_ABI_VERSION
#define EDDY_UDF_ABI_VERSION 1
#endif

extern "C" {

// SQL types a function can take and return, with their physical layout in a column:
// BOOLEAN uint8 (0/1), TINYINT int8, SMALLINT int16, INT int32, BIGINT int64, FLOAT float,
// DOUBLE double, DECIMAL(p, s) int64 unscaled (p <= 18), STRING bytes (UTF-8), DATE int32 days
// since 1970-01-01, TIMESTAMP(p) int64 milliseconds since 1970-01-01 00:00.
enum EddyUdfTypeId : int32_t {
  EDDY_UDF_BOOLEAN = 1,
  EDDY_UDF_TINYINT = 2,
  EDDY_UDF_SMALLINT = 3,
  EDDY_UDF_INT = 4,
  EDDY_UDF_BIGINT = 5,
  EDDY_UDF_FLOAT = 6,
  EDDY_UDF_DOUBLE = 7,
  EDDY_UDF_DECIMAL = 8,
  EDDY_UDF_STRING = 9,
  EDDY_UDF_DATE = 10,
  EDDY_UDF_TIMESTAMP = 11,
};

struct EddyUdfType {
  int32_t id;         // EddyUdfTypeId
  int32_t precision;  // DECIMAL, TIMESTAMP
  int32_t scale;      // DECIMAL
};

// A read-only input column of `size` rows, valid during the call.
struct EddyUdfColumn {
  EddyUdfType type;
  int64_t size;
  const uint8_t* validity;  // bit i (LSB first) set: row i has a value; null: no NULLs
  const void* values;       // fixed-width types: `size` values
  const uint32_t* offsets;  // STRING: size + 1 offsets into heap
  const char* heap;         // STRING: the bytes of every value
};

// Where a function writes its results: Eddy's column builders behind plain function pointers.
struct EddyUdfSink {
  void* host;
  // Appends one value to result column `column`: fixed-width types point at the value in its
  // physical layout (len = its width), STRING at its bytes; value == nullptr appends NULL.
  void (*append)(void* host, int32_t column, const void* value, size_t len);
  // Table functions: the values appended since the last call form one result row of input row
  // `input_row`.
  void (*end_row)(void* host, int64_t input_row);
  // Records why the call fails; the function then returns nonzero.
  void (*fail)(void* host, const char* message, size_t len);
};

enum EddyUdfKind : uint32_t {
  EDDY_UDF_SCALAR = 1,
  EDDY_UDF_TABLE = 2,
  EDDY_UDF_AGGREGATE = 3,
};

// What a library's exported symbol returns. abi_version stays the first field in every version.
struct EddyUdfDescriptor {
  uint32_t abi_version;  // EDDY_UDF_ABI_VERSION of the header the library was built with
  uint32_t kind;         // EddyUdfKind
  int32_t num_args;
  const EddyUdfType* arg_types;
  int32_t num_results;  // scalar and aggregate: 1; table: the columns of each result row
  const EddyUdfType* result_types;
  const char* const* result_names;  // table functions: default column names
  // One instance per running task (called from one thread at a time).
  void* (*create)(void);
  void (*destroy)(void* self);
  // Scalar: appends one value per input row to column 0. Table: appends any number of rows per
  // input row, ending each with end_row. Returns 0, or nonzero after sink->fail.
  int32_t (*eval)(void* self, const EddyUdfColumn* args, int64_t rows, const EddyUdfSink* sink);
  // Aggregate functions: the accumulator is an opaque byte string Eddy keeps in keyed state
  // (acc == nullptr, acc_len == 0: a fresh one). Each writes its result to column 0 of `sink`:
  // accumulate/merge the new accumulator (one STRING value), get_value the result (one value).
  // accumulate folds rows `rows[0..num_rows)` of `args` in, retracting those whose `retract`
  // byte is nonzero.
  int32_t (*accumulate)(void* self, const char* acc, size_t acc_len, const EddyUdfColumn* args,
                        const uint32_t* rows, const uint8_t* retract, int64_t num_rows,
                        const EddyUdfSink* sink);
  int32_t (*merge)(void* self, const char* acc, size_t acc_len, const char* other, size_t other_len,
                   const EddyUdfSink* sink);
  int32_t (*get_value)(void* self, const char* acc, size_t acc_len, const EddyUdfSink* sink);
};

}  // extern "C"

namespace eddy::udf {

// A SQL type in a function's signature.
struct Type {
  EddyUdfType t;
  static constexpr Type Of(EddyUdfTypeId id, int32_t precision = 0, int32_t scale = 0) {
    return Type{EddyUdfType{id, precision, scale}};
  }
  static constexpr Type Boolean() { return Of(EDDY_UDF_BOOLEAN); }
  static constexpr Type TinyInt() { return Of(EDDY_UDF_TINYINT); }
  static constexpr Type SmallInt() { return Of(EDDY_UDF_SMALLINT); }
  static constexpr Type Int() { return Of(EDDY_UDF_INT); }
  static constexpr Type BigInt() { return Of(EDDY_UDF_BIGINT); }
  static constexpr Type Float() { return Of(EDDY_UDF_FLOAT); }
  static constexpr Type Double() { return Of(EDDY_UDF_DOUBLE); }
  static constexpr Type Decimal(int32_t p, int32_t s) { return Of(EDDY_UDF_DECIMAL, p, s); }
  static constexpr Type String() { return Of(EDDY_UDF_STRING); }
  static constexpr Type Date() { return Of(EDDY_UDF_DATE); }
  static constexpr Type Timestamp(int32_t p = 3) { return Of(EDDY_UDF_TIMESTAMP, p); }
};

// A function's argument types and result type(s) (table functions: named columns).
struct Signature {
  Signature() = default;
  Signature(std::vector<Type> args, std::vector<Type> results,
            std::vector<std::string> result_names = {})
      : args(std::move(args)), results(std::move(results)), result_names(std::move(result_names)) {}
  std::vector<Type> args;
  std::vector<Type> results;
  std::vector<std::string> result_names;
};

// Thrown (or any std::exception) to fail the call: Eddy fails the task with the function's name
// and this message.
class Error : public std::exception {
 public:
  explicit Error(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// One input column. Get<T> must use the C++ type of the column's physical layout.
class Column {
 public:
  explicit Column(const EddyUdfColumn& c) : c_(c) {}
  int64_t size() const { return c_.size; }
  const EddyUdfType& type() const { return c_.type; }
  bool IsNull(int64_t row) const {
    return c_.validity != nullptr && !(c_.validity[row >> 3] & (1u << (row & 7)));
  }
  template <typename T>
  T Get(int64_t row) const {
    static_assert(std::is_arithmetic_v<T>, "Get<T> reads fixed-width values; use String()");
    T v;
    std::memcpy(&v, static_cast<const char*>(c_.values) + row * sizeof(T), sizeof(T));
    return v;
  }
  bool Bool(int64_t row) const { return Get<uint8_t>(row) != 0; }
  std::string_view String(int64_t row) const {
    return std::string_view(c_.heap + c_.offsets[row], c_.offsets[row + 1] - c_.offsets[row]);
  }

 private:
  EddyUdfColumn c_;
};

// The arguments of one call: one column per argument, `rows` rows each.
class Args {
 public:
  Args(const EddyUdfColumn* columns, int32_t count, int64_t rows)
      : columns_(columns), count_(count), rows_(rows) {}
  int64_t rows() const { return rows_; }
  int32_t size() const { return count_; }
  Column operator[](int32_t i) const { return Column(columns_[i]); }

 private:
  const EddyUdfColumn* columns_;
  int32_t count_;
  int64_t rows_;
};

// Writes results. Values must be appended in the result type's physical layout (an int32_t for
// INT, an int64_t for BIGINT, std::string_view for STRING, bool for BOOLEAN, ...).
class Output {
 public:
  explicit Output(const EddyUdfSink* sink) : sink_(sink) {}
  template <typename T>
  void Append(T v, int32_t column = 0) {
    if constexpr (std::is_same_v<T, bool>) {
      uint8_t b = v ? 1 : 0;
      sink_->append(sink_->host, column, &b, 1);
    } else if constexpr (std::is_convertible_v<T, std::string_view>) {
      std::string_view s(v);
      sink_->append(sink_->host, column, s.data() != nullptr ? s.data() : "", s.size());
    } else {
      static_assert(std::is_arithmetic_v<T>, "append an arithmetic value or a string");
      sink_->append(sink_->host, column, &v, sizeof(T));
    }
  }
  void AppendNull(int32_t column = 0) { sink_->append(sink_->host, column, nullptr, 0); }
  // Table functions: ends a result row of input row `input_row`.
  void EndRow(int64_t input_row) { sink_->end_row(sink_->host, input_row); }

 private:
  const EddyUdfSink* sink_;
};

namespace internal {

inline void Fail(const EddyUdfSink* sink, const char* message) {
  sink->fail(sink->host, message, std::strlen(message));
}

// Owns the type arrays a descriptor points at.
struct DescriptorStorage {
  Signature signature;
  std::vector<EddyUdfType> args;
  std::vector<EddyUdfType> results;
  std::vector<const char*> names;
  EddyUdfDescriptor descriptor{};
};

// Aggregate functions declare an Accumulator type.
template <typename F, typename = void>
struct IsAggregate : std::false_type {};
template <typename F>
struct IsAggregate<F, std::void_t<typename F::Accumulator>> : std::true_type {};

template <typename F>
void* Create() {
  try {
    return new F();
  } catch (...) {
    return nullptr;
  }
}
template <typename F>
void Destroy(void* self) {
  delete static_cast<F*>(self);
}

template <typename F>
int32_t Eval(void* self, const EddyUdfColumn* args, int64_t rows, const EddyUdfSink* sink) {
  try {
    static const int32_t num_args = static_cast<int32_t>(F::Signature().args.size());
    Output out(sink);
    static_cast<F*>(self)->Eval(Args(args, num_args, rows), out);
    return 0;
  } catch (const std::exception& e) {
    Fail(sink, e.what());
  } catch (...) {
    Fail(sink, "unknown exception");
  }
  return 1;
}

// An aggregate's accumulator as bytes: F::Save / F::Load when F declares them, else the bytes of
// the (trivially copyable) Accumulator.
template <typename F, typename = void>
struct HasSave : std::false_type {};
template <typename F>
struct HasSave<F, std::void_t<decltype(F::Save(std::declval<const typename F::Accumulator&>()))>>
    : std::true_type {};

template <typename F>
typename F::Accumulator LoadAccumulator(const char* bytes, size_t len) {
  using Acc = typename F::Accumulator;
  if (len == 0) return Acc{};
  if constexpr (HasSave<F>::value) {
    return F::Load(std::string_view(bytes, len));
  } else {
    static_assert(std::is_trivially_copyable_v<Acc>,
                  "an Accumulator that is not trivially copyable needs static Save and Load");
    if (len != sizeof(Acc)) throw Error("accumulator of the wrong size");
    Acc acc;
    std::memcpy(&acc, bytes, sizeof(Acc));
    return acc;
  }
}

template <typename F>
void SaveAccumulator(const typename F::Accumulator& acc, const EddyUdfSink* sink) {
  if constexpr (HasSave<F>::value) {
    const std::string bytes = F::Save(acc);
    sink->append(sink->host, 0, bytes.data(), bytes.size());
  } else {
    sink->append(sink->host, 0, &acc, sizeof(acc));
  }
}

template <typename F>
int32_t Accumulate(void* self, const char* acc, size_t acc_len, const EddyUdfColumn* args,
                   const uint32_t* rows, const uint8_t* retract, int64_t num_rows,
                   const EddyUdfSink* sink) {
  try {
    static const int32_t num_args = static_cast<int32_t>(F::Signature().args.size());
    F& f = *static_cast<F*>(self);
    typename F::Accumulator a = LoadAccumulator<F>(acc, acc_len);
    const Args view(args, num_args, num_args > 0 ? args[0].size : 0);
    for (int64_t i = 0; i < num_rows; ++i) {
      if (retract[i]) {
        f.Retract(a, view, rows[i]);
      } else {
        f.Accumulate(a, view, rows[i]);
      }
    }
    SaveAccumulator<F>(a, sink);
    return 0;
  } catch (const std::exception& e) {
    Fail(sink, e.what());
  } catch (...) {
    Fail(sink, "unknown exception");
  }
  return 1;
}

template <typename F>
int32_t Merge(void* self, const char* acc, size_t acc_len, const char* other, size_t other_len,
              const EddyUdfSink* sink) {
  try {
    typename F::Accumulator a = LoadAccumulator<F>(acc, acc_len);
    static_cast<F*>(self)->Merge(a, LoadAccumulator<F>(other, other_len));
    SaveAccumulator<F>(a, sink);
    return 0;
  } catch (const std::exception& e) {
    Fail(sink, e.what());
  } catch (...) {
    Fail(sink, "unknown exception");
  }
  return 1;
}

template <typename F>
int32_t GetValue(void* self, const char* acc, size_t acc_len, const EddyUdfSink* sink) {
  try {
    Output out(sink);
    static_cast<F*>(self)->GetValue(LoadAccumulator<F>(acc, acc_len), out);
    return 0;
  } catch (const std::exception& e) {
    Fail(sink, e.what());
  } catch (...) {
    Fail(sink, "unknown exception");
  }
  return 1;
}

template <typename F>
const EddyUdfDescriptor* Describe(EddyUdfKind kind) {
  static DescriptorStorage* storage = [kind] {
    auto* s = new DescriptorStorage();
    s->signature = F::Signature();
    for (const Type& t : s->signature.args) s->args.push_back(t.t);
    for (const Type& t : s->signature.results) s->results.push_back(t.t);
    for (const std::string& n : s->signature.result_names) s->names.push_back(n.c_str());
    EddyUdfDescriptor& d = s->descriptor;
    d.abi_version = EDDY_UDF_ABI_VERSION;
    d.kind = kind;
    d.num_args = static_cast<int32_t>(s->args.size());
    d.arg_types = s->args.data();
    d.num_results = static_cast<int32_t>(s->results.size());
    d.result_types = s->results.data();
    d.result_names = s->names.size() == s->results.size() ? s->names.data() : nullptr;
    d.create = &Create<F>;
    d.destroy = &Destroy<F>;
    if constexpr (!IsAggregate<F>::value) {
      d.eval = &Eval<F>;
    } else {
      d.accumulate = &Accumulate<F>;
      d.merge = &Merge<F>;
      d.get_value = &GetValue<F>;
    }
    return s;
  }();
  return &storage->descriptor;
}

}  // namespace internal
}  // namespace eddy::udf

// Exports scalar function class `F` as `symbol`. F has a default constructor, a static
// `eddy::udf::Signature Signature()` with one result type, and
// `void Eval(const eddy::udf::Args& args, eddy::udf::Output& out)` appending one value per row.
#define EDDY_SCALAR_FUNCTION(symbol, F)                                                 \
  extern "C" __attribute__((visibility("default"))) const EddyUdfDescriptor* symbol() { \
    return ::eddy::udf::internal::Describe<F>(EDDY_UDF_SCALAR);                         \
  }

// Exports aggregate function class `F` as `symbol`. F has a default constructor, a static
// `Signature()` with one result type, a type `Accumulator` (trivially copyable, or with static
// `std::string Save(const Accumulator&)` and `Accumulator Load(std::string_view)`; a fresh one is
// `Accumulator{}`) and
//   void Accumulate(Accumulator& acc, const eddy::udf::Args& args, int64_t row);
//   void Retract(Accumulator& acc, const eddy::udf::Args& args, int64_t row);
//   void Merge(Accumulator& acc, const Accumulator& other);   // two-phase aggregation
//   void GetValue(const Accumulator& acc, eddy::udf::Output& out);  // appends one value
// Eddy keeps each group's accumulator in keyed state and checkpoints: Save must capture all of it.
#define EDDY_AGGREGATE_FUNCTION(symbol, F)                                              \
  extern "C" __attribute__((visibility("default"))) const EddyUdfDescriptor* symbol() { \
    return ::eddy::udf::internal::Describe<F>(EDDY_UDF_AGGREGATE);                      \
  }

// Exports table function class `F` as `symbol`: as a scalar function, but Eval appends any number
// of rows per input row (one value per result column, then out.EndRow(input_row)).
#define EDDY_TABLE_FUNCTION(symbol, F)                                                  \
  extern "C" __attribute__((visibility("default"))) const EddyUdfDescriptor* symbol() { \
    return ::eddy::udf::internal::Describe<F>(EDDY_UDF_TABLE);                          \
  }
