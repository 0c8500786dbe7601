// One client stream's relay buffer on the coordinator (TableEnvironment::FromStream): the batches
// the program wrote, numbered from 1, kept until the reading source confirms them (a completed
// checkpoint covers them, or at once without checkpointing), so that a restored source reads again
// what followed its checkpoint. The buffer holds at most `capacity` batches, confirmed or not: the
// writer gets a credit back for each batch dropped, so memory stays bounded and a slow query blocks
// the producer.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "eddy/v1/stream_relay.pb.h"

namespace eddy {

class StreamRelay {
 public:
  StreamRelay(std::string id, int capacity) : id_(std::move(id)), capacity_(capacity) {}

  const std::string& id() const { return id_; }
  int capacity() const { return capacity_; }

  // The writer side. AttachWriter fails when another writer holds the stream or it was closed.
  absl::Status AttachWriter();
  // A batch the writer sent with a credit; an error after Close or beyond the credits granted.
  absl::Status Append(v1::ChangelogBatch batch);
  absl::Status Close();
  // The writer's stream broke before Close: the reading source fails with `why`.
  void WriterLost(const std::string& why);
  // Waits up to `timeout_ms` until more batches than `seen` were dropped; returns how many were
  // dropped in all (what the writer may send again).
  int64_t WaitDropped(int64_t seen, int timeout_ms);

  // The reader side: the batches after `after_seq`, dropping those up to `confirmed_seq`.
  absl::StatusOr<v1::PullStreamResponse> Pull(const v1::PullStreamRequest& request);

  // Batches held now (for tests and metrics).
  size_t kept() const;
  // The job that reads the stream ("" before one pulled).
  std::string reader_job() const;
  // Closed, or its writer went away: no batch comes any more.
  bool writer_done() const;

 private:
  const std::string id_;
  const int capacity_;
  mutable std::mutex mu_;
  std::condition_variable dropped_cv_;
  std::deque<v1::ChangelogBatch> kept_;  // numbered first_seq_, first_seq_ + 1, ...
  int64_t first_seq_ = 1;
  bool writer_attached_ = false;
  bool closed_ = false;
  std::string writer_lost_;  // non-empty: why the writer went away without closing
  std::string reader_job_;   // the job that reads the stream (the first to pull)
};

}  // namespace eddy
