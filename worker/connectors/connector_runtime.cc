#include "worker/connectors/connector_runtime.h"

#include "absl/strings/str_cat.h"

namespace eddy {

absl::StatusOr<std::unique_ptr<Source>> ConnectorRuntime::CreateSource(
    const v1::TableSource& spec, const ConnectorContext& ctx) const {
  return absl::InvalidArgumentError(absl::StrCat("connector '", std::string(name()), "' of table '",
                                                 spec.table_name(), "' cannot be read"));
}

absl::StatusOr<std::unique_ptr<Operator>> ConnectorRuntime::CreateSink(
    const v1::TableSink& spec, const Schema& input, const ConnectorContext& ctx) const {
  return absl::InvalidArgumentError(absl::StrCat("connector '", std::string(name()), "' of table '",
                                                 spec.table_name(), "' cannot be written"));
}

}  // namespace eddy
