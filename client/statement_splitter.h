// Splits what a user types into complete SQL statements: a statement ends at a ';' outside string
// literals ('...'), quoted identifiers (`...`, "...") and comments (-- to end of line, /* ... */),
// so a statement can span lines and a ';' inside a literal does not end it. A statement set
// (`EXECUTE STATEMENT SET BEGIN INSERT ...; INSERT ...; END;`, also after EXPLAIN and its details)
// is one statement: its inner ';'s do not end it, only the ';' after a lone END does (an END that
// closes a CASE inside one of its INSERTs does not).
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
  // the words since the last ';', which tell whether a ';' is inside a statement set.
  void EndWord();
  // Whether the first words open a statement set: [EXECUTE | EXPLAIN [details]] STATEMENT SET
  // BEGIN.
  bool OpensStatementSet() const;
  // Whether a ';' read now is inside a statement set (not the one after its END).
  bool InsideStatementSet() const;

  enum class State { kCode, kSingleQuote, kBacktick, kDoubleQuote, kLineComment, kBlockComment };
  std::string buffer_;
  bool has_code_ = false;  // the pending statement has something besides whitespace and comments
  State state_ = State::kCode;
  std::string word_;                      // the word of code being read, upper case
  std::vector<std::string> first_words_;  // up to kFirstWords
  std::string last_word_;
  int segment_words_ = 0;  // words since the last ';' (or since the set's BEGIN)
};

// The statements of a whole script, split as the shell splits its lines (Add line by line, then
// the unfinished rest, if any).
std::vector<std::string> SplitStatements(const std::string& script);

}  // namespace eddy
