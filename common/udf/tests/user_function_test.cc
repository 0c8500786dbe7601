// Loading the example libraries (examples/udf) and calling their functions over columns: NULLs,
// errors thrown by user code, the ABI check, and the symbol lookup.
#include "common/udf/user_function.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/udf/user_library.h"

namespace eddy {
namespace {

std::string ExampleLibrary(const std::string& file) {
  return std::string(EDDY_EXAMPLE_UDF_DIR) + "/" + file;
}

std::shared_ptr<const UserFunction> Load(const std::string& symbol) {
  auto digest = UserLibraries::Global().LoadFile(ExampleLibrary("libeddy_example_udfs.so"));
  EXPECT_TRUE(digest.ok()) << digest.status();
  auto fn = UserLibraries::Global().Find(*digest, symbol);
  EXPECT_TRUE(fn.ok()) << fn.status();
  return fn.ok() ? *fn : nullptr;
}

Column Strings(const std::vector<const char*>& values) {
  Column c(DataType::String());
  for (const char* v : values) {
    if (v == nullptr) {
      c.AppendNull();
    } else {
      c.AppendString(v);
    }
  }
  return c;
}

TEST(UserFunctionTest, ScalarFunctionOverAColumnWithNulls) {
  auto fn = Load("mask_digits");
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn->kind(), UserFunctionKind::kScalar);
  ASSERT_EQ(fn->arg_types().size(), 1u);
  EXPECT_EQ(fn->arg_types()[0].id, TypeId::kString);
  EXPECT_EQ(fn->result_types()[0].id, TypeId::kString);
  auto instance = UserFunctionInstance::Create(fn, "mask");
  ASSERT_TRUE(instance.ok()) << instance.status();
  Column in = Strings({"a1b22", nullptr, "", "x"});
  auto out = (*instance)->EvalScalar({&in}, in.size());
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 4u);
  EXPECT_EQ(out->GetString(0), "a*b**");
  EXPECT_TRUE(out->IsNull(1));
  EXPECT_EQ(out->GetString(2), "");
  EXPECT_EQ(out->GetString(3), "x");
}

TEST(UserFunctionTest, FixedWidthArgumentsAndResult) {
  auto fn = Load("weighted");
  ASSERT_NE(fn, nullptr);
  auto instance = UserFunctionInstance::Create(fn, "weighted");
  ASSERT_TRUE(instance.ok());
  Column n(DataType::BigInt());
  n.Append<int64_t>(4);
  n.AppendNull();
  Column w(DataType::Double());
  w.Append<double>(0.25);
  w.Append<double>(2);
  auto out = (*instance)->EvalScalar({&n, &w}, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_DOUBLE_EQ(out->Get<double>(0), 1.0);
  EXPECT_TRUE(out->IsNull(1));
}

TEST(UserFunctionTest, ThrownErrorNamesTheFunction) {
  auto fn = Load("checked_code");
  ASSERT_NE(fn, nullptr);
  auto instance = UserFunctionInstance::Create(fn, "checked");
  ASSERT_TRUE(instance.ok());
  Column in = Strings({"fine", "bad-1"});
  auto out = (*instance)->EvalScalar({&in}, in.size());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "User-defined function 'checked' failed: invalid code 'bad-1'");
  // The instance stays usable after a failed batch.
  Column good = Strings({"ok"});
  auto again = (*instance)->EvalScalar({&good}, 1);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->GetString(0), "OK");
}

TEST(UserFunctionTest, TableFunctionRowsPointAtTheirInputRows) {
  auto fn = Load("split_words");
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn->kind(), UserFunctionKind::kTable);
  EXPECT_EQ(fn->result_names(), (std::vector<std::string>{"word", "pos"}));
  auto instance = UserFunctionInstance::Create(fn, "split");
  ASSERT_TRUE(instance.ok());
  Column in = Strings({"a b", nullptr, "", "c"});
  auto rows = (*instance)->EvalTable({&in}, in.size());
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->input_rows, (std::vector<uint32_t>{0, 0, 3}));
  ASSERT_EQ(rows->columns.size(), 2u);
  EXPECT_EQ(rows->columns[0].GetString(1), "b");
  EXPECT_EQ(rows->columns[1].Get<int32_t>(1), 1);
  EXPECT_EQ(rows->columns[0].GetString(2), "c");
}

TEST(UserFunctionTest, RefusesAnotherAbiVersion) {
  auto digest = UserLibraries::Global().LoadFile(ExampleLibrary("libeddy_wrong_abi_udfs.so"));
  ASSERT_TRUE(digest.ok()) << digest.status();
  auto fn = UserLibraries::Global().Find(*digest, "identity");
  ASSERT_FALSE(fn.ok());
  EXPECT_EQ(fn.status().message(),
            "The user function 'identity' of library 'libeddy_wrong_abi_udfs.so' was built for "
            "UDF ABI version 999 but this Eddy supports version 1: rebuild the library against "
            "this Eddy's include/eddy/udf.h");
}

TEST(UserFunctionTest, MissingSymbolAndBadLibrary) {
  auto fn = Load("mask_digits");
  ASSERT_NE(fn, nullptr);
  auto missing = UserLibraries::Global().Find(fn->library().digest(), "nothing_here");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "Symbol 'nothing_here' not found in user function library 'libeddy_example_udfs.so'");
  auto junk = UserLibraries::Global().Load(std::make_shared<const std::string>("not an ELF file"),
                                           "junk.so");
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.status().message().find("Cannot load user function library 'junk.so'"),
            std::string::npos)
      << junk.status();
}

}  // namespace
}  // namespace eddy
