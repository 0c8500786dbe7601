#include "client/statement_splitter.h"

#include <cctype>
#include <utility>

namespace eddy {
namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Enough for EXPLAIN with every detail Flink names before STATEMENT SET BEGIN (and for COMPILE
// [AND EXECUTE] PLAN 'file' IF NOT EXISTS FOR STATEMENT SET BEGIN).
constexpr size_t kFirstWords = 10;

}  // namespace

void StatementSplitter::EndWord() {
  if (word_.empty()) return;
  const bool opening = first_words_.size() < kFirstWords;
  if (opening) first_words_.push_back(word_);
  last_word_ = std::move(word_);
  word_.clear();
  ++segment_words_;
  // The set's first INSERT starts after BEGIN.
  if (opening && last_word_ == "BEGIN" && OpensStatementSet()) segment_words_ = 0;
}

bool StatementSplitter::OpensStatementSet() const {
  if (first_words_.empty() || (first_words_[0] != "EXECUTE" && first_words_[0] != "EXPLAIN" &&
                               first_words_[0] != "COMPILE")) {
    return false;
  }
  for (size_t i = 1; i + 2 < first_words_.size(); ++i) {
    if (first_words_[i] == "STATEMENT" && first_words_[i + 1] == "SET" &&
        first_words_[i + 2] == "BEGIN") {
      return true;
    }
  }
  return false;
}

bool StatementSplitter::InsideStatementSet() const {
  return OpensStatementSet() && !(segment_words_ == 1 && last_word_ == "END");
}

std::vector<std::string> StatementSplitter::Add(const std::string& text) {
  std::vector<std::string> done;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (state_) {
      case State::kCode:
        if (IsWordChar(c)) {
          word_ += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        } else {
          EndWord();
        }
        if (c == ';') {
          if (InsideStatementSet()) {
            segment_words_ = 0;
          } else {
            if (has_code_) done.push_back(buffer_);
            buffer_.clear();
            has_code_ = false;
            first_words_.clear();
            last_word_.clear();
            segment_words_ = 0;
            continue;
          }
        }
        // Leading whitespace is dropped, so error positions count from the statement's first line.
        if (!has_code_ && std::isspace(static_cast<unsigned char>(c)) && buffer_.empty()) continue;
        if (c == '-' && next == '-') {
          state_ = State::kLineComment;
        } else if (c == '/' && next == '*') {
          state_ = State::kBlockComment;
          buffer_ += c;
          buffer_ += next;
          ++i;
          continue;
        } else if (c == '\'') {
          state_ = State::kSingleQuote;
        } else if (c == '`') {
          state_ = State::kBacktick;
        } else if (c == '"') {
          state_ = State::kDoubleQuote;
        }
        if (state_ != State::kLineComment && state_ != State::kBlockComment &&
            !std::isspace(static_cast<unsigned char>(c))) {
          has_code_ = true;
        }
        break;
      case State::kSingleQuote:  // '' inside a literal is an escaped quote: leave and re-enter
        if (c == '\'') state_ = State::kCode;
        break;
      case State::kBacktick:
        if (c == '`') state_ = State::kCode;
        break;
      case State::kDoubleQuote:
        if (c == '"') state_ = State::kCode;
        break;
      case State::kLineComment:
        if (c == '\n') state_ = State::kCode;
        break;
      case State::kBlockComment:
        if (c == '*' && next == '/') {
          state_ = State::kCode;
          buffer_ += c;
          buffer_ += next;
          ++i;
          continue;
        }
        break;
    }
    buffer_ += c;
  }
  // Comment lines before a statement are not part of it.
  if (!has_code_ && state_ == State::kCode) buffer_.clear();
  return done;
}

bool StatementSplitter::pending() const { return has_code_ || state_ != State::kCode; }

std::string StatementSplitter::TakeRest() {
  std::string rest = has_code_ ? buffer_ : "";
  buffer_.clear();
  has_code_ = false;
  state_ = State::kCode;
  word_.clear();
  first_words_.clear();
  last_word_.clear();
  segment_words_ = 0;
  return rest;
}

std::vector<std::string> SplitStatements(const std::string& script) {
  StatementSplitter splitter;
  std::vector<std::string> statements;
  size_t begin = 0;
  while (begin <= script.size()) {
    size_t end = script.find('\n', begin);
    if (end == std::string::npos) end = script.size();
    for (std::string& s : splitter.Add(script.substr(begin, end - begin) + "\n")) {
      statements.push_back(std::move(s));
    }
    begin = end + 1;
  }
  if (std::string rest = splitter.TakeRest(); !rest.empty()) statements.push_back(std::move(rest));
  return statements;
}

}  // namespace eddy
