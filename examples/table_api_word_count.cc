// A word count with the C++ Table API on an embedded cluster: a table from literal rows, a filter,
// a grouped aggregate, the result registered as a view and read again from SQL, the rows collected
// one by one, and two INSERTs run as one statement set.
#include <cstdio>

#include "client/embedded/embedded_environment.h"
#include "client/table_environment.h"
#include "common/base/logging.h"

using eddy::api::Col;
using eddy::api::CountStar;
using eddy::api::Lit;

namespace {

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "table_api_word_count: %s\n", std::string(s.message()).c_str());
  return 1;
}

}  // namespace

int main() {
  eddy::InitLogging("warn");
  auto env_or = eddy::StartEmbeddedEnvironment({.workers = 2, .slots = 2});
  if (!env_or.ok()) return Fail(env_or.status());
  eddy::TableEnvironment& env = **env_or;

  eddy::Table words = env.FromElements(
      {{Lit("Hello")}, {Lit("World")}, {Lit("Hello")}, {Lit("Hi")}, {Lit("Hello")}}, {"word"});
  if (auto s = env.CreateTemporaryView("words", words); !s.ok()) return Fail(s);

  // Table API: words starting with H, counted.
  eddy::Table counts = env.From("words")
                           .Where(Col("word").Like("H%"))
                           .GroupBy({Col("word")})
                           .Select({Col("word"), CountStar().As("cnt")});
  std::printf("-- counts of the words starting with H\n");
  auto result = counts.Execute();
  if (!result.ok()) return Fail(result.status());
  if (auto s = result->Print(); !s.ok()) return Fail(s);

  // SQL over the Table API's result.
  if (auto s = env.CreateTemporaryView("counts", counts); !s.ok()) return Fail(s);
  std::printf("-- how many words have each count (SQL over the view)\n");
  auto histogram = env.ExecuteSql("SELECT cnt, COUNT(*) AS words FROM counts GROUP BY cnt");
  if (!histogram.ok()) return Fail(histogram.status());
  if (auto s = histogram->Print(); !s.ok()) return Fail(s);

  // Rows one by one.
  std::printf("-- collected\n");
  auto upper =
      env.SqlQuery("SELECT word FROM words").Select({Col("word").Upper().As("w")}).Execute();
  if (!upper.ok()) return Fail(upper.status());
  auto rows = upper->Collect();
  if (!rows.ok()) return Fail(rows.status());
  eddy::ResultRow row;
  while (true) {
    auto more = rows->Next(&row);
    if (!more.ok()) return Fail(more.status());
    if (!*more) break;
    std::printf("%s\n", row.ToString().c_str());
  }

  // Two INSERTs, one job.
  for (const char* ddl : {"CREATE TEMPORARY TABLE h_words (word STRING, cnt BIGINT) WITH "
                          "('connector' = 'blackhole')",
                          "CREATE TEMPORARY TABLE all_words (word STRING) WITH "
                          "('connector' = 'blackhole')"}) {
    if (auto r = env.ExecuteSql(ddl); !r.ok()) return Fail(r.status());
  }
  eddy::StatementSet set = env.CreateStatementSet();
  set.AddInsert("h_words", counts.sql())
      .AddInsertSql("INSERT INTO all_words SELECT word FROM words");
  auto job = set.Execute();
  if (!job.ok()) return Fail(job.status());
  eddy::TableResult submitted(env.client(), *job);
  if (auto s = submitted.Await(60000); !s.ok()) return Fail(s);
  std::printf("-- statement set finished\n");
  return 0;
}
