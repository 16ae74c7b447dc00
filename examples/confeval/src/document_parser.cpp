// Document parser: section headers, assignments and directives, one per line.
#include "confeval/document.h"

#include "confeval/lexer.h"
#include "token_cursor.h"

namespace confeval {

namespace {

class DocumentParser {
 public:
  DocumentParser(const std::vector<Token>& tokens, std::string file)
      : cursor_(tokens), document_{std::move(file), {}} {}

  Document run() {
    while (!cursor_.check(TokenKind::End)) {
      if (cursor_.accept(TokenKind::Newline)) {
        continue;
      }
      if (cursor_.check(TokenKind::LeftBracket)) {
        parse_section_header();
      } else if (cursor_.check(TokenKind::At)) {
        parse_directive();
      } else {
        parse_assignment();
      }
    }
    return std::move(document_);
  }

 private:
  void parse_section_header() {
    cursor_.next();
    section_ = detail::parse_path(cursor_, "section name after '['");
    cursor_.expect(TokenKind::RightBracket, "']' after the section name");
    expect_line_end("section header");
  }

  void parse_directive() {
    const SourceLocation where = cursor_.next().where;
    const Token& name = cursor_.expect(TokenKind::Identifier, "directive name after '@'");
    if (name.text != "include") {
      throw SyntaxError("unknown directive '@" + name.text + "'", name.where);
    }
    const Token& target = cursor_.expect(TokenKind::String, "file name string after @include");
    if (target.text.empty()) {
      throw SyntaxError("@include needs a file name", target.where);
    }
    if (target.interpolated && target.text.find_first_of("\\$") != std::string::npos) {
      // Includes are resolved before anything is evaluated, so the name must be literal.
      throw SyntaxError("@include file name cannot contain escapes or ${...}", target.where);
    }
    document_.statements.emplace_back(Include{target.text, where});
    expect_line_end("@include");
  }

  void parse_assignment() {
    const SourceLocation where = cursor_.peek().where;
    if (!cursor_.check(TokenKind::Identifier)) {
      cursor_.fail("expected a key, a [section] or a directive, found " + describe(cursor_.peek()));
    }
    std::string key = detail::parse_path(cursor_, "key");
    cursor_.expect(TokenKind::Assign, "'=' after key '" + key + "'");
    if (cursor_.check(TokenKind::Newline) || cursor_.check(TokenKind::End)) {
      cursor_.fail("missing value after '='");
    }
    ExprPtr value = detail::parse_expression(cursor_);
    document_.statements.emplace_back(
        Assignment{section_, std::move(key), std::move(value), where});
    expect_line_end("value");
  }

  void expect_line_end(const std::string& after) {
    if (!cursor_.accept(TokenKind::Newline) && !cursor_.check(TokenKind::End)) {
      cursor_.fail("expected end of line after " + after + ", found " + describe(cursor_.peek()));
    }
  }

  detail::TokenCursor cursor_;
  Document document_;
  std::string section_;
};

}  // namespace

Document parse_document(std::string_view text, const std::string& file) {
  const std::vector<Token> tokens = tokenize(text, file);
  return DocumentParser(tokens, file).run();
}

}  // namespace confeval
