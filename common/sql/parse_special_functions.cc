// Functions whose arguments the SQL standard separates by keywords rather than commas: TRIM([BOTH
// | LEADING | TRAILING] [chars] FROM s), POSITION(a IN b), SUBSTRING(s FROM p [FOR l]),
// OVERLAY(s PLACING r FROM p [FOR l]), EXTRACT(unit FROM x), TIMESTAMPADD(unit, n, t),
// TIMESTAMPDIFF(unit, a, b), JSON_VALUE / JSON_QUERY with their RETURNING, WRAPPER and ON EMPTY /
// ON ERROR clauses, JSON_OBJECT(KEY k VALUE v ...) and JSON_ARRAY with ON NULL. Each becomes a
// plain function call; keywords that select a behaviour become upper-case string literal arguments
// in fixed positions (function_registry.h lists them), so the binder needs nothing special.
#include <utility>

#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {
namespace {

ExprPtr Call(std::string name, SourcePos pos) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kFunction;
  e->pos = pos;
  e->name.pos = pos;
  e->name.parts.push_back(std::move(name));
  return e;
}

ExprPtr Flag(std::string text, SourcePos pos) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kLiteral;
  e->literal_kind = LiteralKind::kString;
  e->text = std::move(text);
  e->pos = pos;
  return e;
}

ExprPtr NullLiteral(SourcePos pos) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kLiteral;
  e->literal_kind = LiteralKind::kNull;
  e->text = "NULL";
  e->pos = pos;
  return e;
}

// CAST(NULL AS type): how a RETURNING type travels as an argument.
ExprPtr TypedNull(TypeSpec type, SourcePos pos) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kCast;
  e->pos = pos;
  e->cast_type = std::move(type);
  e->args.push_back(NullLiteral(pos));
  return e;
}

constexpr std::string_view kSpecial[] = {
    "TRIM",         "POSITION",      "SUBSTRING",  "SUBSTR",     "OVERLAY",     "EXTRACT",
    "TIMESTAMPADD", "TIMESTAMPDIFF", "JSON_VALUE", "JSON_QUERY", "JSON_OBJECT", "JSON_ARRAY",
};

}  // namespace

bool Parser::PeekSpecialFunction() const {
  if (Peek().kind != TokenKind::kWord || !PeekSymbol("(", 1)) return false;
  for (std::string_view name : kSpecial) {
    if (Peek().upper == name) return true;
  }
  return false;
}

absl::StatusOr<ExprPtr> Parser::ParseSpecialFunction() {
  const Token& name = Advance();
  const std::string word = name.upper;
  const SourcePos pos = name.pos;
  RETURN_IF_ERROR(ExpectSymbol("("));
  ExprPtr call;
  if (word == "TRIM") {
    std::string fn = "TRIM";
    bool side = false;
    if (AcceptKeyword("BOTH")) {
      side = true;
    } else if (AcceptKeyword("LEADING")) {
      fn = "LTRIM";
      side = true;
    } else if (AcceptKeyword("TRAILING")) {
      fn = "RTRIM";
      side = true;
    }
    call = Call(fn, pos);
    ExprPtr chars;
    if (!AcceptKeyword("FROM")) {
      ASSIGN_OR_RETURN(chars, ParseExpr());
      if (!AcceptKeyword("FROM")) {
        if (side) return ErrorExpected("'FROM'");
        call->args.push_back(std::move(chars));  // TRIM(s)
        chars = nullptr;
      }
    }
    if (call->args.empty()) {
      ASSIGN_OR_RETURN(ExprPtr s, ParseExpr());
      call->args.push_back(std::move(s));
      if (chars != nullptr) call->args.push_back(std::move(chars));
    }
  } else if (word == "POSITION") {
    call = Call(word, pos);
    ASSIGN_OR_RETURN(ExprPtr seek, ParseAdditive());
    call->args.push_back(std::move(seek));
    if (AcceptKeyword("IN")) {
      ASSIGN_OR_RETURN(ExprPtr s, ParseExpr());
      call->args.push_back(std::move(s));
      if (AcceptKeyword("FROM")) {
        ASSIGN_OR_RETURN(ExprPtr from, ParseExpr());
        call->args.push_back(std::move(from));
      }
    } else {
      while (AcceptSymbol(",")) {
        ASSIGN_OR_RETURN(ExprPtr a, ParseExpr());
        call->args.push_back(std::move(a));
      }
    }
  } else if (word == "SUBSTRING" || word == "SUBSTR" || word == "OVERLAY") {
    call = Call(word, pos);
    ASSIGN_OR_RETURN(ExprPtr s, ParseExpr());
    call->args.push_back(std::move(s));
    const bool overlay = word == "OVERLAY";
    if (overlay) {
      RETURN_IF_ERROR(ExpectKeyword("PLACING"));
      ASSIGN_OR_RETURN(ExprPtr r, ParseExpr());
      call->args.push_back(std::move(r));
    }
    if (overlay || AcceptKeyword("FROM")) {
      if (overlay) RETURN_IF_ERROR(ExpectKeyword("FROM"));
      ASSIGN_OR_RETURN(ExprPtr from, ParseExpr());
      call->args.push_back(std::move(from));
      if (AcceptKeyword("FOR")) {
        ASSIGN_OR_RETURN(ExprPtr len, ParseExpr());
        call->args.push_back(std::move(len));
      }
    } else {
      while (AcceptSymbol(",")) {
        ASSIGN_OR_RETURN(ExprPtr a, ParseExpr());
        call->args.push_back(std::move(a));
      }
    }
  } else if (word == "EXTRACT" || word == "TIMESTAMPADD" || word == "TIMESTAMPDIFF") {
    call = Call(word, pos);
    const Token& unit = Peek();
    if (unit.kind != TokenKind::kWord) return ErrorExpected("a time unit");
    call->args.push_back(Flag(unit.upper, unit.pos));
    Advance();
    if (word == "EXTRACT") {
      RETURN_IF_ERROR(ExpectKeyword("FROM"));
      ASSIGN_OR_RETURN(ExprPtr x, ParseExpr());
      call->args.push_back(std::move(x));
    } else {
      for (int i = 0; i < 2; ++i) {
        RETURN_IF_ERROR(ExpectSymbol(","));
        ASSIGN_OR_RETURN(ExprPtr x, ParseExpr());
        call->args.push_back(std::move(x));
      }
    }
  } else if (word == "JSON_VALUE" || word == "JSON_QUERY") {
    ASSIGN_OR_RETURN(call, ParseJsonQueryCall(word, pos));
  } else {
    ASSIGN_OR_RETURN(call, ParseJsonConstructor(word, pos));
  }
  RETURN_IF_ERROR(ExpectSymbol(")"));
  return call;
}

// JSON_VALUE(json, path [RETURNING type] [(NULL | ERROR | DEFAULT e) ON EMPTY]
//            [(NULL | ERROR | DEFAULT e) ON ERROR])
//   -> JSON_VALUE(json, path, CAST(NULL AS type), 'NULL'|'ERROR'|'DEFAULT', e|NULL, ... ON ERROR)
// JSON_QUERY(json, path [RETURNING STRING] [WITHOUT [ARRAY] WRAPPER | WITH [CONDITIONAL |
//            UNCONDITIONAL] [ARRAY] WRAPPER] [(NULL | EMPTY ARRAY | EMPTY OBJECT | ERROR) ON EMPTY]
//            [... ON ERROR])
//   -> JSON_QUERY(json, path, 'WITHOUT'|'CONDITIONAL'|'UNCONDITIONAL', on-empty, on-error)
absl::StatusOr<ExprPtr> Parser::ParseJsonQueryCall(const std::string& word, SourcePos pos) {
  ExprPtr call = Call(word, pos);
  for (int i = 0; i < 2; ++i) {
    if (i == 1) RETURN_IF_ERROR(ExpectSymbol(","));
    ASSIGN_OR_RETURN(ExprPtr a, ParseExpr());
    call->args.push_back(std::move(a));
  }
  const bool value = word == "JSON_VALUE";
  TypeSpec returning;
  returning.name = "STRING";
  returning.pos = Peek().pos;
  if (AcceptKeyword("RETURNING")) {
    ASSIGN_OR_RETURN(returning, ParseType());
  }
  if (value) call->args.push_back(TypedNull(std::move(returning), pos));
  if (!value) {
    std::string wrapper = "WITHOUT";
    if (AcceptKeyword("WITHOUT")) {
      AcceptKeyword("ARRAY");
      RETURN_IF_ERROR(ExpectKeyword("WRAPPER"));
    } else if (AcceptKeyword("WITH")) {
      wrapper = AcceptKeyword("CONDITIONAL") ? "CONDITIONAL" : "UNCONDITIONAL";
      if (wrapper == "UNCONDITIONAL") AcceptKeyword("UNCONDITIONAL");
      AcceptKeyword("ARRAY");
      RETURN_IF_ERROR(ExpectKeyword("WRAPPER"));
    }
    call->args.push_back(Flag(wrapper, pos));
  }
  // Behaviours ON EMPTY then ON ERROR; each defaults to NULL.
  std::string behaviour[2] = {"NULL", "NULL"};
  ExprPtr defaults[2];
  int last = -1;
  while (!PeekSymbol(")")) {
    std::string b;
    ExprPtr def;
    const Token& at = Peek();
    if (AcceptKeyword("NULL")) {
      b = "NULL";
    } else if (AcceptKeyword("ERROR")) {
      b = "ERROR";
    } else if (value && AcceptKeyword("DEFAULT")) {
      b = "DEFAULT";
      ASSIGN_OR_RETURN(def, ParseExpr());
    } else if (!value && AcceptKeyword("EMPTY")) {
      if (AcceptKeyword("ARRAY")) {
        b = "EMPTY ARRAY";
      } else {
        RETURN_IF_ERROR(ExpectKeyword("OBJECT"));
        b = "EMPTY OBJECT";
      }
    } else {
      return ErrorExpected(value ? "'NULL', 'ERROR' or 'DEFAULT'"
                                 : "'NULL', 'ERROR', 'EMPTY ARRAY' or 'EMPTY OBJECT'");
    }
    RETURN_IF_ERROR(ExpectKeyword("ON"));
    int target;
    if (AcceptKeyword("EMPTY")) {
      target = 0;
    } else if (AcceptKeyword("ERROR")) {
      target = 1;
    } else {
      return ErrorExpected("'EMPTY' or 'ERROR'");
    }
    if (target <= last) {
      return ErrorAt(at, "ON EMPTY must come before ON ERROR, and each at most once");
    }
    last = target;
    behaviour[target] = b;
    defaults[target] = std::move(def);
  }
  for (int slot = 0; slot < 2; ++slot) {
    call->args.push_back(Flag(behaviour[slot], pos));
    if (value) call->args.push_back(defaults[slot] ? std::move(defaults[slot]) : NullLiteral(pos));
  }
  return call;
}

// JSON_OBJECT([KEY] k VALUE v, ... [(NULL | ABSENT) ON NULL]) -> JSON_OBJECT('NULL'|'ABSENT', k, v,
// ...); JSON_ARRAY(v, ... [(NULL | ABSENT) ON NULL]) -> JSON_ARRAY('NULL'|'ABSENT', v, ...).
absl::StatusOr<ExprPtr> Parser::ParseJsonConstructor(const std::string& word, SourcePos pos) {
  ExprPtr call = Call(word, pos);
  const bool object = word == "JSON_OBJECT";
  std::string on_null = object ? "NULL" : "ABSENT";
  std::vector<ExprPtr> items;
  auto at_on_null = [&] {
    return (PeekKeyword("NULL") || PeekKeyword("ABSENT")) && PeekKeyword("ON", 1);
  };
  while (!PeekSymbol(")") && !at_on_null()) {
    if (!items.empty()) RETURN_IF_ERROR(ExpectSymbol(","));
    if (object) {
      if (PeekKeyword("KEY") && !PeekKeyword("VALUE", 1)) Advance();
      ASSIGN_OR_RETURN(ExprPtr k, ParseExpr());
      RETURN_IF_ERROR(ExpectKeyword("VALUE"));
      items.push_back(std::move(k));
    }
    ASSIGN_OR_RETURN(ExprPtr v, ParseExpr());
    items.push_back(std::move(v));
  }
  if (at_on_null()) {
    on_null = Advance().upper;
    Advance();  // ON
    RETURN_IF_ERROR(ExpectKeyword("NULL"));
  }
  call->args.push_back(Flag(on_null, pos));
  for (auto& item : items) call->args.push_back(std::move(item));
  return call;
}

}  // namespace eddy::sql
