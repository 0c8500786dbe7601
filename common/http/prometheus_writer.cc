#include "common/http/prometheus_writer.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace eddy {
namespace {

std::string FormatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  // Integers (counts, bytes, milliseconds) print exactly up to 2^53.
  if (v == std::floor(v) && std::fabs(v) < 9.007199254740992e15) {
    return absl::StrCat(static_cast<int64_t>(v));
  }
  return absl::StrFormat("%.17g", v);
}

}  // namespace

std::string EscapePrometheusLabel(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void PrometheusWriter::Family(const std::string& name, Type type, const std::string& help) {
  auto [it, inserted] = families_.try_emplace(name);
  if (!inserted) return;
  it->second.type = type;
  it->second.help = help;
  order_.push_back(name);
}

void PrometheusWriter::Sample(const std::string& name, const MetricLabels& labels, double value) {
  auto it = families_.find(name);
  if (it == families_.end()) {
    Family(name, Type::kGauge, "");
    it = families_.find(name);
  }
  std::string& out = it->second.samples;
  out += name;
  if (!labels.empty()) {
    out += '{';
    for (size_t i = 0; i < labels.size(); ++i) {
      if (i > 0) out += ',';
      absl::StrAppend(&out, labels[i].first, "=\"", EscapePrometheusLabel(labels[i].second), "\"");
    }
    out += '}';
  }
  absl::StrAppend(&out, " ", FormatValue(value), "\n");
}

std::string PrometheusWriter::Finish() const {
  std::string out;
  for (const std::string& name : order_) {
    const FamilyData& f = families_.at(name);
    if (!f.help.empty()) absl::StrAppend(&out, "# HELP ", name, " ", f.help, "\n");
    absl::StrAppend(&out, "# TYPE ", name, " ", f.type == Type::kCounter ? "counter" : "gauge",
                    "\n", f.samples);
  }
  return out;
}

}  // namespace eddy
