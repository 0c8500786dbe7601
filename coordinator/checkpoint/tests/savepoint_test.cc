// Savepoints: a self-contained copy of a checkpoint that still loads after its job's checkpoint
// directory is gone and after it was moved; damaged savepoints are refused naming the file; and
// the state assignment of a job started from one (matching by state id, refusing state of another
// shape or that no operator claims, spreading keyed state over a new parallelism by key group).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/base/file_checksum.h"
#include "coordinator/checkpoint/savepoint_restore.h"
#include "coordinator/checkpoint/savepoint_store.h"
#include "tests/util/status_matchers.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class SavepointStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("eddy-savepoint-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    store_ = std::make_unique<CheckpointStore>((root_ / "checkpoints" / "job1").string());
    ASSERT_OK(store_->Prepare());
    // Checkpoint 3: one subtask, a keyed store with a shared SST and a file of its own.
    checkpoint_.set_job_id("0123456789abcdef0123456789abcdef");
    checkpoint_.set_checkpoint_id(3);
    auto* op = checkpoint_.add_subtasks()->add_operators();
    op->set_state_id(5);
    op->set_operator_state("position");
    AddFile(op, "shared/state-5/1.sst", "sst bytes");
    AddFile(op, "chk-3/state-5/MANIFEST", "manifest");
    ASSERT_OK(store_->WriteMetadata(checkpoint_));
    v1::OperatorStateDescriptor d;
    d.set_state_id(5);
    d.set_description("GroupAggregate(groupBy=[k])");
    d.set_state_schema("group_aggregate([BIGINT]) -> [BIGINT, BIGINT] {COUNT(*)}");
    d.set_parallelism(1);
    d.set_keyed(true);
    operators_.push_back(d);
  }
  void TearDown() override { fs::remove_all(root_); }

  void AddFile(v1::OperatorStateHandle* op, const std::string& path, const std::string& bytes) {
    const fs::path p = fs::path(store_->job_dir()) / path;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    auto* f = op->add_files();
    f->set_path(path);
    f->set_size(bytes.size());
    f->set_crc32(Crc32Update(0, bytes.data(), bytes.size()));
  }
  static void FlipAByte(const fs::path& file, size_t at) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    char c = 0;
    f.seekg(static_cast<std::streamoff>(at));
    f.get(c);
    f.seekp(static_cast<std::streamoff>(at));
    f.put(static_cast<char>(c ^ 0x01));
  }
  absl::StatusOr<std::string> Write() {
    return WriteSavepoint(*store_, checkpoint_, operators_, 128, (root_ / "savepoints").string());
  }

  fs::path root_;
  std::unique_ptr<CheckpointStore> store_;
  v1::CheckpointMetadata checkpoint_;
  std::vector<v1::OperatorStateDescriptor> operators_;
};

TEST_F(SavepointStoreTest, ASavepointCopiesEveryFileAndLoadsWithoutTheCheckpoints) {
  ASSERT_OK_AND_ASSIGN(std::string dir, Write());
  EXPECT_THAT(fs::path(dir).filename().string(), ::testing::StartsWith("savepoint-012345-"));
  EXPECT_TRUE(fs::exists(fs::path(dir) / "shared/state-5/1.sst"));
  EXPECT_TRUE(fs::exists(fs::path(dir) / "chk-3/state-5/MANIFEST"));
  ASSERT_OK(store_->DeleteAll());  // the job's checkpoints go when it ends
  ASSERT_OK_AND_ASSIGN(LoadedSavepoint loaded, LoadSavepoint("file://" + dir));
  EXPECT_EQ(loaded.dir, dir);
  EXPECT_TRUE(loaded.metadata.savepoint());
  EXPECT_EQ(loaded.metadata.checkpoint_id(), 3);
  EXPECT_EQ(loaded.metadata.max_parallelism(), 128);
  ASSERT_EQ(loaded.metadata.operators_size(), 1);
  EXPECT_EQ(loaded.metadata.operators(0).description(), "GroupAggregate(groupBy=[k])");
  // Its _metadata file names it too.
  ASSERT_OK(LoadSavepoint(dir + "/_metadata").status());
}

TEST_F(SavepointStoreTest, AMovedSavepointLoadsFromItsNewPlace) {
  ASSERT_OK_AND_ASSIGN(std::string dir, Write());
  const fs::path moved = root_ / "elsewhere" / "sp";
  fs::create_directories(moved.parent_path());
  fs::rename(dir, moved);
  ASSERT_OK_AND_ASSIGN(LoadedSavepoint loaded, LoadSavepoint(moved.string()));
  EXPECT_EQ(loaded.dir, moved.string());
}

TEST_F(SavepointStoreTest, EveryDamagedByteOfAStateFileIsRefusedNamingTheFile) {
  ASSERT_OK_AND_ASSIGN(std::string dir, Write());
  const fs::path file = fs::path(dir) / "shared/state-5/1.sst";
  for (size_t at = 0; at < fs::file_size(file); ++at) {
    FlipAByte(file, at);
    absl::Status s = LoadSavepoint(dir).status();
    EXPECT_TRUE(absl::IsDataLoss(s)) << s;
    EXPECT_THAT(s.message(), HasSubstr(file.string()));
    EXPECT_THAT(s.message(), HasSubstr("fails its checksum"));
    FlipAByte(file, at);
  }
  fs::resize_file(file, 3);
  EXPECT_THAT(LoadSavepoint(dir).status().message(), HasSubstr("holds 3 bytes"));
  fs::remove(file);
  EXPECT_THAT(LoadSavepoint(dir).status().message(), HasSubstr("cannot be read"));
}

TEST_F(SavepointStoreTest, DamagedOrMissingMetadataIsRefused) {
  ASSERT_OK_AND_ASSIGN(std::string dir, Write());
  const fs::path metadata = fs::path(dir) / "_metadata";
  for (size_t at = 0; at < fs::file_size(metadata); ++at) {
    FlipAByte(metadata, at);
    absl::Status s = LoadSavepoint(dir).status();
    EXPECT_FALSE(s.ok()) << "byte " << at;
    EXPECT_THAT(s.message(), HasSubstr("cannot restore savepoint '" + dir + "'"));
    FlipAByte(metadata, at);
  }
  fs::remove(metadata);
  EXPECT_THAT(LoadSavepoint(dir).status().message(), HasSubstr("is missing"));
  EXPECT_TRUE(absl::IsNotFound(LoadSavepoint((root_ / "nothing").string()).status()));
  EXPECT_THAT(LoadSavepoint("relative/dir").status().message(), HasSubstr("an absolute path"));
  EXPECT_THAT(LoadSavepoint("s3://bucket/sp").status().message(),
              HasSubstr("a local or mounted path"));
}

TEST_F(SavepointStoreTest, ACheckpointIsNotTakenForASavepoint) {
  absl::Status s = LoadSavepoint(store_->CheckpointDir(3)).status();
  EXPECT_THAT(s.message(), HasSubstr("not a savepoint's"));
}

TEST_F(SavepointStoreTest, ADamagedCheckpointFileFailsTheSavepointAndLeavesNothing) {
  FlipAByte(fs::path(store_->job_dir()) / "chk-3/state-5/MANIFEST", 2);
  absl::Status s = Write().status();
  EXPECT_TRUE(absl::IsDataLoss(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("chk-3/state-5/MANIFEST"));
  EXPECT_TRUE(fs::is_empty(root_ / "savepoints"));
}

// ---- state assignment

v1::DataType Type(v1::TypeId id) {
  v1::DataType t;
  t.set_id(id);
  t.set_nullable(true);
  return t;
}

// A job of two tasks: a source (node 1, task 0) and an aggregate behind an exchange (node 3 reads
// the exchange source node 2, task 1), as deployments at the given parallelisms.
std::vector<v1::TaskDeployment> TwoTasks(int source_p, int agg_p, v1::TypeId key = v1::TYPE_BIGINT,
                                         const std::string& function = "COUNT") {
  std::vector<v1::TaskDeployment> out;
  v1::Schema rows;
  auto* f = rows.add_fields();
  f->set_name("k");
  *f->mutable_type() = Type(key);
  v1::Schema source_rows = rows;  // the source reads BIGINT; the aggregate's key may be cast
  *source_rows.mutable_fields(0)->mutable_type() = Type(v1::TYPE_BIGINT);
  for (int i = 0; i < source_p; ++i) {
    v1::TaskDeployment& t = out.emplace_back();
    t.set_task_index(0);
    t.set_subtask_index(i);
    t.set_parallelism(source_p);
    v1::PlanNode* n = t.add_nodes();
    n->set_id(1);
    n->set_description("TableSource(seq)");
    *n->mutable_output_schema() = source_rows;
    n->mutable_table_source()->set_connector("datagen");
  }
  for (int i = 0; i < agg_p; ++i) {
    v1::TaskDeployment& t = out.emplace_back();
    t.set_task_index(1);
    t.set_subtask_index(i);
    t.set_parallelism(agg_p);
    v1::PlanNode* in = t.add_nodes();
    in->set_id(2);
    *in->mutable_output_schema() = rows;
    in->mutable_exchange_source();
    v1::PlanNode* agg = t.add_nodes();
    agg->set_id(3);
    agg->add_inputs(2);
    agg->set_state_id(4);
    agg->set_description("GroupAggregate(groupBy=[k])");
    v1::Schema out_schema = rows;
    auto* c = out_schema.add_fields();
    c->set_name("c");
    *c->mutable_type() = Type(v1::TYPE_BIGINT);
    *agg->mutable_output_schema() = out_schema;
    auto* call = agg->mutable_group_aggregate()->add_calls();
    call->set_function(function);
    agg->mutable_group_aggregate()->add_group_keys(0);
  }
  return out;
}

// A savepoint of `tasks`: every subtask of the source has a position, every aggregate subtask a
// store with one file named after it.
LoadedSavepoint SavepointOf(const std::vector<v1::TaskDeployment>& tasks) {
  LoadedSavepoint sp;
  sp.dir = "/savepoints/sp";
  sp.metadata.set_checkpoint_id(9);
  sp.metadata.set_savepoint(true);
  sp.metadata.set_max_parallelism(128);
  for (const auto& d : DescribeOperators(tasks)) *sp.metadata.add_operators() = d;
  for (const auto& t : tasks) {
    auto* s = sp.metadata.add_subtasks();
    s->set_task_index(t.task_index());
    s->set_subtask_index(t.subtask_index());
    auto* op = s->add_operators();
    op->set_state_id(StateHandleIdOf(t.nodes(t.nodes_size() - 1)));
    if (t.task_index() == 0) {
      op->set_operator_state("position-" + std::to_string(t.subtask_index()));
    } else {
      op->add_files()->set_path("shared/agg-" + std::to_string(t.subtask_index()) + ".sst");
    }
  }
  return sp;
}

std::vector<std::string> RestoredFiles(const v1::TaskDeployment& t) {
  std::vector<std::string> files;
  for (const auto& op : t.checkpointing().restore().operators()) {
    for (const auto& f : op.files()) files.push_back(f.path());
  }
  return files;
}

TEST(SavepointRestore, KeyGroupRangesCoverEveryKeyGroupOnceAsSubtasksAreChosen) {
  for (int p : {1, 2, 3, 5, 7, 128}) {
    int next = 0;
    for (int i = 0; i < p; ++i) {
      auto [first, last] = KeyGroupRange(128, p, i);
      EXPECT_EQ(first, next);
      for (int g = first; g <= last; ++g) EXPECT_EQ(g * p / 128, i) << g << " at " << p;
      next = last + 1;
    }
    EXPECT_EQ(next, 128);
  }
}

TEST(SavepointRestore, StateGoesToTheOperatorWithTheSameStateIdAtTheSameParallelism) {
  const LoadedSavepoint sp = SavepointOf(TwoTasks(2, 2));
  std::vector<v1::TaskDeployment> tasks = TwoTasks(2, 2);
  ASSERT_OK(AssignSavepointState(sp, false, &tasks));
  for (const auto& t : tasks) {
    EXPECT_EQ(t.checkpointing().restore_job_dir(), "/savepoints/sp");
    EXPECT_EQ(t.checkpointing().restore_checkpoint_id(), 9);
    EXPECT_EQ(t.checkpointing().restore_parallelism(), 0);
    ASSERT_EQ(t.checkpointing().restore().operators_size(), 1);
    if (t.task_index() == 0) {
      EXPECT_EQ(t.checkpointing().restore().operators(0).operator_state(),
                "position-" + std::to_string(t.subtask_index()));
    } else {
      EXPECT_THAT(
          RestoredFiles(t),
          ::testing::ElementsAre("shared/agg-" + std::to_string(t.subtask_index()) + ".sst"));
    }
  }
}

TEST(SavepointRestore, KeyedStateAtANewParallelismGoesToEverySubtaskWhoseKeyGroupsOverlap) {
  const LoadedSavepoint sp = SavepointOf(TwoTasks(1, 2));
  std::vector<v1::TaskDeployment> tasks = TwoTasks(1, 3);
  ASSERT_OK(AssignSavepointState(sp, false, &tasks));
  // Old: 0-63, 64-127. New: 0-42, 43-85, 86-127.
  EXPECT_THAT(RestoredFiles(tasks[1]), ::testing::ElementsAre("shared/agg-0.sst"));
  EXPECT_THAT(RestoredFiles(tasks[2]),
              ::testing::ElementsAre("shared/agg-0.sst", "shared/agg-1.sst"));
  EXPECT_THAT(RestoredFiles(tasks[3]), ::testing::ElementsAre("shared/agg-1.sst"));
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(tasks[i].checkpointing().restore_parallelism(), 2);
  EXPECT_EQ(tasks[0].checkpointing().restore_parallelism(), 0);  // the source kept its own

  std::vector<v1::TaskDeployment> one = TwoTasks(1, 1);
  ASSERT_OK(AssignSavepointState(sp, false, &one));
  EXPECT_THAT(RestoredFiles(one[1]),
              ::testing::ElementsAre("shared/agg-0.sst", "shared/agg-1.sst"));
}

TEST(SavepointRestore, SourcePositionsCannotBeSpreadOverAnotherParallelism) {
  const LoadedSavepoint sp = SavepointOf(TwoTasks(2, 2));
  std::vector<v1::TaskDeployment> tasks = TwoTasks(3, 2);
  absl::Status s = AssignSavepointState(sp, false, &tasks);
  EXPECT_THAT(s.message(), HasSubstr("operator TableSource(seq) (state id 2) ran at parallelism "
                                     "2 and now runs at 3"));
  EXPECT_THAT(s.message(), HasSubstr("'scan.parallelism'"));
}

// The aggregate of TwoTasks turned into a window aggregation (timers and pending windows
// partitioned by key group) or a temporal sort (keyed, but its own state is not).
std::vector<v1::TaskDeployment> WithOperator(std::vector<v1::TaskDeployment> tasks, bool window) {
  for (auto& t : tasks) {
    for (auto& n : *t.mutable_nodes()) {
      if (n.id() != 3) continue;
      if (window) {
        n.mutable_window_aggregate();
      } else {
        n.mutable_temporal_sort();
      }
    }
  }
  return tasks;
}

// Besides their keyed state, the old subtasks' own state (timers, pending windows) of every
// old subtask whose key groups overlap goes to each new subtask of an operator whose timers
// name their key groups; another keyed operator with state of its own is refused.
TEST(SavepointRestore, TimersPartitionedByKeyGroupGoWithTheKeyedStateToANewParallelism) {
  for (bool window : {true, false}) {
    SCOPED_TRACE(window);
    LoadedSavepoint sp = SavepointOf(WithOperator(TwoTasks(1, 2), window));
    for (auto& s : *sp.metadata.mutable_subtasks()) {
      if (s.task_index() != 1) continue;
      s.mutable_operators(0)->set_operator_state("timers-" + std::to_string(s.subtask_index()));
    }
    std::vector<v1::TaskDeployment> tasks = WithOperator(TwoTasks(1, 3), window);
    absl::Status status = AssignSavepointState(sp, false, &tasks);
    if (!window) {
      EXPECT_THAT(status.message(),
                  HasSubstr("ran at parallelism 2 and now runs at 3, but besides its keyed state "
                            "it keeps state of its own that cannot be redistributed"));
      continue;
    }
    ASSERT_OK(status);
    auto states = [](const v1::TaskDeployment& t) {
      std::vector<std::string> out;
      for (const auto& op : t.checkpointing().restore().operators()) {
        out.push_back(op.operator_state());
      }
      return out;
    };
    EXPECT_THAT(states(tasks[1]), ::testing::ElementsAre("timers-0"));
    EXPECT_THAT(states(tasks[2]), ::testing::ElementsAre("timers-0", "timers-1"));
    EXPECT_THAT(states(tasks[3]), ::testing::ElementsAre("timers-1"));
    EXPECT_THAT(RestoredFiles(tasks[2]),
                ::testing::ElementsAre("shared/agg-0.sst", "shared/agg-1.sst"));
  }
}

// A node of another task whose id + 1 is the aggregate's state id (here an exchange of the
// source's task) takes none of the aggregate's state; the source keeps its position.
TEST(SavepointRestore, AKeyedStateIdGoesToItsOperatorAloneWhateverNodeSharesTheNumber) {
  auto with_exchange = [](std::vector<v1::TaskDeployment> tasks) {
    for (auto& t : tasks) {
      if (t.task_index() != 0) continue;
      v1::PlanNode source = t.nodes(0);
      t.clear_nodes();
      v1::PlanNode* exchange = t.add_nodes();
      exchange->set_id(3);  // handle id 4: the aggregate's state id
      exchange->set_description("ExchangeSink(HASH -> task 1)");
      exchange->mutable_exchange_sink();
      *t.add_nodes() = source;  // last: SavepointOf gives it the position
    }
    return tasks;
  };
  const LoadedSavepoint sp = SavepointOf(with_exchange(TwoTasks(1, 2)));
  std::vector<v1::TaskDeployment> tasks = with_exchange(TwoTasks(1, 3));
  ASSERT_OK(AssignSavepointState(sp, false, &tasks));
  ASSERT_EQ(tasks[0].checkpointing().restore().operators_size(), 1);
  EXPECT_EQ(tasks[0].checkpointing().restore().operators(0).operator_state(), "position-0");
  EXPECT_THAT(RestoredFiles(tasks[2]),
              ::testing::ElementsAre("shared/agg-0.sst", "shared/agg-1.sst"));
}

TEST(SavepointRestore, StateOfAnotherShapeIsRefusedNamingTheOperator) {
  const LoadedSavepoint sp = SavepointOf(TwoTasks(1, 2));
  std::vector<v1::TaskDeployment> key_changed = TwoTasks(1, 2, v1::TYPE_STRING);
  absl::Status s = AssignSavepointState(sp, false, &key_changed);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("cannot restore savepoint '/savepoints/sp': the state of "
                                     "operator GroupAggregate(groupBy=[k]) (state id 4) does not "
                                     "fit"));
  EXPECT_THAT(s.message(), HasSubstr("the savepoint holds group_aggregate([BIGINT]) -> [BIGINT, "
                                     "BIGINT] {COUNT}, the query needs group_aggregate([STRING]) "
                                     "-> [STRING, BIGINT] {COUNT}"));
  std::vector<v1::TaskDeployment> accumulator_changed = TwoTasks(1, 2, v1::TYPE_BIGINT, "SUM");
  s = AssignSavepointState(sp, false, &accumulator_changed);
  EXPECT_THAT(s.message(), HasSubstr("{COUNT}"));
  EXPECT_THAT(s.message(), HasSubstr("{SUM}"));
  for (const auto& t : accumulator_changed) EXPECT_FALSE(t.checkpointing().has_restore());
}

TEST(SavepointRestore, UnclaimedStateIsRefusedUnlessIgnored) {
  const LoadedSavepoint sp = SavepointOf(TwoTasks(1, 2));
  std::vector<v1::TaskDeployment> tasks = TwoTasks(1, 2);
  for (auto& t : tasks) {
    for (auto& n : *t.mutable_nodes()) {
      if (n.state_id() == 4) n.set_state_id(40);  // another operator now
    }
  }
  absl::Status s = AssignSavepointState(sp, false, &tasks);
  EXPECT_THAT(s.message(), HasSubstr("no operator of the query claims the state of "
                                     "GroupAggregate(groupBy=[k]) (state id 4); SET "
                                     "'execution.savepoint.ignore-unclaimed-state' = 'true'"));
  ASSERT_OK(AssignSavepointState(sp, true, &tasks));
  EXPECT_TRUE(tasks[0].checkpointing().has_restore());  // the source's position
  EXPECT_FALSE(tasks[1].checkpointing().has_restore());
}

TEST(SavepointRestore, AnotherMaxParallelismIsRefused) {
  LoadedSavepoint sp = SavepointOf(TwoTasks(1, 2));
  sp.metadata.set_max_parallelism(256);
  std::vector<v1::TaskDeployment> tasks = TwoTasks(1, 2);
  EXPECT_THAT(AssignSavepointState(sp, false, &tasks).message(),
              HasSubstr("max parallelism 256 and the job runs with 128"));
}

}  // namespace
}  // namespace eddy
