// Writes metrics in the Prometheus text exposition format (version 0.0.4): each family once with
// its HELP and TYPE lines, then its samples, label values escaped. Samples of one family may be
// added from several places: the writer groups them by family when Finish() renders the text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace eddy {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class PrometheusWriter {
 public:
  static constexpr const char* kContentType = "text/plain; version=0.0.4; charset=utf-8";

  enum class Type { kCounter, kGauge };

  // Declares a family; later calls with the same name keep the first declaration.
  void Family(const std::string& name, Type type, const std::string& help);
  // One sample of a declared family (an undeclared one is declared as an untyped gauge).
  void Sample(const std::string& name, const MetricLabels& labels, double value);
  void Sample(const std::string& name, const MetricLabels& labels, int64_t value) {
    Sample(name, labels, static_cast<double>(value));
  }
  void Sample(const std::string& name, const MetricLabels& labels, uint64_t value) {
    Sample(name, labels, static_cast<double>(value));
  }
  void Sample(const std::string& name, const MetricLabels& labels, int value) {
    Sample(name, labels, static_cast<double>(value));
  }

  // The exposition text, families in declaration order.
  std::string Finish() const;

 private:
  struct FamilyData {
    Type type = Type::kGauge;
    std::string help;
    std::string samples;  // rendered sample lines
  };
  std::vector<std::string> order_;
  std::map<std::string, FamilyData> families_;
};

// A label value or HELP text escaped as the format wants (backslash, quote, newline).
std::string EscapePrometheusLabel(const std::string& value);

}  // namespace eddy
