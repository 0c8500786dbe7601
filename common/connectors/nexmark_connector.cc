#include "common/connectors/nexmark_connector.h"

#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/memory_size.h"
#include "common/base/status_macros.h"

namespace eddy {
namespace {

struct NexmarkOptions {
  int64_t events_num = 0;
  int64_t first_event_rate = 10000;
  std::optional<int64_t> base_time_ms;
  int64_t person_proportion = 1, auction_proportion = 3, bid_proportion = 46;
  int64_t person_avg_size = 200, auction_avg_size = 500, bid_avg_size = 100;
  int64_t hot_auction_ratio = 2, hot_bidder_ratio = 4, hot_seller_ratio = 4;
  bool rate_limited = false;
};

enum class ColumnType { kInt, kBigInt, kString, kTimestamp };

ColumnType TypeOf(v1::NexmarkField f) {
  switch (f) {
    case v1::NexmarkField::EVENT_TYPE:
      return ColumnType::kInt;
    case v1::NexmarkField::DATE_TIME:
    case v1::NexmarkField::AUCTION_EXPIRES:
      return ColumnType::kTimestamp;
    case v1::NexmarkField::PERSON_NAME:
    case v1::NexmarkField::PERSON_EMAIL_ADDRESS:
    case v1::NexmarkField::PERSON_CREDIT_CARD:
    case v1::NexmarkField::PERSON_CITY:
    case v1::NexmarkField::PERSON_STATE:
    case v1::NexmarkField::PERSON_EXTRA:
    case v1::NexmarkField::AUCTION_ITEM_NAME:
    case v1::NexmarkField::AUCTION_DESCRIPTION:
    case v1::NexmarkField::AUCTION_EXTRA:
    case v1::NexmarkField::BID_CHANNEL:
    case v1::NexmarkField::BID_URL:
    case v1::NexmarkField::BID_EXTRA:
      return ColumnType::kString;
    case v1::NexmarkField::PERSON_ID:
    case v1::NexmarkField::AUCTION_ID:
    case v1::NexmarkField::AUCTION_INITIAL_BID:
    case v1::NexmarkField::AUCTION_RESERVE:
    case v1::NexmarkField::AUCTION_SELLER:
    case v1::NexmarkField::AUCTION_CATEGORY:
    case v1::NexmarkField::BID_AUCTION:
    case v1::NexmarkField::BID_BIDDER:
    case v1::NexmarkField::BID_PRICE:
    case v1::NexmarkField_INT_MIN_SENTINEL_DO_NOT_USE_:
    case v1::NexmarkField_INT_MAX_SENTINEL_DO_NOT_USE_:
      return ColumnType::kBigInt;
  }
  return ColumnType::kBigInt;
}

bool Matches(ColumnType want, const DataType& t) {
  switch (want) {
    case ColumnType::kInt:
      return t.id == TypeId::kInt;
    case ColumnType::kBigInt:
      return t.id == TypeId::kBigInt;
    case ColumnType::kString:
      return t.id == TypeId::kString && t.length == 0;
    case ColumnType::kTimestamp:
      return t.id == TypeId::kTimestamp && t.precision == 3;
  }
  return false;
}

const char* TypeName(ColumnType t) {
  switch (t) {
    case ColumnType::kInt:
      return "INT";
    case ColumnType::kBigInt:
      return "BIGINT";
    case ColumnType::kString:
      return "STRING";
    case ColumnType::kTimestamp:
      return "TIMESTAMP(3)";
  }
  return "";
}

std::optional<v1::NexmarkField> FieldNamed(const std::string& name) {
  v1::NexmarkField f;
  if (name != absl::AsciiStrToLower(name)) return std::nullopt;
  if (!v1::NexmarkField_Parse(absl::AsciiStrToUpper(name), &f)) return std::nullopt;
  return f;
}

std::string FieldList() {
  std::string s;
  const auto* d = v1::NexmarkField_descriptor();
  for (int i = 0; i < d->value_count(); ++i) {
    absl::StrAppend(&s, i ? ", " : "", absl::AsciiStrToLower(d->value(i)->name()));
  }
  return s;
}

absl::Status ReadSize(ConnectorConfig& config, const std::string& key, int64_t* out) {
  std::optional<std::string> v = config.Get(key);
  if (!v) return absl::OkStatus();
  std::optional<int64_t> bytes = ParseMemorySizeBytes(*v);
  if (!bytes || *bytes <= 0) return config.Bad(key, "a memory size such as '200b'");
  *out = *bytes;
  return absl::OkStatus();
}

// Parses the options; an error names the option and the table.
absl::Status ParseOptions(ConnectorConfig& config, NexmarkOptions* o) {
  const std::string& table = config.table();
  ASSIGN_OR_RETURN(o->events_num, config.Int("events.num", o->events_num, 0));
  ASSIGN_OR_RETURN(o->first_event_rate, config.Int("first-event.rate", o->first_event_rate, 1));
  ASSIGN_OR_RETURN(o->rate_limited, config.Bool("rate.limited", o->rate_limited));
  if (config.Has("base-time")) {
    ASSIGN_OR_RETURN(o->base_time_ms, config.Int("base-time", 0, 0));
  }
  ASSIGN_OR_RETURN(o->person_proportion, config.Int("person.proportion", o->person_proportion, 0));
  ASSIGN_OR_RETURN(o->auction_proportion,
                   config.Int("auction.proportion", o->auction_proportion, 0));
  ASSIGN_OR_RETURN(o->bid_proportion, config.Int("bid.proportion", o->bid_proportion, 0));
  RETURN_IF_ERROR(ReadSize(config, "person.avg-size", &o->person_avg_size));
  RETURN_IF_ERROR(ReadSize(config, "auction.avg-size", &o->auction_avg_size));
  RETURN_IF_ERROR(ReadSize(config, "bid.avg-size", &o->bid_avg_size));
  ASSIGN_OR_RETURN(o->hot_auction_ratio,
                   config.Int("bid.hot-ratio.auctions", o->hot_auction_ratio, 1));
  ASSIGN_OR_RETURN(o->hot_bidder_ratio,
                   config.Int("bid.hot-ratio.bidders", o->hot_bidder_ratio, 1));
  ASSIGN_OR_RETURN(o->hot_seller_ratio,
                   config.Int("auction.hot-ratio.sellers", o->hot_seller_ratio, 1));
  if (config.Has("next-event.rate")) {
    ASSIGN_OR_RETURN(const int64_t rate, config.Int("next-event.rate", 0, 1));
    if (rate != o->first_event_rate) {
      return ConnectorConfig::Error(
          absl::StrCat("option 'next-event.rate' of table '", table,
                       "': a rate that changes over time is not supported; set it equal to "
                       "'first-event.rate' (",
                       o->first_event_rate, ") or leave it out"));
    }
  }
  if (o->person_proportion + o->auction_proportion + o->bid_proportion == 0) {
    return ConnectorConfig::Error(absl::StrCat("table '", table,
                                               "' (connector 'nexmark'): the person, auction and "
                                               "bid proportions are all 0"));
  }
  if (o->auction_proportion == 0 && o->bid_proportion > 0) {
    return ConnectorConfig::Error(absl::StrCat("table '", table,
                                               "' (connector 'nexmark'): bids need auctions; "
                                               "'auction.proportion' is 0"));
  }
  if (o->person_proportion == 0 && o->auction_proportion + o->bid_proportion > 0) {
    return ConnectorConfig::Error(absl::StrCat("table '", table,
                                               "' (connector 'nexmark'): auctions and bids need "
                                               "persons; 'person.proportion' is 0"));
  }
  return absl::OkStatus();
}

absl::Status CheckColumns(const ConnectorTable& table) {
  for (const Field& f : table.columns.fields) {
    std::optional<v1::NexmarkField> field = FieldNamed(f.name);
    if (!field) {
      return ConnectorConfig::Error(
          absl::StrCat("column '", f.name, "' of table '", table.name,
                       "' is not a nexmark column; the connector generates: ", FieldList()));
    }
    const ColumnType want = TypeOf(*field);
    if (!Matches(want, f.type)) {
      return ConnectorConfig::Error(absl::StrCat("column '", f.name, "' of table '", table.name,
                                                 "' (connector 'nexmark') must be ", TypeName(want),
                                                 ", not ", f.type.ToString()));
    }
  }
  return absl::OkStatus();
}

class Nexmark : public ConnectorFactory {
 public:
  std::string_view name() const override { return "nexmark"; }
  bool can_read() const override { return true; }
  absl::Status Validate(const ConnectorTable& table, ConnectorConfig& config) const override {
    RETURN_IF_ERROR(CheckColumns(table));
    NexmarkOptions options;
    return ParseOptions(config, &options);
  }
  bool Bounded(const ConnectorTable& table, ConnectorConfig& config) const override {
    NexmarkOptions o;
    return ParseOptions(config, &o).ok() && o.events_num > 0;
  }
};

}  // namespace

const ConnectorFactory& NexmarkConnector() {
  static const Nexmark kNexmark;
  return kNexmark;
}

absl::StatusOr<v1::NexmarkSource> ReadNexmarkSpec(const ConnectorTable& table,
                                                  ConnectorConfig& config,
                                                  const std::vector<int>& columns, int64_t now_ms) {
  RETURN_IF_ERROR(CheckColumns(table));
  NexmarkOptions o;
  RETURN_IF_ERROR(ParseOptions(config, &o));
  v1::NexmarkSource out;
  out.set_events_num(o.events_num);
  out.set_first_event_rate(static_cast<double>(o.first_event_rate));
  out.set_base_time_ms(o.base_time_ms.value_or(now_ms));
  out.set_person_proportion(static_cast<int32_t>(o.person_proportion));
  out.set_auction_proportion(static_cast<int32_t>(o.auction_proportion));
  out.set_bid_proportion(static_cast<int32_t>(o.bid_proportion));
  out.set_person_avg_size(static_cast<int32_t>(o.person_avg_size));
  out.set_auction_avg_size(static_cast<int32_t>(o.auction_avg_size));
  out.set_bid_avg_size(static_cast<int32_t>(o.bid_avg_size));
  out.set_hot_auction_ratio(static_cast<int32_t>(o.hot_auction_ratio));
  out.set_hot_bidder_ratio(static_cast<int32_t>(o.hot_bidder_ratio));
  out.set_hot_seller_ratio(static_cast<int32_t>(o.hot_seller_ratio));
  out.set_rate_limited(o.rate_limited);
  std::vector<int> read = columns;
  if (read.empty()) {
    for (size_t c = 0; c < table.columns.size(); ++c) read.push_back(static_cast<int>(c));
  }
  for (int c : read) {
    if (c < 0 || c >= static_cast<int>(table.columns.size())) {
      return ConnectorConfig::Error(
          absl::StrCat("nexmark table '", table.name, "': column ", c, " out of range"));
    }
    out.add_fields(*FieldNamed(table.columns.fields[c].name));
  }
  return out;
}

}  // namespace eddy
