#include "worker/connectors/nexmark_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "common/base/hash.h"

namespace eddy {
namespace {

constexpr int64_t kFirstPersonId = 1000;
constexpr int64_t kFirstAuctionId = 1000;
constexpr int64_t kFirstCategoryId = 10;
constexpr int64_t kNumCategories = 5;
// Ids may run a few ahead of the last one generated (a bid before its auction's event).
constexpr int64_t kPersonIdLead = 10;
constexpr int64_t kAuctionIdLead = 10;
// Hot sellers, auctions and bidders are the first of each batch of this many recent ones.
constexpr int64_t kHotBatch = 100;
constexpr int64_t kNumActivePeople = 1000;
constexpr int64_t kNumInFlightAuctions = 100;
// A subtask's range of event ids when the table is unbounded.
constexpr int64_t kUnboundedRange = int64_t{1} << 48;
// One bid in this many names a channel other than the four hot ones.
constexpr uint64_t kHotChannelRatio = 100;
constexpr uint64_t kChannels = 10000;
// Sizes of an event without its padding, as the benchmark counts them (averages of the text).
constexpr int kPersonBaseSize = 62;
constexpr int kAuctionBaseSize = 110;
constexpr int kBidBaseSize = 32;

constexpr std::array<std::string_view, 6> kStates = {"AZ", "CA", "ID", "OR", "WA", "WY"};
constexpr std::array<std::string_view, 10> kCities = {
    "Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
    "Bend",    "Redmond",     "Seattle",       "Kent",  "Cheyenne"};
constexpr std::array<std::string_view, 11> kFirstNames = {
    "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"};
constexpr std::array<std::string_view, 9> kLastNames = {
    "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
constexpr std::array<std::string_view, 4> kHotChannels = {"Google", "Facebook", "Baidu", "Apple"};

NexmarkEventType FieldKind(v1::NexmarkField f) {
  const int n = static_cast<int>(f);
  if (n >= 30) return NexmarkEventType::kBid;
  if (n >= 20) return NexmarkEventType::kAuction;
  return NexmarkEventType::kPerson;
}

}  // namespace

uint64_t NexmarkGenerator::Random::Next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

NexmarkGenerator::NexmarkGenerator(const v1::NexmarkSource& spec, int subtask, int parallelism)
    : spec_(spec),
      total_proportion_(spec.person_proportion() + spec.auction_proportion() +
                        spec.bid_proportion()) {
  const int p = std::max(1, parallelism);
  if (spec_.events_num() > 0) {
    const int64_t per = spec_.events_num() / p;
    first_event_id_ = per * subtask;
    // The last subtask takes what the division leaves.
    num_events_ = subtask == p - 1 ? spec_.events_num() - per * (p - 1) : per;
  } else {
    first_event_id_ = kUnboundedRange * subtask;
  }
  inter_event_delay_us_ = 1e6 / spec_.first_event_rate() * p;
}

NexmarkEventType NexmarkGenerator::TypeOf(int64_t event_id) const {
  const int64_t offset = event_id % total_proportion_;
  if (offset < spec_.person_proportion()) return NexmarkEventType::kPerson;
  if (offset < spec_.person_proportion() + spec_.auction_proportion()) {
    return NexmarkEventType::kAuction;
  }
  return NexmarkEventType::kBid;
}

int64_t NexmarkGenerator::TimestampMs(int64_t index) const {
  return spec_.base_time_ms() +
         static_cast<int64_t>(static_cast<double>(index) * inter_event_delay_us_) / 1000;
}

int64_t NexmarkGenerator::LastPersonId(int64_t event_id) const {
  const int64_t epoch = event_id / total_proportion_;
  int64_t offset = event_id % total_proportion_;
  // An auction or a bid: the last person of this epoch.
  if (offset >= spec_.person_proportion()) offset = spec_.person_proportion() - 1;
  return epoch * spec_.person_proportion() + offset;
}

int64_t NexmarkGenerator::LastAuctionId(int64_t event_id) const {
  int64_t epoch = event_id / total_proportion_;
  int64_t offset = event_id % total_proportion_;
  if (offset < spec_.person_proportion()) {
    // A person: the last auction of the previous epoch.
    --epoch;
    offset = spec_.auction_proportion() - 1;
  } else if (offset >= spec_.person_proportion() + spec_.auction_proportion()) {
    // A bid: the last auction of this epoch.
    offset = spec_.auction_proportion() - 1;
  } else {
    offset -= spec_.person_proportion();
  }
  return epoch * spec_.auction_proportion() + offset;
}

NexmarkGenerator::Random NexmarkGenerator::RandomFor(int64_t event_id,
                                                     v1::NexmarkField field) const {
  return Random{MixHash64(static_cast<uint64_t>(event_id) * 0x9e3779b97f4a7c15ULL +
                          static_cast<uint64_t>(field) + 1)};
}

int64_t NexmarkGenerator::NextPersonId(int64_t event_id, Random* r) const {
  // One of the active people, or a few not generated yet.
  const int64_t people = LastPersonId(event_id) + 1;
  const int64_t active = std::min(people, kNumActivePeople);
  return people - active + static_cast<int64_t>(r->Below(active + kPersonIdLead));
}

int64_t NexmarkGenerator::NextAuctionId(int64_t event_id, Random* r) const {
  // One of the auctions likely still open, or a few not generated yet.
  const int64_t last = LastAuctionId(event_id);
  const int64_t first = std::max<int64_t>(last - kNumInFlightAuctions, 0);
  return first + static_cast<int64_t>(r->Below(last - first + 1 + kAuctionIdLead));
}

int64_t NexmarkGenerator::NextPrice(Random* r) {
  return std::llround(std::pow(10.0, r->Unit() * 6.0) * 100.0);
}

void NexmarkGenerator::NextString(Random* r, int max_length, std::string* out) {
  out->clear();
  int len = 3 + static_cast<int>(r->Below(max_length - 3));
  uint64_t bits = 0;
  int left = 0;
  while (len-- > 0) {
    if (left == 0) {
      bits = r->Next();
      left = 4;  // 16 bits a character
    }
    const uint64_t c = bits & 0xffff;
    bits >>= 16;
    --left;
    out->push_back(c % 13 == 0 ? ' ' : static_cast<char>('a' + (c >> 4) % 26));
  }
  const size_t b = out->find_first_not_of(' ');
  if (b == std::string::npos) {
    out->clear();
    return;
  }
  out->erase(out->find_last_not_of(' ') + 1);
  out->erase(0, b);
}

void NexmarkGenerator::NextExtra(Random* r, int current_size, int average_size, std::string* out) {
  out->clear();
  if (current_size > average_size) return;
  const int desired = average_size - current_size;
  const int delta = static_cast<int>(std::lround(desired * 0.2));
  const int size = desired - delta +
                   (delta == 0 ? 0 : static_cast<int>(r->Below(2 * static_cast<uint64_t>(delta))));
  out->resize(size);
  // Eight letters a draw: a byte scaled to 0..25 by a multiply and a shift (no division).
  char* p = out->data();
  int i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t bits = r->Next();
    for (int k = 0; k < 8; ++k, bits >>= 8) {
      p[i + k] = static_cast<char>('a' + (((bits & 0xff) * 26) >> 8));
    }
  }
  for (uint64_t bits = r->Next(); i < size; ++i, bits >>= 8) {
    p[i] = static_cast<char>('a' + (((bits & 0xff) * 26) >> 8));
  }
}

void NexmarkGenerator::Append(v1::NexmarkField field, int64_t first_index, size_t n,
                              Column* out) const {
  std::string scratch;
  if (field == v1::NexmarkField::EVENT_TYPE) {
    for (size_t i = 0; i < n; ++i) {
      out->Append<int32_t>(static_cast<int32_t>(TypeOf(EventId(first_index + i))));
    }
    return;
  }
  if (field == v1::NexmarkField::DATE_TIME) {
    for (size_t i = 0; i < n; ++i) out->Append<int64_t>(TimestampMs(first_index + i));
    return;
  }
  const NexmarkEventType kind = FieldKind(field);
  size_t i = 0;
  while (i < n) {
    // A run of events of other kinds (46 bids in a row by default) is one AppendNulls.
    size_t other = i;
    while (other < n && TypeOf(EventId(first_index + static_cast<int64_t>(other))) != kind) {
      ++other;
    }
    if (other > i) {
      out->AppendNulls(other - i);
      i = other;
      continue;
    }
    const int64_t index = first_index + static_cast<int64_t>(i);
    AppendValue(field, EventId(index), index, out, &scratch);
    ++i;
  }
}

void NexmarkGenerator::AppendValue(v1::NexmarkField field, int64_t event_id, int64_t index,
                                   Column* out, std::string* s) const {
  Random r = RandomFor(event_id, field);
  switch (field) {
    case v1::NexmarkField::EVENT_TYPE:
    case v1::NexmarkField::DATE_TIME:
      // Generated for every event in Append.
      return;
    case v1::NexmarkField::PERSON_ID:
      out->Append<int64_t>(LastPersonId(event_id) + kFirstPersonId);
      return;
    case v1::NexmarkField::PERSON_NAME:
      s->assign(kFirstNames[r.Below(kFirstNames.size())]);
      s->push_back(' ');
      s->append(kLastNames[r.Below(kLastNames.size())]);
      out->AppendString(*s);
      return;
    case v1::NexmarkField::PERSON_EMAIL_ADDRESS: {
      std::string domain;
      NextString(&r, 7, s);
      NextString(&r, 5, &domain);
      absl::StrAppend(s, "@", domain, ".com");
      out->AppendString(*s);
      return;
    }
    case v1::NexmarkField::PERSON_CREDIT_CARD: {
      char buf[20];
      for (int g = 0; g < 4; ++g) {
        const uint64_t v = r.Below(10000);
        char* p = buf + g * 5;
        p[0] = static_cast<char>('0' + v / 1000);
        p[1] = static_cast<char>('0' + v / 100 % 10);
        p[2] = static_cast<char>('0' + v / 10 % 10);
        p[3] = static_cast<char>('0' + v % 10);
        if (g < 3) p[4] = ' ';
      }
      out->AppendString(std::string_view(buf, 19));
      return;
    }
    case v1::NexmarkField::PERSON_CITY:
      out->AppendString(kCities[r.Below(kCities.size())]);
      return;
    case v1::NexmarkField::PERSON_STATE:
      out->AppendString(kStates[r.Below(kStates.size())]);
      return;
    case v1::NexmarkField::PERSON_EXTRA:
      NextExtra(&r, kPersonBaseSize, spec_.person_avg_size(), s);
      out->AppendString(*s);
      return;
    case v1::NexmarkField::AUCTION_ID:
      out->Append<int64_t>(LastAuctionId(event_id) + kFirstAuctionId);
      return;
    case v1::NexmarkField::AUCTION_ITEM_NAME:
      NextString(&r, 20, s);
      out->AppendString(*s);
      return;
    case v1::NexmarkField::AUCTION_DESCRIPTION:
      NextString(&r, 100, s);
      out->AppendString(*s);
      return;
    case v1::NexmarkField::AUCTION_INITIAL_BID:
      out->Append<int64_t>(NextPrice(&r));
      return;
    case v1::NexmarkField::AUCTION_RESERVE: {
      // The initial bid plus a price: the initial bid's own stream draws it again.
      Random initial = RandomFor(event_id, v1::NexmarkField::AUCTION_INITIAL_BID);
      out->Append<int64_t>(NextPrice(&initial) + NextPrice(&r));
      return;
    }
    case v1::NexmarkField::AUCTION_EXPIRES: {
      // On average open until the auction kNumInFlightAuctions later is generated.
      const int64_t ahead =
          kNumInFlightAuctions * total_proportion_ / std::max(1, spec_.auction_proportion());
      const int64_t now = TimestampMs(index);
      const int64_t horizon = TimestampMs(index + ahead) - now;
      out->Append<int64_t>(now + 1 +
                           static_cast<int64_t>(r.Below(std::max<int64_t>(horizon * 2, 1))));
      return;
    }
    case v1::NexmarkField::AUCTION_SELLER: {
      const int64_t seller = r.Below(spec_.hot_seller_ratio()) > 0
                                 ? LastPersonId(event_id) / kHotBatch * kHotBatch
                                 : NextPersonId(event_id, &r);
      out->Append<int64_t>(seller + kFirstPersonId);
      return;
    }
    case v1::NexmarkField::AUCTION_CATEGORY:
      out->Append<int64_t>(kFirstCategoryId + static_cast<int64_t>(r.Below(kNumCategories)));
      return;
    case v1::NexmarkField::AUCTION_EXTRA:
      NextExtra(&r, kAuctionBaseSize, spec_.auction_avg_size(), s);
      out->AppendString(*s);
      return;
    case v1::NexmarkField::BID_AUCTION: {
      const int64_t auction = r.Below(spec_.hot_auction_ratio()) > 0
                                  ? LastAuctionId(event_id) / kHotBatch * kHotBatch
                                  : NextAuctionId(event_id, &r);
      out->Append<int64_t>(auction + kFirstAuctionId);
      return;
    }
    case v1::NexmarkField::BID_BIDDER: {
      // The second of a batch, so that hot bidders and hot sellers differ.
      const int64_t bidder = r.Below(spec_.hot_bidder_ratio()) > 0
                                 ? LastPersonId(event_id) / kHotBatch * kHotBatch + 1
                                 : NextPersonId(event_id, &r);
      out->Append<int64_t>(bidder + kFirstPersonId);
      return;
    }
    case v1::NexmarkField::BID_PRICE:
      out->Append<int64_t>(NextPrice(&r));
      return;
    case v1::NexmarkField::BID_CHANNEL:
    case v1::NexmarkField::BID_URL: {
      // Both columns draw the channel from the channel column's stream, so they agree.
      Random c = RandomFor(event_id, v1::NexmarkField::BID_CHANNEL);
      const bool hot = c.Below(kHotChannelRatio) > 0;
      const uint64_t channel = hot ? c.Below(kHotChannels.size()) : c.Below(kChannels);
      if (field == v1::NexmarkField::BID_CHANNEL) {
        if (hot) {
          out->AppendString(kHotChannels[channel]);
        } else {
          out->AppendString(absl::StrCat("channel-", channel));
        }
        return;
      }
      // A channel's URL is a function of the channel alone.
      Random u{MixHash64(channel * 2 + (hot ? 1 : 0) + 0x5eed)};
      std::string a, b, d;
      NextString(&u, 5, &a);
      NextString(&u, 5, &b);
      NextString(&u, 5, &d);
      *s = absl::StrCat("https://www.nexmark.com/", a, "/", b, "/", d, "/item.htm?query=1");
      if (!hot) absl::StrAppend(s, "&channel_id=", channel);
      out->AppendString(*s);
      return;
    }
    case v1::NexmarkField::BID_EXTRA:
      NextExtra(&r, kBidBaseSize, spec_.bid_avg_size(), s);
      out->AppendString(*s);
      return;
    case v1::NexmarkField_INT_MIN_SENTINEL_DO_NOT_USE_:
    case v1::NexmarkField_INT_MAX_SENTINEL_DO_NOT_USE_:
      return;
  }
}

}  // namespace eddy
