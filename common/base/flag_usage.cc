#include "common/base/flag_usage.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace eddy {
namespace {

// Where absl's own sources are, as its flags name their files ("./absl/"): the directory above
// the file that defines --flagfile. Empty when absl's parser is not linked in.
std::string AbslSourcePrefix() {
  const absl::CommandLineFlag* flagfile = absl::FindCommandLineFlag("flagfile");
  if (flagfile == nullptr) return "";
  std::string file = flagfile->Filename();
  const size_t at = file.rfind("flags/");
  return at == std::string::npos ? file : file.substr(0, at);
}

std::string DefaultNote(const absl::CommandLineFlag& flag) {
  const std::string value = flag.DefaultValue();
  if (value.empty() || (flag.IsOfType<bool>() && value == "false")) return "";
  return absl::StrCat(" (default ", value, ")");
}

}  // namespace

std::string FlagUsage(absl::string_view program, absl::Span<const FlagAlias> aliases) {
  const std::string absl_prefix = AbslSourcePrefix();
  std::vector<std::pair<std::string, std::string>> lines;  // dashed name, line
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (flag->IsRetired()) continue;
    if (!absl_prefix.empty() && absl::StartsWith(flag->Filename(), absl_prefix)) continue;
    const std::string dashed = DashedFlagName(name);
    std::string alias;
    for (const FlagAlias& a : aliases) {
      if (a.flag == name) alias = absl::StrCat("-", std::string(1, a.letter), ", ");
    }
    lines.emplace_back(
        dashed, absl::StrCat("  ", alias, dashed, flag->IsOfType<bool>() ? "" : " VALUE", "  ",
                             flag->Help(), DefaultNote(*flag), "\n"));
  }
  std::sort(lines.begin(), lines.end());
  std::string out = absl::StrCat("Usage: ", program, " [flags]\n");
  for (const auto& [dashed, line] : lines) out += line;
  absl::StrAppend(&out, "  --help  show this help\n",
                  "  --helpfull  every flag, absl's own included, in absl's spelling "
                  "(underscores for dashes)\n",
                  "  --flagfile FILE  read flags from FILE: one --name=value a line, in absl's "
                  "spelling (underscores for dashes)\n");
  return out;
}

}  // namespace eddy
