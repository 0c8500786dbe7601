// Process-wide logging on top of spdlog. Logs go to stderr so that stdout stays free for print
// sinks and query results. CHECK-style helpers are for internal invariants (bugs), never for user
// errors.
#pragma once

#include <spdlog/spdlog.h>

#include <string_view>

namespace eddy {

// Sets the level from a name ("trace".."off"); unknown names keep the current level.
void InitLogging(std::string_view level);

[[noreturn]] void CheckFailed(const char* file, int line, const char* condition);

}  // namespace eddy

#define EDDY_LOG_INFO(...) ::spdlog::info(__VA_ARGS__)
#define EDDY_LOG_WARN(...) ::spdlog::warn(__VA_ARGS__)
#define EDDY_LOG_ERROR(...) ::spdlog::error(__VA_ARGS__)
#define EDDY_LOG_DEBUG(...) ::spdlog::debug(__VA_ARGS__)

#define EDDY_CHECK(cond)                                         \
  do {                                                           \
    if (!(cond)) ::eddy::CheckFailed(__FILE__, __LINE__, #cond); \
  } while (0)
