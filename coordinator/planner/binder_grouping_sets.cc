// The grouping sets of a GROUP BY clause, as Calcite's SqlValidatorUtil.analyzeGroupItem and
// AggregatingSelectScope derive them: each element contributes sets (an expression or a list
// `(a, b)` one set, `()` the empty set, GROUPING SETS those of its elements, ROLLUP its prefixes
// longest first, CUBE every subset), and the clause groups by every union of one set per element
// (`GROUP BY a, ROLLUP (b, c)` = {a, b, c}, {a, b}, {a}).
#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/base/status_macros.h"
#include "common/sql/ast_debug.h"
#include "coordinator/planner/binder.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
namespace {

using KeySet = std::vector<int>;  // positions in the group keys, ascending

constexpr size_t kMaxGroupingSets = 4096;
// Flink keeps a row's grouping set in a BIGINT bit vector (`$e`, GROUPING_ID).
constexpr size_t kMaxGroupingKeys = 63;

KeySet Union(const KeySet& a, const KeySet& b) {
  KeySet out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// Calcite's ImmutableBitSet.COMPARATOR: a set before the sets it contains, otherwise
// lexicographically (a prefix first).
bool Before(const KeySet& a, const KeySet& b) {
  if (a == b) return false;
  if (std::includes(a.begin(), a.end(), b.begin(), b.end())) return true;
  if (std::includes(b.begin(), b.end(), a.begin(), a.end())) return false;
  return a < b;
}

class GroupingSetsBinder {
 public:
  explicit GroupingSetsBinder(const GroupKeyBinder& add_key) : add_key_(add_key) {}

  // The sets one element of GROUP BY or GROUPING SETS contributes.
  absl::StatusOr<std::vector<KeySet>> Element(const sql::Expr& e) {
    if (e.kind != sql::ExprKind::kGroupingElement || e.op == "()") {
      ASSIGN_OR_RETURN(KeySet set, Flat(e));
      return std::vector<KeySet>{std::move(set)};
    }
    std::vector<KeySet> sets;
    if (e.op == "GROUPING SETS") {
      for (const sql::ExprPtr& element : e.args) {
        ASSIGN_OR_RETURN(std::vector<KeySet> more, Element(*element));
        sets.insert(sets.end(), more.begin(), more.end());
        if (sets.size() > kMaxGroupingSets)
          return TooMany(e, absl::StrCat("more than ", kMaxGroupingSets));
      }
      return sets;
    }
    std::vector<KeySet> items;
    for (const sql::ExprPtr& item : e.args) {
      ASSIGN_OR_RETURN(KeySet set, Flat(*item));
      items.push_back(std::move(set));
    }
    if (e.op == "ROLLUP") {
      for (size_t n = items.size() + 1; n-- > 0;) {
        KeySet prefix;
        for (size_t i = 0; i < n; ++i) prefix = Union(prefix, items[i]);
        sets.push_back(std::move(prefix));
      }
      return sets;
    }
    // CUBE
    if (items.size() > 12) return TooMany(e, absl::StrCat("2^", items.size()));
    for (size_t mask = 0; mask < (size_t{1} << items.size()); ++mask) {
      KeySet subset;
      for (size_t i = 0; i < items.size(); ++i) {
        if (mask & (size_t{1} << i)) subset = Union(subset, items[i]);
      }
      sets.push_back(std::move(subset));
    }
    return sets;
  }

  // The one set an expression or a parenthesized list stands for.
  absl::StatusOr<KeySet> Flat(const sql::Expr& e) {
    if (e.kind == sql::ExprKind::kGroupingElement && e.op == "()") {
      KeySet set;
      for (const sql::ExprPtr& item : e.args) {
        ASSIGN_OR_RETURN(KeySet more, Flat(*item));
        set = Union(set, more);
      }
      return set;
    }
    if (e.kind == sql::ExprKind::kGroupingElement) {  // not produced by the parser
      return ValidationErrorAt(e.pos, absl::StrCat(e.op, " cannot be nested here"));
    }
    ASSIGN_OR_RETURN(std::vector<int> positions, add_key_(e));
    for (int p : positions) names_.try_emplace(p, sql::DebugString(e));
    std::sort(positions.begin(), positions.end());
    return positions;
  }

  size_t num_keys() const { return names_.size(); }

  std::string Describe(const KeySet& set) const {
    std::vector<std::string> names;
    for (int p : set) names.push_back(names_.at(p));
    return absl::StrCat("(", absl::StrJoin(names, ", "), ")");
  }

 private:
  // "<op> gives <how_many> grouping sets; at most 4096 are supported"
  static absl::Status TooMany(const sql::Expr& e, const std::string& how_many) {
    return ValidationErrorAt(
        e.pos, absl::StrCat(e.op, " gives ", how_many, " grouping sets; at most ", kMaxGroupingSets,
                            " are supported"));
  }

  const GroupKeyBinder& add_key_;
  std::map<int, std::string> names_;  // a key's first expression, by position
};

}  // namespace

absl::StatusOr<std::vector<std::vector<int>>> BindGroupingSets(
    const std::vector<sql::ExprPtr>& group_by, const GroupKeyBinder& add_key) {
  GroupingSetsBinder binder(add_key);
  std::vector<KeySet> sets = {KeySet{}};
  for (const sql::ExprPtr& element : group_by) {
    ASSIGN_OR_RETURN(std::vector<KeySet> options, binder.Element(*element));
    if (sets.size() * options.size() > kMaxGroupingSets) {
      return ValidationErrorAt(
          group_by.front()->pos,
          absl::StrCat("GROUP BY gives ", sets.size() * options.size(), " grouping sets; at most ",
                       kMaxGroupingSets, " are supported"));
    }
    std::vector<KeySet> product;
    for (const KeySet& set : sets) {
      for (const KeySet& option : options) product.push_back(Union(set, option));
    }
    sets = std::move(product);
  }
  // Calcite keeps one row per occurrence of a repeated set (GROUP_ID() tells them apart), which
  // needs a union of aggregates; refused here.
  std::map<KeySet, size_t> occurrences;
  for (const KeySet& set : sets) ++occurrences[set];
  for (const KeySet& set : sets) {
    if (occurrences[set] == 1) continue;
    return ValidationErrorAt(
        group_by.front()->pos,
        absl::StrCat("the grouping set ", binder.Describe(set), " occurs ", occurrences[set],
                     " times in GROUP BY; duplicate grouping sets are not "
                     "supported"));
  }
  // Calcite's order (an insertion sort: the comparator is no strict weak order in general).
  std::vector<KeySet> sorted;
  for (KeySet& set : sets) {
    auto at = sorted.begin();
    while (at != sorted.end() && !Before(set, *at)) ++at;
    sorted.insert(at, std::move(set));
  }
  if (sorted.size() > 1 && binder.num_keys() > kMaxGroupingKeys) {
    return ValidationErrorAt(
        group_by.front()->pos,
        absl::StrCat("GROUPING SETS, ROLLUP and CUBE take at most ", kMaxGroupingKeys,
                     " group keys, got ", binder.num_keys()));
  }
  return sorted;
}

}  // namespace eddy::planner
