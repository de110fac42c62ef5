// zend-async-ref pdo_sim: tokens and expressions of the mock SQL server
// (mock_sql_parse.h).

#include "pdo_sim/src/drivers/mock_sql_parse.h"

#include <cctype>
#include <charconv>
#include <system_error>

namespace pdo_sim::mock::internal {
namespace {

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

}  // namespace

bool EqualsUpper(std::string_view text, std::string_view upper) {
  if (text.size() != upper.size()) return false;
  for (size_t i = 0; i < text.size(); i++) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != upper[i]) {
      return false;
    }
  }
  return true;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower((unsigned char)c));
  return out;
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper((unsigned char)c));
  return out;
}

bool Tokenize(std::string_view sql, std::vector<Token>* tokens,
              size_t* error_at) {
  size_t i = 0;
  const size_t n = sql.size();
  auto push = [&](Token::Type type, std::string text, size_t begin) {
    tokens->push_back(Token{type, std::move(text), begin, i});
  };
  while (i < n) {
    const char c = sql[i];
    const size_t begin = i;
    if (std::isspace(static_cast<unsigned char>(c))) {
      i++;
    } else if (c == '#' || (c == '-' && i + 1 < n && sql[i + 1] == '-')) {
      while (i < n && sql[i] != '\n') i++;
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      i += 2;
      if (i < n && (sql[i] == '!' ||
                    (sql[i] == 'M' && i + 1 < n && sql[i + 1] == '!'))) {
        i += sql[i] == '!' ? 1 : 2;  // an executable comment: keep its body
        while (i < n && std::isdigit(static_cast<unsigned char>(sql[i]))) i++;
        continue;
      }
      while (i + 1 < n && !(sql[i] == '*' && sql[i + 1] == '/')) i++;
      i = i + 1 < n ? i + 2 : n;
    } else if (c == '*' && i + 1 < n && sql[i + 1] == '/') {
      i += 2;  // the end of an executable comment
    } else if (c == '\'') {
      const size_t close = sql.find('\'', i + 1);
      if (close == std::string_view::npos) {
        *error_at = begin;
        return false;
      }
      i = close + 1;
      push(Token::kString,
           std::string(sql.substr(begin + 1, close - begin - 1)), begin);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      bool dot = false;  // one: "1.2.3" is 1.2, then ".3"
      while (i < n && (std::isdigit(static_cast<unsigned char>(sql[i])) ||
                       (sql[i] == '.' && !dot))) {
        dot = dot || sql[i] == '.';
        i++;
      }
      push(Token::kNumber, std::string(sql.substr(begin, i - begin)), begin);
    } else if (IsIdentStart(c)) {
      while (i < n && IsIdentChar(sql[i])) i++;
      push(Token::kIdent, std::string(sql.substr(begin, i - begin)), begin);
    } else if (c == '@') {
      const bool system = i + 1 < n && sql[i + 1] == '@';
      i += system ? 2 : 1;
      const size_t name_begin = i;
      while (i < n && (IsIdentChar(sql[i]) || sql[i] == '.')) i++;
      std::string name = Lower(sql.substr(name_begin, i - name_begin));
      if (system && name.rfind("session.", 0) == 0) name = name.substr(8);
      push(system ? Token::kSysVar : Token::kUserVar, std::move(name), begin);
    } else if (c == '?') {
      i++;
      push(Token::kParam, "?", begin);
    } else if (c == ':' && i + 1 < n && IsIdentStart(sql[i + 1])) {
      i++;
      while (i < n && IsIdentChar(sql[i])) i++;
      push(Token::kNamedParam,
           std::string(sql.substr(begin + 1, i - begin - 1)), begin);
    } else {
      const bool assign = c == ':' && i + 1 < n && sql[i + 1] == '=';
      i += assign ? 2 : 1;
      push(Token::kSymbol, assign ? ":=" : std::string(1, c), begin);
    }
  }
  tokens->push_back(Token{Token::kEnd, "", n, n});
  return true;
}

bool IsAggregate(const Expr& expr) {
  return expr.kind == Expr::kCall &&
         (expr.name == "COUNT" || expr.name == "SUM");
}

// ---- Parser -----------------------------------------------------------------

namespace {

// A number token (digits and dots) as a value: an integer when it has no
// dot and fits 64 bits, else a double (a larger integer too, as MySQL
// makes it a DECIMAL). False when it is not one number ("1.2.3") or
// exceeds a double.
bool ParseNumber(const std::string& text, Value* out) {
  const char* const end = text.data() + text.size();
  if (text.find('.') == std::string::npos) {
    int64_t integer = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), end, integer);
    if (ec == std::errc() && ptr == end) {
      *out = integer;
      return true;
    }
  }
  double number = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), end, number);
  if (ec != std::errc() || ptr != end) return false;
  *out = number;
  return true;
}

// Whether a number token fails only by being too large for a double.
bool NumberOverflows(const std::string& text) {
  double number = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, number);
  return ec == std::errc::result_out_of_range && ptr == end;
}

// `*expr` becomes `*expr op rhs`.
void MakeBinary(const char* op, Expr rhs, Expr* expr) {
  Expr node;
  node.kind = Expr::kBinary;
  node.op = op;
  node.args = {std::move(*expr), std::move(rhs)};
  *expr = std::move(node);
}

}  // namespace

const Token& Parser::Peek(size_t ahead) const {
  const size_t at = pos_ + ahead;
  return at < tokens_.size() ? tokens_[at] : tokens_.back();
}

const Token& Parser::Next() {
  const Token& token = Peek();
  if (token.type != Token::kEnd) pos_++;
  return token;
}

bool Parser::AtStatementEnd() const {
  const Token& token = Peek();
  return token.type == Token::kEnd ||
         (token.type == Token::kSymbol && token.text == ";");
}

bool Parser::PeekIs(std::string_view word, size_t ahead) const {
  const Token& token = Peek(ahead);
  if (token.type == Token::kSymbol) return token.text == word;
  return token.type == Token::kIdent && EqualsUpper(token.text, word);
}

bool Parser::Accept(std::string_view word) {
  if (!PeekIs(word)) return false;
  pos_++;
  return true;
}

bool Parser::Ident(std::string* name) {
  if (Peek().type != Token::kIdent) return false;
  *name = Next().text;
  return true;
}

std::string Parser::Near() const {
  const size_t begin = Peek().begin;
  return std::string(sql_.substr(begin < sql_.size() ? begin : sql_.size()));
}

void Parser::SetText(Expr* expr, size_t first_token) const {
  const size_t begin = tokens_[first_token].begin;
  const size_t end = pos_ > first_token ? tokens_[pos_ - 1].end : begin;
  expr->text = std::string(sql_.substr(begin, end - begin));
}

bool Parser::ParseExpr(Expr* expr) {
  const size_t first = pos_;
  if (!ParseComparison(expr)) return false;
  SetText(expr, first);
  return true;
}

bool Parser::ParseComparison(Expr* expr) {
  if (!ParseAdditive(expr)) return false;
  if (!Accept("=")) return true;
  Expr rhs;
  if (!ParseAdditive(&rhs)) return false;
  MakeBinary("=", std::move(rhs), expr);
  return true;
}

bool Parser::ParseAdditive(Expr* expr) {
  if (!ParseFactor(expr)) return false;
  while (Accept("+")) {
    Expr rhs;
    if (!ParseFactor(&rhs)) return false;
    MakeBinary("+", std::move(rhs), expr);
  }
  return true;
}

bool Parser::ParseFactor(Expr* expr) {
  const size_t first = pos_;
  const Token& token = Peek();
  switch (token.type) {
    case Token::kNumber: {
      Next();
      if (!ParseNumber(token.text, &expr->literal)) {
        if (!literal_error_ && NumberOverflows(token.text)) {
          literal_error_ = Error{
              "22007", 1367,
              "Illegal double '" + token.text + "' value found during parsing"};
        }
        return false;
      }
      break;
    }
    case Token::kString:
      Next();
      expr->literal = token.text;
      break;
    case Token::kParam:
      Next();
      expr->kind = Expr::kParam;
      expr->index = positional_counter != nullptr ? (*positional_counter)++ : 0;
      break;
    case Token::kNamedParam:  // :name, @name [:= value], @@name
    case Token::kUserVar:
    case Token::kSysVar:
      Next();
      expr->kind = token.type == Token::kNamedParam ? Expr::kParam
                   : token.type == Token::kUserVar  ? Expr::kUserVar
                                                    : Expr::kSysVar;
      expr->name = token.text;
      if (token.type == Token::kUserVar && Accept(":=")) {
        Expr value;
        if (!ParseComparison(&value)) return false;
        expr->args.push_back(std::move(value));
      }
      break;
    case Token::kIdent: {
      Next();
      if (EqualsUpper(token.text, "NULL")) {
        expr->literal = std::monostate{};
        break;
      }
      if (!Accept("(")) {
        expr->kind = Expr::kColumn;
        expr->name = token.text;
        break;
      }
      expr->kind = Expr::kCall;
      expr->name = Upper(token.text);
      if (Accept("*")) {
        expr->star = true;
      } else if (!PeekIs(")")) {
        do {
          Expr arg;
          if (!ParseComparison(&arg)) return false;
          expr->args.push_back(std::move(arg));
        } while (Accept(","));
      }
      if (!Accept(")")) return false;
      break;
    }
    default:
      return false;
  }
  SetText(expr, first);
  return true;
}

}  // namespace pdo_sim::mock::internal
