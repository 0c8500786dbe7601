#include "worker/connectors/base64_column.h"

#include <string>

#include "common/types/binary_text.h"

namespace eddy {

Column Base64TextColumn(const Column& bytes) {
  Column out(DataType::String().WithNullable(bytes.type().nullable));
  out.Reserve(bytes.size());
  for (size_t r = 0; r < bytes.size(); ++r) {
    if (bytes.IsNull(r)) {
      out.AppendNull();
    } else {
      out.AppendString(Base64Encode(bytes.GetString(r)));
    }
  }
  return out;
}

Column BinaryFromBase64Text(const Column& text, const DataType& type) {
  Column out(type);
  out.Reserve(text.size());
  std::string bytes;
  for (size_t r = 0; r < text.size(); ++r) {
    if (text.IsNull(r) || !Base64Decode(text.GetString(r), &bytes)) {
      out.AppendNull();
    } else {
      out.AppendString(bytes);
    }
  }
  return out;
}

}  // namespace eddy
