#include "common/types/binary_text.h"

#include <gtest/gtest.h>

#include <string>

#include "common/types/data_type.h"
#include "common/types/type_proto.h"
#include "common/types/value.h"

namespace eddy {
namespace {

using namespace std::string_literals;  // NOLINT

TEST(BinaryText, PrintsAsFlinkDoes) {
  EXPECT_EQ(FormatBinary("\x0a\x1b"s), "x'0a1b'");
  EXPECT_EQ(FormatBinary(""), "x''");
  EXPECT_EQ(FormatBinary("\x00\xff"s), "x'00ff'");
  EXPECT_EQ(FormatValue(Value::String("AB"), DataType::Bytes()), "x'4142'");
}

TEST(BinaryText, ParsesHexDigits) {
  std::string out;
  ASSERT_TRUE(ParseHexDigits("0A1b", &out));
  EXPECT_EQ(out, "\x0a\x1b"s);
  ASSERT_TRUE(ParseHexDigits("", &out));
  EXPECT_EQ(out, "");
  EXPECT_FALSE(ParseHexDigits("0A1", &out));
  EXPECT_FALSE(ParseHexDigits("0G", &out));
}

TEST(BinaryText, Base64RoundTripsAndRejectsMalformedText) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("\x00\x01\x02\xff"s), "AAEC/w==");
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  std::string back;
  for (size_t n = 0; n <= all.size(); n += 37) {
    ASSERT_TRUE(Base64Decode(Base64Encode(all.substr(0, n)), &back));
    EXPECT_EQ(back, all.substr(0, n));
  }
  ASSERT_TRUE(Base64Decode("Zm8", &back));  // padding is optional, as Java's decoder
  EXPECT_EQ(back, "fo");
  EXPECT_FALSE(Base64Decode("Z", &back));
  EXPECT_FALSE(Base64Decode("Zm9v!", &back));
  EXPECT_FALSE(Base64Decode("Zg=", &back));
  EXPECT_FALSE(Base64Decode("Zg===", &back));
}

TEST(BinaryText, ChecksUtf8) {
  EXPECT_TRUE(IsValidUtf8("héllo €𝄞"));
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc3"));              // cut short
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
}

TEST(BinaryType, SpellsAndCarriesTheThreeForms) {
  EXPECT_EQ(DataType::Bytes().ToString(), "BYTES");
  EXPECT_EQ(DataType::VarBinary(4).ToString(), "VARBINARY(4)");
  EXPECT_EQ(DataType::Binary(2).WithNullable(false).ToString(), "BINARY(2) NOT NULL");
  EXPECT_FALSE(DataType::Binary(2).SameAs(DataType::VarBinary(2)));
  EXPECT_TRUE(DataType::Bytes().IsVariableLength());
  EXPECT_EQ(PhysicalWidth(TypeId::kBinary), 0);
  for (const DataType& t : {DataType::Bytes(), DataType::VarBinary(9), DataType::Binary(3),
                            DataType::Map(DataType::String(), DataType::Bytes())}) {
    v1::DataType p;
    TypeToProto(t, &p);
    auto back = TypeFromProto(p);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, t) << t.ToString();
  }
}

}  // namespace
}  // namespace eddy
