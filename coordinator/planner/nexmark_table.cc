#include "coordinator/planner/nexmark_table.h"

#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/memory_size.h"
#include "coordinator/planner/planner_errors.h"

namespace eddy::planner {
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

// Parses the options; an error names the option and the table.
absl::Status ParseOptions(const CatalogTable& t, NexmarkOptions* o) {
  const std::string table = t.path.ToString();
  auto bad = [&](const std::string& key, const std::string& expects, const std::string& value) {
    return ValidationError(absl::StrCat("option '", key, "' of table '", table, "' expects ",
                                        expects, ", got '", value, "'"));
  };
  auto integer = [&](const std::string& key, const std::string& value, int64_t min,
                     int64_t* out) -> absl::Status {
    if (!absl::SimpleAtoi(value, out) || *out < min) {
      return bad(key, min > 0 ? "a positive integer" : "a non-negative integer", value);
    }
    return absl::OkStatus();
  };
  auto size = [&](const std::string& key, const std::string& value, int64_t* out) -> absl::Status {
    std::optional<int64_t> bytes = ParseMemorySizeBytes(value);
    if (!bytes || *bytes <= 0) return bad(key, "a memory size such as '200b'", value);
    *out = *bytes;
    return absl::OkStatus();
  };
  std::optional<std::string> next_rate;
  for (const auto& [key, value] : t.options) {
    absl::Status s;
    if (key == "connector") continue;
    if (key == "events.num") {
      s = integer(key, value, 0, &o->events_num);
    } else if (key == "first-event.rate") {
      s = integer(key, value, 1, &o->first_event_rate);
    } else if (key == "next-event.rate") {
      next_rate = value;
    } else if (key == "rate.limited") {
      const std::string v = absl::AsciiStrToLower(value);
      if (v != "true" && v != "false") return bad(key, "true or false", value);
      o->rate_limited = v == "true";
    } else if (key == "base-time") {
      int64_t ms = 0;
      s = integer(key, value, 0, &ms);
      o->base_time_ms = ms;
    } else if (key == "person.proportion") {
      s = integer(key, value, 0, &o->person_proportion);
    } else if (key == "auction.proportion") {
      s = integer(key, value, 0, &o->auction_proportion);
    } else if (key == "bid.proportion") {
      s = integer(key, value, 0, &o->bid_proportion);
    } else if (key == "person.avg-size") {
      s = size(key, value, &o->person_avg_size);
    } else if (key == "auction.avg-size") {
      s = size(key, value, &o->auction_avg_size);
    } else if (key == "bid.avg-size") {
      s = size(key, value, &o->bid_avg_size);
    } else if (key == "bid.hot-ratio.auctions") {
      s = integer(key, value, 1, &o->hot_auction_ratio);
    } else if (key == "bid.hot-ratio.bidders") {
      s = integer(key, value, 1, &o->hot_bidder_ratio);
    } else if (key == "auction.hot-ratio.sellers") {
      s = integer(key, value, 1, &o->hot_seller_ratio);
    } else {
      return ValidationError(absl::StrCat("unsupported option '", key,
                                          "' for connector 'nexmark' of table '", table, "'"));
    }
    if (!s.ok()) return s;
  }
  if (next_rate) {
    int64_t rate = 0;
    if (!absl::SimpleAtoi(*next_rate, &rate) || rate <= 0) {
      return bad("next-event.rate", "a positive integer", *next_rate);
    }
    if (rate != o->first_event_rate) {
      return ValidationError(
          absl::StrCat("option 'next-event.rate' of table '", table,
                       "': a rate that changes over time is not supported; set it equal to "
                       "'first-event.rate' (",
                       o->first_event_rate, ") or leave it out"));
    }
  }
  if (o->person_proportion + o->auction_proportion + o->bid_proportion == 0) {
    return ValidationError(absl::StrCat("table '", table,
                                        "' (connector 'nexmark'): the person, auction and bid "
                                        "proportions are all 0"));
  }
  if (o->auction_proportion == 0 && o->bid_proportion > 0) {
    return ValidationError(absl::StrCat("table '", table,
                                        "' (connector 'nexmark'): bids need auctions; "
                                        "'auction.proportion' is 0"));
  }
  if (o->person_proportion == 0 && o->auction_proportion + o->bid_proportion > 0) {
    return ValidationError(absl::StrCat("table '", table,
                                        "' (connector 'nexmark'): auctions and bids need "
                                        "persons; 'person.proportion' is 0"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateNexmarkTable(const CatalogTable& table) {
  const Schema physical = table.PhysicalSchema();
  for (const Field& f : physical.fields) {
    std::optional<v1::NexmarkField> field = FieldNamed(f.name);
    if (!field) {
      return ValidationError(
          absl::StrCat("column '", f.name, "' of table '", table.path.ToString(),
                       "' is not a nexmark column; the connector generates: ", FieldList()));
    }
    const ColumnType want = TypeOf(*field);
    if (!Matches(want, f.type)) {
      return ValidationError(absl::StrCat("column '", f.name, "' of table '", table.path.ToString(),
                                          "' (connector 'nexmark') must be ", TypeName(want),
                                          ", not ", f.type.ToString()));
    }
  }
  NexmarkOptions options;
  return ParseOptions(table, &options);
}

void FillNexmark(const LogicalNode& scan, int64_t now_ms, v1::NexmarkSource* out) {
  NexmarkOptions o;
  // Validated at CREATE TABLE.
  ParseOptions(*scan.table, &o).IgnoreError();
  out->set_events_num(o.events_num);
  out->set_first_event_rate(static_cast<double>(o.first_event_rate));
  out->set_base_time_ms(o.base_time_ms.value_or(now_ms));
  out->set_person_proportion(static_cast<int32_t>(o.person_proportion));
  out->set_auction_proportion(static_cast<int32_t>(o.auction_proportion));
  out->set_bid_proportion(static_cast<int32_t>(o.bid_proportion));
  out->set_person_avg_size(static_cast<int32_t>(o.person_avg_size));
  out->set_auction_avg_size(static_cast<int32_t>(o.auction_avg_size));
  out->set_bid_avg_size(static_cast<int32_t>(o.bid_avg_size));
  out->set_hot_auction_ratio(static_cast<int32_t>(o.hot_auction_ratio));
  out->set_hot_bidder_ratio(static_cast<int32_t>(o.hot_bidder_ratio));
  out->set_hot_seller_ratio(static_cast<int32_t>(o.hot_seller_ratio));
  out->set_rate_limited(o.rate_limited);
  const Schema physical = scan.table->PhysicalSchema();
  std::vector<int> columns = scan.scan_columns;
  if (columns.empty()) {
    for (size_t c = 0; c < physical.size(); ++c) columns.push_back(static_cast<int>(c));
  }
  for (int c : columns) {
    out->add_fields(FieldNamed(physical.fields[c].name).value_or(v1::NexmarkField::EVENT_TYPE));
  }
}

}  // namespace eddy::planner
