// zend-async-ref pdo_sim: calling PDO from C++ (pdo_sim/client.h).

#include "pdo_sim/client.h"

#include <cstring>

namespace pdo_sim {

void ToZval(const Param& param, zval* out) {
  if (std::holds_alternative<std::nullptr_t>(param)) {
    ZVAL_NULL(out);
  } else if (const auto* b = std::get_if<bool>(&param)) {
    ZVAL_BOOL(out, *b);
  } else if (const auto* l = std::get_if<zend_long>(&param)) {
    ZVAL_LONG(out, *l);
  } else if (const auto* i = std::get_if<int>(&param)) {
    ZVAL_LONG(out, *i);
  } else if (const auto* d = std::get_if<double>(&param)) {
    ZVAL_DOUBLE(out, *d);
  } else if (const auto* s = std::get_if<std::string>(&param)) {
    ZVAL_STRINGL(out, s->data(), s->size());
  } else {
    ZVAL_STRING(out, std::get<const char*>(param));
  }
}

// ---- Pdo --------------------------------------------------------------------

Pdo Pdo::Open(const std::string& dsn, const Options& options,
              const std::optional<std::string>& username,
              const std::optional<std::string>& password,
              const char* class_name) {
  Pdo pdo;
  zval params[4];
  ZVAL_STRINGL(&params[0], dsn.data(), dsn.size());
  ToZval(username ? Param(*username) : Param(nullptr), &params[1]);
  ToZval(password ? Param(*password) : Param(nullptr), &params[2]);
  array_init(&params[3]);
  for (const auto& [attribute, value] : options) {
    zval v;
    ToZval(value, &v);
    add_index_zval(&params[3], static_cast<zend_ulong>(attribute), &v);
  }
  Zval object = mock_zend::New(
      class_name, {&params[0], &params[1], &params[2], &params[3]});
  for (zval& param : params) zval_ptr_dtor(&param);
  if (object.undef()) return pdo;
  pdo.object_ = std::move(object);
  return pdo;
}

Zval Pdo::Call(const char* method, const std::vector<Param>& args) {
  std::vector<zval> values(args.size());
  std::vector<zval*> pointers;
  for (size_t i = 0; i < args.size(); i++) {
    ToZval(args[i], &values[i]);
    pointers.push_back(&values[i]);
  }
  Zval result = CallMethod(object_.get(), method, pointers);
  for (zval& value : values) zval_ptr_dtor(&value);
  return result;
}

Zval Pdo::Exec(const std::string& sql) { return Call("exec", {sql}); }
Statement Pdo::Query(const std::string& sql) {
  return Statement(Call("query", {sql}));
}
Statement Pdo::Prepare(const std::string& sql) {
  return Statement(Call("prepare", {sql}));
}
Zval Pdo::BeginTransaction() { return Call("beginTransaction"); }
Zval Pdo::Commit() { return Call("commit"); }
Zval Pdo::RollBack() { return Call("rollBack"); }
Zval Pdo::InTransaction() { return Call("inTransaction"); }
Zval Pdo::LastInsertId() { return Call("lastInsertId"); }
Zval Pdo::ErrorCode() { return Call("errorCode"); }
Zval Pdo::ErrorInfo() { return Call("errorInfo"); }
Zval Pdo::SetAttribute(zend_long attribute, const Param& value) {
  return Call("setAttribute", {attribute, value});
}
Zval Pdo::GetAttribute(zend_long attribute) {
  return Call("getAttribute", {attribute});
}
Zval Pdo::GetPool() { return Call("getPool"); }

// ---- Statement --------------------------------------------------------------

Statement::Statement(Zval value) : value_(std::move(value)) {}

Zval Statement::Execute() { return CallMethod(value_.get(), "execute"); }

Zval Statement::Execute(const std::vector<Param>& params) {
  zval array;
  array_init(&array);
  for (const Param& param : params) {
    zval v;
    ToZval(param, &v);
    add_next_index_zval(&array, &v);
  }
  Zval result = CallMethod(value_.get(), "execute", {&array});
  zval_ptr_dtor(&array);
  return result;
}

Zval Statement::ExecuteNamed(
    const std::vector<std::pair<std::string, Param>>& params) {
  zval array;
  array_init(&array);
  for (const auto& [name, param] : params) {
    zval v;
    ToZval(param, &v);
    add_assoc_zval_ex(&array, name.data(), name.size(), &v);
  }
  Zval result = CallMethod(value_.get(), "execute", {&array});
  zval_ptr_dtor(&array);
  return result;
}

Zval Statement::Fetch(zend_long mode) {
  zval m;
  ZVAL_LONG(&m, mode);
  return CallMethod(value_.get(), "fetch", {&m});
}

Zval Statement::FetchAll(zend_long mode) {
  zval m;
  ZVAL_LONG(&m, mode);
  return CallMethod(value_.get(), "fetchAll", {&m});
}

Zval Statement::FetchColumn(zend_long column) {
  zval c;
  ZVAL_LONG(&c, column);
  return CallMethod(value_.get(), "fetchColumn", {&c});
}

Zval Statement::RowCount() { return CallMethod(value_.get(), "rowCount"); }
Zval Statement::ErrorCode() { return CallMethod(value_.get(), "errorCode"); }
Zval Statement::ErrorInfo() { return CallMethod(value_.get(), "errorInfo"); }

}  // namespace pdo_sim
