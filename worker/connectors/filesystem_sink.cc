#include "worker/connectors/filesystem_sink.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/base/allowed_paths.h"
#include "common/base/status_macros.h"
#include "common/base/sync_directory.h"
#include "common/connectors/filesystem_staging.h"
#include "common/connectors/partition_commit_info.h"
#include "common/connectors/partition_path.h"
#include "common/expr/gather.h"
#include "worker/connectors/filesystem_commit_policy.h"
#include "worker/connectors/filesystem_table.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;

constexpr size_t kFlushBytes = 1 << 20;
constexpr char kNextPart[] = "next-part";
constexpr char kPending[] = "pending";     // pending part names, one per line
constexpr char kToCommit[] = "to-commit";  // partitions waiting for their commit, one per line

absl::Status WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(std::strerror(errno));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<FilesystemSink>> FilesystemSink::Create(
    const v1::TableSink& sink, Schema schema, const std::vector<std::string>& allowed_dirs) {
  std::unique_ptr<FilesystemSink> s(new FilesystemSink());
  s->table_name_ = sink.table_name();
  const std::map<std::string, std::string> options(sink.options().begin(), sink.options().end());
  auto table = ReadFilesystemTable(sink.table_name(), options, allowed_dirs);
  if (!table.ok()) return s->Error(table.status().message());
  s->options_ = table->options;
  s->policy_ = RollingPolicy::FromOptions(table->options);
  s->format_ = table->options.format;
  s->dir_ = table->path;
  s->commit_at_job_end_ = sink.commit_at_job_end();
  s->report_ = sink.report_partition_commits();
  s->allowed_dirs_ = allowed_dirs;
  s->schema_ = std::move(schema);
  for (int k : sink.partition_keys()) {
    if (k < 0 || k >= static_cast<int>(s->schema_.size())) {
      return s->Error(absl::StrCat("partition column ", k, " out of range"));
    }
    s->partition_keys_.push_back(k);
    s->escaped_keys_.push_back(EscapePartitionName(s->schema_.fields[k].name));
  }
  if (s->options_.commit_trigger == FilesystemOptions::CommitTrigger::kPartitionTime) {
    std::vector<std::string> keys;
    for (int k : s->partition_keys_) keys.push_back(s->schema_.fields[k].name);
    auto extractor = PartitionTimeExtractor::Create(
        s->options_.time_extractor_pattern, s->options_.time_extractor_formatter,
        s->options_.watermark_time_zone, std::move(keys));
    if (!extractor.ok()) return s->Error(extractor.status().message());
    s->time_extractor_ = *std::move(extractor);
  }
  Schema data_schema;
  for (size_t c = 0; c < s->schema_.size(); ++c) {
    const auto& keys = s->partition_keys_;
    if (std::find(keys.begin(), keys.end(), static_cast<int>(c)) != keys.end()) continue;
    s->data_columns_.push_back(static_cast<int>(c));
    data_schema.fields.push_back(s->schema_.fields[c]);
  }
  s->encoder_ = MakeRecordEncoder(s->format_, data_schema);
  return s;
}

FilesystemSink::~FilesystemSink() { Discard(); }

absl::Status FilesystemSink::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat("filesystem sink for table '", table_name_, "': ", message));
}

absl::Status FilesystemSink::Open(const OperatorContext& ctx) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_)) {
    return Error(absl::StrCat("path '", dir_, "' is not a directory and cannot be created",
                              ec ? absl::StrCat(": ", ec.message()) : ""));
  }
  // Again now that it exists: a symlink created meanwhile must not lead out.
  auto canonical = CanonicalFilesystemPath(dir_);
  if (!canonical.ok() || !IsUnderAllowedDir(*canonical, allowed_dirs_)) {
    return Error(
        absl::StrCat("path '", dir_, "' leads outside ", AllowedDirsOf("worker", allowed_dirs_)));
  }
  dir_ = *canonical;
  job_id_ = ctx.job_id;
  subtask_ = ctx.subtask_index;
  parallelism_ = ctx.parallelism;
  attempt_ = ctx.attempt;
  if (commit_at_job_end_) {
    // Batch mode: the parts are published into this attempt's hidden staging directory, which
    // the coordinator moves into the table when the job finishes (BatchStagingDir).
    dir_ = BatchStagingDir(dir_, job_id_, attempt_);
    fs::create_directories(dir_, ec);
    if (ec) {
      return Error(
          absl::StrCat("cannot create the staging directory '", dir_, "': ", ec.message()));
    }
  }
  checkpointing_ = ctx.checkpointing;
  next_check_ = Clock::now() + policy_.check_interval;
  return absl::OkStatus();
}

std::string FilesystemSink::PartName(int64_t number) const {
  return absl::StrCat("part-", job_id_, "-", subtask_, "-", number, ".",
                      std::string(format_.extension()));
}

std::string FilesystemSink::DirOf(const std::string& partition) const {
  return partition.empty() ? dir_ : absl::StrCat(dir_, "/", partition);
}

absl::Status FilesystemSink::RemoveLeftovers() {
  const std::string prefix = absl::StrCat(".part-", job_id_, "-", subtask_, "-");
  std::error_code ec;
  // The table's directory and, for a partitioned table, its partition directories below it.
  const int depth = static_cast<int>(partition_keys_.size());
  for (fs::recursive_directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      if (it.depth() + 1 > depth || name.empty() || name[0] == '.' || name[0] == '_') {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (!absl::StartsWith(name, prefix)) continue;
    if (absl::StrContains(name, ".inprogress.") || absl::StrContains(name, ".pending.")) {
      std::error_code rm_ec;
      fs::remove(it->path(), rm_ec);
      if (rm_ec) {
        return Error(absl::StrCat("cannot remove '", it->path().string(), "': ", rm_ec.message()));
      }
    }
  }
  if (ec) return Error(absl::StrCat("cannot list '", dir_, "': ", ec.message()));
  leftovers_removed_ = true;
  return absl::OkStatus();
}

absl::Status FilesystemSink::RemoveLeftoversOnce() {
  return leftovers_removed_ ? absl::OkStatus() : RemoveLeftovers();
}

absl::Status FilesystemSink::StartPart(Bucket& bucket) {
  const std::string dir = DirOf(bucket.partition);
  if (!bucket.partition.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return Error(absl::StrCat("cannot create directory '", dir, "': ", ec.message()));
  }
  bucket.part_number = next_part_++;
  bucket.part_path =
      absl::StrCat(dir, "/.", PartName(bucket.part_number), ".inprogress.", attempt_);
  bucket.fd = ::open(bucket.part_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (bucket.fd < 0) {
    return Error(absl::StrCat("cannot create '", bucket.part_path, "': ", std::strerror(errno)));
  }
  bucket.part_bytes = 0;
  bucket.created = Clock::now();
  return absl::OkStatus();
}

absl::Status FilesystemSink::Process(int input, const ChangelogBatch& batch) {
  CountIn(batch);
  if (batch.empty()) return absl::OkStatus();
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    if (batch.kind(r) != RowKind::kInsert) {
      // The planner never feeds updates to an append-only sink; a plan that does is a bug.
      return Error(absl::StrCat("the sink is append-only but received a ",
                                std::string(RowKindShortString(batch.kind(r))), " row"));
    }
  }
  RETURN_IF_ERROR(RemoveLeftoversOnce());
  if (partition_keys_.empty()) return Write("", batch);

  // Each row's partition directory, from its partition columns' text.
  std::vector<Column> texts;
  for (int k : partition_keys_) {
    auto text = CastPartitionColumn(batch.column(static_cast<size_t>(k)));
    if (!text.ok()) return Error(text.status().message());
    texts.push_back(*std::move(text));
  }
  if (rows_by_partition_.size() > 1024) rows_by_partition_.clear();
  for (auto& [partition, rows] : rows_by_partition_) rows.clear();
  partition_order_.clear();
  for (size_t r = 0; r < batch.num_rows(); ++r) {
    // No allocation per row: the path is built in a reused buffer.
    path_scratch_.clear();
    for (size_t k = 0; k < partition_keys_.size(); ++k) {
      if (k > 0) path_scratch_.push_back('/');
      path_scratch_.append(escaped_keys_[k]);
      path_scratch_.push_back('=');
      AppendEscapedPartitionName(PartitionValueText(texts[k], r, options_.default_partition_name),
                                 &path_scratch_);
    }
    std::vector<uint32_t>& rows = rows_by_partition_[path_scratch_];
    if (rows.empty()) partition_order_.push_back(path_scratch_);
    rows.push_back(static_cast<uint32_t>(r));
  }
  // In the order the partitions first occur, so that part numbers follow the input.
  for (const std::string& partition : partition_order_) {
    const std::vector<uint32_t>& rows = rows_by_partition_[partition];
    std::vector<Column> columns;
    columns.reserve(data_columns_.size());
    for (int c : data_columns_) columns.push_back(GatherColumn(batch.column(c), rows));
    ChangelogBatch data(std::move(columns), std::vector<RowKind>(rows.size(), RowKind::kInsert));
    RETURN_IF_ERROR(Write(partition, data));
  }
  return absl::OkStatus();
}

absl::Status FilesystemSink::Write(const std::string& partition, const ChangelogBatch& rows) {
  auto [it, added] = buckets_.try_emplace(partition);
  Bucket& bucket = it->second;
  if (added) {
    bucket.partition = partition;
    first_write_.try_emplace(partition, Clock::now());
  }
  if (bucket.fd < 0) RETURN_IF_ERROR(StartPart(bucket));
  const size_t before = bucket.buffer.size();
  RETURN_IF_ERROR(encoder_->Encode(rows, &bucket.buffer));
  bucket.part_bytes += static_cast<int64_t>(bucket.buffer.size() - before);
  bucket.last_write = Clock::now();
  if (policy_.ShouldRollOnSize(bucket.part_bytes)) return Roll(partition);
  if (bucket.buffer.size() >= kFlushBytes) return Flush(bucket);
  return absl::OkStatus();
}

absl::Status FilesystemSink::OnTick(Clock::time_point now) {
  if (now < next_check_) return absl::OkStatus();
  next_check_ = now + policy_.check_interval;
  std::vector<std::string> due;
  for (const auto& [partition, bucket] : buckets_) {
    if (policy_.ShouldRollOnTime(bucket.created, bucket.last_write, now)) due.push_back(partition);
  }
  for (const std::string& partition : due) RETURN_IF_ERROR(Roll(partition));
  return absl::OkStatus();
}

absl::Status FilesystemSink::Flush(Bucket& bucket) {
  if (bucket.buffer.empty()) return absl::OkStatus();
  absl::Status s = WriteAll(bucket.fd, bucket.buffer.data(), bucket.buffer.size());
  if (!s.ok()) return Error(absl::StrCat("cannot write '", bucket.part_path, "': ", s.message()));
  bucket.buffer.clear();
  return absl::OkStatus();
}

absl::Status FilesystemSink::Roll(const std::string& partition) {
  auto it = buckets_.find(partition);
  if (it == buckets_.end()) return absl::OkStatus();
  Bucket& bucket = it->second;
  if (bucket.fd < 0) {
    buckets_.erase(it);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(Flush(bucket));
  if (::fsync(bucket.fd) != 0) {
    return Error(absl::StrCat("cannot sync '", bucket.part_path, "': ", std::strerror(errno)));
  }
  const int fd = bucket.fd;
  bucket.fd = -1;
  if (::close(fd) != 0) {
    return Error(absl::StrCat("cannot close '", bucket.part_path, "': ", std::strerror(errno)));
  }
  std::string pending = absl::StrCat(".", PartName(bucket.part_number), ".pending.", attempt_);
  if (!partition.empty()) pending = absl::StrCat(partition, "/", pending);
  const std::string pending_path = absl::StrCat(dir_, "/", pending);
  if (::rename(bucket.part_path.c_str(), pending_path.c_str()) != 0) {
    return Error(absl::StrCat("cannot rename '", bucket.part_path, "' to '", pending_path,
                              "': ", std::strerror(errno)));
  }
  buckets_.erase(it);
  rolled_.push_back(pending);
  return absl::OkStatus();
}

absl::Status FilesystemSink::RollAll() {
  while (!buckets_.empty()) RETURN_IF_ERROR(Roll(buckets_.begin()->first));
  return absl::OkStatus();
}

absl::Status FilesystemSink::Publish(const std::vector<std::string>& pending_names) {
  if (pending_names.empty()) return absl::OkStatus();
  std::set<std::string> dirs;
  for (const std::string& pending : pending_names) {
    // "[<partition>/].part-<...>.<ext>.pending.<attempt>" -> "[<partition>/]part-<...>.<ext>"
    const size_t slash = pending.rfind('/');
    const std::string partition = slash == std::string::npos ? "" : pending.substr(0, slash);
    const std::string name = slash == std::string::npos ? pending : pending.substr(slash + 1);
    const std::string final_name = name.substr(1, name.rfind(".pending.") - 1);
    const std::string dir = DirOf(partition);
    const std::string from = absl::StrCat(dir, "/", name);
    const std::string to = absl::StrCat(dir, "/", final_name);
    dirs.insert(dir);
    if (report_ || options_.commit_success_file) to_commit_.insert(partition);
    if (::rename(from.c_str(), to.c_str()) == 0) continue;
    const int error = errno;
    // Published before a failure already (a restore repeats the commit of its checkpoint).
    std::error_code ec;
    if (error == ENOENT && fs::exists(to, ec)) continue;
    return absl::DataLossError(absl::StrCat("filesystem sink for table '", table_name_,
                                            "': cannot publish part '", from, "' as '", to,
                                            "': ", std::strerror(error)));
  }
  // The renames are durable once the directories are synced.
  for (const std::string& dir : dirs) {
    absl::Status synced = SyncDirectory(dir);
    if (!synced.ok()) return Error(synced.message());
  }
  return absl::OkStatus();
}

absl::Status FilesystemSink::CommitPartitions(bool all) {
  const Clock::time_point now = Clock::now();
  const auto delay = std::chrono::milliseconds(options_.commit_delay_ms);
  for (auto it = to_commit_.begin(); it != to_commit_.end();) {
    const std::string& partition = *it;
    bool due = all;
    if (!due && time_extractor_.has_value()) {
      ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionPath(partition));
      absl::StatusOr<int64_t> time = time_extractor_->ExtractMillis(spec);
      if (!time.ok()) return Error(time.status().message());
      due = commit_watermark_ > *time + options_.commit_delay_ms;
    } else if (!due) {
      auto first = first_write_.find(partition);
      due = first == first_write_.end() || now - first->second >= delay;
    }
    if (!due) {
      ++it;
      continue;
    }
    absl::Status committed = RunPartitionCommitPolicies(options_, DirOf(partition));
    if (!committed.ok()) return Error(committed.message());
    it = to_commit_.erase(it);
  }
  return absl::OkStatus();
}

absl::Status FilesystemSink::SnapshotState(int64_t checkpoint_id, OperatorSnapshot* out) {
  RETURN_IF_ERROR(RemoveLeftoversOnce());
  RETURN_IF_ERROR(RollAll());
  if (!rolled_.empty()) {
    std::vector<std::string>& parts = pending_[checkpoint_id];
    std::set<std::string> dirs;
    for (const std::string& name : rolled_) {
      const size_t slash = name.rfind('/');
      dirs.insert(DirOf(slash == std::string::npos ? "" : name.substr(0, slash)));
    }
    parts.insert(parts.end(), rolled_.begin(), rolled_.end());
    rolled_.clear();
    // The pending names must survive a crash of this machine, since the checkpoint names them.
    for (const std::string& dir : dirs) {
      absl::Status synced = SyncDirectory(dir);
      if (!synced.ok()) return Error(synced.message());
    }
  }
  std::vector<std::string> names;
  for (const auto& [id, parts] : pending_) names.insert(names.end(), parts.begin(), parts.end());
  if (time_extractor_.has_value() || report_) checkpoint_watermarks_[checkpoint_id] = watermark_;
  out->PutInt64(kNextPart, next_part_);
  if (!names.empty()) out->Put(kPending, absl::StrJoin(names, "\n"));
  if (!to_commit_.empty()) out->Put(kToCommit, absl::StrJoin(to_commit_, "\n"));
  return absl::OkStatus();
}

absl::Status FilesystemSink::NotifyCheckpointComplete(int64_t checkpoint_id) {
  std::vector<std::string> names;
  for (auto it = pending_.begin(); it != pending_.end() && it->first <= checkpoint_id;) {
    names.insert(names.end(), it->second.begin(), it->second.end());
    it = pending_.erase(it);
  }
  RETURN_IF_ERROR(Publish(names));
  for (auto it = checkpoint_watermarks_.begin();
       it != checkpoint_watermarks_.end() && it->first <= checkpoint_id;) {
    commit_watermark_ = std::max(commit_watermark_, it->second);
    it = checkpoint_watermarks_.erase(it);
  }
  if (report_) {
    RETURN_IF_ERROR(Report(checkpoint_id));
    // The input ended and its last parts are published: this writer has nothing more to report.
    if (finished_ && !HasUncommittedOutput()) return Report(kEndOfInputReport);
    return absl::OkStatus();
  }
  // At the end of the input, once everything is published, every partition is done.
  return CommitPartitions(finished_ && pending_.empty() && rolled_.empty());
}

absl::Status FilesystemSink::Report(int64_t checkpoint_id) {
  const Schema schema = PartitionCommitInfoSchema();
  ChangelogBatch report(schema.Types());
  PartitionCommitInfoWriter writer(checkpoint_id, subtask_, parallelism_, &report);
  for (const std::string& partition : to_commit_) writer.AddPartition(partition);
  writer.Close(commit_watermark_);
  to_commit_.clear();
  return Emit(report);
}

namespace {

// A name the restored state may hold: `[k1=v1/.../]` then `.part-...pending.<attempt>`, with no
// level that could lead elsewhere.
bool IsPendingName(const std::string& name) {
  const size_t slash = name.rfind('/');
  const absl::string_view file =
      absl::string_view(name).substr(slash == std::string::npos ? 0 : slash + 1);
  if (!absl::StartsWith(file, ".part-") || !absl::StrContains(file, ".pending.")) return false;
  return slash == std::string::npos || IsPartitionPath(std::string_view(name).substr(0, slash));
}

}  // namespace

absl::Status FilesystemSink::RestoreState(const OperatorSnapshot& snapshot) {
  ASSIGN_OR_RETURN(std::optional<int64_t> next_part, snapshot.GetInt64(kNextPart));
  if (!next_part || *next_part < 0) return Error("the restored state has no part counter");
  next_part_ = *next_part;
  if (std::optional<std::string_view> commit = snapshot.Get(kToCommit)) {
    for (absl::string_view p :
         absl::StrSplit(absl::string_view(commit->data(), commit->size()), '\n')) {
      const std::string partition(p);
      // "": the table's own directory (not partitioned).
      if (!partition.empty() && !IsPartitionPath(partition)) {
        return Error(absl::StrCat("the restored state names a partition '", partition,
                                  "' that this sink does not write"));
      }
      to_commit_.insert(partition);
    }
  }
  // The restored checkpoint completed, so its pending parts are published now (again, if the
  // failure came after their first publication).
  if (std::optional<std::string_view> pending = snapshot.Get(kPending)) {
    std::vector<std::string> names = absl::StrSplit(
        absl::string_view(pending->data(), pending->size()), '\n', absl::SkipEmpty());
    for (const std::string& name : names) {
      if (!IsPendingName(name)) {
        return Error(absl::StrCat("the restored state names a part '", name,
                                  "' that this sink does not write"));
      }
    }
    RETURN_IF_ERROR(Publish(names));
  }
  // The delay of a partition waiting for its commit starts again from the restore.
  for (const std::string& partition : to_commit_) {
    first_write_.try_emplace(partition, Clock::now());
  }
  // Anything else of this subtask is from after the checkpoint: never published, removed.
  return RemoveLeftovers();
}

absl::Status FilesystemSink::ProcessWatermark(const Watermark& watermark) {
  // Nothing is downstream of a sink; the watermark only times partition commits.
  if (!watermark.idle) watermark_ = std::max(watermark_, watermark.millis);
  return absl::OkStatus();
}

absl::Status FilesystemSink::Finish() {
  RETURN_IF_ERROR(RemoveLeftoversOnce());
  RETURN_IF_ERROR(RollAll());
  finished_ = true;
  if (checkpointing_) {
    // The last parts are published by the next checkpoint, which reports them; a writer with
    // none reports its end now.
    if (report_ && !HasUncommittedOutput()) return Report(kEndOfInputReport);
    return absl::OkStatus();
  }
  std::vector<std::string> names;
  names.swap(rolled_);
  RETURN_IF_ERROR(Publish(names));
  if (report_) return Report(kEndOfInputReport);
  return CommitPartitions(/*all=*/true);
}

void FilesystemSink::Discard() {
  for (auto& [partition, bucket] : buckets_) {
    if (bucket.fd >= 0) {
      ::close(bucket.fd);
      bucket.fd = -1;
    }
    if (!bucket.part_path.empty()) ::unlink(bucket.part_path.c_str());
  }
  buckets_.clear();
  if (!checkpointing_) {
    // Without checkpoints nothing would ever publish them.
    for (const std::string& name : rolled_) ::unlink(absl::StrCat(dir_, "/", name).c_str());
    rolled_.clear();
  }
}

absl::Status FilesystemSink::Close() {
  Discard();
  return absl::OkStatus();
}

}  // namespace eddy
