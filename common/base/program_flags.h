// Flag parsing for main(): the command line is translated (command_line.h) and then parsed by
// absl::ParseCommandLine, which also reads --flagfile and answers --helpfull. --help prints the
// program's usage (flag_usage.h) to stdout. A bad command line (unknown flag, missing or bad
// value, a positional argument) is reported on stderr as `program: message`, with the usage.
#pragma once

#include <optional>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "common/base/command_line.h"

namespace eddy {

// Returns the exit code to leave with (0 after --help, 2 on a bad command line), or nullopt when
// the flags are set and main() goes on. Call once, before reading any flag.
std::optional<int> ParseFlagsOrExitCode(int argc, char** argv, absl::string_view program,
                                        absl::Span<const FlagAlias> aliases = {});

}  // namespace eddy
