// Tokens of one line of .ode text. Comments (# to the end of the line) are
// dropped; the last token of a line is always `end`.
#pragma once

#include <string>
#include <vector>

#include "sources/ode/ode_source.hpp"

namespace odesens::expr {

enum class Tok {
  name, number,
  plus, minus, star, slash, caret, lparen, rparen, comma, assign, colon, semicolon,
  lt, le, gt, ge, eq, ne, and_, or_, not_,
  end
};

struct Token {
  Tok kind = Tok::end;
  std::string text;  // as written
  double number = 0.0;
  SourceLocation at;
};

// Throws a parse error for a character outside the language or a malformed
// number ("1e", "1.2.3", "2x", out of the range of double).
std::vector<Token> tokenize_line(const std::string& file, int line_number, const std::string& line);

// How a token is named in messages: 'x', '+', "end of line".
std::string describe(const Token& t);

}  // namespace odesens::expr
