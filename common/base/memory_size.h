// Memory sizes as configuration values spell them, as Flink's MemorySize does: a number with an
// optional unit, case-insensitive, a space allowed between them (1024, 64 kb, 128mb, 1 GB; b/bytes,
// k/kb/kibibytes, m/mb/mebibytes, g/gb/gibibytes, t/tb/tebibytes; no unit means bytes; the units
// are powers of 1024).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace eddy {

// Bytes, or nullopt when `text` is not such a size (or overflows).
std::optional<int64_t> ParseMemorySizeBytes(std::string_view text);

}  // namespace eddy
