// zend-async-ref pdo_sim: tokens and expressions of the mock SQL server
// (mock_sql.h).
//
// Threading: any. Lifetime: a Parser borrows the SQL text it was given.

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_PARSE_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_PARSE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pdo_sim/src/drivers/mock_sql.h"

namespace pdo_sim::mock::internal {

struct Token {
  enum Type {
    kIdent,       // a name or keyword (text as written)
    kNumber,      // 42, 0.5
    kString,      // 'text' (without the quotes; no escapes)
    kSymbol,      // one character: ( ) , ; * + = ..., or :=
    kParam,       // ?
    kNamedParam,  // :name (text = name)
    kUserVar,     // @name (text = name)
    kSysVar,      // @@name, @@session.name (text = name)
    kEnd,
  };
  Type type = kEnd;
  std::string text;
  size_t begin = 0;  // offsets in the SQL
  size_t end = 0;
};

// Splits `sql` into tokens (comments dropped; the markers of MySQL's
// executable comments dropped, their bodies kept). The last token is kEnd.
// False on an unterminated string, with *error_at its opening quote.
bool Tokenize(std::string_view sql, std::vector<Token>* tokens,
              size_t* error_at);

struct Expr {
  enum Kind {
    kLiteral,
    kParam,    // positional: index; named: name
    kUserVar,  // name; args[0]: the value of @name := value
    kSysVar,   // name
    kColumn,   // name
    kBinary,   // op ("+" or "="), args[0], args[1]
    kCall,     // name (uppercase), args; star for COUNT(*)
  };
  Kind kind = kLiteral;
  Value literal;
  size_t index = 0;
  std::string name;
  std::string op;
  bool star = false;
  std::vector<Expr> args;
  std::string text;  // the source text (a result column's default name)
};

// True when `expr` is a call of COUNT or SUM.
bool IsAggregate(const Expr& expr);

// Recursive-descent reading of a statement's tokens.
class Parser {
 public:
  Parser(std::string_view sql, const std::vector<Token>& tokens, size_t pos)
      : sql_(sql), tokens_(tokens), pos_(pos) {}

  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  size_t pos() const { return pos_; }
  bool AtStatementEnd() const;  // kEnd or ';'

  // Consumes the keyword (case-insensitive) or symbol if it comes next.
  bool Accept(std::string_view word);
  bool PeekIs(std::string_view word, size_t ahead = 0) const;
  // Consumes an identifier; false at anything else.
  bool Ident(std::string* name);

  // An expression: operand [= operand], an operand being factors joined
  // by '+'; a factor a literal (number, 'string', NULL), a parameter, @var
  // (or @var := expression), @@var, a column, or a function call. False at
  // anything else (the caller reports the syntax error).
  bool ParseExpr(Expr* expr);

  // The number of positional parameters seen so far (shared by the
  // statements of one Execute call).
  size_t* positional_counter = nullptr;

  // "near '...'" text of the syntax error at the current token.
  std::string Near() const;

  // Set when ParseExpr failed on a number too large for a double (MySQL's
  // 22007/1367 "Illegal double"); the caller reports it instead of a
  // syntax error. Other failures leave it empty.
  const std::optional<Error>& literal_error() const { return literal_error_; }

 private:
  bool ParseComparison(Expr* expr);
  bool ParseAdditive(Expr* expr);
  bool ParseFactor(Expr* expr);
  void SetText(Expr* expr, size_t first_token) const;

  std::string_view sql_;
  const std::vector<Token>& tokens_;
  size_t pos_;
  std::optional<Error> literal_error_;
};

// Case-insensitive comparison; `upper` must be uppercase.
bool EqualsUpper(std::string_view text, std::string_view upper);
std::string Lower(std::string_view text);
std::string Upper(std::string_view text);

}  // namespace pdo_sim::mock::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_PARSE_H_
