// The --help text of Eddy's programs, built from absl's flag registry: each flag the program
// defines (absl's own, such as --flagfile, left out), sorted, as users type it (dashes, the
// one-letter alias), with VALUE unless boolean, its help line and its default when it has one;
// then --help, and absl's --helpfull and --flagfile.
#pragma once

#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "common/base/command_line.h"

namespace eddy {

std::string FlagUsage(absl::string_view program, absl::Span<const FlagAlias> aliases);

}  // namespace eddy
