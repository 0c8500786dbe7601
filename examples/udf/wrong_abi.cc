// Test-only library: a scalar function built as if against a future SDK (ABI version 999), which
// Eddy must refuse to load with an error naming both versions.
#define EDDY_UDF_ABI_VERSION 999
#include "eddy/udf.h"

namespace {

struct Identity {
  static eddy::udf::Signature Signature() {
    return {{eddy::udf::Type::BigInt()}, {eddy::udf::Type::BigInt()}};
  }
  void Eval(const eddy::udf::Args& args, eddy::udf::Output& out) {
    for (int64_t row = 0; row < args.rows(); ++row) out.Append(args[0].Get<int64_t>(row));
  }
};

}  // namespace

EDDY_SCALAR_FUNCTION(identity, Identity)
