// The nexmark generator: event kinds in the configured proportions, ids that refer to persons and
// auctions already generated (or a few ahead), values in the benchmark's domains, a column's
// values independent of the other columns read and of batch boundaries, event times on parallel
// timelines, and a source that replays from any checkpointed position.
#include "worker/connectors/nexmark_generator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "worker/connectors/nexmark_source.h"

namespace eddy {
namespace {

v1::NexmarkSource Spec(int64_t events) {
  v1::NexmarkSource spec;
  spec.set_events_num(events);
  spec.set_first_event_rate(1000);  // one event a millisecond
  spec.set_base_time_ms(1700000000000);
  spec.set_person_proportion(1);
  spec.set_auction_proportion(3);
  spec.set_bid_proportion(46);
  spec.set_person_avg_size(200);
  spec.set_auction_avg_size(500);
  spec.set_bid_avg_size(100);
  spec.set_hot_auction_ratio(2);
  spec.set_hot_bidder_ratio(4);
  spec.set_hot_seller_ratio(4);
  return spec;
}

Column Generate(const NexmarkGenerator& g, v1::NexmarkField f, int64_t first, size_t n,
                DataType type) {
  Column c(type);
  g.Append(f, first, n, &c);
  return c;
}

TEST(NexmarkGenerator, EventKindsFollowTheProportions) {
  NexmarkGenerator g(Spec(5000), 0, 1);
  std::map<NexmarkEventType, int> kinds;
  for (int64_t i = 0; i < 5000; ++i) ++kinds[g.TypeOf(g.EventId(i))];
  EXPECT_EQ(kinds[NexmarkEventType::kPerson], 100);
  EXPECT_EQ(kinds[NexmarkEventType::kAuction], 300);
  EXPECT_EQ(kinds[NexmarkEventType::kBid], 4600);
  // Each epoch of 50 events: a person, three auctions, then bids.
  EXPECT_EQ(g.TypeOf(50), NexmarkEventType::kPerson);
  EXPECT_EQ(g.TypeOf(51), NexmarkEventType::kAuction);
  EXPECT_EQ(g.TypeOf(54), NexmarkEventType::kBid);
}

TEST(NexmarkGenerator, IdsReferToGeneratedPersonsAndAuctions) {
  NexmarkGenerator g(Spec(20000), 0, 1);
  const size_t n = 20000;
  Column person = Generate(g, v1::NexmarkField::PERSON_ID, 0, n, DataType::BigInt());
  Column auction = Generate(g, v1::NexmarkField::AUCTION_ID, 0, n, DataType::BigInt());
  Column seller = Generate(g, v1::NexmarkField::AUCTION_SELLER, 0, n, DataType::BigInt());
  Column category = Generate(g, v1::NexmarkField::AUCTION_CATEGORY, 0, n, DataType::BigInt());
  Column bid_auction = Generate(g, v1::NexmarkField::BID_AUCTION, 0, n, DataType::BigInt());
  Column bidder = Generate(g, v1::NexmarkField::BID_BIDDER, 0, n, DataType::BigInt());
  Column price = Generate(g, v1::NexmarkField::BID_PRICE, 0, n, DataType::BigInt());
  int64_t next_person = 1000, next_auction = 1000;
  std::set<int64_t> categories;
  for (size_t i = 0; i < n; ++i) {
    switch (g.TypeOf(static_cast<int64_t>(i))) {
      case NexmarkEventType::kPerson:
        ASSERT_FALSE(person.IsNull(i));
        EXPECT_EQ(person.Get<int64_t>(i), next_person++);  // persons are numbered in order
        EXPECT_TRUE(auction.IsNull(i) && bid_auction.IsNull(i));
        break;
      case NexmarkEventType::kAuction:
        ASSERT_FALSE(auction.IsNull(i));
        EXPECT_EQ(auction.Get<int64_t>(i), next_auction++);
        EXPECT_GE(seller.Get<int64_t>(i), 1000);
        EXPECT_LT(seller.Get<int64_t>(i), next_person + 10);  // at most a few persons ahead
        categories.insert(category.Get<int64_t>(i));
        EXPECT_TRUE(person.IsNull(i));
        break;
      case NexmarkEventType::kBid:
        EXPECT_GE(bid_auction.Get<int64_t>(i), 1000);
        EXPECT_LT(bid_auction.Get<int64_t>(i), next_auction + 10);
        EXPECT_GE(bidder.Get<int64_t>(i), 1000);
        EXPECT_LT(bidder.Get<int64_t>(i), next_person + 10);
        EXPECT_GE(price.Get<int64_t>(i), 100);
        EXPECT_LE(price.Get<int64_t>(i), 100000000);
        break;
    }
  }
  EXPECT_EQ(categories, (std::set<int64_t>{10, 11, 12, 13, 14}));
}

TEST(NexmarkGenerator, StringsComeFromTheBenchmarksDomains) {
  NexmarkGenerator g(Spec(5000), 0, 1);
  Column state = Generate(g, v1::NexmarkField::PERSON_STATE, 0, 5000, DataType::String());
  Column card = Generate(g, v1::NexmarkField::PERSON_CREDIT_CARD, 0, 5000, DataType::String());
  Column extra = Generate(g, v1::NexmarkField::BID_EXTRA, 0, 5000, DataType::String());
  Column channel = Generate(g, v1::NexmarkField::BID_CHANNEL, 0, 5000, DataType::String());
  Column url = Generate(g, v1::NexmarkField::BID_URL, 0, 5000, DataType::String());
  std::set<std::string> states;
  size_t extra_bytes = 0, bids = 0;
  for (size_t i = 0; i < 5000; ++i) {
    if (!state.IsNull(i)) {
      states.insert(std::string(state.GetString(i)));
      EXPECT_EQ(card.GetString(i).size(), 19u) << card.GetString(i);
    }
    if (!extra.IsNull(i)) {
      extra_bytes += extra.GetString(i).size();
      ++bids;
      EXPECT_EQ(url.GetString(i).rfind("https://www.nexmark.com/", 0), 0u);
      if (channel.GetString(i).rfind("channel-", 0) == 0) {
        EXPECT_NE(url.GetString(i).find("&channel_id="), std::string_view::npos);
      }
    }
  }
  EXPECT_EQ(states, (std::set<std::string>{"AZ", "CA", "ID", "OR", "WA", "WY"}));
  // A bid of 32 bytes padded to 100 on average.
  EXPECT_NEAR(static_cast<double>(extra_bytes) / bids, 68.0, 3.0);
}

TEST(NexmarkGenerator, AColumnDoesNotDependOnBatchesOrOtherColumns) {
  NexmarkGenerator g(Spec(3000), 0, 1);
  for (v1::NexmarkField f : {v1::NexmarkField::PERSON_NAME, v1::NexmarkField::AUCTION_RESERVE,
                             v1::NexmarkField::BID_URL, v1::NexmarkField::AUCTION_EXPIRES}) {
    const DataType type = f == v1::NexmarkField::AUCTION_RESERVE   ? DataType::BigInt()
                          : f == v1::NexmarkField::AUCTION_EXPIRES ? DataType::Timestamp()
                                                                   : DataType::String();
    Column whole = Generate(g, f, 0, 3000, type);
    Column parts(type);
    g.Append(f, 0, 1000, &parts);
    g.Append(f, 1000, 7, &parts);
    g.Append(f, 1007, 1993, &parts);
    ASSERT_EQ(parts.size(), whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
      ASSERT_EQ(whole.IsNull(i), parts.IsNull(i)) << i;
      if (whole.IsNull(i)) continue;
      if (type.IsString()) {
        EXPECT_EQ(whole.GetString(i), parts.GetString(i)) << i;
      } else {
        EXPECT_EQ(whole.Get<int64_t>(i), parts.Get<int64_t>(i)) << i;
      }
    }
  }
  // The reserve is at least the initial bid it adds to.
  Column initial = Generate(g, v1::NexmarkField::AUCTION_INITIAL_BID, 0, 3000, DataType::BigInt());
  Column reserve = Generate(g, v1::NexmarkField::AUCTION_RESERVE, 0, 3000, DataType::BigInt());
  for (size_t i = 0; i < 3000; ++i) {
    if (!initial.IsNull(i)) {
      EXPECT_GT(reserve.Get<int64_t>(i), initial.Get<int64_t>(i));
    }
  }
}

TEST(NexmarkGenerator, SubtasksSplitTheIdsAndShareTheTimeline) {
  NexmarkGenerator a(Spec(1001), 0, 2), b(Spec(1001), 1, 2);
  EXPECT_EQ(a.num_events(), 500);
  EXPECT_EQ(b.num_events(), 501);
  EXPECT_EQ(a.EventId(0), 0);
  EXPECT_EQ(b.EventId(0), 500);
  // 1000 events a second over two subtasks: each subtask's events are 2 ms apart.
  EXPECT_EQ(a.TimestampMs(0), 1700000000000);
  EXPECT_EQ(b.TimestampMs(0), 1700000000000);
  EXPECT_EQ(b.TimestampMs(10), 1700000000020);
}

TEST(NexmarkSource, RestoresAtTheCheckpointedEvent) {
  const std::vector<v1::NexmarkField> fields = {
      v1::NexmarkField::EVENT_TYPE, v1::NexmarkField::PERSON_NAME, v1::NexmarkField::BID_PRICE,
      v1::NexmarkField::DATE_TIME};
  const std::vector<DataType> types = {DataType::Int(), DataType::String(), DataType::BigInt(),
                                       DataType::Timestamp()};
  v1::NexmarkSource spec = Spec(2500);
  for (auto f : fields) spec.add_fields(f);
  OperatorContext ctx;
  auto drain = [](NexmarkSource& s, size_t max_batches) {
    std::vector<std::string> rows;
    ChangelogBatch b;
    for (size_t k = 0; k < max_batches; ++k) {
      auto st = s.Next(&b);
      EXPECT_TRUE(st.ok());
      if (!st.ok() || *st == SourceState::kEnd) break;
      for (size_t r = 0; r < b.num_rows(); ++r) rows.push_back(FormatRow(b, r));
    }
    return rows;
  };
  NexmarkSource full(spec, types);
  ASSERT_TRUE(full.Open(ctx).ok());
  std::vector<std::string> all = drain(full, 100);
  ASSERT_EQ(all.size(), 2500u);

  NexmarkSource first(spec, types);
  ASSERT_TRUE(first.Open(ctx).ok());
  std::vector<std::string> head = drain(first, 1);
  OperatorSnapshot position;
  ASSERT_TRUE(first.SnapshotState(1, &position).ok());
  auto decoded = OperatorSnapshot::Decode(position.Encode());
  ASSERT_TRUE(decoded.ok());
  NexmarkSource restored(spec, types);
  ASSERT_TRUE(restored.Open(ctx).ok());
  ASSERT_TRUE(restored.RestoreState(*decoded).ok());
  std::vector<std::string> tail = drain(restored, 100);
  head.insert(head.end(), tail.begin(), tail.end());
  EXPECT_EQ(head, all);

  OperatorSnapshot beyond;
  beyond.PutInt64("events", 2501);
  NexmarkSource refused(spec, types);
  ASSERT_TRUE(refused.Open(ctx).ok());
  EXPECT_FALSE(refused.RestoreState(beyond).ok());
}

}  // namespace
}  // namespace eddy
