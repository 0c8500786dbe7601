#include "common/base/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <string>

namespace eddy {

void InitLogging(std::string_view level) {
  static bool initialized = [] {
    auto logger = spdlog::stderr_color_mt("eddy");
    logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ [%t] %v");
    spdlog::set_default_logger(logger);
    return true;
  }();
  (void)initialized;
  auto parsed = spdlog::level::from_str(std::string(level));
  if (parsed != spdlog::level::off || level == "off") spdlog::set_level(parsed);
}

void CheckFailed(const char* file, int line, const char* condition) {
  spdlog::critical("check failed at {}:{}: {}", file, line, condition);
  std::abort();
}

}  // namespace eddy
