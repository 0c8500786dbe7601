#include "worker/runtime/checkpoint_uploader.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/base/file_checksum.h"
#include "common/base/logging.h"
#include "common/base/sync_directory.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

// Copies `from` to `to` through a temporary file, synced and renamed: `to` is whole or absent.
bool CopyDurably(const std::string& from, const std::string& to, uint64_t* size, uint32_t* crc,
                 UploadError* error) {
  const std::string tmp = to + ".inprogress";
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    error->Set(absl::StrCat("cannot read '", from, "': ", std::strerror(errno)), errno);
    return false;
  }
  const int out = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    error->Set(absl::StrCat("cannot write '", tmp, "': ", std::strerror(errno)), errno);
    ::close(in);
    return false;
  }
  char buf[1 << 16];
  bool ok = true;
  *size = 0;
  *crc = 0;
  while (ok) {
    const ssize_t n = ::read(in, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error->Set(absl::StrCat("cannot read '", from, "': ", std::strerror(errno)), errno);
      ok = false;
      break;
    }
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(out, buf + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        error->Set(absl::StrCat("cannot write '", tmp, "': ", std::strerror(errno)), errno);
        ok = false;
        break;
      }
      done += w;
    }
    *size += static_cast<uint64_t>(n);
    *crc = Crc32Update(*crc, buf, static_cast<size_t>(n));
  }
  if (ok && ::fsync(out) != 0) {
    error->Set(absl::StrCat("cannot sync '", tmp, "': ", std::strerror(errno)), errno);
    ok = false;
  }
  ::close(in);
  if (::close(out) != 0 && ok) {
    error->Set(absl::StrCat("cannot write '", tmp, "': ", std::strerror(errno)), errno);
    ok = false;
  }
  if (ok && ::rename(tmp.c_str(), to.c_str()) != 0) {
    error->Set(absl::StrCat("cannot rename '", tmp, "': ", std::strerror(errno)), errno);
    ok = false;
  }
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

bool MakeDir(const std::string& dir, UploadError* error) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    error->Set(absl::StrCat("cannot create '", dir, "': ", ec.message()), ec.value());
    return false;
  }
  return true;
}

bool IsSst(const std::string& name) { return absl::EndsWith(name, ".sst"); }

}  // namespace

CheckpointUploader::CheckpointUploader(AckFn ack, DeclineFn decline)
    : ack_(std::move(ack)), decline_(std::move(decline)) {
  thread_ = std::thread([this] { Run(); });
}

CheckpointUploader::~CheckpointUploader() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  thread_.join();
}

void CheckpointUploader::Submit(SubtaskSnapshot snapshot) {
  std::lock_guard<std::mutex> lock(mu_);
  queue_.push_back(std::move(snapshot));
  cv_.notify_all();
}

void CheckpointUploader::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void CheckpointUploader::NotifyCheckpoint(const std::string& job_id, int64_t checkpoint_id,
                                          bool completed) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [name, store] : stores_) {
    if (store.job_id != job_id) continue;
    auto it = store.pending.find(checkpoint_id);
    if (completed && it != store.pending.end()) store.confirmed = it->second;
    if (completed) {
      // Older pending checkpoints are subsumed: the coordinator never completes them now.
      store.pending.erase(store.pending.begin(), store.pending.upper_bound(checkpoint_id));
    } else if (it != store.pending.end()) {
      store.pending.erase(it);
    }
  }
}

void CheckpointUploader::SeedStore(const std::string& job_id, const std::string& store_name,
                                   const std::vector<v1::StateFile>& files) {
  std::lock_guard<std::mutex> lock(mu_);
  StoreUploads& store = stores_[store_name];
  store.job_id = job_id;
  for (const v1::StateFile& f : files) {
    const std::string name = fs::path(f.path()).filename().string();
    if (IsSst(name)) store.confirmed[name] = f;
  }
}

void CheckpointUploader::DropJob(const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = stores_.begin(); it != stores_.end();) {
    it = it->second.job_id == job_id ? stores_.erase(it) : std::next(it);
  }
}

void CheckpointUploader::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    SubtaskSnapshot snapshot = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    Process(snapshot);
    if (!snapshot.local_root.empty()) {
      std::error_code ec;
      fs::remove_all(snapshot.local_root, ec);
    }
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

bool CheckpointUploader::UploadStore(const SubtaskSnapshot& snapshot, const StoreSnapshot& store,
                                     v1::OperatorStateHandle* handle, UploadError* error) {
  std::map<std::string, v1::StateFile> reusable;
  {
    std::lock_guard<std::mutex> lock(mu_);
    StoreUploads& uploads = stores_[store.store_name];
    uploads.job_id = snapshot.job_id;
    reusable = uploads.confirmed;
  }
  const std::string shared_rel = absl::StrCat("shared/", store.store_name);
  const std::string own_rel = absl::StrCat("chk-", snapshot.checkpoint_id, "/", store.store_name);
  const fs::path job_dir(snapshot.job_dir);
  if (!MakeDir((job_dir / shared_rel).string(), error) ||
      !MakeDir((job_dir / own_rel).string(), error)) {
    return false;
  }
  std::map<std::string, v1::StateFile> uploaded_ssts;
  std::error_code ec;
  for (fs::directory_iterator it(store.local_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    v1::StateFile* file = handle->add_files();
    if (IsSst(name)) {
      auto found = reusable.find(name);
      if (found != reusable.end()) {
        *file = found->second;  // the same immutable file, already in the checkpoint directory
      } else {
        uint64_t size = 0;
        uint32_t crc = 0;
        const std::string rel = absl::StrCat(shared_rel, "/", name);
        if (!CopyDurably(it->path().string(), (job_dir / rel).string(), &size, &crc, error)) {
          return false;
        }
        file->set_path(rel);
        file->set_size(size);
        file->set_crc32(crc);
      }
      uploaded_ssts[name] = *file;
    } else {
      uint64_t size = 0;
      uint32_t crc = 0;
      const std::string rel = absl::StrCat(own_rel, "/", name);
      if (!CopyDurably(it->path().string(), (job_dir / rel).string(), &size, &crc, error)) {
        return false;
      }
      file->set_path(rel);
      file->set_size(size);
      file->set_crc32(crc);
    }
  }
  if (ec) {
    error->Set(absl::StrCat("cannot list '", store.local_dir, "': ", ec.message()), ec.value());
    return false;
  }
  absl::Status synced = SyncDirectory((job_dir / shared_rel).string());
  if (synced.ok()) synced = SyncDirectory((job_dir / own_rel).string());
  if (!synced.ok()) {
    error->Set(std::string(synced.message()), 0);
    return false;
  }
  std::lock_guard<std::mutex> lock(mu_);
  stores_[store.store_name].pending[snapshot.checkpoint_id] = std::move(uploaded_ssts);
  return true;
}

void CheckpointUploader::Process(SubtaskSnapshot& snapshot) {
  UploadError upload;
  upload.message = snapshot.decline_reason;
  std::string& error = upload.message;
  if (error.empty()) {
    for (const StoreSnapshot& store : snapshot.stores) {
      v1::OperatorStateHandle* handle =
          snapshot.state.mutable_operators(static_cast<int>(store.operator_index));
      if (!UploadStore(snapshot, store, handle, &upload)) break;
    }
  }
  if (!error.empty()) {
    EDDY_LOG_WARN("job {} task {}.{} declines checkpoint {}: {}", snapshot.job_id,
                  snapshot.state.task_index(), snapshot.state.subtask_index(),
                  snapshot.checkpoint_id, error);
    v1::DeclineCheckpointRequest req;
    req.set_job_id(snapshot.job_id);
    req.set_attempt(snapshot.attempt);
    req.set_checkpoint_id(snapshot.checkpoint_id);
    req.set_task_index(snapshot.state.task_index());
    req.set_subtask_index(snapshot.state.subtask_index());
    req.set_reason(error);
    req.set_storage_full(upload.storage_full);
    if (decline_) decline_(req);
    return;
  }
  v1::AcknowledgeCheckpointRequest req;
  req.set_job_id(snapshot.job_id);
  req.set_attempt(snapshot.attempt);
  req.set_checkpoint_id(snapshot.checkpoint_id);
  req.set_alignment_duration_ns(snapshot.alignment_ns);
  *req.mutable_state() = std::move(snapshot.state);
  if (ack_) ack_(req);
}

}  // namespace eddy
