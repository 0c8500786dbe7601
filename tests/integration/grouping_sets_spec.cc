#include "tests/integration/grouping_sets_spec.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace eddy::testing {
namespace {

using Sets = std::vector<std::set<int>>;

std::set<int> Union(const std::set<int>& a, const std::set<int>& b) {
  std::set<int> out = a;
  out.insert(b.begin(), b.end());
  return out;
}

class Generator {
 public:
  Generator(const std::vector<std::string>& columns, std::mt19937_64& rng)
      : columns_(columns), rng_(rng) {}

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // A column, or a parenthesized list of two: one set.
  std::pair<std::string, std::set<int>> Item() {
    const int a = Pick(static_cast<int>(columns_.size()));
    if (Pick(3) > 0) return {columns_[a], {a}};
    const int b = Pick(static_cast<int>(columns_.size()));
    return {absl::StrCat("(", columns_[a], ", ", columns_[b], ")"), {a, b}};
  }

  std::pair<std::string, Sets> Rollup() {
    std::vector<std::string> texts;
    std::vector<std::set<int>> items;
    for (int i = 0, n = 1 + Pick(3); i < n; ++i) {
      auto [text, set] = Item();
      texts.push_back(text);
      items.push_back(set);
    }
    Sets sets;
    for (size_t n = items.size() + 1; n-- > 0;) {
      std::set<int> prefix;
      for (size_t i = 0; i < n; ++i) prefix = Union(prefix, items[i]);
      sets.push_back(prefix);
    }
    return {absl::StrCat("ROLLUP (", absl::StrJoin(texts, ", "), ")"), sets};
  }

  std::pair<std::string, Sets> Cube() {
    std::vector<std::string> texts;
    std::vector<std::set<int>> items;
    for (int i = 0, n = 1 + Pick(2); i < n; ++i) {
      auto [text, set] = Item();
      texts.push_back(text);
      items.push_back(set);
    }
    Sets sets;
    for (size_t mask = 0; mask < (size_t{1} << items.size()); ++mask) {
      std::set<int> subset;
      for (size_t i = 0; i < items.size(); ++i) {
        if (mask & (size_t{1} << i)) subset = Union(subset, items[i]);
      }
      sets.push_back(subset);
    }
    return {absl::StrCat("CUBE (", absl::StrJoin(texts, ", "), ")"), sets};
  }

  std::pair<std::string, Sets> GroupingSets() {
    std::vector<std::string> texts;
    Sets sets;
    for (int i = 0, n = 1 + Pick(3); i < n; ++i) {
      switch (Pick(4)) {
        case 0:
          texts.push_back("()");
          sets.push_back({});
          break;
        case 1: {
          auto [text, more] = Rollup();
          texts.push_back(text);
          sets.insert(sets.end(), more.begin(), more.end());
          break;
        }
        default: {
          auto [text, set] = Item();
          texts.push_back(text);
          sets.push_back(set);
          break;
        }
      }
    }
    return {absl::StrCat("GROUPING SETS (", absl::StrJoin(texts, ", "), ")"), sets};
  }

  std::pair<std::string, Sets> Element() {
    switch (Pick(4)) {
      case 0: {
        const int c = Pick(static_cast<int>(columns_.size()));
        return {columns_[c], {{c}}};
      }
      case 1:
        return Rollup();
      case 2:
        return Cube();
      default:
        return GroupingSets();
    }
  }

 private:
  const std::vector<std::string>& columns_;
  std::mt19937_64& rng_;
};

}  // namespace

GroupingSetsSpec RandomGroupingSets(const std::vector<std::string>& columns, std::mt19937_64& rng) {
  Generator gen(columns, rng);
  for (;;) {
    GroupingSetsSpec spec;
    std::vector<std::string> texts;
    Sets sets = {{}};
    for (int i = 0, n = 1 + gen.Pick(2); i < n; ++i) {
      auto [text, options] = gen.Element();
      texts.push_back(text);
      Sets product;
      for (const std::set<int>& set : sets) {
        for (const std::set<int>& option : options) product.push_back(Union(set, option));
      }
      sets = std::move(product);
    }
    std::set<std::set<int>> distinct(sets.begin(), sets.end());
    // Eddy refuses duplicate sets; GROUPING needs a key.
    if (distinct.size() != sets.size() || sets.size() > 64 ||
        (distinct.size() == 1 && distinct.begin()->empty())) {
      continue;
    }
    spec.group_by = absl::StrJoin(texts, ", ");
    spec.sets = std::move(sets);
    for (const std::set<int>& set : spec.sets) spec.keys.insert(set.begin(), set.end());
    return spec;
  }
}

int GroupingId(const std::vector<int>& args, const std::set<int>& set) {
  int id = 0;
  for (int arg : args) id = (id << 1) | (set.count(arg) ? 0 : 1);
  return id;
}

}  // namespace eddy::testing
