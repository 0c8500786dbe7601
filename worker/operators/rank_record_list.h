// The rows one Top-N partition keeps, in rank order, and their encoding as one keyed state value.
// The list is a sequence of records, each a run of equal consecutive rows: the rows' sort key
// (SortKeyEncoder bytes, whose byte order is the rank order), the row (KeyEncoder bytes over all
// input columns) and its number of copies. Rows with equal sort keys keep their arrival order: a
// new row goes after its ties, and joins the record before it when that is the same row.
//
// A decoded list holds views: into the state value it was decoded from, and into the encodings of
// the input batch being applied; both must outlive the list's use for that batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace eddy {

struct RankRecord {
  std::string_view sort_key;
  std::string_view row;
  int64_t count = 0;  // > 0
};

// A row of the list: a record and one of its copies (0-based).
struct RankCursor {
  size_t record = 0;
  int64_t copy = 0;
};

class RankRecordList {
 public:
  static constexpr size_t kNotFound = static_cast<size_t>(-1);

  // Value layout: a format byte (1), a varint record count, then per record the varint length and
  // bytes of its sort key, the varint length and bytes of its row, and a varint count.
  void Clear();
  // Replaces the contents with the records of `value` (views into it). DataLoss when malformed.
  absl::Status Decode(std::string_view value);
  // Appends the encoding to `out`.
  void Encode(std::string* out) const;

  size_t size() const { return records_.size(); }  // records
  const RankRecord& at(size_t i) const { return records_[i]; }
  int64_t rows() const { return rows_; }  // copies of all records
  bool empty() const { return rows_ == 0; }
  // Changed since Clear/Decode.
  bool dirty() const { return dirty_; }

  // The index of the first record whose sort key is above `sort_key`: where a new row goes.
  size_t UpperBound(std::string_view sort_key) const;
  // The index of the first record whose sort key is not below `sort_key`: where a new row goes
  // when it ranks before its ties (the later arrival first).
  size_t LowerBound(std::string_view sort_key) const;
  // The 1-based rank of the first row of record `index` (rows() + 1 for index == size()); counting
  // stops above `limit`, returning limit + 1 for any rank beyond it.
  int64_t RankOf(size_t index, int64_t limit) const;
  // The record holding the first copy of `row` among the rows with `sort_key`, or kNotFound.
  size_t Find(std::string_view sort_key, std::string_view row) const;

  // Inserts one copy of `row` (with `sort_key`) before record `index`, which must be
  // UpperBound(sort_key) or LowerBound(sort_key); an equal row in the record before or at `index`
  // gets one more copy instead.
  void Insert(size_t index, std::string_view sort_key, std::string_view row);
  // Removes one copy of record `index`'s row.
  void RemoveOne(size_t index);
  // Keeps the first `n` rows.
  void Truncate(int64_t n);

  // Walking the rows in rank order: the row under a cursor, and the cursor moved on by `n` rows
  // (past the end: record == size()).
  const RankRecord& RecordAt(const RankCursor& c) const { return records_[c.record]; }
  void Advance(RankCursor* c, int64_t n) const;

 private:
  std::vector<RankRecord> records_;
  int64_t rows_ = 0;
  bool dirty_ = false;
};

}  // namespace eddy
