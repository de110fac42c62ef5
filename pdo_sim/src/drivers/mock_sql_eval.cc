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
  return Fail(
      Error{"42S22", 1054, "Unknown column '" + name + "' in 'field list'"});
}

bool Executor::ParseWhere(std::optional<Expr>* where) {
  if (!parser_.Accept("WHERE")) return true;
  where->emplace();
  return parser_.ParseExpr(&**where);
}

bool Executor::Matches(const std::optional<Expr>& where, const Table* table,
                       const Row* row, bool* matches) {
  Value keep = int64_t{1};
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
  if (name == "sql_mode") return std::string();
  return std::monostate{};
}

bool Executor::Aggregate(const Expr& e, const Table* table,
                         const std::vector<const Row*>& rows, Value* out) {
  if (e.star ? e.name != "COUNT" : e.args.size() != 1) return false;
  Value sum;
  int64_t count = 0;
  for (const Row* row : rows) {
    Value v = int64_t{1};
    if (!e.star && !Eval(e.args[0], table, row, &v)) return false;
    if (IsNull(v)) continue;
    count++;
    sum = IsNull(sum) ? v : Add(sum, v);
  }
  *out = e.name == "COUNT" ? Value{count} : sum;
  return true;
}

}  // namespace pdo_sim::mock::internal
