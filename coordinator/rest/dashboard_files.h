// The dashboard's static files (coordinator/rest/dashboard/), compiled into the coordinator: the
// page, its script and its style sheet, served by RestApi at /, /dashboard.js, /dashboard.css.
#pragma once

#include <string_view>

namespace eddy {

extern const std::string_view kDashboardIndexHtml;
extern const std::string_view kDashboardJs;
extern const std::string_view kDashboardCss;

}  // namespace eddy
