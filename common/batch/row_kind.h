// The kind of change a row carries, numbered as Flink's RowKind.
#pragma once

#include <cstdint>
#include <string_view>

namespace eddy {

enum class RowKind : uint8_t {
  kInsert = 0,        // +I
  kUpdateBefore = 1,  // -U
  kUpdateAfter = 2,   // +U
  kDelete = 3,        // -D
};

inline std::string_view RowKindShortString(RowKind k) {
  switch (k) {
    case RowKind::kInsert:
      return "+I";
    case RowKind::kUpdateBefore:
      return "-U";
    case RowKind::kUpdateAfter:
      return "+U";
    case RowKind::kDelete:
      return "-D";
  }
  return "??";
}

// +I and +U add a row to the result; -U and -D take one away.
inline bool IsAccumulate(RowKind k) { return k == RowKind::kInsert || k == RowKind::kUpdateAfter; }

}  // namespace eddy
