// Reads back what `print` sinks printed for `SELECT k, COUNT(*), SUM(id) ... GROUP BY k` jobs: per
// key, the largest count and sum of any line. COUNT and SUM over positive ids only grow, so once
// the job ended these are its final values, whatever was replayed after a restart or restore: a row
// counted twice pushes them above the right answer, a lost one leaves them below it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace eddy::testing {

// `printed`: print-sink lines (`+I[k, count, sum]`, ...), from any number of workers.
std::map<int64_t, std::pair<int64_t, int64_t>> LargestCountAndSumPrinted(
    const std::string& printed);

// The fault-free answer those jobs are compared with when they group ids 1..`rows` by id % 10: per
// key, the count and the sum of its ids.
std::map<int64_t, std::pair<int64_t, int64_t>> CountAndSumOfIdsModTen(int64_t rows);

// The fault-free answer of the tumbling-window jobs over ids 1..`rows` at event time id * 10 ms,
// grouped by id % 4: per (window start in seconds, key), the count and the sum of its ids, for
// windows of `window_seconds`.
std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> CountAndSumPerWindowOfIdsModFour(
    int64_t rows, int64_t window_seconds);

}  // namespace eddy::testing
