// ExchangeService server side: one handler per Transfer stream (gRPC's sync API, one thread per
// stream plus a small credit-writer thread) that decodes batch frames into the consumer's InputGate
// and streams credit grants back as the consumer task drains the channel.
#pragma once

#include <grpcpp/grpcpp.h>

#include "eddy/v1/exchange.grpc.pb.h"
#include "worker/exchange/exchange_registry.h"

namespace eddy {

class ExchangeServiceImpl final : public v1::ExchangeService::Service {
 public:
  // `registry` must outlive the server.
  explicit ExchangeServiceImpl(ExchangeRegistry* registry) : registry_(registry) {}

  grpc::Status Transfer(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<v1::ExchangeCredit, v1::ExchangeFrame>* stream) override;

 private:
  ExchangeRegistry* registry_;
};

}  // namespace eddy
