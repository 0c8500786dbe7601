// Kernels of the collection functions (collection_functions.h) over columns of encoded values
// (common/types/collection_codec.h). Each row's value is built in the output heap directly; the
// decoded slots reuse one vector per batch.
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/expr/collection_functions.h"
#include "common/expr/eval_internal.h"
#include "common/types/collection_codec.h"

namespace eddy {

using eval_internal::ArgList;
using eval_internal::DispatchFixed;
using eval_internal::FixedBuilder;
using eval_internal::StringBuilder;

namespace {

// The bytes of a present value in a column: its fixed-width value or its string.
std::string_view RowBytes(const Column& c, size_t row) {
  if (c.is_string()) return c.GetString(row);
  const int w = c.width();
  return std::string_view(reinterpret_cast<const char*>(c.raw_data().data()) + row * w, w);
}

void AppendColumnSlot(const Column& c, size_t row, CollectionEncoder* e) {
  if (c.IsNull(row) || c.type().id == TypeId::kNull) {
    e->AppendNull();
  } else if (c.is_string()) {
    e->AppendVariable(c.GetString(row));
  } else {
    std::string_view b = RowBytes(c, row);
    e->AppendFixed(b.data(), static_cast<int>(b.size()));
  }
}

// Appends a decoded slot to a column of the slot's type.
void AppendSlot(const Slot& s, Column* out) {
  if (!s.present) {
    out->AppendNull();
  } else if (out->is_string()) {
    out->AppendString(s.bytes);
  } else {
    DispatchFixed(out->type().id, [&](auto t) {
      using T = decltype(t);
      T v;
      std::memcpy(&v, s.bytes.data(), sizeof(T));
      out->Append<T>(v);
    });
  }
}

absl::Status Malformed(const Expr& call) {
  return eval_internal::InternalError(call, "malformed collection value");
}

Column EvalArray(const Expr& call, const ArgList& args, size_t n) {
  StringBuilder b(call.type, n);
  CollectionEncoder e;
  for (size_t r = 0; r < n; ++r) {
    e.Begin(&b.heap(), static_cast<uint32_t>(args.size()));
    for (const Column* a : args) AppendColumnSlot(*a, r, &e);
    e.Finish();
    b.Commit();
  }
  return b.Finish();
}

// MAP[k1, v1, ...]: keys unique in order of first appearance, the last value of a duplicate key.
Column EvalMap(const Expr& call, const ArgList& args, size_t n) {
  StringBuilder b(call.type, n);
  CollectionEncoder e;
  const size_t pairs = args.size() / 2;
  std::vector<size_t> value_of(pairs);  // the pair whose value entry i takes
  std::vector<size_t> entries;          // pairs kept, in order
  for (size_t r = 0; r < n; ++r) {
    entries.clear();
    for (size_t p = 0; p < pairs; ++p) {
      const Column& k = *args[2 * p];
      const bool null = k.IsNull(r) || k.type().id == TypeId::kNull;
      size_t found = entries.size();
      for (size_t j = 0; j < entries.size(); ++j) {
        const Column& kj = *args[2 * entries[j]];
        const bool null_j = kj.IsNull(r) || kj.type().id == TypeId::kNull;
        if (null == null_j && (null || RowBytes(k, r) == RowBytes(kj, r))) {
          found = j;
          break;
        }
      }
      if (found == entries.size()) {
        entries.push_back(p);
        value_of[found] = p;
      } else {
        value_of[found] = p;
      }
    }
    e.Begin(&b.heap(), static_cast<uint32_t>(2 * entries.size()));
    for (size_t j = 0; j < entries.size(); ++j) {
      AppendColumnSlot(*args[2 * entries[j]], r, &e);
      AppendColumnSlot(*args[2 * value_of[j] + 1], r, &e);
    }
    e.Finish();
    b.Commit();
  }
  return b.Finish();
}

absl::StatusOr<Column> EvalItem(const Expr& call, const ArgList& args, size_t n) {
  const Column& c = *args[0];
  const Column& key = *args[1];
  const DataType& ct = c.type();
  Column out(call.type);
  out.Reserve(n);
  std::vector<Slot> slots;
  for (size_t r = 0; r < n; ++r) {
    if (c.IsNull(r) || key.IsNull(r) || key.type().id == TypeId::kNull) {
      out.AppendNull();
      continue;
    }
    if (!DecodeSlots(c.GetString(r), ct, &slots)) return Malformed(call);
    const Slot* hit = nullptr;
    if (ct.id == TypeId::kArray) {
      // 1-based; an index outside [1, CARDINALITY] gives NULL.
      const int32_t i = key.Get<int32_t>(r);
      if (i >= 1 && static_cast<size_t>(i) <= slots.size()) hit = &slots[i - 1];
    } else {
      const std::string_view k = RowBytes(key, r);
      for (size_t j = 0; j + 1 < slots.size(); j += 2) {
        if (slots[j].present && slots[j].bytes == k) {
          hit = &slots[j + 1];
          break;
        }
      }
    }
    if (hit == nullptr) {
      out.AppendNull();
    } else {
      AppendSlot(*hit, &out);
    }
  }
  return out;
}

absl::StatusOr<Column> EvalField(const Expr& call, const ArgList& args, size_t n) {
  const Column& row = *args[0];
  const DataType& rt = row.type();
  const std::string& name = call.args[1]->literal.string_value();
  size_t index = rt.fields().size();
  for (size_t i = 0; i < rt.fields().size(); ++i) {
    if (rt.fields()[i].name == name) index = i;
  }
  if (index == rt.fields().size()) return eval_internal::InternalError(call, "unknown field");
  Column out(call.type);
  out.Reserve(n);
  std::vector<Slot> slots;
  for (size_t r = 0; r < n; ++r) {
    if (row.IsNull(r)) {
      out.AppendNull();
      continue;
    }
    if (!DecodeSlots(row.GetString(r), rt, &slots)) return Malformed(call);
    AppendSlot(slots[index], &out);
  }
  return out;
}

absl::StatusOr<Column> EvalElement(const Expr& call, const ArgList& args, size_t n) {
  const Column& c = *args[0];
  Column out(call.type);
  out.Reserve(n);
  std::vector<Slot> slots;
  for (size_t r = 0; r < n; ++r) {
    if (c.IsNull(r)) {
      out.AppendNull();
      continue;
    }
    if (!DecodeSlots(c.GetString(r), c.type(), &slots)) return Malformed(call);
    if (slots.size() > 1) {
      return absl::InvalidArgumentError(absl::StrCat("ELEMENT of an array of ", slots.size(),
                                                     " elements (it takes at most one)"));
    }
    if (slots.empty()) {
      out.AppendNull();
    } else {
      AppendSlot(slots[0], &out);
    }
  }
  return out;
}

Column EvalCardinality(const Expr& call, const ArgList& args, size_t n) {
  const Column& c = *args[0];
  FixedBuilder<int32_t> b(call.type, n);
  for (size_t r = 0; r < n; ++r) {
    if (c.IsNull(r)) {
      b.SetNull(r);
    } else {
      b.values()[r] = static_cast<int32_t>(CollectionCardinality(c.GetString(r), c.type()));
    }
  }
  return b.Finish();
}

}  // namespace

absl::StatusOr<Column> EvalCollectionCall(const Expr& call, const ArgList& args, size_t n) {
  const std::string& fn = call.function;
  if (fn == "ARRAY" || fn == "ROW") return EvalArray(call, args, n);
  if (fn == "MAP") return EvalMap(call, args, n);
  if (fn == "ITEM") return EvalItem(call, args, n);
  if (fn == "FIELD") return EvalField(call, args, n);
  if (fn == "ELEMENT") return EvalElement(call, args, n);
  if (fn == "CARDINALITY") return EvalCardinality(call, args, n);
  return eval_internal::InternalError(call, "not a collection function");
}

}  // namespace eddy
