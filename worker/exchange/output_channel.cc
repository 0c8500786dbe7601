#include "worker/exchange/output_channel.h"

#include "absl/strings/str_cat.h"

namespace eddy {

std::string ChannelTarget::ToString() const {
  std::string s = absl::StrCat("channel ", channel_index, " of ", consumer.ToString());
  if (!worker_id.empty()) absl::StrAppend(&s, " on ", worker_id);
  if (!address.empty()) absl::StrAppend(&s, " at ", address);
  return s;
}

}  // namespace eddy
