#include "worker/state/state_resources.h"

#include <algorithm>
#include <chrono>

#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "worker/state/rocksdb_options.h"

namespace eddy {

SharedStateResources::SharedStateResources(StateBackendOptions options)
    : options_(std::move(options)), rocks_(std::make_unique<Rocks>()) {
  if (!options_.now_ms) {
    options_.now_ms = [] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
  }
  // Index and filter blocks go to a high-priority pool that data blocks cannot evict.
  rocks_->block_cache = rocksdb::NewLRUCache(options_.block_cache_bytes, /*num_shard_bits=*/-1,
                                             /*strict_capacity_limit=*/false,
                                             /*high_pri_pool_ratio=*/0.5);
  // Not charged to the block cache: the two budgets stay independent and each is easy to reason
  // about; no stall, a flush is enough to get back under the budget.
  rocks_->write_buffers = std::make_shared<rocksdb::WriteBufferManager>(
      options_.total_write_buffer_bytes, /*cache=*/nullptr, /*allow_stall=*/false);
  rocksdb::BlockBasedTableOptions t;
  t.block_cache = rocks_->block_cache;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(options_.bloom_bits_per_key, false));
  t.whole_key_filtering = true;  // point lookups by full key, never prefix scans on the hot path
  t.cache_index_and_filter_blocks = true;  // bounded memory: index/filter blocks live in the cache
  t.cache_index_and_filter_blocks_with_high_priority = true;
  t.pin_l0_filter_and_index_blocks_in_cache = true;
  // Partitioned index and filters: a full filter block grows with its SST file (megabytes for a
  // large L1 file), larger than a shard of the block cache, so it was read from the file and
  // checksummed again on most lookups (measured: a third of the CPU time of an aggregate over 10M
  // keys with a 128 MiB cache). Partitions are 4 KiB blocks cached like data blocks; the top
  // level stays pinned.
  t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  t.partition_filters = true;
  t.metadata_block_size = 4096;
  t.pin_top_level_index_and_filter = true;
  t.format_version = 5;
  // Every filter and index partition stays pinned in the cache (charged to it, never evicted):
  // each lookup of a spilled key probes a filter partition of every sorted run, and finding it in
  // the LRU cache (a hash lookup under a shard mutex) cost a quarter of the CPU time of an
  // aggregate over 10M keys with a sixth in memory (measured 125,000 rows per CPU-second unpinned,
  // 156,000 pinned). The price: about 1.4 bytes per spilled key (10-bit filters, the index) held
  // for as long as the key is in the store, which outgrows the block cache's share (a thirty-second
  // of managed memory) past some 23M spilled keys per GiB; the cache then holds no data blocks and
  // goes over its capacity by what the pinned partitions take beyond it.
  t.metadata_cache_options.top_level_index_pinning = rocksdb::PinningTier::kAll;
  t.metadata_cache_options.partition_pinning = rocksdb::PinningTier::kAll;
  rocks_->table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
}

SharedStateResources::~SharedStateResources() = default;

size_t SharedStateResources::BlockCacheUsage() const { return rocks_->block_cache->GetUsage(); }

size_t SharedStateResources::WriteBufferUsage() const {
  return rocks_->write_buffers->memory_usage();
}

namespace state_internal {

rocksdb::Options MakeStoreOptions(const SharedStateResources& resources) {
  const StateBackendOptions& opt = resources.options();
  rocksdb::Options o;
  o.create_if_missing = true;
  o.IncreaseParallelism(std::max(1, opt.background_jobs));
  o.max_background_jobs = std::max(1, opt.background_jobs);
  o.write_buffer_size = opt.write_buffer_bytes;
  o.max_write_buffer_number = std::max(2, opt.max_write_buffers);
  o.write_buffer_manager = resources.rocks().write_buffers;
  o.level_compaction_dynamic_level_bytes = true;
  // Eight L0 files before a compaction into the level below (RocksDB's default is four): every
  // file of spilled state spans the whole key range, so each L0 compaction rewrites most of that
  // level, and half as many of them cost less than the extra L0 filters each lookup probes
  // (measured 3-5% less CPU for an aggregate over 10M keys; two was worse than four).
  o.level0_file_num_compaction_trigger = 8;
  // Aggregates overwrite the same keys over and over; a memtable bloom filter makes lookups of
  // keys that are not (yet) in the memtable cheap.
  o.memtable_whole_key_filtering = true;
  o.memtable_prefix_bloom_size_ratio = 0.02;
  // A store outlives no job and is restored from snapshots only, so skip the flush on close.
  o.avoid_flush_during_shutdown = true;
  o.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  o.keep_log_file_num = 2;
  // Only the bottom level, which holds most of the data, is compressed (LZ4; none when this
  // RocksDB build lacks it): spilled state is flushed and compacted through the upper levels
  // often, and compressing it there cost more than it saved (measured with the bottom level
  // compressed and the rest not: part of 102,000 -> 156,000 rows per CPU-second of an aggregate
  // over 10M keys with a sixth of them in memory, with the memtable size and checksum choices).
  auto supported = rocksdb::GetSupportedCompressions();
  bool lz4 =
      std::find(supported.begin(), supported.end(), rocksdb::kLZ4Compression) != supported.end();
  o.compression = rocksdb::kNoCompression;
  o.bottommost_compression = lz4 ? rocksdb::kLZ4Compression : rocksdb::kNoCompression;
  o.table_factory = resources.rocks().table_factory;
  return o;
}

}  // namespace state_internal
}  // namespace eddy
