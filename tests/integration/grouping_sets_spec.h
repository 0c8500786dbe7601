// Random GROUP BY clauses of GROUPING SETS, ROLLUP and CUBE for differential tests, each with its
// grouping sets expanded here by the standard's rules (independently of Eddy's binder), so that
// SQLite, which has no grouping sets, can answer the same query as a UNION ALL of one GROUP BY per
// set with NULL in place of the columns a set leaves out.
#pragma once

#include <random>
#include <set>
#include <string>
#include <vector>

namespace eddy::testing {

struct GroupingSetsSpec {
  std::string group_by;             // e.g. "k, ROLLUP (x, (y, k))"
  std::vector<std::set<int>> sets;  // column indices, as many times as the clause yields each
  std::set<int> keys;               // every column some set groups by
};

// A clause over `columns` of one to two elements, each a column, ROLLUP, CUBE or GROUPING SETS
// (which may hold `()`, lists and a ROLLUP), yielding at most 64 sets, none twice, not only `()`.
GroupingSetsSpec RandomGroupingSets(const std::vector<std::string>& columns, std::mt19937_64& rng);

// GROUPING_ID of `args` (column indices) in rows of `set`: a bit per argument, the first the most
// significant, 1 where the set leaves the column out.
int GroupingId(const std::vector<int>& args, const std::set<int>& set);

}  // namespace eddy::testing
