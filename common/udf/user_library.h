// Shared libraries of user-defined functions, loaded once per process and found by the SHA-256 of
// their bytes: the coordinator loads a library when CREATE FUNCTION names it (and when the catalog
// is restored), a worker when a deployment ships it. The bytes are written to a private temporary
// directory, opened with dlopen and the file removed again (the mapping stays). Libraries are
// never unloaded: tasks of other jobs may still run their code.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "common/udf/user_function.h"

namespace eddy {

class UserLibrary {
 public:
  UserLibrary(std::string name, std::string digest, std::shared_ptr<const std::string> bytes,
              void* handle)
      : name_(std::move(name)),
        digest_(std::move(digest)),
        bytes_(std::move(bytes)),
        handle_(handle) {}

  const std::string& name() const { return name_; }  // file name, for messages
  const std::string& digest() const { return digest_; }
  const std::shared_ptr<const std::string>& bytes() const { return bytes_; }
  void* handle() const { return handle_; }

 private:
  std::string name_;
  std::string digest_;
  std::shared_ptr<const std::string> bytes_;
  void* handle_;
};

// Hex SHA-256 of `bytes`.
std::string LibraryDigest(const std::string& bytes);

class UserLibraries {
 public:
  // The process's libraries.
  static UserLibraries& Global();

  // Loads `bytes` (a library called `name`, e.g. its file name) unless a library with the same
  // digest is loaded; the file goes to `dir` (created; empty: a directory of this process under
  // the system's temporary directory). Returns its digest. Errors: not a loadable library.
  absl::StatusOr<std::string> Load(std::shared_ptr<const std::string> bytes,
                                   const std::string& name, const std::string& dir = "");
  // Reads the file at `path` and loads it.
  absl::StatusOr<std::string> LoadFile(const std::string& path);

  // The function `symbol` of the loaded library `digest`, its ABI version and descriptor checked.
  absl::StatusOr<std::shared_ptr<const UserFunction>> Find(const std::string& digest,
                                                           const std::string& symbol);
  // The bytes of a loaded library; null when none has this digest.
  std::shared_ptr<const std::string> Bytes(const std::string& digest) const;
  // The loaded library `digest`; null when none.
  std::shared_ptr<const UserLibrary> Library(const std::string& digest) const;
  // Where a worker writes the libraries of job `job_id` before loading them.
  static std::string JobDirectory(const std::string& job_id);

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const UserLibrary>> libraries_;  // by digest
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const UserFunction>> functions_;
};

}  // namespace eddy
