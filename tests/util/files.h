// Reading what the code under test wrote: a whole file, and a directory's entry names.
#pragma once

#include <string>
#include <vector>

namespace eddy::testing {

// The file's bytes; empty when it cannot be read.
std::string ReadFileToString(const std::string& path);
// The names of the directory's entries (hidden ones included), sorted; empty when it is missing.
std::vector<std::string> ListDirectory(const std::string& dir);

}  // namespace eddy::testing
