#include "tests/integration/printed_counts.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace eddy::testing {

std::map<int64_t, std::pair<int64_t, int64_t>> LargestCountAndSumPrinted(
    const std::string& printed) {
  std::map<int64_t, std::pair<int64_t, int64_t>> largest;
  std::istringstream in(printed);
  std::string line;
  while (std::getline(in, line)) {
    const size_t open = line.find('[');
    if (open == std::string::npos) continue;
    long long k = 0, c = 0, sum = 0;
    if (std::sscanf(line.c_str() + open, "[%lld, %lld, %lld]", &k, &c, &sum) != 3) continue;
    auto& [count, total] = largest[k];
    count = std::max<int64_t>(count, c);
    total = std::max<int64_t>(total, sum);
  }
  return largest;
}

std::map<int64_t, std::pair<int64_t, int64_t>> CountAndSumOfIdsModTen(int64_t rows) {
  std::map<int64_t, std::pair<int64_t, int64_t>> expected;
  for (int64_t id = 1; id <= rows; ++id) {
    expected[id % 10].first += 1;
    expected[id % 10].second += id;
  }
  return expected;
}

std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> CountAndSumPerWindowOfIdsModFour(
    int64_t rows, int64_t window_seconds) {
  std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> sums;
  for (int64_t id = 1; id <= rows; ++id) {
    auto& [c, s] = sums[{id * 10 / (window_seconds * 1000) * window_seconds, id % 4}];
    c += 1;
    s += id;
  }
  return sums;
}

}  // namespace eddy::testing
