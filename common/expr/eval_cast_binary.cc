// CAST between the binary strings (BYTES, VARBINARY(n), BINARY(n)) and STRING, as Flink's cast
// rules do it: STRING to bytes takes the text's UTF-8 bytes; bytes to STRING decodes UTF-8 strictly
// (malformed bytes are an error for CAST and NULL for TRY_CAST); VARBINARY(n) keeps the first n
// bytes, BINARY(n) also pads with zero bytes to n; VARCHAR(n) keeps the first n code points.
#include "absl/strings/str_cat.h"
#include "common/expr/eval_internal.h"
#include "common/types/binary_text.h"

namespace eddy::eval_internal {
namespace {

// Cuts or pads the value just appended at heap[start..] to what `to` holds.
void FitToLength(const DataType& to, size_t start, std::string& heap) {
  if (to.length <= 0) return;
  const size_t n = static_cast<size_t>(to.length);
  if (to.IsBinary()) {
    if (heap.size() - start > n) heap.resize(start + n);
    if (to.fixed_length && heap.size() - start < n) heap.resize(start + n, '\0');
    return;
  }
  // VARCHAR(n): the first n code points.
  size_t pos = start;
  size_t cps = 0;
  while (pos < heap.size()) {
    if ((static_cast<unsigned char>(heap[pos]) & 0xC0) != 0x80) {
      if (cps == n) break;
      ++cps;
    }
    ++pos;
  }
  heap.resize(pos);
}

}  // namespace

absl::StatusOr<Column> BinaryCast(const Column& in, const DataType& to, bool try_cast) {
  const DataType& from = in.type();
  if (!(from.IsBinary() || from.IsString()) || !(to.IsBinary() || to.IsString())) {
    return absl::InvalidArgumentError(absl::StrCat("Cast from ", from.WithNullable(true).ToString(),
                                                   " to ", to.WithNullable(true).ToString(),
                                                   " is not supported"));
  }
  const bool decode = from.IsBinary() && to.IsString();
  const size_t n = in.size();
  StringBuilder out(to, n);
  for (size_t i = 0; i < n; ++i) {
    if (in.IsNull(i)) {
      out.AppendNull();
      continue;
    }
    const std::string_view v = in.GetString(i);
    if (decode && !IsValidUtf8(v)) {
      if (!try_cast) {
        return absl::InvalidArgumentError(
            absl::StrCat("Cannot cast ", FormatBinary(v.substr(0, 64)), v.size() > 64 ? "..." : "",
                         " to ", to.WithNullable(true).ToString(), ": the bytes are not UTF-8"));
      }
      out.AppendNull();
      continue;
    }
    std::string& heap = out.heap();
    const size_t start = heap.size();
    heap.append(v.data(), v.size());
    FitToLength(to, start, heap);
    out.Commit();
  }
  return out.Finish();
}

}  // namespace eddy::eval_internal
