// CRC-32 (zlib's polynomial) of files and byte ranges: checkpoint files record the checksum of
// their bytes when written, and a restore recomputes it before trusting them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace eddy {

// Continues `crc` (0 to start) over `n` bytes.
uint32_t Crc32Update(uint32_t crc, const void* data, size_t n);

struct FileChecksum {
  uint64_t size = 0;
  uint32_t crc32 = 0;
};

// Reads the whole file; an error names it.
absl::StatusOr<FileChecksum> ChecksumFile(const std::string& path);

}  // namespace eddy
