#include "worker/exchange/partitioner.h"

#include <gtest/gtest.h>

#include "common/base/hash.h"

namespace eddy {
namespace {

std::vector<DataType> Types() { return {DataType::BigInt(), DataType::String()}; }

ChangelogBatch Rows(size_t n) {
  ChangelogBatch b(Types());
  for (size_t i = 0; i < n; ++i) {
    b.mutable_column(0).Append<int64_t>(static_cast<int64_t>(i));
    if (i % 11 == 0) {
      b.mutable_column(1).AppendNull();
    } else {
      b.mutable_column(1).AppendString("word" + std::to_string(i % 97));
    }
    b.mutable_kinds().push_back(i % 5 == 0 ? RowKind::kUpdateBefore : RowKind::kInsert);
  }
  return b;
}

std::vector<ChangelogBatch> Outs(int n) {
  std::vector<ChangelogBatch> outs;
  for (int i = 0; i < n; ++i) outs.emplace_back(Types());
  return outs;
}

TEST(PartitionerTest, HashAgreesWithKeyGroupsOfKeyEncoderBytes) {
  const ChangelogBatch in = Rows(5000);
  for (std::vector<int> keys : {std::vector<int>{0}, std::vector<int>{1}, std::vector<int>{1, 0}}) {
    for (auto [parallelism, max_parallelism] :
         {std::pair{1, 128}, {2, 128}, {3, 128}, {4, 128}, {7, 128}, {128, 128}, {5, 256}}) {
      SCOPED_TRACE(::testing::Message() << "keys " << keys.size() << " parallelism " << parallelism
                                        << "/" << max_parallelism);
      auto p =
          Partitioner::Create(v1::ExchangeSink::HASH, Types(), keys, parallelism, max_parallelism);
      ASSERT_TRUE(p.ok()) << p.status();
      auto outs = Outs(parallelism);
      // Two calls over sub-ranges, as the sink slices big batches.
      p->Split(in, 0, 1234, &outs);
      p->Split(in, 1234, in.num_rows(), &outs);

      // What the downstream GroupAggregate computes: KeyEncoder bytes (over its own view of the
      // types, which may differ in nullability), KeyGroupOf, SubtaskOfKeyGroup.
      std::vector<DataType> consumer_types = Types();
      consumer_types[0] = consumer_types[0].WithNullable(false);
      auto encoder = KeyEncoder::Create(consumer_types, keys);
      ASSERT_TRUE(encoder.ok());
      std::vector<std::vector<int64_t>> expected(parallelism);
      for (size_t r = 0; r < in.num_rows(); ++r) {
        std::string key = encoder->EncodeToString(in, r);
        int subtask =
            SubtaskOfKeyGroup(KeyGroupOf(key, max_parallelism), parallelism, max_parallelism);
        expected[subtask].push_back(in.column(0).Get<int64_t>(r));
      }
      size_t total = 0;
      for (int t = 0; t < parallelism; ++t) {
        ASSERT_EQ(outs[t].num_rows(), expected[t].size()) << "target " << t;
        for (size_t r = 0; r < outs[t].num_rows(); ++r) {
          int64_t x = outs[t].column(0).Get<int64_t>(r);
          ASSERT_EQ(x, expected[t][r]);
          // The whole row travels, kind and nulls included.
          EXPECT_EQ(outs[t].kind(r), in.kind(x));
          EXPECT_EQ(outs[t].column(1).IsNull(r), in.column(1).IsNull(x));
          if (!in.column(1).IsNull(x)) {
            EXPECT_EQ(outs[t].column(1).GetString(r), in.column(1).GetString(x));
          }
        }
        total += outs[t].num_rows();
      }
      EXPECT_EQ(total, in.num_rows());
      if (parallelism > 1 && keys[0] == 0) {
        for (int t = 0; t < parallelism; ++t) EXPECT_GT(outs[t].num_rows(), 0u) << t;
      }
    }
  }
}

TEST(PartitionerTest, HashWithoutKeysSendsEverythingToKeyGroupZerosSubtask) {
  auto p = Partitioner::Create(v1::ExchangeSink::HASH, Types(), {}, 3, 128);
  ASSERT_TRUE(p.ok()) << p.status();
  auto outs = Outs(3);
  ChangelogBatch in = Rows(100);
  p->Split(in, 0, in.num_rows(), &outs);
  EXPECT_EQ(outs[0].num_rows(), 100u);
  EXPECT_EQ(outs[1].num_rows(), 0u);
}

TEST(PartitionerTest, RebalanceIsRoundRobinAcrossCalls) {
  auto p = Partitioner::Create(v1::ExchangeSink::REBALANCE, Types(), {}, 3, 128, /*start=*/1);
  ASSERT_TRUE(p.ok()) << p.status();
  auto outs = Outs(3);
  ChangelogBatch in = Rows(10);
  p->Split(in, 0, 4, &outs);
  p->Split(in, 4, 10, &outs);
  // Rows 0..9 go to targets 1,2,0,1,2,0,1,2,0,1.
  for (int t = 0; t < 3; ++t) {
    std::vector<int64_t> got;
    for (size_t r = 0; r < outs[t].num_rows(); ++r)
      got.push_back(outs[t].column(0).Get<int64_t>(r));
    std::vector<int64_t> want;
    for (int64_t x = 0; x < 10; ++x) {
      if ((x + 1) % 3 == t) want.push_back(x);
    }
    EXPECT_EQ(got, want) << "target " << t;
  }
}

TEST(PartitionerTest, BroadcastCopiesEveryRowToEveryTarget) {
  auto p = Partitioner::Create(v1::ExchangeSink::BROADCAST, Types(), {}, 4, 128);
  ASSERT_TRUE(p.ok());
  auto outs = Outs(4);
  ChangelogBatch in = Rows(300);
  p->Split(in, 100, 300, &outs);
  for (int t = 0; t < 4; ++t) {
    ASSERT_EQ(outs[t].num_rows(), 200u);
    EXPECT_EQ(outs[t].column(0).Get<int64_t>(0), 100);
    EXPECT_EQ(outs[t].kind(0), RowKind::kUpdateBefore);
    EXPECT_TRUE(outs[t].column(1).IsNull(21));  // row 121
  }
}

TEST(PartitionerTest, ForwardAndSingletonNeedExactlyOneTarget) {
  auto p = Partitioner::Create(v1::ExchangeSink::FORWARD, Types(), {}, 1, 128);
  ASSERT_TRUE(p.ok());
  auto outs = Outs(1);
  ChangelogBatch in = Rows(50);
  p->Split(in, 0, 50, &outs);
  EXPECT_EQ(outs[0].num_rows(), 50u);

  auto bad = Partitioner::Create(v1::ExchangeSink::SINGLETON, Types(), {}, 2, 128);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("SINGLETON exchange needs exactly one target"),
            std::string::npos)
      << bad.status();
  EXPECT_FALSE(
      Partitioner::Create(v1::ExchangeSink::PARTITIONING_UNSPECIFIED, Types(), {}, 1, 128).ok());
  EXPECT_FALSE(Partitioner::Create(v1::ExchangeSink::HASH, Types(), {5}, 2, 128).ok());
  EXPECT_FALSE(Partitioner::Create(v1::ExchangeSink::HASH, Types(), {0}, 200, 128).ok());
}

}  // namespace
}  // namespace eddy
