#include "worker/connectors/kafka/kafka_headers.h"

#include <librdkafka/rdkafka.h>

#include "absl/strings/str_cat.h"
#include "common/types/collection_codec.h"

namespace eddy {

DataType KafkaHeadersType() { return DataType::Map(DataType::String(), DataType::Bytes()); }

void KafkaHeadersEncoder::Encode(const rd_kafka_message_s& m, std::string* out) {
  entries_.clear();
  rd_kafka_headers_t* headers = nullptr;
  if (rd_kafka_message_headers(&m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name;
    const void* v;
    size_t size;
    for (size_t h = 0;
         rd_kafka_header_get_all(headers, h, &name, &v, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++h) {
      Entry e{
          name,
          v == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(v), size),
          v == nullptr};
      bool replaced = false;
      for (Entry& seen : entries_) {
        if (seen.name == e.name) {
          seen = e;
          replaced = true;
          break;
        }
      }
      if (!replaced) entries_.push_back(e);
    }
  }
  out->clear();
  CollectionEncoder encoder;
  encoder.Begin(out, static_cast<uint32_t>(entries_.size() * 2));
  for (const Entry& e : entries_) {
    encoder.AppendVariable(e.name);
    if (e.null) {
      encoder.AppendNull();
    } else {
      encoder.AppendVariable(e.value);
    }
  }
  encoder.Finish();
}

absl::StatusOr<rd_kafka_headers_t*> KafkaHeadersFromMap(std::string_view encoded,
                                                        const std::string& table) {
  static const DataType kType = KafkaHeadersType();
  std::vector<Slot> slots;
  if (!DecodeSlots(encoded, kType, &slots) || slots.size() % 2 != 0) {
    return absl::InternalError(absl::StrCat("table '", table, "': a malformed headers map"));
  }
  rd_kafka_headers_t* headers = rd_kafka_headers_new(slots.size() / 2);
  for (size_t i = 0; i < slots.size(); i += 2) {
    if (!slots[i].present) {
      rd_kafka_headers_destroy(headers);
      return absl::InvalidArgumentError(absl::StrCat(
          "table '", table, "': the 'headers' metadata column holds a NULL header name"));
    }
    const Slot& name = slots[i];
    const Slot& value = slots[i + 1];
    rd_kafka_header_add(headers, name.bytes.data(), static_cast<ssize_t>(name.bytes.size()),
                        value.present ? value.bytes.data() : nullptr,
                        value.present ? static_cast<ssize_t>(value.bytes.size()) : 0);
  }
  return headers;
}

}  // namespace eddy
