// The canonical binary encoding of ARRAY, MAP and ROW values. A collection value is one
// variable-length value in a column (as STRING is), so batches, the wire, the hash shuffle, state
// and checkpoints carry it unchanged; equal values have equal bytes, so grouping, DISTINCT, joins
// and `=` compare the bytes.
//
// A value is a sequence of slots (little-endian throughout):
//   uint32 slot_count | presence bitmap, ceil(slot_count / 8) bytes, bit set = not NULL |
//   the present slots' values in order
// ARRAY<T>: one slot per element. MAP<K, V>: two slots per entry, key then value, entries in the
// order of their first insertion with unique keys (a later duplicate key replaces the value, as
// Flink's MAP constructor does). ROW: one slot per field. A slot value is PhysicalWidth(T) bytes
// for a fixed-width type (BOOLEAN 0/1), or uint32 length followed by the bytes for STRING and
// nested collections. NULL slots take no value bytes and their bitmap bit is 0; unused bitmap bits
// are 0.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/types/data_type.h"
#include "common/types/value.h"

namespace eddy {

// Whether a and b are the same type when every nullability (the children's too), VARCHAR length
// and ROW field name is ignored: a value of one is a value of the other, byte for byte, as a ROW
// converts to another ROW field by field (inside collections a VARCHAR(n) length is not enforced).
bool SameIgnoringNullability(const DataType& a, const DataType& b);

// The type of slot `i` of a collection of type `t`.
const DataType& SlotType(const DataType& t, size_t i);

// Builds one encoded value, slot by slot, appended to a caller's string (reused across rows).
class CollectionEncoder {
 public:
  // Starts a value of `slots` slots at the end of *out.
  void Begin(std::string* out, uint32_t slots);
  void AppendNull() { ++slot_; }
  void AppendFixed(const void* bytes, int width);
  void AppendVariable(std::string_view bytes);
  // A boxed value of type t (Value's representation, value.h).
  void AppendValue(const Value& v, const DataType& t);
  // Ends the value; slots not appended are NULL.
  void Finish();

 private:
  void MarkPresent();
  std::string* out_ = nullptr;
  size_t bitmap_at_ = 0;
  uint32_t slots_ = 0;
  uint32_t slot_ = 0;
};

// One decoded slot: NULL, or its value bytes (PhysicalWidth bytes or the variable-length content).
struct Slot {
  bool present = false;
  std::string_view bytes;
};

// Decodes `encoded` (a value of collection type t) into *slots (cleared first). False when the
// bytes are malformed.
bool DecodeSlots(std::string_view encoded, const DataType& t, std::vector<Slot>* slots);

// Number of elements (ARRAY) or entries (MAP) of a well-formed value, without decoding the rest.
uint32_t CollectionCardinality(std::string_view encoded, const DataType& t);

// The boxed value of a present slot of type t.
Value SlotValue(const Slot& slot, const DataType& t);

// Text as Flink's SQL client shows it: [1, 2], {a=1, b=2}, (1, a); NULL elements as NULL.
std::string FormatCollection(std::string_view encoded, const DataType& t);

}  // namespace eddy
