#include "common/expr/json_value.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/base/json_string.h"

namespace eddy::json {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  bool ParseDocument(Value* out) {
    SkipSpace();
    if (!ParseValue(out, 0)) return false;
    SkipSpace();
    return i_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 512;

  void SkipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  bool ParseValue(Value* out, int depth) {
    if (depth > kMaxDepth || i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') return ParseObject(out, depth);
    if (c == '[') return ParseArray(out, depth);
    if (c == '"') {
      out->kind = Value::Kind::kString;
      return ParseString(&out->text);
    }
    if (c == 't' || c == 'f') {
      out->kind = Value::Kind::kBool;
      out->boolean = c == 't';
      return Literal(c == 't' ? "true" : "false");
    }
    if (c == 'n') {
      out->kind = Value::Kind::kNull;
      return Literal("null");
    }
    return ParseNumber(out);
  }

  bool ParseNumber(Value* out) {
    const size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    auto digits = [&] {
      size_t b = i_;
      while (i_ < s_.size() && absl::ascii_isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      return i_ > b;
    };
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      return false;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) return false;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) return false;
    }
    out->kind = Value::Kind::kNumber;
    out->text.assign(s_.substr(start, i_ - start));
    return true;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  bool Hex4(uint32_t* v) {
    if (i_ + 4 > s_.size()) return false;
    *v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      *v <<= 4;
      if (h >= '0' && h <= '9') {
        *v |= h - '0';
      } else if (h >= 'a' && h <= 'f') {
        *v |= h - 'a' + 10;
      } else if (h >= 'A' && h <= 'F') {
        *v |= h - 'A' + 10;
      } else {
        return false;
      }
    }
    return true;
  }

  bool ParseString(std::string* out) {
    ++i_;  // opening quote
    out->clear();
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (i_ >= s_.size()) return false;
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(i_, 2) == "\\u") {
            i_ += 2;
            uint32_t low;
            if (!Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  bool ParseArray(Value* out, int depth) {
    ++i_;
    out->kind = Value::Kind::kArray;
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return true;
    }
    while (true) {
      SkipSpace();
      out->items.emplace_back();
      if (!ParseValue(&out->items.back(), depth + 1)) return false;
      SkipSpace();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == ']') {
        ++i_;
        return true;
      }
      if (s_[i_++] != ',') return false;
    }
  }

  bool ParseObject(Value* out, int depth) {
    ++i_;
    out->kind = Value::Kind::kObject;
    SkipSpace();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return true;
    }
    while (true) {
      SkipSpace();
      if (i_ >= s_.size() || s_[i_] != '"') return false;
      std::string key;
      if (!ParseString(&key)) return false;
      SkipSpace();
      if (i_ >= s_.size() || s_[i_++] != ':') return false;
      SkipSpace();
      Value v;
      if (!ParseValue(&v, depth + 1)) return false;
      // A repeated key keeps its first position and takes the last value, as Jackson's tree.
      bool replaced = false;
      for (size_t k = 0; k < out->keys.size(); ++k) {
        if (out->keys[k] == key) {
          out->items[k] = std::move(v);
          replaced = true;
          break;
        }
      }
      if (!replaced) {
        out->keys.push_back(std::move(key));
        out->items.push_back(std::move(v));
      }
      SkipSpace();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == '}') {
        ++i_;
        return true;
      }
      if (s_[i_++] != ',') return false;
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

bool Parse(std::string_view text, Value* out) {
  *out = Value();
  return Parser(text).ParseDocument(out);
}

std::string NumberText(std::string_view written) {
  if (written.find_first_of("eE") == std::string_view::npos) return std::string(written);
  // BigDecimal: unscaled digits and a scale, printed plain when the scale is >= 0 and the adjusted
  // exponent >= -6, else as d.dddE+n.
  const size_t e = written.find_first_of("eE");
  std::string_view mantissa = written.substr(0, e);
  int64_t exponent = 0;
  if (!absl::SimpleAtoi(absl::string_view(written.data() + e + 1, written.size() - e - 1),
                        &exponent)) {
    return std::string(written);
  }
  const bool negative = !mantissa.empty() && mantissa[0] == '-';
  if (negative) mantissa.remove_prefix(1);
  std::string digits;
  int64_t scale = 0;
  const size_t dot = mantissa.find('.');
  if (dot != std::string_view::npos) {
    digits.assign(mantissa.substr(0, dot));
    digits.append(mantissa.substr(dot + 1));
    scale = static_cast<int64_t>(mantissa.size() - dot - 1);
  } else {
    digits.assign(mantissa);
  }
  scale -= exponent;
  size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? "0" : digits.substr(first);
  const int64_t adjusted = -scale + static_cast<int64_t>(digits.size()) - 1;
  std::string out = negative ? "-" : "";
  if (scale >= 0 && adjusted >= -6) {
    if (scale == 0) return out + digits;
    if (static_cast<int64_t>(digits.size()) > scale) {
      return out + digits.substr(0, digits.size() - scale) + "." +
             digits.substr(digits.size() - scale);
    }
    return out + "0." + std::string(scale - digits.size(), '0') + digits;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  return absl::StrCat(out, "E", adjusted >= 0 ? "+" : "", adjusted);
}

void Write(const Value& v, std::string* out) {
  switch (v.kind) {
    case Value::Kind::kNull:
      out->append("null");
      return;
    case Value::Kind::kBool:
      out->append(v.boolean ? "true" : "false");
      return;
    case Value::Kind::kNumber:
      out->append(NumberText(v.text));
      return;
    case Value::Kind::kString:
      AppendJsonString(v.text, out);
      return;
    case Value::Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i > 0) out->push_back(',');
        Write(v.items[i], out);
      }
      out->push_back(']');
      return;
    case Value::Kind::kObject: {
      std::vector<size_t> order(v.keys.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(),
                [&](size_t a, size_t b) { return v.keys[a] < v.keys[b]; });
      out->push_back('{');
      for (size_t k = 0; k < order.size(); ++k) {
        if (k > 0) out->push_back(',');
        AppendJsonString(v.keys[order[k]], out);
        out->push_back(':');
        Write(v.items[order[k]], out);
      }
      out->push_back('}');
      return;
    }
  }
}

absl::StatusOr<Path> Path::Compile(std::string_view text) {
  Path p;
  auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid JSON path '", absl::string_view(text.data(), text.size()),
                     "': ", absl::string_view(why.data(), why.size())));
  };
  std::string_view s = text;
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  auto starts_with_word = [&](std::string_view w) {
    if (s.size() < w.size()) return false;
    for (size_t k = 0; k < w.size(); ++k) {
      if (absl::ascii_tolower(static_cast<unsigned char>(s[k])) != w[k]) return false;
    }
    return true;
  };
  if (starts_with_word("strict ")) {
    s.remove_prefix(7);
  } else if (starts_with_word("lax ")) {
    p.strict_ = false;
    s.remove_prefix(4);
  }
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  if (s.empty() || s.front() != '$') return bad("a path starts with '$'");
  size_t i = 1;
  while (i < s.size()) {
    Step step;
    if (s[i] == '.') {
      ++i;
      if (i < s.size() && s[i] == '*') {
        step.kind = Step::Kind::kAnyMember;
        ++i;
      } else {
        size_t b = i;
        while (i < s.size() && s[i] != '.' && s[i] != '[') ++i;
        if (i == b) return bad("a member name is missing after '.'");
        step.kind = Step::Kind::kMember;
        step.name.assign(s.substr(b, i - b));
      }
    } else if (s[i] == '[') {
      ++i;
      if (i < s.size() && (s[i] == '\'' || s[i] == '"')) {
        const char q = s[i++];
        size_t e = s.find(q, i);
        if (e == std::string_view::npos) return bad("unterminated quoted member name");
        step.kind = Step::Kind::kMember;
        step.name.assign(s.substr(i, e - i));
        i = e + 1;
      } else if (i < s.size() && s[i] == '*') {
        step.kind = Step::Kind::kAnyIndex;
        ++i;
      } else {
        size_t b = i;
        while (i < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i == b) return bad("an array index is expected in '[]'");
        step.kind = Step::Kind::kIndex;
        if (!absl::SimpleAtoi(absl::string_view(s.data() + b, i - b), &step.index)) {
          return bad("array index out of range");
        }
      }
      if (i >= s.size() || s[i] != ']') return bad("']' expected");
      ++i;
    } else {
      return bad(absl::StrCat("unexpected '", std::string(1, s[i]), "'"));
    }
    p.steps_.push_back(std::move(step));
  }
  return p;
}

Path::Result Path::Evaluate(const Value& root) const {
  Result r;
  std::vector<const Value*> current = {&root}, next;
  for (const Step& step : steps_) {
    next.clear();
    for (const Value* v : current) {
      switch (step.kind) {
        case Step::Kind::kMember: {
          bool found = false;
          if (v->kind == Value::Kind::kObject) {
            for (size_t k = 0; k < v->keys.size(); ++k) {
              if (v->keys[k] == step.name) {
                next.push_back(&v->items[k]);
                found = true;
                break;
              }
            }
          }
          if (!found && strict_) r.error = true;
          break;
        }
        case Step::Kind::kAnyMember:
          r.definite = false;
          if (v->kind == Value::Kind::kObject) {
            for (const Value& item : v->items) next.push_back(&item);
          } else if (strict_) {
            r.error = true;
          }
          break;
        case Step::Kind::kIndex:
          if (v->kind == Value::Kind::kArray &&
              step.index < static_cast<int64_t>(v->items.size())) {
            next.push_back(&v->items[static_cast<size_t>(step.index)]);
          } else if (strict_) {
            r.error = true;
          }
          break;
        case Step::Kind::kAnyIndex:
          r.definite = false;
          if (v->kind == Value::Kind::kArray) {
            for (const Value& item : v->items) next.push_back(&item);
          } else if (strict_) {
            r.error = true;
          }
          break;
      }
    }
    current.swap(next);
  }
  r.values = std::move(current);
  return r;
}

}  // namespace eddy::json
