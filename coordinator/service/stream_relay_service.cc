#include "coordinator/service/stream_relay_service.h"

#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/base/logging.h"
#include "common/base/status_macros.h"
#include "common/connectors/client_stream_connector.h"
#include "common/rpc/status_convert.h"
#include "common/sql/parser.h"
#include "common/types/type_proto.h"
#include "coordinator/planner/planner.h"

namespace eddy {
namespace {

std::string Quote(const std::string& name) {
  return "`" + absl::StrReplaceAll(name, {{"`", "``"}}) + "`";
}

std::string QuoteString(const std::string& s) {
  return "'" + absl::StrReplaceAll(s, {{"'", "''"}}) + "'";
}

}  // namespace

std::string ClientStreamTableDdl(const v1::OpenStreamRequest& req, const std::string& table_name,
                                 const std::string& stream_id) {
  std::string ddl = absl::StrCat("CREATE TEMPORARY TABLE ", table_name, " (", req.columns());
  if (!req.watermark_column().empty()) {
    absl::StrAppend(&ddl, ", WATERMARK FOR ", Quote(req.watermark_column()), " AS ",
                    req.watermark_expr());
  }
  absl::StrAppend(&ddl, ") WITH ('connector' = ", QuoteString(std::string(kClientStreamConnector)),
                  ", 'stream-id' = ", QuoteString(stream_id), ", 'scan.parallelism' = '1')");
  return ddl;
}

grpc::Status StreamRelayService::OpenStream(grpc::ServerContext*, const v1::OpenStreamRequest* req,
                                            v1::OpenStreamResponse* resp) {
  if (req->columns().empty()) {
    return ToGrpcStatus(absl::InvalidArgumentError("FromStream: the schema has no columns"));
  }
  if (req->watermark_column().empty() != req->watermark_expr().empty()) {
    return ToGrpcStatus(absl::InvalidArgumentError(
        "FromStream: a watermark needs both its column and its expression"));
  }
  if (req->buffer_batches() < 0) {
    return ToGrpcStatus(absl::InvalidArgumentError(
        absl::StrCat("FromStream: the buffer must be a positive number of batches, not ",
                     req->buffer_batches())));
  }
  DropEndedStreams();
  int64_t n;
  {
    std::lock_guard<std::mutex> lock(mu_);
    n = next_id_++;
  }
  const std::string id = absl::StrCat("stream-", n);
  const std::string name =
      req->table_name().empty() ? absl::StrCat("`stream_", n, "`") : req->table_name();
  const std::string ddl = ClientStreamTableDdl(*req, name, id);
  auto fail = [&](const absl::Status& s) {
    return ToGrpcStatus(
        absl::Status(s.code(), absl::StrCat("FromStream: ", s.message(),
                                            " (the stream's table is declared as `", ddl, "`)")));
  };
  Session& session = sessions_(req->session_id());
  std::lock_guard<std::mutex> session_lock(session.mu);
  auto stmt = sql::ParseStatement(ddl);
  if (!stmt.ok()) return fail(stmt.status());
  if ((*stmt)->kind != sql::StatementKind::kCreateTable || (*stmt)->create_table == nullptr) {
    return fail(absl::InvalidArgumentError("the schema is not a column list"));
  }
  auto table = BindCreateTable(*(*stmt)->create_table, session.catalog, /*allow_internal=*/true);
  if (!table.ok()) return fail(table.status());
  const ObjectPath path = table->path;
  Schema physical;
  for (size_t i = 0; i < table->schema.size(); ++i) {
    if (!table->IsComputed(i)) physical.fields.push_back(table->schema.fields[i]);
  }
  if (absl::Status s = session.catalog.CreateTable(std::move(*table), /*temporary=*/true,
                                                   /*if_not_exists=*/false);
      !s.ok()) {
    return fail(s);
  }
  const int capacity =
      req->buffer_batches() > 0 ? req->buffer_batches() : kDefaultStreamBufferBatches;
  {
    std::lock_guard<std::mutex> lock(mu_);
    relays_[id] = std::make_shared<StreamRelay>(id, capacity);
  }
  resp->set_stream_id(id);
  resp->set_table_path(
      absl::StrCat(Quote(path.catalog), ".", Quote(path.database), ".", Quote(path.object)));
  SchemaToProto(physical, resp->mutable_schema());
  resp->set_buffer_batches(capacity);
  EDDY_LOG_INFO("opened {} as table {}", id, path.ToString());
  return grpc::Status::OK;
}

std::string StreamRelayService::ReaderEnded(const StreamRelay& relay) {
  const std::string job = relay.reader_job();
  if (job.empty()) return "";
  const std::string why = job_ended_(job);
  if (why.empty()) return "";
  return absl::StrCat("the job ", job, " reading stream ", relay.id(), " ended (", why,
                      "): the stream takes no more rows");
}

void StreamRelayService::DropEndedStreams() {
  std::vector<std::shared_ptr<StreamRelay>> relays;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, relay] : relays_) relays.push_back(relay);
  }
  for (const auto& relay : relays) {
    if (!relay->writer_done() || ReaderEnded(*relay).empty()) continue;
    std::lock_guard<std::mutex> lock(mu_);
    relays_.erase(relay->id());
  }
}

absl::StatusOr<std::shared_ptr<StreamRelay>> StreamRelayService::Find(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = relays_.find(id);
  if (it == relays_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "stream '", id,
        "' is not open on this coordinator (a stream lives in the coordinator that opened it)"));
  }
  return it->second;
}

grpc::Status StreamRelayService::WriteStream(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriter<v1::StreamWriteCredit, v1::StreamWriteFrame>* stream) {
  v1::StreamWriteFrame frame;
  if (!stream->Read(&frame)) return grpc::Status::OK;
  auto relay = Find(frame.stream_id());
  if (!relay.ok()) return ToGrpcStatus(relay.status());
  if (absl::Status s = (*relay)->AttachWriter(); !s.ok()) return ToGrpcStatus(s);

  // Credits go back from a thread of their own while this one reads: the first grant is the whole
  // buffer, then one credit per batch the reader confirmed.
  std::mutex write_mu;
  std::atomic<bool> done{false};
  std::thread credits([&, r = *relay] {
    int64_t seen = 0;
    {
      v1::StreamWriteCredit grant;
      grant.set_credits(r->capacity());
      std::lock_guard<std::mutex> lock(write_mu);
      if (!stream->Write(grant)) return;
    }
    while (!done.load() && !ctx->IsCancelled()) {
      const int64_t dropped = r->WaitDropped(seen, 100);
      if (done.load()) break;
      if (dropped == seen) {
        // A job that ended (failed, cancelled, or a LIMIT met) reads no more: tell the writer
        // instead of leaving it waiting for credits that never come.
        const std::string ended = ReaderEnded(*r);
        if (ended.empty()) continue;
        v1::StreamWriteCredit error;
        error.set_error(ended);
        std::lock_guard<std::mutex> lock(write_mu);
        stream->Write(error);
        return;
      }
      v1::StreamWriteCredit grant;
      grant.set_credits(static_cast<int32_t>(dropped - seen));
      seen = dropped;
      std::lock_guard<std::mutex> lock(write_mu);
      if (!stream->Write(grant)) return;
    }
  });
  auto finish = [&](grpc::Status status) {
    done.store(true);
    credits.join();
    return status;
  };

  bool first = true;
  while (first || stream->Read(&frame)) {
    first = false;
    if (frame.has_batch()) {
      if (absl::Status s = (*relay)->Append(std::move(*frame.mutable_batch())); !s.ok()) {
        (*relay)->WriterLost(std::string(s.message()));
        return finish(ToGrpcStatus(s));
      }
    }
    if (frame.end()) {
      (void)(*relay)->Close();
      grpc::Status status = finish(grpc::Status::OK);
      v1::StreamWriteCredit ack;
      ack.set_end_received(true);
      stream->Write(ack);
      return status;
    }
  }
  (*relay)->WriterLost("its connection ended before the writer was closed");
  return finish(grpc::Status(grpc::StatusCode::CANCELLED, "stream ended without close"));
}

grpc::Status StreamRelayService::PullStream(grpc::ServerContext*, const v1::PullStreamRequest* req,
                                            v1::PullStreamResponse* resp) {
  auto relay = Find(req->stream_id());
  if (!relay.ok()) return ToGrpcStatus(relay.status());
  auto pulled = (*relay)->Pull(*req);
  if (!pulled.ok()) return ToGrpcStatus(pulled.status());
  *resp = std::move(*pulled);
  return grpc::Status::OK;
}

}  // namespace eddy
