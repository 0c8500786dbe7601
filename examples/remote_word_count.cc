// A Table API program against a running cluster: `remote_word_count HOST:PORT` counts words from
// literal rows on the coordinator at HOST:PORT and prints the changelog. It links only the thin
// client library (eddy_client), none of the coordinator or worker code.
#include <cstdio>
#include <string>

#include "client/table_environment.h"

using eddy::api::Col;
using eddy::api::CountStar;
using eddy::api::Lit;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: remote_word_count HOST:PORT\n");
    return 2;
  }
  std::unique_ptr<eddy::TableEnvironment> env = eddy::TableEnvironment::Connect(argv[1]);
  eddy::Table counts = env->FromElements({{Lit("a")}, {Lit("b")}, {Lit("a")}}, {"word"})
                           .GroupBy({Col("word")})
                           .Select({Col("word"), CountStar().As("cnt")});
  auto result = counts.Execute();
  absl::Status s = result.ok() ? result->Print() : result.status();
  if (!s.ok()) {
    std::fprintf(stderr, "remote_word_count: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}
