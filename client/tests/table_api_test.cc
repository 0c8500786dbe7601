// The C++ Table API on an embedded cluster: expressions render the SQL they stand for, Table
// operations compose with each other and with SQL views, and results, plans and errors come back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "client/embedded/embedded_environment.h"
#include "client/table_environment.h"

namespace eddy {
namespace {

using api::Col;
using api::CountStar;
using api::Lit;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TableExpressionTest, RendersSql) {
  EXPECT_EQ(Lit("it's").sql(), "'it''s'");
  EXPECT_EQ(Lit(-3).sql(), "(-3)");
  EXPECT_EQ(Lit(INT64_MIN).sql(), "(-9223372036854775807 - 1)");
  EXPECT_EQ(Col("my `col`").sql(), "`my ``col```");
  EXPECT_EQ(((Col("a") + Lit(1)) * Col("b") >= Lit(2) && !Col("c").IsNull()).sql(),
            "((((`a` + 1) * `b`) >= 2) AND (NOT (`c` IS NULL)))");
  EXPECT_EQ(Col("w").Like("H%").sql(), "(`w` LIKE 'H%')");
  EXPECT_EQ(Col("n").Sum().As("total").sql(), "SUM(`n`) AS `total`");
}

class TableApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto env = StartEmbeddedEnvironment({.workers = 1, .slots = 2});
    ASSERT_TRUE(env.ok()) << env.status();
    env_ = std::move(*env);
  }
  // The rows of a table, as the print sink shows them.
  std::vector<std::string> Rows(const Table& t) {
    std::vector<std::string> out;
    auto result = t.Execute();
    EXPECT_TRUE(result.ok()) << result.status() << "\n" << t.sql();
    if (!result.ok()) return out;
    auto rows = result->Collect();
    EXPECT_TRUE(rows.ok()) << rows.status();
    if (!rows.ok()) return out;
    ResultRow row;
    while (true) {
      auto more = rows->Next(&row);
      EXPECT_TRUE(more.ok()) << more.status();
      if (!more.ok() || !*more) break;
      out.push_back(row.ToString());
    }
    return out;
  }
  std::unique_ptr<TableEnvironment> env_;
};

TEST_F(TableApiTest, OperationsComposeAndMixWithSql) {
  Table people = env_->FromElements({{Lit("ann"), Lit(31), Lit("x")},
                                     {Lit("bob"), Lit(17), api::Null("STRING")},
                                     {Lit("cid"), Lit(45), Lit("y")}},
                                    {"name", "age", "tag"});
  EXPECT_THAT(Rows(people.Where(Col("age") > Lit(18)).Select({Col("name").Upper().As("n")})),
              ElementsAre("+I[ANN]", "+I[CID]"));
  EXPECT_THAT(Rows(people.Select({Col("tag")}).Where(Col("tag").IsNull())),
              ElementsAre("+I[null]"));
  // A Table API view read from SQL, and a SQL query continued with the Table API.
  ASSERT_TRUE(env_->CreateTemporaryView("people", people).ok());
  Table adults = env_->SqlQuery("SELECT name, age FROM people WHERE age >= 18");
  EXPECT_THAT(Rows(adults
                       .UnionAll(env_->From("people")
                                     .Select({Col("name"), Col("age")})
                                     .Where(Col("name") == Lit("bob")))
                       .Select({Col("name")})),
              ElementsAre("+I[ann]", "+I[cid]", "+I[bob]"));
  EXPECT_THAT(Rows(people.GroupBy({Col("age") > Lit(18)})
                       .Select({(Col("age") > Lit(18)).As("adult"), CountStar().As("n")})),
              ElementsAre("+I[true, 1]", "+I[false, 1]", "-U[true, 1]", "+U[true, 2]"));
  EXPECT_THAT(Rows(env_->From("people").Limit(2)), ::testing::SizeIs(2));
  auto plan = people.Where(Col("age") > Lit(1) + Lit(1)).Explain();
  ASSERT_TRUE(plan.ok()) << plan.status();
  // Folded in the optimized plan (the AST keeps the query as written).
  const std::string optimized = plan->substr(plan->find("== Optimized Physical Plan =="));
  EXPECT_THAT(optimized, HasSubstr(", 2)]"));
  EXPECT_THAT(optimized, ::testing::Not(HasSubstr("+(1, 1)")));
}

TEST_F(TableApiTest, JoinsComposeWithWhereAndTheOtherOperations) {
  Table orders = env_->FromElements(
      {{Lit(1), Lit(10)}, {Lit(2), Lit(10)}, {Lit(3), Lit(20)}, {Lit(4), Lit(30)}},
      {"order_id", "customer"});
  Table customers =
      env_->FromElements({{Lit(10), Lit("ann")}, {Lit(20), Lit("bob")}}, {"id", "name"});
  auto sorted = [](std::vector<std::string> rows) {
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  EXPECT_THAT(sorted(Rows(orders.Join(customers)
                              .Where(Col("customer") == Col("id"))
                              .Select({Col("order_id"), Col("name")}))),
              ElementsAre("+I[1, ann]", "+I[2, ann]", "+I[3, bob]"));
  EXPECT_THAT(sorted(Rows(customers.Join(orders, Col("id") == Col("customer"))
                              .GroupBy({Col("name")})
                              .Select({Col("name"), CountStar().As("n")}))),
              ::testing::IsSupersetOf({"+I[bob, 1]"}));
  // Order 4 has no customer: padded with NULL once every row is in (the final table).
  std::vector<std::string> left = Rows(orders.LeftOuterJoin(customers, Col("customer") == Col("id"))
                                           .Select({Col("order_id"), Col("name")}));
  EXPECT_THAT(left, ::testing::Contains("+I[4, null]"));
  auto plan = orders.FullOuterJoin(customers, Col("customer") == Col("id")).Explain();
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(*plan, HasSubstr("Join(joinType=[FullOuterJoin]"));
  EXPECT_THAT(*plan, HasSubstr("Exchange(distribution=[hash["));
  auto right = orders.RightOuterJoin(customers, Col("customer") == Col("id")).Explain();
  ASSERT_TRUE(right.ok()) << right.status();
  EXPECT_THAT(*right, HasSubstr("RightOuterJoin"));
}

TEST_F(TableApiTest, UserDefinedFunctionsByCall) {
  const std::string library = std::string(EDDY_EXAMPLE_UDF_DIR) + "/libeddy_example_udfs.so";
  ASSERT_TRUE(env_->CreateTemporarySystemFunction("mask", "mask_digits", library).ok());
  ASSERT_TRUE(env_->CreateTemporarySystemFunction("split", "split_words", library).ok());
  EXPECT_EQ(api::Call("mask", {Col("s")}).sql(), "`mask`(`s`)");
  Table cards = env_->FromElements({{Lit(1), Lit("4111 1111")}, {Lit(2), api::Null("STRING")}},
                                   {"id", "card"});
  EXPECT_THAT(Rows(cards.Select({Col("id"), api::Call("mask", {Col("card")}).As("masked")})),
              ElementsAre("+I[1, **** ****]", "+I[2, null]"));
  // Table functions: joinLateral / leftOuterJoinLateral.
  EXPECT_THAT(Rows(cards.JoinLateral(api::Call("split", {Col("card")}), {"part", "pos"})
                       .Select({Col("id"), Col("part"), Col("pos")})),
              ElementsAre("+I[1, 4111, 0]", "+I[1, 1111, 1]"));
  EXPECT_THAT(Rows(cards.LeftOuterJoinLateral(api::Call("split", {Col("card")}))
                       .Select({Col("id"), Col("word")})),
              ElementsAre("+I[1, 4111]", "+I[1, 1111]", "+I[2, null]"));
  // Errors name the function.
  auto bad = cards.Select({api::Call("mask", {Col("id"), Col("card")})}).Execute();
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("Invalid number of arguments to function 'mask': 2 (it takes 1)"));
  ASSERT_TRUE(env_->DropTemporarySystemFunction("mask").ok());
  auto gone = cards.Select({api::Call("mask", {Col("card")})}).Execute();
  ASSERT_FALSE(gone.ok());
  EXPECT_THAT(std::string(gone.status().message()), HasSubstr("Unknown function 'MASK'"));
  auto missing = env_->CreateTemporarySystemFunction("f", "f", "/nonexistent/lib.so");
  EXPECT_THAT(std::string(missing.message()), HasSubstr("Cannot read user function library"));
}

TEST_F(TableApiTest, ResultsAsChangelogRetractAndDataStreams) {
  Table words = env_->FromElements({{Lit("a")}, {Lit("b")}, {Lit("a")}}, {"word"});
  Table counts = words.GroupBy({Col("word")}).Select({Col("word"), CountStar().As("n")});
  auto changes = counts.ToChangelogStream();
  ASSERT_TRUE(changes.ok()) << changes.status();
  std::vector<std::string> seen;
  ResultRow row;
  while (true) {
    auto more = changes->Next(&row);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    seen.push_back(row.ToString());
  }
  EXPECT_THAT(seen, ElementsAre("+I[a, 1]", "+I[b, 1]", "-U[a, 1]", "+U[a, 2]"));
  auto retracts = counts.ToRetractStream();
  ASSERT_TRUE(retracts.ok()) << retracts.status();
  std::vector<std::string> pairs;
  bool add = false;
  while (true) {
    auto more = retracts->Next(&add, &row);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    pairs.push_back(std::string(add ? "true " : "false ") + row.text[0] + "=" + row.text[1]);
  }
  EXPECT_THAT(pairs, ElementsAre("true a=1", "true b=1", "false a=1", "true a=2"));
  // An append-only table streams its rows; an updating one is refused before it runs.
  auto inserts = words.Where(Col("word") == Lit("a")).ToDataStream();
  ASSERT_TRUE(inserts.ok()) << inserts.status();
  int n = 0;
  while (true) {
    auto more = inserts->Next(&row);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    EXPECT_EQ(row.ToString(), "+I[a]");
    ++n;
  }
  EXPECT_EQ(n, 2);
  auto refused = counts.ToDataStream();
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("doesn't support consuming update changes which is produced by node "
                        "GroupAggregate(groupBy=[word]"));
}

TEST_F(TableApiTest, InsertsRunAsJobsAndErrorsSayWhat) {
  ASSERT_TRUE(env_->ExecuteSql("CREATE TEMPORARY TABLE hole (x INT) WITH ('connector' = "
                               "'blackhole')")
                  .ok());
  Table t = env_->FromElements({{Lit(1)}, {Lit(2)}}, {"x"});
  auto ok = t.ExecuteInsert("hole");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->kind(), v1::ExecuteStatementResponse::JOB_SUBMITTED);
  EXPECT_TRUE(ok->Await(30000).ok());
  auto failing = t.Select({(Lit(10) / (Col("x") - Col("x"))).As("x")}).ExecuteInsert("hole");
  ASSERT_TRUE(failing.ok()) << failing.status();
  absl::Status s = failing->Await(30000);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Division by zero"));
  auto unknown = env_->From("nowhere").Execute();
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("nowhere"));
  EXPECT_FALSE(ok->Collect().ok());  // an INSERT has no rows
}

}  // namespace
}  // namespace eddy
