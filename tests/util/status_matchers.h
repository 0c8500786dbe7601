// Status assertions for GoogleTest, header-only (Debian's abseil has none):
//   ASSERT_OK(expr) / EXPECT_OK(expr)        expr is an absl::Status or absl::StatusOr<T>
//   ASSERT_OK_AND_ASSIGN(lhs, expr)          unwraps an absl::StatusOr<T> into lhs, or fails
// A failure prints the status with its message.
#pragma once

#include <gtest/gtest.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace eddy::testing_internal {

inline const absl::Status& ToStatus(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& ToStatus(const absl::StatusOr<T>& s) {
  return s.status();
}

}  // namespace eddy::testing_internal

#define EDDY_STATUS_CONCAT_INNER(a, b) a##b
#define EDDY_STATUS_CONCAT(a, b) EDDY_STATUS_CONCAT_INNER(a, b)

#define ASSERT_OK(expr)                                                           \
  do {                                                                            \
    const absl::Status eddy_status_ = ::eddy::testing_internal::ToStatus((expr)); \
    ASSERT_TRUE(eddy_status_.ok()) << #expr << ": " << eddy_status_;              \
  } while (false)

#define EXPECT_OK(expr)                                                           \
  do {                                                                            \
    const absl::Status eddy_status_ = ::eddy::testing_internal::ToStatus((expr)); \
    EXPECT_TRUE(eddy_status_.ok()) << #expr << ": " << eddy_status_;              \
  } while (false)

#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  EDDY_ASSERT_OK_AND_ASSIGN_IMPL(EDDY_STATUS_CONCAT(eddy_statusor_, __LINE__), lhs, expr)
#define EDDY_ASSERT_OK_AND_ASSIGN_IMPL(statusor, lhs, expr)         \
  auto statusor = (expr);                                           \
  ASSERT_TRUE(statusor.ok()) << #expr << ": " << statusor.status(); \
  lhs = std::move(statusor).value()
