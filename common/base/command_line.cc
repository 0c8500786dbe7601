#include "common/base/command_line.h"

#include <cstdint>
#include <optional>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/marshalling.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

template <typename T>
bool Parses(absl::string_view value) {
  T parsed;
  std::string error;
  return absl::ParseFlag<T>(value, &parsed, &error);
}

absl::Status BadValue(absl::string_view spelled, absl::string_view expected,
                      absl::string_view value) {
  return absl::InvalidArgumentError(
      absl::StrCat("flag ", spelled, " expects ", expected, ", got '", value, "'"));
}

// Checks `value` against the types Eddy's flags have; absl checks any other type (its own flags').
absl::Status CheckValue(const absl::CommandLineFlag& flag, absl::string_view spelled,
                        absl::string_view value) {
  if (flag.IsOfType<bool>() && !Parses<bool>(value)) {
    return BadValue(spelled, "true or false", value);
  }
  if ((flag.IsOfType<int32_t>() && !Parses<int32_t>(value)) ||
      (flag.IsOfType<int64_t>() && !Parses<int64_t>(value)) ||
      (flag.IsOfType<uint64_t>() && !Parses<uint64_t>(value))) {
    return BadValue(spelled, "an integer", value);
  }
  if (flag.IsOfType<double>() && !Parses<double>(value)) {
    return BadValue(spelled, "a number", value);
  }
  if (flag.IsOfType<std::optional<std::string>>() && value.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("flag ", spelled, " needs a value"));
  }
  return absl::OkStatus();
}

// One flag argument split up: how the user spelled the flag, absl's name, the `=value` if any.
struct FlagArg {
  std::string spelled;
  std::string name;
  std::optional<std::string> value;
};

FlagArg SplitFlagArg(const std::string& arg, absl::Span<const FlagAlias> aliases) {
  const size_t dashes = absl::StartsWith(arg, "--") ? 2 : 1;
  const size_t eq = arg.find('=');
  FlagArg out;
  out.spelled = arg.substr(0, eq);
  out.name = absl::StrReplaceAll(out.spelled.substr(dashes), {{"-", "_"}});
  if (eq != std::string::npos) out.value = arg.substr(eq + 1);
  if (dashes == 1 && out.name.size() == 1) {
    for (const FlagAlias& alias : aliases) {
      if (alias.letter == out.name[0]) out.name = std::string(alias.flag);
    }
  }
  return out;
}

}  // namespace

std::string DashedFlagName(absl::string_view absl_name) {
  return absl::StrCat("--", absl::StrReplaceAll(absl_name, {{"_", "-"}}));
}

absl::StatusOr<TranslatedCommandLine> TranslateCommandLine(const std::vector<std::string>& argv,
                                                           absl::Span<const FlagAlias> aliases) {
  TranslatedCommandLine out;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    // argv[0], positional arguments and a lone "-" go through; after "--" everything does.
    if (i == 0 || arg.size() < 2 || arg[0] != '-') {
      out.args.push_back(arg);
      continue;
    }
    if (arg == "--") {
      out.args.insert(out.args.end(), argv.begin() + i, argv.end());
      break;
    }
    FlagArg f = SplitFlagArg(arg, aliases);
    // --help is Eddy's (absl's would print absl's usage); --helpfull is absl's list of every flag.
    if (f.name == "help") {
      bool help = true;
      std::string error;
      if (f.value && !absl::ParseFlag(*f.value, &help, &error)) {
        return BadValue(f.spelled, "true or false", *f.value);
      }
      out.help = out.help || help;
      continue;
    }
    if (f.name == "helpfull") {
      out.args.push_back(arg);
      continue;
    }
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(f.name);
    bool negated = false;  // --noname for a boolean flag
    if (flag == nullptr && absl::StartsWith(f.name, "no")) {
      flag = absl::FindCommandLineFlag(f.name.substr(2));
      negated = flag != nullptr && flag->IsOfType<bool>();
      if (!negated) flag = nullptr;
    }
    if (flag == nullptr || flag->IsRetired()) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag ", f.spelled));
    }
    if (negated) {
      if (f.value) {
        return absl::InvalidArgumentError(absl::StrCat("flag ", f.spelled, " takes no value"));
      }
      out.args.push_back(absl::StrCat("--", f.name));
      continue;
    }
    if (!f.value && !flag->IsOfType<bool>()) {
      if (i + 1 == argv.size()) {
        return absl::InvalidArgumentError(absl::StrCat("flag ", f.spelled, " needs a value"));
      }
      f.value = argv[++i];
    }
    if (f.value) RETURN_IF_ERROR(CheckValue(*flag, f.spelled, *f.value));
    out.args.push_back(f.value ? absl::StrCat("--", f.name, "=", *f.value)
                               : absl::StrCat("--", f.name));
  }
  return out;
}

}  // namespace eddy
