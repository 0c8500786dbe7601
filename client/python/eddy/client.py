"""The client of a coordinator (as client/eddy_client.h): runs statements in a session, follows and
cancels jobs, fetches a query's rows, over gRPC (ClientService in proto/eddy/v1/client.proto).

Failed calls become exceptions (eddy.util.exceptions) carrying the coordinator's own message.
"""

import grpc

from eddy.util.exceptions import (CoordinatorUnavailableException, SqlParseException,
                                  TableException, ValidationException)

try:
    from eddy.v1 import client_pb2, client_pb2_grpc, results_pb2
except ImportError as e:  # the package was not built (see docs/python-api.md, "Installing")
    raise ImportError("eddy.v1 (the generated gRPC modules) is missing: install the package with "
                      "`pip install client/python`, or build with CMake and put "
                      "<build>/python on PYTHONPATH") from e

# As common/rpc/message_limits.h: the same send and receive limit as every Eddy channel.
MAX_MESSAGE_BYTES = 64 << 20
# ExecuteStatement plans and submits; it may take a while on a busy cluster (as the C++ client).
EXECUTE_TIMEOUT_S = 120.0
RPC_TIMEOUT_S = 30.0

FINAL_JOB_STATUSES = (client_pb2.JOB_STATUS_FINISHED, client_pb2.JOB_STATUS_FAILED,
                      client_pb2.JOB_STATUS_CANCELED)


class EddyClient:
    """A session on the coordinator at `address` (host:port)."""

    def __init__(self, address, session_id):
        self.address = address
        self.session_id = session_id
        self._channel = grpc.insecure_channel(address,
                                              options=[
                                                  ("grpc.max_receive_message_length",
                                                   MAX_MESSAGE_BYTES),
                                                  ("grpc.max_send_message_length",
                                                   MAX_MESSAGE_BYTES),
                                              ])
        self._stub = client_pb2_grpc.ClientServiceStub(self._channel)

    def close(self):
        self._channel.close()

    def _error(self, e):
        """The exception a failed call raises, as the user should read it."""
        code = e.code() if hasattr(e, "code") else None
        details = (e.details() if hasattr(e, "details") else None) or ""
        name = code.name if code is not None else None
        if code == grpc.StatusCode.UNAVAILABLE:
            return CoordinatorUnavailableException(
                "cannot reach the coordinator at %s: %s" % (self.address, details), name)
        if code == grpc.StatusCode.DEADLINE_EXCEEDED and not details.strip():
            details = "no answer in time"
        if not details:
            if code == grpc.StatusCode.UNIMPLEMENTED:
                return TableException(
                    "the server at %s does not serve Eddy's client API: is it the "
                    "coordinator's address (not a worker's)?" % self.address, name)
            return TableException(
                "the coordinator at %s answered %s without a message" % (self.address, name), name)
        if details.startswith("SQL parse error"):
            return SqlParseException(details, name)
        if details.startswith("Validation error"):
            return ValidationException(details, name)
        return TableException(details, name)

    def _call(self, method, request, timeout):
        try:
            return method(request, timeout=timeout)
        except grpc.RpcError as e:
            raise self._error(e) from None

    def execute(self, statement):
        """ExecuteStatementResponse of one SQL statement."""
        return self._call(
            self._stub.ExecuteStatement,
            client_pb2.ExecuteStatementRequest(session_id=self.session_id, statement=statement),
            EXECUTE_TIMEOUT_S)

    def explain(self, statement, changelog_mode=False):
        """The plan text of EXPLAIN [CHANGELOG_MODE] `statement`."""
        r = self.execute(("EXPLAIN CHANGELOG_MODE " if changelog_mode else "EXPLAIN ") + statement)
        if r.kind != client_pb2.ExecuteStatementResponse.EXPLAIN:
            raise TableException("the coordinator answered EXPLAIN without a plan")
        return r.message

    def get_job(self, job_id, wait_timeout_ms=0):
        """JobInfo; with wait_timeout_ms > 0, once the job is final or the time is up."""
        return self._call(self._stub.GetJob,
                          client_pb2.GetJobRequest(job_id=job_id, wait_timeout_ms=wait_timeout_ms),
                          wait_timeout_ms / 1000.0 + RPC_TIMEOUT_S)

    def cancel_job(self, job_id):
        self._call(self._stub.CancelJob, client_pb2.CancelJobClientRequest(job_id=job_id),
                   RPC_TIMEOUT_S)

    def fetch_results(self, job_id, wait_ms):
        """The next batches of a query job; `end` once all were handed over."""
        return self._call(self._stub.FetchResults,
                          results_pb2.FetchResultsRequest(job_id=job_id, max_wait_ms=wait_ms),
                          wait_ms / 1000.0 + RPC_TIMEOUT_S)

    def list_jobs(self):
        return list(
            self._call(self._stub.ListJobs, client_pb2.ListJobsRequest(), RPC_TIMEOUT_S).jobs)

    def list_workers(self):
        return list(
            self._call(self._stub.ListWorkers, client_pb2.ListWorkersRequest(),
                       RPC_TIMEOUT_S).workers)
