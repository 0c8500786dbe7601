#include "common/base/flags.h"

#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace eddy {

void FlagSet::Add(const std::string& name, const std::string& default_value,
                  const std::string& help, bool is_bool) {
  flags_[name] = Flag{default_value, help, is_bool, false};
}

void FlagSet::AddAlias(char letter, const std::string& name) {
  aliases_[std::string("-") + letter] = name;
}

absl::Status FlagSet::Parse(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (auto alias = aliases_.find(arg); alias != aliases_.end()) arg = "--" + alias->second;
    if (arg.size() < 2 || arg.substr(0, 2) != "--") {
      positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto it = flags_.find(name);
    if (it == flags_.end()) return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
    Flag& f = it->second;
    if (!has_value) {
      if (f.is_bool) {
        value = "true";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        return absl::InvalidArgumentError(absl::StrCat("flag --", name, " needs a value"));
      }
    }
    f.value = value;
    f.set = true;
  }
  return absl::OkStatus();
}

std::string FlagSet::Get(const std::string& name) const {
  auto it = flags_.find(name);
  return it == flags_.end() ? "" : it->second.value;
}

absl::StatusOr<int> FlagSet::GetInt(const std::string& name) const {
  int v = 0;
  std::string s = Get(name);
  if (!absl::SimpleAtoi(s, &v)) {
    return absl::InvalidArgumentError(absl::StrCat("flag --", name, " expects an integer, got '", s, "'"));
  }
  return v;
}

bool FlagSet::GetBool(const std::string& name) const {
  std::string v = Get(name);
  return v == "true" || v == "1" || v == "yes";
}

bool FlagSet::IsSet(const std::string& name) const {
  auto it = flags_.find(name);
  return it != flags_.end() && it->second.set;
}

std::string FlagSet::Usage(const std::string& program) const {
  std::string out = absl::StrCat("Usage: ", program, " [flags]\n");
  for (const auto& [name, f] : flags_) {
    std::string alias;
    for (const auto& [a, target] : aliases_) {
      if (target == name) alias = a + ", ";
    }
    absl::StrAppend(&out, "  ", alias, "--", name, f.is_bool ? "" : " VALUE", "  ", f.help,
                    f.value.empty() || f.is_bool ? "" : absl::StrCat(" (default ", f.value, ")"),
                    "\n");
  }
  return out;
}

std::optional<int> FlagSet::ParseOrExitCode(int argc, char** argv, const std::string& program) {
  absl::Status s = Parse(argc, argv);
  if (s.ok() && !GetBool("help")) return std::nullopt;
  if (!s.ok()) std::fprintf(stderr, "%s: %s\n", program.c_str(), std::string(s.message()).c_str());
  std::fprintf(stderr, "%s", Usage(program).c_str());
  return s.ok() ? 0 : 2;
}

std::optional<int> FlagSet::IntOrReport(const std::string& name, const std::string& program) const {
  auto v = GetInt(name);
  if (v.ok()) return *v;
  std::fprintf(stderr, "%s: %s\n", program.c_str(), std::string(v.status().message()).c_str());
  return std::nullopt;
}

}  // namespace eddy
