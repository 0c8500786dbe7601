// Splits what a user types into complete SQL statements: a statement ends at a ';' outside string
// literals ('...'), quoted identifiers (`...`, "...") and comments (-- to end of line, /* ... */),
// so a statement can span lines and a ';' inside a literal does not end it. A statement set
// (`EXECUTE STATEMENT SET BEGIN INSERT ...; INSERT ...; END;`) is one statement: its inner ';'s do
// not end it, only the ';' after END does.
#pragma once

#include <string>
#include <vector>

namespace eddy {

class StatementSplitter {
 public:
  // Adds text (usually one line with its newline) and returns the statements it completed, each
  // without its ';'. Statements that are only whitespace and comments are dropped.
  std::vector<std::string> Add(const std::string& text);
  // Whether an unfinished statement is pending (the shell then shows its continuation prompt).
  bool pending() const;
  // The unfinished rest (what is left when the input ends without a ';').
  std::string TakeRest();
  // Drops the unfinished statement (Ctrl-C at a continuation prompt).
  void Discard() { (void)TakeRest(); }

 private:
  // A word of code (outside literals and comments) ended: tracks the statement's first words and
  // its last one, which tell whether a ';' is inside a statement set.
  void EndWord();
  bool InsideStatementSet() const;

  enum class State { kCode, kSingleQuote, kBacktick, kDoubleQuote, kLineComment, kBlockComment };
  std::string buffer_;
  bool has_code_ = false;  // the pending statement has something besides whitespace and comments
  State state_ = State::kCode;
  std::string word_;                      // the word of code being read, upper case
  std::vector<std::string> first_words_;  // up to four
  std::string last_word_;
};

}  // namespace eddy
