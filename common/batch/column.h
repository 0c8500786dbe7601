// One typed column of a batch: fixed-width values in a byte buffer (layout per PhysicalWidth), or
// strings as offsets into a heap, plus a validity bitmap (bit set = value present; an empty bitmap
// means no nulls). Appends are amortized O(1) and allocate only when buffers grow.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/types/data_type.h"
#include "common/types/value.h"

namespace eddy {

class Column {
 public:
  Column() = default;
  explicit Column(DataType type);

  Column(Column&&) noexcept = default;
  Column& operator=(Column&&) noexcept = default;
  Column(const Column&) = default;  // explicit copies are allowed for columns (fan-out, tests)
  Column& operator=(const Column&) = default;

  const DataType& type() const { return type_; }
  size_t size() const { return size_; }
  bool is_string() const { return width_ == 0; }
  int width() const { return width_; }

  void Reserve(size_t rows);
  void Clear();

  bool IsNull(size_t row) const {
    return !validity_.empty() && !(validity_[row >> 3] & (1u << (row & 7)));
  }
  bool HasNulls() const { return null_count_ > 0; }
  size_t null_count() const { return null_count_; }

  // Fixed-width access. T must match the physical layout of type().
  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(data_.data());
  }
  template <typename T>
  T* mutable_data() {
    return reinterpret_cast<T*>(data_.data());
  }
  template <typename T>
  T Get(size_t row) const {
    T v;
    std::memcpy(&v, data_.data() + row * sizeof(T), sizeof(T));
    return v;
  }

  std::string_view GetString(size_t row) const {
    return std::string_view(heap_.data() + offsets_[row], offsets_[row + 1] - offsets_[row]);
  }

  template <typename T>
  void Append(T v) {
    size_t pos = data_.size();
    data_.resize(pos + sizeof(T));
    std::memcpy(data_.data() + pos, &v, sizeof(T));
    MarkValid();
  }
  void AppendString(std::string_view s);
  void AppendNull();
  // Appends `n` NULLs.
  void AppendNulls(size_t n);
  // Appends row `row` of `src` (same physical type).
  void AppendFrom(const Column& src, size_t row);
  // Appends rows [begin, end) of `src`.
  void AppendRange(const Column& src, size_t begin, size_t end);

  // Boxed access for cold paths (VALUES, printing, tests).
  Value GetValue(size_t row) const;
  void AppendValue(const Value& v);  // v must match type(); ints are narrowed to the physical width

  // Raw buffers, for the wire codec.
  const std::vector<uint8_t>& raw_data() const { return data_; }
  const std::vector<uint8_t>& raw_validity() const { return validity_; }
  const std::vector<uint32_t>& raw_offsets() const { return offsets_; }
  const std::string& raw_heap() const { return heap_; }
  // Rebuilds a column from raw buffers; the caller (the codec) validates sizes first.
  static Column FromRaw(DataType type, size_t size, std::vector<uint8_t> data,
                        std::vector<uint8_t> validity, std::vector<uint32_t> offsets,
                        std::string heap);

 private:
  void MarkValid() {
    if (!validity_.empty()) SetValidBit(size_, true);
    ++size_;
    if (width_ == 0) offsets_.push_back(static_cast<uint32_t>(heap_.size()));
  }
  void SetValidBit(size_t row, bool valid);
  void MaterializeValidity();

  DataType type_;
  int width_ = 0;
  size_t size_ = 0;
  size_t null_count_ = 0;
  std::vector<uint8_t> data_;
  std::vector<uint8_t> validity_;
  std::vector<uint32_t> offsets_{0};  // strings only: size_ + 1 entries
  std::string heap_;
};

}  // namespace eddy
