#include "common/udf/user_library.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

std::string DefaultDir() {
  return (std::filesystem::temp_directory_path() / absl::StrCat("eddy-udf-", getpid())).string();
}

}  // namespace

std::string LibraryDigest(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 15]);
  }
  return out;
}

UserLibraries& UserLibraries::Global() {
  static UserLibraries* libraries = new UserLibraries();
  return *libraries;
}

absl::StatusOr<std::string> UserLibraries::Load(std::shared_ptr<const std::string> bytes,
                                                const std::string& name, const std::string& dir) {
  std::string digest = LibraryDigest(*bytes);
  std::lock_guard<std::mutex> lock(mu_);
  if (libraries_.count(digest) > 0) return digest;
  const std::filesystem::path where = dir.empty() ? DefaultDir() : dir;
  std::error_code ec;
  std::filesystem::create_directories(where, ec);
  if (ec) {
    return absl::InternalError(absl::StrCat("Cannot create the directory '", where.string(),
                                            "' for user function library '", name,
                                            "': ", ec.message()));
  }
  const std::filesystem::path file = where / absl::StrCat(digest, ".so");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
    out.close();
    if (!out) {
      return absl::InternalError(
          absl::StrCat("Cannot write user function library '", name, "' to ", file.string()));
    }
  }
  dlerror();
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char* why = handle == nullptr ? dlerror() : nullptr;
  std::filesystem::remove(file, ec);   // the mapping outlives the file
  std::filesystem::remove(where, ec);  // only when empty
  if (handle == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("Cannot load user function library '", name,
                                                   "': ", why != nullptr ? why : "dlopen failed"));
  }
  libraries_[digest] = std::make_shared<const UserLibrary>(name, digest, std::move(bytes), handle);
  return digest;
}

absl::StatusOr<std::string> UserLibraries::LoadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("Cannot read user function library '", path, "': no such readable file"));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  auto bytes = std::make_shared<const std::string>(buffer.str());
  return Load(std::move(bytes), std::filesystem::path(path).filename().string());
}

absl::StatusOr<std::shared_ptr<const UserFunction>> UserLibraries::Find(const std::string& digest,
                                                                        const std::string& symbol) {
  std::lock_guard<std::mutex> lock(mu_);
  auto known = functions_.find({digest, symbol});
  if (known != functions_.end()) return known->second;
  auto it = libraries_.find(digest);
  if (it == libraries_.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("User function library ", digest.substr(0, 12), " is not loaded"));
  }
  const UserLibrary& library = *it->second;
  dlerror();
  void* address = dlsym(library.handle(), symbol.c_str());
  if (address == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Symbol '", symbol, "' not found in user function library '", library.name(), "'"));
  }
  using DescribeFn = const EddyUdfDescriptor* (*)();
  const EddyUdfDescriptor* descriptor = reinterpret_cast<DescribeFn>(address)();
  ASSIGN_OR_RETURN(std::shared_ptr<const UserFunction> fn,
                   UserFunction::FromDescriptor(it->second, symbol, descriptor));
  functions_[{digest, symbol}] = fn;
  return fn;
}

std::shared_ptr<const std::string> UserLibraries::Bytes(const std::string& digest) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = libraries_.find(digest);
  return it == libraries_.end() ? nullptr : it->second->bytes();
}

}  // namespace eddy

namespace eddy {

std::shared_ptr<const UserLibrary> UserLibraries::Library(const std::string& digest) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = libraries_.find(digest);
  return it == libraries_.end() ? nullptr : it->second;
}

std::string UserLibraries::JobDirectory(const std::string& job_id) {
  return (std::filesystem::path(DefaultDir()) / job_id).string();
}

}  // namespace eddy
