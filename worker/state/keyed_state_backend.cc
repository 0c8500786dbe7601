#include "worker/state/keyed_state_backend.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <unordered_map>

#include "common/base/status_macros.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/utilities/checkpoint.h"
#include "rocksdb/write_batch.h"
#include "worker/state/rocksdb_options.h"
#include "worker/state/rocksdb_status.h"
#include "worker/state/state_key.h"

namespace eddy {

using state_internal::FromRocksStatus;

namespace {

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

}  // namespace

// Registered TTLs and the clock, read by each compaction's filter (a snapshot taken when the
// compaction starts, so filtering takes no lock).
struct KeyedStateBackend::TtlRegistry {
  std::function<int64_t()> now_ms;
  mutable std::mutex mu;
  std::shared_ptr<const std::unordered_map<uint32_t, int64_t>> ttls =
      std::make_shared<std::unordered_map<uint32_t, int64_t>>();

  std::shared_ptr<const std::unordered_map<uint32_t, int64_t>> Snapshot() const {
    std::lock_guard<std::mutex> lock(mu);
    return ttls;
  }
  void Set(uint32_t op, int64_t ttl_ms) {
    std::lock_guard<std::mutex> lock(mu);
    auto next = std::make_shared<std::unordered_map<uint32_t, int64_t>>(*ttls);
    if (ttl_ms > 0) {
      (*next)[op] = ttl_ms;
    } else {
      next->erase(op);
    }
    ttls = std::move(next);
  }
};

namespace {

// Drops values of TTL operators whose timestamp + TTL <= the compaction's start time. Dropping the
// newest version of a key may uncover older versions below it, but those are older still, so
// expired as well (timestamps grow per key: one monotonic clock), and reads treat them as absent.
class TtlCompactionFilter : public rocksdb::CompactionFilter {
 public:
  TtlCompactionFilter(std::shared_ptr<const std::unordered_map<uint32_t, int64_t>> ttls,
                      int64_t now_ms)
      : ttls_(std::move(ttls)), now_ms_(now_ms) {}

  bool Filter(int /*level*/, const rocksdb::Slice& key, const rocksdb::Slice& value,
              std::string* /*new_value*/, bool* /*value_changed*/) const override {
    if (ttls_->empty() || key.size() < kStateKeyPrefixSize) return false;
    auto it = ttls_->find(StateIdOfStateKey(std::string_view(key.data(), key.size())));
    if (it == ttls_->end()) return false;
    return TtlExpired(std::string_view(value.data(), value.size()), it->second, now_ms_);
  }
  const char* Name() const override { return "eddy.StateTtl"; }

 private:
  std::shared_ptr<const std::unordered_map<uint32_t, int64_t>> ttls_;
  int64_t now_ms_;
};

class TtlCompactionFilterFactory : public rocksdb::CompactionFilterFactory {
 public:
  using Registry = KeyedStateBackend::TtlRegistry;
  explicit TtlCompactionFilterFactory(std::shared_ptr<Registry> registry)
      : registry_(std::move(registry)) {}

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& /*context*/) override {
    return std::make_unique<TtlCompactionFilter>(registry_->Snapshot(), registry_->now_ms());
  }
  const char* Name() const override { return "eddy.StateTtlFactory"; }

 private:
  std::shared_ptr<Registry> registry_;
};

// The 6-byte prefix as a 48-bit number, plus one, re-encoded: the exclusive end of a prefix range.
std::string PrefixSuccessor(int key_group, uint32_t state_id) {
  uint64_t n = (static_cast<uint64_t>(key_group) << 32 | state_id) + 1;
  std::string out(kStateKeyPrefixSize, '\0');
  for (int i = static_cast<int>(kStateKeyPrefixSize) - 1; i >= 0; --i) {
    out[i] = static_cast<char>(n & 0xff);
    n >>= 8;
  }
  return out;
}

}  // namespace

// ---- StateWriteBatch ----

StateWriteBatch::StateWriteBatch() : batch_(std::make_unique<rocksdb::WriteBatch>()) {}
StateWriteBatch::~StateWriteBatch() = default;
StateWriteBatch::StateWriteBatch(StateWriteBatch&&) noexcept = default;
StateWriteBatch& StateWriteBatch::operator=(StateWriteBatch&&) noexcept = default;

void StateWriteBatch::Put(std::string_view key, std::string_view value) {
  batch_->Put(ToSlice(key), ToSlice(value));
  ++count_;
}

void StateWriteBatch::Delete(std::string_view key) {
  batch_->Delete(ToSlice(key));
  ++count_;
}

void StateWriteBatch::Clear() {
  batch_->Clear();
  count_ = 0;
}

// ---- StateReadResult ----

struct StateReadResult::Impl {
  std::vector<rocksdb::Slice> keys;
  std::vector<rocksdb::PinnableSlice> values;
  std::vector<rocksdb::Status> statuses;
  size_t size = 0;
};

StateReadResult::StateReadResult() : impl_(std::make_unique<Impl>()) {}
StateReadResult::~StateReadResult() = default;
StateReadResult::StateReadResult(StateReadResult&&) noexcept = default;
StateReadResult& StateReadResult::operator=(StateReadResult&&) noexcept = default;

size_t StateReadResult::size() const { return impl_->size; }
bool StateReadResult::found(size_t i) const { return impl_->statuses[i].ok(); }
std::string_view StateReadResult::value(size_t i) const {
  if (!impl_->statuses[i].ok()) return {};
  const rocksdb::PinnableSlice& v = impl_->values[i];
  return std::string_view(v.data(), v.size());
}

// ---- KeyedStateBackend ----

KeyedStateBackend::KeyedStateBackend(std::string path,
                                     std::shared_ptr<SharedStateResources> resources,
                                     std::unique_ptr<rocksdb::DB> db,
                                     std::shared_ptr<TtlRegistry> ttl)
    : path_(std::move(path)),
      resources_(std::move(resources)),
      ttl_(std::move(ttl)),
      db_(std::move(db)) {}

KeyedStateBackend::~KeyedStateBackend() {
  if (db_ != nullptr) db_->Close().PermitUncheckedError();
}

absl::StatusOr<std::unique_ptr<KeyedStateBackend>> KeyedStateBackend::Open(
    const std::string& path, const StateBackendOptions& options) {
  return Open(path, std::make_shared<SharedStateResources>(options));
}

absl::StatusOr<std::unique_ptr<KeyedStateBackend>> KeyedStateBackend::Open(
    const std::string& path, std::shared_ptr<SharedStateResources> resources) {
  if (path.empty()) return absl::InvalidArgumentError("State backend path is empty");
  if (resources == nullptr) return absl::InvalidArgumentError("State backend without resources");
  std::error_code ec;
  std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::filesystem::create_directories(p.parent_path(), ec);
    if (ec) {
      return absl::InternalError("State backend cannot create directory '" +
                                 p.parent_path().string() + "': " + ec.message());
    }
  }
  rocksdb::Options o = state_internal::MakeStoreOptions(*resources);
  auto ttl = std::make_shared<TtlRegistry>();
  ttl->now_ms = resources->options().now_ms;
  o.compaction_filter_factory = std::make_shared<TtlCompactionFilterFactory>(ttl);
  rocksdb::DB* raw = nullptr;
  RETURN_IF_ERROR(FromRocksStatus(rocksdb::DB::Open(o, path, &raw), "open", path));
  return std::unique_ptr<KeyedStateBackend>(new KeyedStateBackend(
      path, std::move(resources), std::unique_ptr<rocksdb::DB>(raw), std::move(ttl)));
}

absl::StatusOr<std::unique_ptr<KeyedStateBackend>> KeyedStateBackend::OpenFromSnapshot(
    const std::string& snapshot_dir, const std::string& path,
    std::shared_ptr<SharedStateResources> resources) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(snapshot_dir, ec)) {
    return absl::NotFoundError("State snapshot '" + snapshot_dir + "' is not a directory");
  }
  fs::remove_all(path, ec);
  if (!ec) fs::create_directories(path, ec);
  if (ec) {
    return absl::InternalError("State backend cannot prepare directory '" + path +
                               "' for a restore: " + ec.message());
  }
  for (const fs::directory_entry& e : fs::directory_iterator(snapshot_dir, ec)) {
    if (!e.is_regular_file()) continue;
    const fs::path to = fs::path(path) / e.path().filename();
    // SST files never change once written, so the restored store may share them with the
    // snapshot; the MANIFEST, CURRENT and OPTIONS files are rewritten by RocksDB, so they are
    // copied.
    std::error_code link_ec;
    if (e.path().extension() == ".sst") fs::create_hard_link(e.path(), to, link_ec);
    if (e.path().extension() != ".sst" || link_ec) fs::copy_file(e.path(), to, ec);
    if (ec) {
      return absl::InternalError("State backend cannot restore '" + e.path().string() + "' into '" +
                                 path + "': " + ec.message());
    }
  }
  if (ec) {
    return absl::InternalError("State backend cannot read snapshot '" + snapshot_dir +
                               "': " + ec.message());
  }
  return Open(path, std::move(resources));
}

absl::Status KeyedStateBackend::Snapshot(const std::string& dir) {
  std::error_code ec;
  std::filesystem::path p(dir);
  if (std::filesystem::exists(p, ec)) {
    return absl::AlreadyExistsError("State snapshot directory '" + dir + "' already exists");
  }
  if (p.has_parent_path()) {
    std::filesystem::create_directories(p.parent_path(), ec);
    if (ec) {
      return absl::InternalError("State backend cannot create directory '" +
                                 p.parent_path().string() + "': " + ec.message());
    }
  }
  rocksdb::Checkpoint* raw = nullptr;
  RETURN_IF_ERROR(FromRocksStatus(rocksdb::Checkpoint::Create(db_.get(), &raw), "snapshot", path_));
  std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
  // log_size_for_flush = 0 flushes the memtables first: writes skip the WAL, so only SST files
  // hold them.
  return FromRocksStatus(checkpoint->CreateCheckpoint(dir, /*log_size_for_flush=*/0), "snapshot",
                         dir);
}

absl::Status KeyedStateBackend::MultiGet(std::span<const std::string_view> keys,
                                         StateReadResult* result) {
  StateReadResult::Impl& r = *result->impl_;
  const size_t n = keys.size();
  r.size = n;
  r.keys.resize(n);
  for (size_t i = 0; i < n; ++i) r.keys[i] = ToSlice(keys[i]);
  if (r.values.size() < n) {
    // Never grown by moving its slices: RocksDB's PinnableSlice move constructor leaves the buffer
    // pointer unset when the slice it moves from is pinned (a value read from a block of an SST
    // file), and a later read that copies a value (from a memtable) into the moved-to slice writes
    // through that pointer. A new vector default-constructs every slice.
    r.values = std::vector<rocksdb::PinnableSlice>(std::max(n, 2 * r.values.size()));
  }
  for (size_t i = 0; i < n; ++i) r.values[i].Reset();
  r.statuses.assign(n, rocksdb::Status());
  multiget_calls_.fetch_add(1, std::memory_order_relaxed);
  keys_read_.fetch_add(n, std::memory_order_relaxed);
  if (n == 0) return absl::OkStatus();
  rocksdb::ReadOptions ro;
  // Point reads skip the block checksum: the files are this process's own, local and short-lived,
  // and compactions, which read every block again, still verify it.
  ro.verify_checksums = false;
  // RocksDB sorts the keys itself (sorted_input = false), so that each SST file and block is
  // visited once for the whole batch.
  db_->MultiGet(ro, db_->DefaultColumnFamily(), n, r.keys.data(), r.values.data(),
                r.statuses.data(), /*sorted_input=*/false);
  for (size_t i = 0; i < n; ++i) {
    if (!r.statuses[i].ok() && !r.statuses[i].IsNotFound()) {
      return FromRocksStatus(r.statuses[i], "MultiGet", path_);
    }
  }
  return absl::OkStatus();
}

absl::Status KeyedStateBackend::Write(StateWriteBatch* batch) {
  if (batch->count() == 0) return absl::OkStatus();
  rocksdb::WriteOptions wo;
  wo.disableWAL = resources_->options().disable_wal;
  wo.sync = false;  // durability comes from snapshots, never from fsync per batch
  write_batches_.fetch_add(1, std::memory_order_relaxed);
  keys_written_.fetch_add(batch->count(), std::memory_order_relaxed);
  absl::Status s = FromRocksStatus(db_->Write(wo, batch->batch_.get()), "write", path_);
  batch->Clear();
  return s;
}

absl::Status KeyedStateBackend::DeleteState(uint32_t state_id, int max_parallelism) {
  if (max_parallelism <= 0 || max_parallelism > kMaxKeyGroups) {
    return absl::InvalidArgumentError("DeleteState: max_parallelism out of range");
  }
  rocksdb::WriteBatch wb;
  std::string begin;
  for (int kg = 0; kg < max_parallelism; ++kg) {
    begin.clear();
    AppendStateKeyPrefix(kg, state_id, &begin);
    std::string end = PrefixSuccessor(kg, state_id);
    RETURN_IF_ERROR(
        FromRocksStatus(wb.DeleteRange(ToSlice(begin), ToSlice(end)), "DeleteRange", path_));
  }
  rocksdb::WriteOptions wo;
  wo.disableWAL = resources_->options().disable_wal;
  return FromRocksStatus(db_->Write(wo, &wb), "DeleteState", path_);
}

absl::Status KeyedStateBackend::ScanPrefix(
    std::string_view prefix,
    const std::function<absl::Status(std::string_view key, std::string_view value)>& fn) {
  return ScanPrefixInto(prefix, fn, nullptr);
}

absl::Status KeyedStateBackend::ScanAndDeletePrefix(
    std::string_view prefix,
    const std::function<absl::Status(std::string_view key, std::string_view value)>& fn) {
  // Point deletes rather than a range tombstone: windows fire often, and many small range
  // tombstones would slow every later read.
  rocksdb::WriteBatch deletes;
  RETURN_IF_ERROR(ScanPrefixInto(prefix, fn, &deletes));
  if (deletes.Count() == 0) return absl::OkStatus();
  rocksdb::WriteOptions wo;
  wo.disableWAL = resources_->options().disable_wal;
  write_batches_.fetch_add(1, std::memory_order_relaxed);
  keys_written_.fetch_add(deletes.Count(), std::memory_order_relaxed);
  return FromRocksStatus(db_->Write(wo, &deletes), "delete", path_);
}

absl::Status KeyedStateBackend::ScanPrefixInto(
    std::string_view prefix,
    const std::function<absl::Status(std::string_view key, std::string_view value)>& fn,
    rocksdb::WriteBatch* deletes) {
  std::string end(prefix);
  // The smallest key after every key with this prefix: increment the last byte that is not 0xff.
  while (!end.empty() && static_cast<uint8_t>(end.back()) == 0xff) end.pop_back();
  if (!end.empty()) end.back() = static_cast<char>(static_cast<uint8_t>(end.back()) + 1);
  rocksdb::ReadOptions ro;
  rocksdb::Slice upper(end);
  if (!end.empty()) ro.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro));
  for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size())); it->Valid(); it->Next()) {
    rocksdb::Slice k = it->key();
    std::string_view key(k.data(), k.size());
    if (key.substr(0, prefix.size()) != prefix) break;
    rocksdb::Slice v = it->value();
    RETURN_IF_ERROR(fn(key, std::string_view(v.data(), v.size())));
    if (deletes != nullptr) deletes->Delete(k);
  }
  return FromRocksStatus(it->status(), "scan", path_);
}

bool KeyedStateBackend::IsEmpty() {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  it->SeekToFirst();
  return !it->Valid() && it->status().ok();
}

absl::StatusOr<uint64_t> KeyedStateBackend::CountKeys(uint32_t state_id) {
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro));
  uint64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    rocksdb::Slice k = it->key();
    if (k.size() >= kStateKeyPrefixSize &&
        StateIdOfStateKey(std::string_view(k.data(), k.size())) == state_id) {
      ++n;
    }
  }
  RETURN_IF_ERROR(FromRocksStatus(it->status(), "scan", path_));
  return n;
}

void KeyedStateBackend::RegisterStateTtl(uint32_t state_id, int64_t ttl_ms) {
  ttl_->Set(state_id, ttl_ms);
}

void KeyedStateBackend::UnregisterStateTtl(uint32_t state_id) { ttl_->Set(state_id, 0); }

int64_t KeyedStateBackend::NowMs() const { return ttl_->now_ms(); }

absl::Status KeyedStateBackend::CompactAll() {
  rocksdb::CompactRangeOptions co;
  // Rewrite the bottom level too: that is where expired state of a quiet key range sits.
  co.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  return FromRocksStatus(db_->CompactRange(co, nullptr, nullptr), "compact", path_);
}

uint64_t KeyedStateBackend::ApproximateNumKeys() {
  uint64_t n = 0;
  db_->GetIntProperty(rocksdb::DB::Properties::kEstimateNumKeys, &n);
  return n;
}

uint64_t KeyedStateBackend::ApproximateSizeBytes() {
  uint64_t sst = 0, mem = 0;
  db_->GetIntProperty(rocksdb::DB::Properties::kTotalSstFilesSize, &sst);
  db_->GetIntProperty(rocksdb::DB::Properties::kCurSizeAllMemTables, &mem);
  return sst + mem;
}

uint64_t KeyedStateBackend::SstFilesBytes() {
  uint64_t sst = 0;
  db_->GetIntProperty(rocksdb::DB::Properties::kTotalSstFilesSize, &sst);
  return sst;
}

uint64_t KeyedStateBackend::MemTableBytes() {
  uint64_t mem = 0;
  db_->GetIntProperty(rocksdb::DB::Properties::kCurSizeAllMemTables, &mem);
  return mem;
}

KeyedStateBackend::Stats KeyedStateBackend::stats() const {
  Stats s;
  s.multiget_calls = multiget_calls_.load(std::memory_order_relaxed);
  s.keys_read = keys_read_.load(std::memory_order_relaxed);
  s.write_batches = write_batches_.load(std::memory_order_relaxed);
  s.keys_written = keys_written_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace eddy
