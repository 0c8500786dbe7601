// The RocksDB side of SharedStateResources and the options every state store opens with. Internal
// to worker/state (the only folder that includes RocksDB).
#pragma once

#include <memory>

#include "rocksdb/cache.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/write_buffer_manager.h"
#include "worker/state/state_resources.h"

namespace eddy {

struct SharedStateResources::Rocks {
  std::shared_ptr<rocksdb::Cache> block_cache;
  std::shared_ptr<rocksdb::WriteBufferManager> write_buffers;
  std::shared_ptr<rocksdb::TableFactory> table_factory;  // uses block_cache
};

namespace state_internal {

// Options of one store: the shared cache, write-buffer budget and tuning of `resources`. The
// caller adds the store's own compaction filter factory.
rocksdb::Options MakeStoreOptions(const SharedStateResources& resources);

}  // namespace state_internal
}  // namespace eddy
