// A Kafka record's headers as the `headers` metadata column holds them: Flink's MAP<STRING, BYTES>,
// in the canonical collection encoding (common/types/collection_codec.h). Reading keeps the
// headers' order, and of a repeated name the last value (as Flink's map); writing adds one header
// per entry.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/types/data_type.h"

struct rd_kafka_message_s;
typedef struct rd_kafka_headers_s rd_kafka_headers_t;

namespace eddy {

// MAP<STRING, BYTES>: the type of the `headers` metadata.
DataType KafkaHeadersType();

// Encodes the headers of record `m` (none: an empty map) into *out (cleared first).
class KafkaHeadersEncoder {
 public:
  void Encode(const rd_kafka_message_s& m, std::string* out);

 private:
  struct Entry {
    std::string_view name;
    std::string_view value;
    bool null = false;
  };
  std::vector<Entry> entries_;  // reused across records
};

// A new librdkafka header list holding the entries of an encoded MAP<STRING, BYTES> (the caller
// owns it, or hands it to rd_kafka_producev). A NULL name is an error naming `table`.
absl::StatusOr<rd_kafka_headers_t*> KafkaHeadersFromMap(std::string_view encoded,
                                                        const std::string& table);

}  // namespace eddy
