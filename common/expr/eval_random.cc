// RAND([seed]) and RAND_INTEGER([seed,] bound): java.util.Random's generator, one per call
// expression kept in its KernelState, so a seeded call gives the sequence Java's
// new Random(seed) gives (Flink's behaviour) across batches. Never folded into a constant.
#include <mutex>
#include <random>

#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/expr/eval_internal.h"

namespace eddy::eval_internal {
namespace {

// java.util.Random: a 48-bit linear congruential generator.
class JavaRandom {
 public:
  explicit JavaRandom(int64_t seed) : seed_((static_cast<uint64_t>(seed) ^ kMultiplier) & kMask) {}

  double NextDouble() {
    return static_cast<double>((static_cast<int64_t>(Next(26)) << 27) + Next(27)) * 0x1.0p-53;
  }
  int32_t NextInt(int32_t bound) {  // bound > 0
    if ((bound & -bound) == bound) {
      return static_cast<int32_t>((static_cast<int64_t>(bound) * Next(31)) >> 31);
    }
    int32_t bits, val;
    do {
      bits = Next(31);
      val = bits % bound;
    } while (static_cast<int32_t>(static_cast<uint32_t>(bits) - static_cast<uint32_t>(val) +
                                  static_cast<uint32_t>(bound - 1)) < 0);
    return val;
  }

  std::mutex mu;

 private:
  static constexpr uint64_t kMultiplier = 0x5DEECE66DULL;
  static constexpr uint64_t kMask = (uint64_t{1} << 48) - 1;

  int32_t Next(int bits) {
    seed_ = (seed_ * kMultiplier + 0xBULL) & kMask;
    return static_cast<int32_t>(static_cast<uint32_t>(seed_ >> (48 - bits)));
  }

  uint64_t seed_;
};

}  // namespace

absl::StatusOr<Column> EvalRandom(const Expr& call, const ArgList& args, size_t n) {
  const bool integer = call.function == "RAND_INTEGER";
  const bool seeded = args.size() == (integer ? 2u : 1u);
  ASSIGN_OR_RETURN(std::shared_ptr<JavaRandom> random,
                   call.kernel_state.GetOrCreate<JavaRandom>(
                       [&]() -> absl::StatusOr<std::shared_ptr<JavaRandom>> {
                         int64_t seed = static_cast<int64_t>(std::random_device{}()) << 32 |
                                        std::random_device{}();
                         if (seeded) {
                           ASSIGN_OR_RETURN(Value v, EvaluateConstant(*call.args[0]));
                           seed = v.is_int() ? v.int_value() : 0;
                         }
                         return std::make_shared<JavaRandom>(seed);
                       }));
  auto validity = CombineValidity(args, n);
  std::lock_guard<std::mutex> lock(random->mu);
  if (!integer) {
    FixedBuilder<double> out(call.type, n);
    out.SetValidity(validity);
    double* r = out.values();
    for (size_t i = 0; i < n; ++i) {
      if (!out.IsNull(i)) r[i] = random->NextDouble();
    }
    return out.Finish();
  }
  FixedBuilder<int32_t> out(call.type, n);
  out.SetValidity(validity);
  int32_t* r = out.values();
  const int32_t* bound = args.back()->data<int32_t>();
  for (size_t i = 0; i < n; ++i) {
    if (out.IsNull(i)) continue;
    if (bound[i] <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("The bound of 'RAND_INTEGER' must be positive, not ", bound[i]));
    }
    r[i] = random->NextInt(bound[i]);
  }
  return out.Finish();
}

}  // namespace eddy::eval_internal
