// MD5, SHA1, SHA224, SHA256, SHA384, SHA512 and SHA2(s, bits) of a string's UTF-8 bytes, as
// lower-case hex (Flink's output), on OpenSSL's libcrypto.
#include <openssl/evp.h>

#include "common/expr/eval_internal.h"

namespace eddy::eval_internal {
namespace {

const EVP_MD* DigestOf(const std::string& f) {
  if (f == "MD5") return EVP_md5();
  if (f == "SHA1") return EVP_sha1();
  if (f == "SHA224") return EVP_sha224();
  if (f == "SHA256") return EVP_sha256();
  if (f == "SHA384") return EVP_sha384();
  if (f == "SHA512") return EVP_sha512();
  return nullptr;
}

const EVP_MD* Sha2(int32_t bits) {
  switch (bits) {
    case 224:
      return EVP_sha224();
    case 256:
      return EVP_sha256();
    case 384:
      return EVP_sha384();
    case 512:
      return EVP_sha512();
  }
  return nullptr;
}

void AppendHex(const unsigned char* bytes, unsigned int n, std::string& h) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned int i = 0; i < n; ++i) {
    h.push_back(kHex[bytes[i] >> 4]);
    h.push_back(kHex[bytes[i] & 15]);
  }
}

}  // namespace

absl::StatusOr<Column> EvalHash(const Expr& call, const ArgList& args, size_t n) {
  const bool sha2 = call.function == "SHA2";
  const EVP_MD* fixed = sha2 ? nullptr : DigestOf(call.function);
  if (!sha2 && fixed == nullptr) return InternalError(call, "unknown digest");
  auto validity = CombineValidity(args, n);
  StringBuilder out(call.type, n);
  unsigned char digest[EVP_MAX_MD_SIZE];
  for (size_t i = 0; i < n; ++i) {
    const EVP_MD* md = sha2 ? Sha2(args[1]->data<int32_t>()[i]) : fixed;
    if ((!validity.empty() && !(validity[i >> 3] & (1u << (i & 7)))) || md == nullptr) {
      out.AppendNull();
      continue;
    }
    std::string_view s = args[0]->GetString(i);
    unsigned int len = 0;
    if (EVP_Digest(s.data(), s.size(), digest, &len, md, nullptr) != 1) {
      return absl::InternalError("digest computation failed in '" + call.function + "'");
    }
    AppendHex(digest, len, out.heap());
    out.Commit();
  }
  return out.Finish();
}

}  // namespace eddy::eval_internal
