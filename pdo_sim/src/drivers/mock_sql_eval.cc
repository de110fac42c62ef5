// zend-async-ref pdo_sim: the mock SQL server's expressions
// (mock_sql_executor.h): values, '+' and '=', functions, COUNT and SUM.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "pdo_sim/src/drivers/mock_sql_executor.h"

namespace pdo_sim::mock::internal {

bool IsNull(const Value& v) {
  return std::holds_alternative<std::monostate>(v);
}

std::optional<double> AsNumber(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* s = std::get_if<std::string>(&v)) {
    try {
      size_t used = 0;
      const double d = std::stod(*s, &used);
      if (used == s->size()) return d;
    } catch (...) {
    }
  }
  return std::nullopt;
}

std::string AsString(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    std::string s = std::to_string(*d);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return "";
}

bool IsTrue(const Value& v) {
  if (IsNull(v)) return false;
  const std::optional<double> n = AsNumber(v);
  return n.has_value() ? *n != 0 : !AsString(v).empty();
}

std::optional<int> Compare(const Value& a, const Value& b) {
  if (IsNull(a) || IsNull(b)) return std::nullopt;
  const auto na = AsNumber(a);
  const auto nb = AsNumber(b);
  if (na && nb &&
      !(std::holds_alternative<std::string>(a) &&
        std::holds_alternative<std::string>(b))) {
    return *na < *nb ? -1 : (*na > *nb ? 1 : 0);
  }
  const int c = AsString(a).compare(AsString(b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

Value Add(const Value& a, const Value& b) {
  if (IsNull(a) || IsNull(b)) return std::monostate{};
  const auto* ia = std::get_if<int64_t>(&a);
  const auto* ib = std::get_if<int64_t>(&b);
  if (ia && ib) return *ia + *ib;
  return AsNumber(a).value_or(0) + AsNumber(b).value_or(0);
}

ColumnType TypeNamed(std::string_view name) {
  const std::string upper = Upper(name);
  for (const char* integer :
       {"TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER", "BIGINT"}) {
    if (upper == integer) return ColumnType::kInteger;
  }
  for (const char* real : {"FLOAT", "DOUBLE", "REAL"}) {
    if (upper == real) return ColumnType::kDouble;
  }
  return ColumnType::kText;
}

bool Executor::Store(const Table& table, size_t column, int64_t row_number,
                     Value* value) {
  const ColumnDef& def = table.defs[column];
  const std::string& name = table.columns[column];
  if (IsNull(*value)) {
    if (!def.not_null) return true;
    return Fail(Error{"23000", 1048, "Column '" + name + "' cannot be null"});
  }
  if (def.type == ColumnType::kText) {
    if (!std::holds_alternative<std::string>(*value)) *value = AsString(*value);
    return true;
  }
  const std::optional<double> number = AsNumber(*value);
  if (!number) {
    return Fail(
        Error{"22007", 1366,
              std::string("Incorrect ") +
                  (def.type == ColumnType::kInteger ? "integer" : "double") +
                  " value: '" + AsString(*value) + "' for column `" +
                  session_.database + "`.`" + table.name + "`.`" + name +
                  "` at row " + std::to_string(row_number)});
  }
  if (def.type == ColumnType::kDouble) {
    *value = *number;
  } else if (!std::holds_alternative<int64_t>(*value)) {
    *value = static_cast<int64_t>(std::llround(*number));
  }
  return true;
}

bool Executor::Column(const Table* table, const Row* row,
                      const std::string& name, Value* out) {
  if (table != nullptr) {
    for (size_t i = 0; i < table->columns.size(); i++) {
      if (EqualsUpper(table->columns[i], Upper(name))) {
        *out = row != nullptr ? row->values[i] : Value{};
        return true;
      }
    }
  }
  return Fail(Error{"42S22", 1054,
                    "Unknown column '" + name + "' in '" + clause_ + "'"});
}

bool Executor::ColumnsExist(const Expr& e, const Table* table,
                            const char* clause) {
  if (e.kind == Expr::kColumn) {
    clause_ = clause;
    Value ignored;
    return Column(table, nullptr, e.name, &ignored);
  }
  for (const Expr& arg : e.args) {
    if (!ColumnsExist(arg, table, clause)) return false;
  }
  return true;
}

bool Executor::ParseWhere(std::optional<Expr>* where) {
  if (!parser_.Accept("WHERE")) return true;
  where->emplace();
  return parser_.ParseExpr(&**where);
}

bool Executor::Matches(const std::optional<Expr>& where, const Table* table,
                       const Row* row, bool* matches) {
  Value keep = int64_t{1};
  clause_ = "WHERE";
  if (where.has_value() && !Eval(*where, table, row, &keep)) return false;
  *matches = IsTrue(keep);
  return true;
}

bool Executor::Eval(const Expr& e, const Table* table, const Row* row,
                    Value* out) {
  switch (e.kind) {
    case Expr::kLiteral:
      *out = e.literal;
      return true;
    case Expr::kParam:
      if (e.name.empty()) {
        if (e.index >= params_.positional.size()) {
          return Fail(Error{"HY093", 0, "Invalid parameter number"});
        }
        *out = params_.positional[e.index];
      } else {
        auto it = params_.named.find(e.name);
        if (it == params_.named.end()) {
          return Fail(Error{"HY093", 0, "Invalid parameter number"});
        }
        *out = it->second;
      }
      return true;
    case Expr::kUserVar: {
      if (!e.args.empty()) {  // @name := value
        if (!Eval(e.args[0], table, row, out)) return false;
        session_.user_vars[e.name] = *out;
        return true;
      }
      auto it = session_.user_vars.find(e.name);
      *out = it != session_.user_vars.end() ? it->second : Value{};
      return true;
    }
    case Expr::kSysVar:
      *out = SystemVariable(e.name);
      return true;
    case Expr::kColumn:
      return Column(table, row, e.name, out);
    case Expr::kBinary:
      return Binary(e, table, row, out);
    case Expr::kCall:
      return Call(e, table, row, out);
  }
  return false;
}

bool Executor::Binary(const Expr& e, const Table* table, const Row* row,
                      Value* out) {
  Value a, b;
  if (!Eval(e.args[0], table, row, &a) || !Eval(e.args[1], table, row, &b)) {
    return false;
  }
  if (e.op == "+") {
    *out = Add(a, b);
    return true;
  }
  const std::optional<int> c = Compare(a, b);  // "="
  *out = c ? Value{int64_t{*c == 0}} : Value{};
  return true;
}

bool Executor::Call(const Expr& e, const Table* table, const Row* row,
                    Value* out) {
  std::vector<Value> args(e.args.size());
  for (size_t i = 0; i < e.args.size(); i++) {
    if (!Eval(e.args[i], table, row, &args[i])) return false;
  }
  auto name_arg = [&]() { return args.empty() ? "" : AsString(args[0]); };
  if (e.name == "CONNECTION_ID") {
    *out = session_.id;
  } else if (e.name == "DATABASE") {
    *out = session_.database;
  } else if (e.name == "SLEEP") {
    const double seconds = args.empty() ? 0 : AsNumber(args[0]).value_or(0);
    // MySQL refuses a negative duration; a huge one sleeps the longest
    // the statement can (UINT32_MAX ms in all).
    if (!(seconds >= 0)) {
      return Fail(Error{"HY000", 1210, "Incorrect arguments to sleep"});
    }
    const double ms = std::min(seconds * 1000, double{UINT32_MAX});
    const uint32_t room = UINT32_MAX - result_.sleep_ms;
    result_.sleep_ms += std::min(static_cast<uint32_t>(std::lround(ms)), room);
    *out = int64_t{0};
  } else if (e.name == "GET_LOCK") {
    auto it = locks_.find(name_arg());
    if (it == locks_.end() || it->second == session_.id) {
      locks_[name_arg()] = session_.id;
      *out = int64_t{1};
    } else {
      *out = int64_t{0};
    }
  } else if (e.name == "RELEASE_LOCK") {
    auto it = locks_.find(name_arg());
    if (it == locks_.end()) {
      *out = std::monostate{};
    } else if (it->second != session_.id) {
      *out = int64_t{0};
    } else {
      locks_.erase(it);
      *out = int64_t{1};
    }
  } else if (e.name == "IS_USED_LOCK") {
    auto it = locks_.find(name_arg());
    *out = it != locks_.end() ? Value{it->second} : Value{};
  } else if (IsAggregate(e)) {
    // Only a select item of its own is an aggregate (Aggregate()).
    return Fail(Error{"HY000", 1111, "Invalid use of group function"});
  } else {
    return Fail(Error{
        "42000", 1305,
        "FUNCTION " + session_.database + "." + e.name + " does not exist"});
  }
  return true;
}

Value Executor::SystemVariable(const std::string& name) const {
  if (name == "autocommit") return int64_t{session_.autocommit};
  auto it = session_.system_vars.find(name);
  if (it != session_.system_vars.end()) return it->second;
  if (name == "character_set_client" || name == "character_set_connection" ||
      name == "character_set_results") {
    return session_.charset;
  }
  // MariaDB's default (10.2.4 on), which a server run without option files
  // has.
  if (name == "sql_mode") {
    return std::string(
        "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
        "NO_ENGINE_SUBSTITUTION");
  }
  return std::monostate{};
}

bool Executor::Aggregate(const Expr& e, const Table* table,
                         const std::vector<const Row*>& rows, Value* out) {
  if (e.star ? e.name != "COUNT" : e.args.size() != 1) return false;
  int64_t count = 0;
  int64_t integers = 0;
  double reals = 0;
  bool all_integers = true;
  for (const Row* row : rows) {
    Value v = int64_t{1};
    if (!e.star && !Eval(e.args[0], table, row, &v)) return false;
    if (IsNull(v)) continue;
    count++;
    if (const auto* i = std::get_if<int64_t>(&v)) integers += *i;
    all_integers = all_integers && std::holds_alternative<int64_t>(v);
    reals += AsNumber(v).value_or(0);
  }
  if (e.name == "COUNT") {
    *out = count;
  } else if (count == 0) {
    *out = std::monostate{};
  } else if (all_integers) {
    // MySQL sums integers as DECIMAL, which PDO (mysqlnd) gives as text.
    *out = std::to_string(integers);
  } else {
    *out = reals;  // anything else as DOUBLE
  }
  return true;
}

}  // namespace pdo_sim::mock::internal
