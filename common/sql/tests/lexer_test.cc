#include "common/sql/lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eddy::sql {
namespace {

using ::testing::ElementsAre;

std::vector<Token> Lex(std::string_view sql) {
  absl::StatusOr<std::vector<Token>> tokens = Tokenize(sql);
  EXPECT_TRUE(tokens.ok()) << tokens.status();
  return tokens.ok() ? *std::move(tokens) : std::vector<Token>{};
}

std::vector<std::string> Texts(const std::vector<Token>& tokens) {
  std::vector<std::string> out;
  for (const Token& t : tokens) out.push_back(t.text);
  return out;
}

std::vector<TokenKind> Kinds(const std::vector<Token>& tokens) {
  std::vector<TokenKind> out;
  for (const Token& t : tokens) out.push_back(t.kind);
  return out;
}

TEST(Lexer, WordsKeepCaseAndCarryUpperSpelling) {
  std::vector<Token> t = Lex("select Word from words");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].kind, TokenKind::kWord);
  EXPECT_EQ(t[0].text, "select");
  EXPECT_EQ(t[0].upper, "SELECT");
  EXPECT_EQ(t[1].text, "Word");
  EXPECT_EQ(t[1].upper, "WORD");
  EXPECT_EQ(t[4].kind, TokenKind::kEnd);
}

TEST(Lexer, PositionsAreOneBasedLineAndColumn) {
  std::vector<Token> t = Lex("SELECT a,\n  bb\n\tFROM t");
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(t[0].pos.line, 1);
  EXPECT_EQ(t[0].pos.column, 1);
  EXPECT_EQ(t[1].pos.column, 8);  // a
  EXPECT_EQ(t[2].pos.column, 9);  // ,
  EXPECT_EQ(t[3].pos.line, 2);    // bb
  EXPECT_EQ(t[3].pos.column, 3);
  EXPECT_EQ(t[4].pos.line, 3);  // FROM after a tab
  EXPECT_EQ(t[4].pos.column, 2);
  EXPECT_EQ(t[5].pos.column, 7);  // t
  EXPECT_EQ(t[6].kind, TokenKind::kEnd);
  EXPECT_EQ(t[6].pos.line, 3);
  EXPECT_EQ(t[6].pos.column, 8);
}

TEST(Lexer, ByteOffsetsCoverTheSpelling) {
  std::string sql = "x <> 'it''s'";
  std::vector<Token> t = Lex(sql);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(sql.substr(t[1].begin, t[1].end - t[1].begin), "<>");
  EXPECT_EQ(sql.substr(t[2].begin, t[2].end - t[2].begin), "'it''s'");
  EXPECT_EQ(t[2].text, "it's");
}

TEST(Lexer, Operators) {
  std::vector<Token> t = Lex("+ - * / % = <> != < <= > >= || ( ) , . ;");
  EXPECT_THAT(Texts(t), ElementsAre("+", "-", "*", "/", "%", "=", "<>", "!=", "<", "<=", ">",
                                    ">=", "||", "(", ")", ",", ".", ";", ""));
  for (size_t i = 0; i + 1 < t.size(); ++i) EXPECT_EQ(t[i].kind, TokenKind::kSymbol) << i;
}

TEST(Lexer, OperatorsWithoutSpaces) {
  EXPECT_THAT(Texts(Lex("a<=b<>c||d")), ElementsAre("a", "<=", "b", "<>", "c", "||", "d", ""));
  EXPECT_THAT(Texts(Lex("t.col")), ElementsAre("t", ".", "col", ""));
}

TEST(Lexer, Numbers) {
  std::vector<Token> t = Lex("42 1.5 .5 1e3 2.5E-2 7. 9223372036854775807 9223372036854775808");
  EXPECT_THAT(Kinds(t), ElementsAre(TokenKind::kInteger, TokenKind::kDecimal, TokenKind::kDecimal,
                                    TokenKind::kDouble, TokenKind::kDouble, TokenKind::kDecimal,
                                    TokenKind::kInteger, TokenKind::kDecimal, TokenKind::kEnd));
  EXPECT_THAT(Texts(t), ElementsAre("42", "1.5", ".5", "1e3", "2.5E-2", "7.", "9223372036854775807",
                                    "9223372036854775808", ""));
}

TEST(Lexer, StringsAndQuotedIdentifiers) {
  std::vector<Token> t = Lex("'a''b' `a.b` `x``y` ''");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].kind, TokenKind::kString);
  EXPECT_EQ(t[0].text, "a'b");
  EXPECT_EQ(t[1].kind, TokenKind::kQuotedIdentifier);
  EXPECT_EQ(t[1].text, "a.b");
  EXPECT_EQ(t[2].text, "x`y");
  EXPECT_EQ(t[3].kind, TokenKind::kString);
  EXPECT_EQ(t[3].text, "");
}

TEST(Lexer, MultiLineStringAdvancesLines) {
  std::vector<Token> t = Lex("'a\nb' c");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].text, "a\nb");
  EXPECT_EQ(t[1].pos.line, 2);
  EXPECT_EQ(t[1].pos.column, 4);
}

TEST(Lexer, CommentsAreSkipped) {
  std::vector<Token> t = Lex("a -- line comment ; 'x\n/* block\n comment */ b 1--2");
  EXPECT_THAT(Texts(t), ElementsAre("a", "b", "1", ""));
  EXPECT_EQ(t[1].pos.line, 3);
  EXPECT_EQ(t[1].pos.column, 13);
}

// A hint's marks are tokens (the parser places hints); a plain comment is still skipped.
TEST(Lexer, HintMarksAreTokens) {
  EXPECT_THAT(Texts(Lex("t /*+ OPTIONS('k'='v') */ /* c */ x")),
              ElementsAre("t", "/*+", "OPTIONS", "(", "k", "=", "v", ")", "*/", "x", ""));
  // Outside a hint, */ is two symbols again.
  EXPECT_THAT(Texts(Lex("/*+ A */ 2*/")), ElementsAre("/*+", "A", "*/", "2", "*", "/", ""));
  absl::StatusOr<std::vector<Token>> open = Tokenize("SELECT /*+ A(x) ");
  ASSERT_FALSE(open.ok());
  EXPECT_THAT(std::string(open.status().message()),
              ::testing::HasSubstr("unterminated hint: /*+ without */"));
}

TEST(Lexer, Utf8ColumnsCountCharacters) {
  std::vector<Token> t = Lex("'häh' x");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1].pos.column, 7);
}

TEST(Lexer, UnterminatedStringNamesItsStart) {
  EXPECT_EQ(Tokenize("SELECT\n  'abc FROM t").status().message(),
            "SQL parse error at line 2, column 3: unterminated string literal");
}

TEST(Lexer, UnterminatedCommentNamesItsStart) {
  EXPECT_EQ(Tokenize("SELECT 1 /* oops\n\n").status().message(),
            "SQL parse error at line 1, column 10: unterminated comment");
}

TEST(Lexer, UnterminatedQuotedIdentifier) {
  absl::Status status = Tokenize("SELECT `abc").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "SQL parse error at line 1, column 8: unterminated quoted identifier");
}

TEST(Lexer, UnexpectedCharacter) {
  EXPECT_EQ(Tokenize("a # b").status().message(),
            "SQL parse error at line 1, column 3: unexpected character '#'");
  EXPECT_EQ(Tokenize("a \"b\"").status().message(),
            "SQL parse error at line 1, column 3: unexpected character '\"'");
}

TEST(Lexer, BadExponent) {
  EXPECT_EQ(Tokenize("SELECT 1ex").status().message(),
            "SQL parse error at line 1, column 8: invalid numeric literal '1ex'");
}

}  // namespace
}  // namespace eddy::sql
