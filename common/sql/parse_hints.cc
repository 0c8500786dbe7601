// Hints, /*+ NAME[(args)] [, NAME[(args)]]* */, where Flink's grammar has them: after a table's
// name (OPTIONS, the dynamic table options) and after SELECT (query hints). An argument list holds
// either `key = value` pairs (keys and values as strings or words) or plain arguments (words,
// qualified names or strings). What the hints mean is checked by the planner.
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/base/status_macros.h"
#include "common/sql/parser_internal.h"

namespace eddy::sql {

absl::StatusOr<std::vector<HintDef>> Parser::ParseHints() {
  RETURN_IF_ERROR(ExpectSymbol("/*+"));
  std::vector<HintDef> hints;
  do {
    HintDef hint;
    hint.pos = Peek().pos;
    if (Peek().kind != TokenKind::kWord) return ErrorExpected("a hint name");
    hint.name = Advance().upper;
    if (AcceptSymbol("(")) {
      while (!PeekSymbol(")")) {
        const Token& item = Peek();
        std::string text;
        if (item.kind == TokenKind::kString) {
          text = Advance().text;
        } else if (PeekIdentifier()) {
          ASSIGN_OR_RETURN(QualifiedName name, ParseQualifiedName());
          text = name.ToString();
        } else {
          return ErrorExpected("a hint argument");
        }
        if (AcceptSymbol("=")) {
          const Token& value = Peek();
          if (value.kind != TokenKind::kString && value.kind != TokenKind::kWord &&
              value.kind != TokenKind::kInteger && value.kind != TokenKind::kDecimal) {
            return ErrorExpected("a hint option's value");
          }
          for (const auto& [key, v] : hint.options.entries) {
            if (key == text) {
              return ErrorAt(item, absl::StrCat("hint option '", text, "' is given twice"));
            }
          }
          hint.options.entries.emplace_back(std::move(text), Advance().text);
          hint.options.positions.push_back(item.pos);
        } else {
          hint.args.push_back(std::move(text));
        }
        if (!AcceptSymbol(",")) break;
      }
      RETURN_IF_ERROR(ExpectSymbol(")"));
      if (!hint.options.entries.empty() && !hint.args.empty()) {
        return ErrorAt(Peek(), absl::StrCat("hint ", hint.name,
                                            " mixes 'key' = 'value' options with plain arguments"));
      }
    }
    hints.push_back(std::move(hint));
  } while (AcceptSymbol(","));
  RETURN_IF_ERROR(ExpectSymbol("*/"));
  return hints;
}

}  // namespace eddy::sql
