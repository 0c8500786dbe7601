#include "common/base/program_flags.h"

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "common/base/flag_usage.h"

namespace eddy {

std::optional<int> ParseFlagsOrExitCode(int argc, char** argv, absl::string_view program,
                                        absl::Span<const FlagAlias> aliases) {
  const std::string name(program);
  auto translated = TranslateCommandLine(std::vector<std::string>(argv, argv + argc), aliases);
  if (!translated.ok()) {
    std::fprintf(stderr, "%s: %s\n%s", name.c_str(),
                 std::string(translated.status().message()).c_str(),
                 FlagUsage(program, aliases).c_str());
    return 2;
  }
  if (translated->help) {
    std::fputs(FlagUsage(program, aliases).c_str(), stdout);
    return 0;
  }
  // The header of absl's --helpfull, after "program: ".
  absl::SetProgramUsageMessage("flags in absl's spelling; --help lists them as typed, with dashes");
  std::vector<char*> args;
  for (std::string& arg : translated->args) args.push_back(arg.data());
  args.push_back(nullptr);  // argv[argc], as main() gets it
  std::vector<char*> positional =
      absl::ParseCommandLine(static_cast<int>(args.size()) - 1, args.data());
  if (positional.size() > 1) {
    std::fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", name.c_str(),
                 positional[1]);
    return 2;
  }
  return std::nullopt;
}

}  // namespace eddy
