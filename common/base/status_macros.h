// Status propagation macros for absl::Status / absl::StatusOr (Debian's abseil ships none).
// RETURN_IF_ERROR(expr) returns a non-OK status; ASSIGN_OR_RETURN(lhs, expr) unwraps a StatusOr.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define EDDY_STATUS_CONCAT_INNER(a, b) a##b
#define EDDY_STATUS_CONCAT(a, b) EDDY_STATUS_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                    \
  do {                                           \
    ::absl::Status eddy_status_ = (expr);        \
    if (!eddy_status_.ok()) return eddy_status_; \
  } while (0)

#define EDDY_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                               \
  if (!tmp.ok()) return std::move(tmp).status();   \
  lhs = std::move(tmp).value()

#define ASSIGN_OR_RETURN(lhs, expr) \
  EDDY_ASSIGN_OR_RETURN_IMPL(EDDY_STATUS_CONCAT(eddy_statusor_, __LINE__), lhs, expr)
