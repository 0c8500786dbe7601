// Cascading window aggregations: a window aggregate grouped by window_time too outputs window_time
// (rowtime('w$) or proctime('w$) in EXPLAIN) as a time attribute that a later window TVF reads,
// through views and renames, with grouping sets too; without window_start and window_end the
// aggregate is a regular one and its window_time no time attribute.
#include <string>
#include <vector>

#include "coordinator/planner/tests/planner_test_util.h"
#include "gmock/gmock.h"

namespace eddy::planner_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class CascadingWindowTest : public PlannerTest {
 protected:
  void SetUp() override {
    MustDdl(
        "CREATE TABLE ev (k STRING, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL "
        "'1' SECOND) WITH ('connector' = 'datagen')");
    MustDdl(
        "CREATE TABLE pv (k STRING, v BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen')");
    MustDdl(
        "CREATE VIEW m1 AS SELECT k, window_start AS ws, window_end AS we, window_time AS rt, "
        "SUM(v) AS s FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) "
        "GROUP BY k, window_start, window_end, window_time");
  }

  std::vector<std::string> Markers(const std::string& view) {
    sql::QualifiedName name;
    name.parts = {view};
    auto path = session_.Resolve(name);
    EXPECT_TRUE(path.ok()) << path.status();
    auto v = session_.FindView(*path);
    EXPECT_NE(v, nullptr);
    auto markers = ViewTimeAttributeMarkers(*v, session_, config_);
    EXPECT_TRUE(markers.ok()) << markers.status();
    return markers.ok() ? *markers : std::vector<std::string>{};
  }
};

TEST_F(CascadingWindowTest, WindowTimeOfAWindowAggregateIsARowtimeAttribute) {
  EXPECT_THAT(Markers("m1"), ElementsAre("", "", "", "*ROWTIME*", ""));
  const std::string plan = Explain(
      "EXPLAIN SELECT window_start, SUM(s) AS total FROM TABLE(TUMBLE(TABLE m1, DESCRIPTOR(rt), "
      "INTERVAL '1' HOUR)) GROUP BY window_start, window_end");
  EXPECT_THAT(plan, HasSubstr("WindowAggregate(groupBy=[k], window=[TUMBLE(time_col=[ts], size=[1 "
                              "min])], select=[k, SUM(v) AS s, start('w$) AS window_start, "
                              "end('w$) AS window_end, rowtime('w$) AS window_time])"));
  EXPECT_THAT(plan, HasSubstr("WindowAggregate(window=[TUMBLE(time_col=[rt], size=[1 h])]"));
  // Grouped by window_start and window_end only, there is no window_time column.
  EXPECT_THAT(Explain("EXPLAIN SELECT k, window_start, SUM(v) FROM TABLE(TUMBLE(TABLE ev, "
                      "DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY k, window_start, window_end"),
              Not(HasSubstr("rowtime('w$)")));
}

TEST_F(CascadingWindowTest, HopAndCumulateReadWindowTimeToo) {
  for (const char* tvf : {"HOP(TABLE m1, DESCRIPTOR(rt), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)",
                          "CUMULATE(TABLE m1, DESCRIPTOR(rt), INTERVAL '1' MINUTE, INTERVAL '5' "
                          "MINUTE)"}) {
    const std::string plan =
        Explain(std::string("EXPLAIN SELECT window_start, SUM(s) FROM TABLE(") + tvf +
                ") GROUP BY window_start, window_end");
    EXPECT_THAT(plan, HasSubstr("time_col=[rt]")) << plan;
  }
}

TEST_F(CascadingWindowTest, ProcessingTimeWindowTimeIsAProctimeAttribute) {
  MustDdl(
      "CREATE VIEW p1 AS SELECT window_time AS pt2, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE pv, "
      "DESCRIPTOR(pt), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, window_time");
  EXPECT_THAT(Markers("p1"), ElementsAre("*PROCTIME*", ""));
  EXPECT_THAT(Explain("EXPLAIN SELECT SUM(n) FROM TABLE(TUMBLE(TABLE p1, DESCRIPTOR(pt2), "
                      "INTERVAL '1' HOUR)) GROUP BY window_start, window_end"),
              HasSubstr("proctime('w$) AS window_time"));
}

TEST_F(CascadingWindowTest, GroupingSetsKeepWindowTime) {
  MustDdl(
      "CREATE VIEW r1 AS SELECT k, window_time AS rt, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE ev, "
      "DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, window_time, "
      "ROLLUP (k)");
  EXPECT_THAT(Markers("r1"), ElementsAre("", "*ROWTIME*", ""));
  const std::string plan = Explain(
      "EXPLAIN SELECT k, SUM(n) FROM TABLE(TUMBLE(TABLE r1, DESCRIPTOR(rt), INTERVAL '1' HOUR)) "
      "GROUP BY k, window_start, window_end");
  EXPECT_THAT(plan, HasSubstr("rowtime('w$) AS window_time"));
  EXPECT_THAT(plan, HasSubstr("Expand("));
}

TEST_F(CascadingWindowTest, WindowTimeOfARegularAggregateIsNoTimeAttribute) {
  // Without window_start and window_end the aggregate is a regular one.
  MustDdl(
      "CREATE VIEW g1 AS SELECT window_time AS rt, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE ev, "
      "DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_time");
  EXPECT_THAT(Markers("g1"), ElementsAre("", ""));
  EXPECT_THAT(Explain("EXPLAIN SELECT SUM(n) FROM TABLE(TUMBLE(TABLE g1, DESCRIPTOR(rt), "
                      "INTERVAL '1' HOUR)) GROUP BY window_start, window_end"),
              HasSubstr("the time column 'rt' of TUMBLE must be a time attribute"));
  // A window aggregate's window_end is a plain TIMESTAMP.
  EXPECT_THAT(Explain("EXPLAIN SELECT SUM(s) FROM TABLE(TUMBLE(TABLE m1, DESCRIPTOR(we), "
                      "INTERVAL '1' HOUR)) GROUP BY window_start, window_end"),
              HasSubstr("the time column 'we' of TUMBLE must be a time attribute"));
}

}  // namespace
}  // namespace eddy::planner_test
