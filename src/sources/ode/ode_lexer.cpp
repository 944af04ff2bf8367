#include "sources/ode/ode_lexer.hpp"

#include <cctype>
#include <charconv>

namespace odesens::expr {
namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class LineLexer {
 public:
  LineLexer(const std::string& file, int line_number, const std::string& line)
      : file_(file), line_number_(line_number), s_(line) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
      if (i_ >= s_.size() || s_[i_] == '#') break;
      out.push_back(next());
    }
    Token end;
    end.kind = Tok::end;
    end.at = here(s_.size());
    out.push_back(end);
    return out;
  }

 private:
  SourceLocation here(std::size_t pos) const {
    return {line_number_, static_cast<int>(pos) + 1};
  }

  Token make(Tok kind, std::size_t start, std::size_t len) {
    Token t;
    t.kind = kind;
    t.text = s_.substr(start, len);
    t.at = here(start);
    i_ = start + len;
    return t;
  }

  Token next() {
    const std::size_t start = i_;
    const char c = s_[i_];
    const char d = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
    if (is_name_start(c)) {
      std::size_t j = i_;
      while (j < s_.size() && is_name_char(s_[j])) ++j;
      return make(Tok::name, start, j - start);
    }
    if (is_digit(c) || (c == '.' && is_digit(d))) return number();
    switch (c) {
      case '+': return make(Tok::plus, start, 1);
      case '-': return make(Tok::minus, start, 1);
      case '*': return make(Tok::star, start, 1);
      case '/': return make(Tok::slash, start, 1);
      case '^': return make(Tok::caret, start, 1);
      case '(': return make(Tok::lparen, start, 1);
      case ')': return make(Tok::rparen, start, 1);
      case ',': return make(Tok::comma, start, 1);
      case ':': return make(Tok::colon, start, 1);
      case ';': return make(Tok::semicolon, start, 1);
      case '<': return d == '=' ? make(Tok::le, start, 2) : make(Tok::lt, start, 1);
      case '>': return d == '=' ? make(Tok::ge, start, 2) : make(Tok::gt, start, 1);
      case '=': return d == '=' ? make(Tok::eq, start, 2) : make(Tok::assign, start, 1);
      case '!': return d == '=' ? make(Tok::ne, start, 2) : make(Tok::not_, start, 1);
      case '&':
        if (d == '&') return make(Tok::and_, start, 2);
        throw_parse_error(file_, here(start), "unexpected character '&' (did you mean '&&'?)");
      case '|':
        if (d == '|') return make(Tok::or_, start, 2);
        throw_parse_error(file_, here(start), "unexpected character '|' (did you mean '||'?)");
      default: break;
    }
    if (static_cast<unsigned char>(c) >= 0xC0) {
      // A UTF-8 character (the text is valid UTF-8 here): shown whole, not
      // as its first byte.
      const unsigned lead = static_cast<unsigned char>(c);
      const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
      throw_parse_error(file_, here(start),
                        "unexpected character '" + s_.substr(start, length) +
                            "' (names are ASCII letters, digits and '_')");
    }
    throw_parse_error(file_, here(start), "unexpected character " + quoted(std::string(1, c)));
  }

  // digits [. digits] [e [+-] digits], or . digits [...]; anything that
  // runs on (a letter, a second dot, a dangling exponent) makes it bad.
  Token number() {
    const std::size_t start = i_;
    std::size_t j = i_;
    while (j < s_.size() && is_digit(s_[j])) ++j;
    if (j < s_.size() && s_[j] == '.') {
      ++j;
      while (j < s_.size() && is_digit(s_[j])) ++j;
    }
    bool bad = false;
    if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && is_digit(s_[k])) {
        while (k < s_.size() && is_digit(s_[k])) ++k;
      } else {
        bad = true;
      }
      j = k;
    }
    if (j < s_.size() && (is_name_char(s_[j]) || s_[j] == '.')) {
      bad = true;
      while (j < s_.size() && (is_name_char(s_[j]) || s_[j] == '.')) ++j;
    }
    const std::string text = s_.substr(start, j - start);
    if (bad) throw_parse_error(file_, here(start), "bad number " + quoted(text));
    double value = 0.0;
    const auto res = std::from_chars(text.data(), text.data() + text.size(), value);
    if (res.ec == std::errc::result_out_of_range)
      throw_parse_error(file_, here(start), "number out of range " + quoted(text));
    if (res.ec != std::errc() || res.ptr != text.data() + text.size())
      throw_parse_error(file_, here(start), "bad number " + quoted(text));
    Token t = make(Tok::number, start, j - start);
    t.number = value;
    return t;
  }

  const std::string& file_;
  int line_number_;
  const std::string& s_;
  std::size_t i_ = 0;
};

}  // namespace

std::vector<Token> tokenize_line(const std::string& file, int line_number,
                                 const std::string& line) {
  return LineLexer(file, line_number, line).run();
}

std::string describe(const Token& t) {
  if (t.kind == Tok::end) return "end of line";
  return quoted(t.text);
}

}  // namespace odesens::expr
