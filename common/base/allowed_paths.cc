#include "common/base/allowed_paths.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace eddy {

namespace fs = std::filesystem;

absl::StatusOr<std::string> CanonicalFilesystemPath(const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError("empty path");
  // The kernel would read the path only up to the NUL; no check is made on such a string.
  if (path.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError("the path contains a NUL character");
  }
  std::error_code ec;
  fs::path absolute = fs::absolute(fs::path(path), ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot resolve path '", path, "': ", ec.message()));
  }
  // weakly_canonical resolves the existing prefix (symlinks included) and normalizes the rest, so
  // '/allowed/missing/../../etc' becomes '/etc'.
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot resolve path '", path, "': ", ec.message()));
  }
  std::string s = canonical.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string DefaultFilesystemAllowedDir() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (ec) return "/nonexistent-working-directory";  // allows nothing real
  auto canonical = CanonicalFilesystemPath(cwd.string());
  return canonical.ok() ? *canonical : cwd.string();
}

absl::StatusOr<std::vector<std::string>> ParseFilesystemAllowedDirs(const std::string& flag_value) {
  std::vector<std::string> dirs;
  for (absl::string_view part : absl::StrSplit(flag_value, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) continue;
    auto canonical = CanonicalFilesystemPath(std::string(part));
    if (!canonical.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--filesystem-allowed-dirs: ", canonical.status().message()));
    }
    dirs.push_back(*canonical);
  }
  return dirs;
}

bool IsUnderAllowedDir(const std::string& path, const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    if (dir == "/") return true;
    if (path == dir) return true;
    if (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
        path[dir.size()] == '/') {
      return true;
    }
  }
  return false;
}

std::string AllowedDirsOf(const char* server, const std::vector<std::string>& dirs) {
  return absl::StrCat("the directories this ", server,
                      " allows (--filesystem-allowed-dirs: ", DescribeAllowedDirs(dirs), ")");
}

std::string DescribeAllowedDirs(const std::vector<std::string>& dirs) {
  if (dirs.empty()) return "none";
  std::string s;
  for (const std::string& d : dirs) {
    if (!s.empty()) s += ", ";
    absl::StrAppend(&s, "'", d, "'");
  }
  return s;
}

}  // namespace eddy
