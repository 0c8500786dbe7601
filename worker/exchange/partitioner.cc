#include "worker/exchange/partitioner.h"

#include "absl/strings/str_cat.h"
#include "common/base/hash.h"
#include "common/base/status_macros.h"

namespace eddy {

absl::StatusOr<Partitioner> Partitioner::Create(Partitioning partitioning,
                                                const std::vector<DataType>& input_types,
                                                std::vector<int> key_columns, int num_targets,
                                                int max_parallelism, int start) {
  if (num_targets < 1) return absl::InvalidArgumentError("exchange has no targets");
  KeyEncoder encoder;
  switch (partitioning) {
    case v1::ExchangeSink::FORWARD:
    case v1::ExchangeSink::SINGLETON:
      if (num_targets != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat(v1::ExchangeSink::Partitioning_Name(partitioning),
                         " exchange needs exactly one target, has ", num_targets));
      }
      break;
    case v1::ExchangeSink::HASH: {
      if (max_parallelism < 1 || max_parallelism > 32768) {
        return absl::InvalidArgumentError(
            absl::StrCat("hash exchange: max_parallelism ", max_parallelism, " out of range"));
      }
      if (num_targets > max_parallelism) {
        return absl::InvalidArgumentError(absl::StrCat(
            "hash exchange: ", num_targets, " targets exceed max_parallelism ", max_parallelism));
      }
      ASSIGN_OR_RETURN(encoder, KeyEncoder::Create(input_types, std::move(key_columns)));
      break;
    }
    case v1::ExchangeSink::REBALANCE:
    case v1::ExchangeSink::BROADCAST:
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "exchange partitioning ", static_cast<int>(partitioning), " is not supported"));
  }
  return Partitioner(partitioning, std::move(encoder), num_targets, max_parallelism,
                     std::max(0, start));
}

int Partitioner::HashTarget(const ChangelogBatch& batch, size_t row) {
  key_buf_.clear();
  encoder_.Encode(batch, row, &key_buf_);
  // GroupAggregate puts the empty key (global aggregate) in key group 0.
  const int key_group = key_buf_.empty() ? 0 : KeyGroupOf(key_buf_, max_parallelism_);
  return SubtaskOfKeyGroup(key_group, num_targets_, max_parallelism_);
}

void Partitioner::SplitByTargets(const ChangelogBatch& in, size_t begin, size_t end,
                                 std::vector<ChangelogBatch>* outs) {
  // Column by column: each pass reads one source column sequentially.
  for (size_t c = 0; c < in.num_columns(); ++c) {
    const Column& src = in.column(c);
    for (size_t r = begin; r < end; ++r) {
      (*outs)[targets_[r - begin]].mutable_column(c).AppendFrom(src, r);
    }
  }
  for (size_t r = begin; r < end; ++r) {
    (*outs)[targets_[r - begin]].mutable_kinds().push_back(in.kind(r));
  }
}

void Partitioner::Split(const ChangelogBatch& in, size_t begin, size_t end,
                        std::vector<ChangelogBatch>* outs) {
  if (begin >= end) return;
  auto append_range = [&](ChangelogBatch& out) {
    for (size_t c = 0; c < in.num_columns(); ++c) {
      out.mutable_column(c).AppendRange(in.column(c), begin, end);
    }
    out.mutable_kinds().insert(out.mutable_kinds().end(), in.kinds().begin() + begin,
                               in.kinds().begin() + end);
  };
  switch (partitioning_) {
    case v1::ExchangeSink::HASH:
      if (num_targets_ == 1) {
        append_range((*outs)[0]);
        return;
      }
      targets_.resize(end - begin);
      for (size_t r = begin; r < end; ++r) targets_[r - begin] = HashTarget(in, r);
      SplitByTargets(in, begin, end, outs);
      return;
    case v1::ExchangeSink::REBALANCE:
      targets_.resize(end - begin);
      for (size_t r = begin; r < end; ++r) {
        targets_[r - begin] = next_;
        if (++next_ == num_targets_) next_ = 0;
      }
      SplitByTargets(in, begin, end, outs);
      return;
    case v1::ExchangeSink::BROADCAST:
      for (ChangelogBatch& out : *outs) append_range(out);
      return;
    default:  // FORWARD, SINGLETON
      append_range((*outs)[0]);
      return;
  }
}

}  // namespace eddy
