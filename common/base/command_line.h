// The command line as users type it, translated for absl::ParseCommandLine. absl flag names cannot
// contain '-', so `--heartbeat-timeout-ms=5` becomes `--heartbeat_timeout_ms=5`, and a program's
// one-letter aliases (`-e SQL`) become their long flags (`--execute=SQL`). Every flag is looked up
// in absl's registry and every value checked against its flag's type here, so an error names the
// flag as the user spelled it instead of absl's name for it.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace eddy {

// `-letter VALUE` (or `-letter=VALUE`) as another spelling of the flag `flag` (absl's name).
struct FlagAlias {
  char letter;
  absl::string_view flag;
};

struct TranslatedCommandLine {
  // For absl::ParseCommandLine: argv[0], each flag as `--absl_name[=value]` (a separate value
  // joined with '='), positional arguments and everything after `--` as given.
  std::vector<std::string> args;
  // --help was given (it is not passed on: the caller prints the program's usage).
  bool help = false;
};

// Translates and checks `argv` (argv[0] first). Accepted: `--name value`, `--name=value`, `-name`
// for `--name`, `--name` and `--noname` for a boolean flag, the aliases, `--help`, and absl's
// `--helpfull` and `--flagfile`. Errors: an unknown flag, a missing value, a value its flag's type
// does not parse, and an empty value for a std::optional flag (absl would read it as not given).
absl::StatusOr<TranslatedCommandLine> TranslateCommandLine(const std::vector<std::string>& argv,
                                                           absl::Span<const FlagAlias> aliases);

// `--heartbeat-timeout-ms` for absl's `heartbeat_timeout_ms`: the spelling users type.
std::string DashedFlagName(absl::string_view absl_name);

}  // namespace eddy
