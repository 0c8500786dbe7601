// The sink NOT NULL enforcer: ERROR fails on the first null (Flink's message naming the column),
// DROP passes on only the rows without nulls in NOT NULL columns, batches without nulls reach the
// sink as they are, and the sink's other calls and output go through.
#include "worker/connectors/sink_not_null_enforcer.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/operators/testing/collecting_output.h"

namespace eddy {
namespace {

using ::testing::ElementsAre;

// A sink that records what it is given and emits one row when it finishes.
class RecordingSink : public Operator {
 public:
  absl::Status Process(int, const ChangelogBatch& batch) override {
    ++batches;
    last_batch = &batch;
    for (size_t r = 0; r < batch.num_rows(); ++r) rows.push_back(FormatRow(batch, r));
    return absl::OkStatus();
  }
  absl::Status Finish() override {
    ChangelogBatch done({DataType::String()});
    done.AppendValues({Value::String("done")}, RowKind::kInsert);
    return Emit(done);
  }
  absl::Status NotifyCheckpointComplete(int64_t id) override {
    committed.push_back(id);
    return absl::OkStatus();
  }
  bool HasUncommittedOutput() const override { return true; }

  std::vector<std::string> rows;
  std::vector<int64_t> committed;
  int batches = 0;
  const ChangelogBatch* last_batch = nullptr;
};

// Columns: id INT NOT NULL, name STRING (nullable), score BIGINT NOT NULL.
ChangelogBatch Rows(const std::vector<std::vector<Value>>& rows) {
  ChangelogBatch batch({DataType::Int(), DataType::String(), DataType::BigInt()});
  for (const auto& r : rows) batch.AppendValues(r, RowKind::kInsert);
  return batch;
}

struct Enforced {
  explicit Enforced(NotNullEnforcement e) {
    auto owned = std::make_unique<RecordingSink>();
    sink = owned.get();
    enforcer = std::make_unique<SinkNotNullEnforcer>(
        std::move(owned), std::vector<NotNullColumn>{{0, "id"}, {2, "score"}}, e);
    enforcer->set_output(&out);
    EXPECT_TRUE(enforcer->Open(OperatorContext{}).ok());
  }
  RecordingSink* sink = nullptr;
  testing::CollectingOutput out;
  std::unique_ptr<SinkNotNullEnforcer> enforcer;
};

TEST(SinkNotNullEnforcerTest, BatchWithoutNullsReachesTheSinkAsItIs) {
  Enforced e(NotNullEnforcement::kError);
  ChangelogBatch batch = Rows({{Value::Int(1), Value::Null(), Value::Int(10)}});
  ASSERT_TRUE(e.enforcer->Process(0, batch).ok());
  EXPECT_EQ(e.sink->last_batch, &batch);                      // not copied
  EXPECT_THAT(e.sink->rows, ElementsAre("+I[1, null, 10]"));  // a nullable column may be null
}

TEST(SinkNotNullEnforcerTest, ErrorNamesTheFirstNullColumnOfTheFirstRowWithOne) {
  Enforced e(NotNullEnforcement::kError);
  ChangelogBatch batch = Rows({{Value::Int(1), Value::String("a"), Value::Int(10)},
                               {Value::Int(2), Value::String("b"), Value::Null()},
                               {Value::Null(), Value::String("c"), Value::Null()}});
  absl::Status s = e.enforcer->Process(0, batch);
  EXPECT_EQ(s.message(),
            "Column 'score' is NOT NULL, however, a null value is being written into it. You can "
            "set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this "
            "exception and drop such records silently.");
  EXPECT_EQ(e.sink->batches, 0);  // nothing of the batch is written
}

TEST(SinkNotNullEnforcerTest, DropPassesOnTheOtherRowsAndCountsTheDropped) {
  Enforced e(NotNullEnforcement::kDrop);
  ChangelogBatch batch = Rows({{Value::Int(1), Value::String("a"), Value::Int(10)},
                               {Value::Null(), Value::String("b"), Value::Int(20)},
                               {Value::Int(3), Value::Null(), Value::Int(30)},
                               {Value::Int(4), Value::String("d"), Value::Null()}});
  ASSERT_TRUE(e.enforcer->Process(0, batch).ok());
  EXPECT_THAT(e.sink->rows, ElementsAre("+I[1, a, 10]", "+I[3, null, 30]"));
  EXPECT_EQ(e.enforcer->null_rows_dropped(), 2u);
  // A batch of nulls only reaches the sink not at all.
  ChangelogBatch nulls = Rows({{Value::Null(), Value::Null(), Value::Null()}});
  ASSERT_TRUE(e.enforcer->Process(0, nulls).ok());
  EXPECT_EQ(e.sink->batches, 1);
  EXPECT_EQ(e.enforcer->null_rows_dropped(), 3u);
}

TEST(SinkNotNullEnforcerTest, OtherCallsAndOutputGoToTheSink) {
  Enforced e(NotNullEnforcement::kError);
  EXPECT_TRUE(e.enforcer->HasUncommittedOutput());
  ASSERT_TRUE(e.enforcer->NotifyCheckpointComplete(7).ok());
  EXPECT_THAT(e.sink->committed, ElementsAre(7));
  ASSERT_TRUE(e.enforcer->Finish().ok());
  EXPECT_THAT(e.out.rows, ElementsAre("+I[done]"));
}

}  // namespace
}  // namespace eddy
