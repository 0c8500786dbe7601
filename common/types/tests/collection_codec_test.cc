// The collection encoding: round trips of nested values, canonical bytes (equal values, equal
// bytes), rejection of malformed bytes, type printing and printing of values.
#include "common/types/collection_codec.h"

#include <gtest/gtest.h>

#include "common/types/type_proto.h"

namespace eddy {
namespace {

std::string EncodeInts(const std::vector<Value>& items, const DataType& element) {
  std::string out;
  CollectionEncoder e;
  e.Begin(&out, static_cast<uint32_t>(items.size()));
  for (const Value& v : items) e.AppendValue(v, element);
  e.Finish();
  return out;
}

TEST(CollectionCodec, ArrayRoundTripWithNulls) {
  const DataType t = DataType::Array(DataType::Int());
  const std::string bytes =
      EncodeInts({Value::Int(5), Value::Null(), Value::Int(-7)}, DataType::Int());
  // count, one bitmap byte (bits 0 and 2), two int32 values.
  EXPECT_EQ(bytes.size(), 4u + 1u + 8u);
  std::vector<Slot> slots;
  ASSERT_TRUE(DecodeSlots(bytes, t, &slots));
  ASSERT_EQ(slots.size(), 3u);
  EXPECT_EQ(SlotValue(slots[0], DataType::Int()), Value::Int(5));
  EXPECT_FALSE(slots[1].present);
  EXPECT_EQ(SlotValue(slots[2], DataType::Int()), Value::Int(-7));
  EXPECT_EQ(CollectionCardinality(bytes, t), 3u);
  EXPECT_EQ(FormatCollection(bytes, t), "[5, NULL, -7]");
}

TEST(CollectionCodec, EqualValuesHaveEqualBytes) {
  const std::string a = EncodeInts({Value::Int(1), Value::Null()}, DataType::BigInt());
  const std::string b = EncodeInts({Value::Int(1), Value::Null()}, DataType::BigInt());
  const std::string c = EncodeInts({Value::Int(1), Value::Int(0)}, DataType::BigInt());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(CollectionCodec, NestedMapAndRow) {
  const DataType inner = DataType::Array(DataType::String());
  const DataType map = DataType::Map(DataType::String(), inner);
  const DataType row = DataType::Row({{"id", DataType::Int()}, {"m", map}});
  std::string arr = EncodeInts({Value::String("x"), Value::String("")}, DataType::String());
  std::string m;
  CollectionEncoder e;
  e.Begin(&m, 4);
  e.AppendValue(Value::String("k"), DataType::String());
  e.AppendValue(Value::String(arr), inner);
  e.AppendValue(Value::String("n"), DataType::String());
  e.AppendNull();
  e.Finish();
  std::string r;
  e.Begin(&r, 2);
  e.AppendValue(Value::Int(3), DataType::Int());
  e.AppendValue(Value::String(m), map);
  e.Finish();
  EXPECT_EQ(FormatCollection(r, row), "(3, {k=[x, ], n=NULL})");
  EXPECT_EQ(CollectionCardinality(m, map), 2u);
  std::vector<Slot> slots;
  ASSERT_TRUE(DecodeSlots(r, row, &slots));
  EXPECT_EQ(slots[1].bytes, m);
}

TEST(CollectionCodec, RejectsMalformedBytes) {
  const DataType t = DataType::Array(DataType::BigInt());
  std::string bytes = EncodeInts({Value::Int(1), Value::Int(2)}, DataType::BigInt());
  std::vector<Slot> slots;
  EXPECT_TRUE(DecodeSlots(bytes, t, &slots));
  EXPECT_FALSE(DecodeSlots(bytes.substr(0, bytes.size() - 1), t, &slots));
  EXPECT_FALSE(DecodeSlots(bytes + "x", t, &slots));
  EXPECT_FALSE(DecodeSlots("ab", t, &slots));
  // A ROW value must have one slot per field.
  EXPECT_FALSE(DecodeSlots(bytes, DataType::Row({{"a", DataType::BigInt()}}), &slots));
}

TEST(CollectionTypes, PrintAndCompare) {
  const DataType row =
      DataType::Row({{"a", DataType::Int().WithNullable(false)}, {"b", DataType::String()}});
  EXPECT_EQ(row.ToString(), "ROW<`a` INT NOT NULL, `b` STRING>");
  EXPECT_EQ(DataType::Map(DataType::String(), DataType::Array(DataType::Int()))
                .WithNullable(false)
                .ToString(),
            "MAP<STRING, ARRAY<INT>> NOT NULL");
  EXPECT_TRUE(DataType::Array(DataType::Int()).SameAs(DataType::Array(DataType::Int())));
  EXPECT_FALSE(DataType::Array(DataType::Int()).SameAs(DataType::Array(DataType::BigInt())));
  EXPECT_FALSE(DataType::Array(DataType::Int())
                   .SameAs(DataType::Array(DataType::Int().WithNullable(false))));
  EXPECT_TRUE(SameIgnoringNullability(DataType::Array(DataType::Int()),
                                      DataType::Array(DataType::Int().WithNullable(false))));
  EXPECT_FALSE(
      DataType::Row({{"a", DataType::Int()}}).SameAs(DataType::Row({{"b", DataType::Int()}})));
  EXPECT_TRUE(SameIgnoringNullability(DataType::Row({{"a", DataType::Int()}}),
                                      DataType::Row({{"b", DataType::Int()}})));
  EXPECT_FALSE(SameIgnoringNullability(DataType::Row({{"a", DataType::Int()}}),
                                       DataType::Row({{"a", DataType::BigInt()}})));
}

TEST(CollectionTypes, ProtoRoundTrip) {
  const DataType t = DataType::Map(
      DataType::String(),
      DataType::Row({{"x", DataType::Array(DataType::Decimal(10, 2))}, {"y", DataType::Date()}}));
  v1::DataType p;
  TypeToProto(t, &p);
  auto back = TypeFromProto(p);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, t);
  EXPECT_EQ(back->ToString(), t.ToString());
  p.mutable_children()->RemoveLast();
  EXPECT_FALSE(TypeFromProto(p).ok());
}

}  // namespace
}  // namespace eddy
