#include "tests/integration/nexmark_events.h"

#include "common/batch/column.h"
#include "worker/connectors/nexmark_generator.h"

namespace eddy::testing {

v1::NexmarkSource NexmarkSpec(int64_t events, int64_t rate, int64_t base_time_ms,
                              int hot_seller_ratio) {
  v1::NexmarkSource spec;
  spec.set_events_num(events);
  spec.set_first_event_rate(static_cast<double>(rate));
  spec.set_base_time_ms(base_time_ms);
  spec.set_person_proportion(1);
  spec.set_auction_proportion(3);
  spec.set_bid_proportion(46);
  spec.set_person_avg_size(200);
  spec.set_auction_avg_size(500);
  spec.set_bid_avg_size(100);
  spec.set_hot_auction_ratio(2);
  spec.set_hot_bidder_ratio(4);
  spec.set_hot_seller_ratio(hot_seller_ratio);
  return spec;
}

NexmarkEvents GenerateNexmark(const v1::NexmarkSource& spec, int parallelism) {
  NexmarkEvents out;
  for (int s = 0; s < parallelism; ++s) {
    NexmarkGenerator g(spec, s, parallelism);
    const size_t n = static_cast<size_t>(g.num_events());
    auto column = [&](v1::NexmarkField f, DataType t) {
      Column c(t);
      g.Append(f, 0, n, &c);
      return c;
    };
    const Column pid = column(v1::NexmarkField::PERSON_ID, DataType::BigInt());
    const Column name = column(v1::NexmarkField::PERSON_NAME, DataType::String());
    const Column city = column(v1::NexmarkField::PERSON_CITY, DataType::String());
    const Column state = column(v1::NexmarkField::PERSON_STATE, DataType::String());
    const Column aid = column(v1::NexmarkField::AUCTION_ID, DataType::BigInt());
    const Column seller = column(v1::NexmarkField::AUCTION_SELLER, DataType::BigInt());
    const Column category = column(v1::NexmarkField::AUCTION_CATEGORY, DataType::BigInt());
    for (size_t i = 0; i < n; ++i) {
      const int64_t index = static_cast<int64_t>(i);
      switch (g.TypeOf(g.EventId(index))) {
        case NexmarkEventType::kPerson:
          out.persons.push_back({pid.Get<int64_t>(i), std::string(name.GetString(i)),
                                 std::string(city.GetString(i)), std::string(state.GetString(i)),
                                 g.TimestampMs(index)});
          break;
        case NexmarkEventType::kAuction:
          out.auctions.push_back({aid.Get<int64_t>(i), seller.Get<int64_t>(i),
                                  category.Get<int64_t>(i), g.TimestampMs(index)});
          break;
        case NexmarkEventType::kBid:
          break;
      }
    }
  }
  return out;
}

}  // namespace eddy::testing
