// The coordinator's HTTP endpoints on its REST port (docs/rest-api.md, docs/metrics.md): the REST
// API in the spirit of Flink's (/overview, /jobs, /jobs/<id>, /jobs/<id>/plan,
// /jobs/<id>/checkpoints, /jobs/<id>/exceptions, /workers, POST /jobs/<id>/stop), each answer
// the JSON mapping of a rest.proto message, and GET /metrics in the Prometheus text format.
// Read-only unless a bearer token is configured: POST /jobs/<id>/stop then needs
// `Authorization: Bearer <token>`.
#pragma once

#include <string>

#include "common/http/http_server.h"
#include "coordinator/cluster/job_manager.h"
#include "coordinator/cluster/worker_registry.h"

namespace eddy {

struct RestOptions {
  std::string token;  // empty: read-only
};

class RestApi {
 public:
  // `jobs` and `workers` must outlive the API.
  RestApi(JobManager* jobs, WorkerRegistry* workers, RestOptions options)
      : jobs_(jobs), workers_(workers), options_(std::move(options)) {}

  HttpResponse Handle(const HttpRequest& request);

 private:
  HttpResponse Overview();
  HttpResponse Jobs();
  HttpResponse Job(const std::string& job_id);
  HttpResponse Plan(const std::string& job_id);
  HttpResponse Checkpoints(const std::string& job_id);
  HttpResponse Exceptions(const std::string& job_id);
  HttpResponse Workers();
  HttpResponse Stop(const HttpRequest& request, const std::string& job_id);
  HttpResponse Metrics();

  JobManager* jobs_;
  WorkerRegistry* workers_;
  const RestOptions options_;
};

// The JSON of `message` (protobuf's JSON mapping with proto field names, every field printed).
std::string ToJson(const google::protobuf::Message& message);

}  // namespace eddy
