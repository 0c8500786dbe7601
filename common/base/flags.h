// Minimal command-line flags for the three binaries: `--name value` or `--name=value`, boolean
// `--name`, and a one-letter alias `-x value` where one is declared. Unknown flags are errors
// naming the flag, so a typo never passes silently.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace eddy {

class FlagSet {
 public:
  // Declares a flag with its default and a help line. Boolean flags take no value.
  void Add(const std::string& name, const std::string& default_value, const std::string& help,
           bool is_bool = false);
  // `-letter` as another spelling of the declared flag `name`.
  void AddAlias(char letter, const std::string& name);
  // Parses argv; positional arguments are kept in positional().
  absl::Status Parse(int argc, char** argv);

  std::string Get(const std::string& name) const;
  absl::StatusOr<int> GetInt(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  bool IsSet(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  std::string Usage(const std::string& program) const;

  // For main(): parses argv and handles --help and bad flags by printing to stderr. Returns the
  // exit code to leave with, or nullopt to go on.
  std::optional<int> ParseOrExitCode(int argc, char** argv, const std::string& program);
  // Reads integer flags; on a bad value prints `program: message` and returns nullopt.
  std::optional<int> IntOrReport(const std::string& name, const std::string& program) const;

 private:
  struct Flag {
    std::string value;
    std::string help;
    bool is_bool = false;
    bool set = false;
  };
  std::map<std::string, Flag> flags_;
  std::map<std::string, std::string> aliases_;  // "-f" -> "file"
  std::vector<std::string> positional_;
};

}  // namespace eddy
