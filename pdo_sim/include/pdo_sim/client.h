// zend-async-ref pdo_sim: calling PDO from C++ the way the engine calls
// internal methods, for tests and tools.
//
//   pdo_sim::Pdo pdo = pdo_sim::Pdo::Open("mock:dbname=shop",
//       {{PDO_ATTR_POOL_ENABLED, true}, {PDO_ATTR_POOL_MAX, 4}});
//   pdo.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
//   pdo_sim::Statement stmt = pdo.Prepare("SELECT v FROM t WHERE id = ?");
//   stmt.Execute({1});
//   pdo_sim::Zval row = stmt.Fetch(PDO_FETCH_ASSOC);
//
// Every call goes through the object's method (zend_call_method_if_exists
// -> the engine's call frame), so errors are raised exactly as PHP raises
// them: a PDOException stays in EG(exception) (the call returns UNDEF),
// warnings go to the engine's error log. Nothing here catches anything.
//
// Threading: the engine's thread, inside a request. Lifetime: the objects
// hold one reference each, released by their destructor or Reset() (PHP's
// unset()).

#ifndef ZAR_PDO_SIM_CLIENT_H_
#define ZAR_PDO_SIM_CLIENT_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "mock_zend/methods.h"
#include "mock_zend/zval.h"

extern "C" {
#include "ext/pdo/php_pdo_driver.h"
}

namespace pdo_sim {

// An owned zval and the short rendering of values for messages and joined
// logs ("42", "'text'", "null", "[1, 'a']").
using mock_zend::Render;
using mock_zend::Zval;

// A value passed to PHP: null, bool, int, float or string.
using Param = std::variant<std::nullptr_t, bool, zend_long, int, double,
                           std::string, const char*>;
void ToZval(const Param& param, zval* out);

// Constructor options: attribute => value.
using Options = std::vector<std::pair<zend_long, Param>>;

// $object->method(...args): the return value, or UNDEF with the exception
// in flight. `args` are borrowed.
using mock_zend::CallMethod;

class Statement;

// A PDO object (or one of a subclass such as Pdo\Sqlite).
class Pdo {
 public:
  Pdo() = default;
  // new <class_name>($dsn, $username, $password, $options): the object, or
  // an empty Pdo with the exception in flight (the half-built object is
  // destroyed, as PHP does).
  static Pdo Open(const std::string& dsn, const Options& options = {},
                  const std::optional<std::string>& username = std::nullopt,
                  const std::optional<std::string>& password = std::nullopt,
                  const char* class_name = "PDO");

  bool ok() const { return !object_.undef(); }
  zval* zv() { return object_.get(); }
  zend_object* obj() { return Z_OBJ_P(object_.get()); }
  // unset($pdo).
  void Reset() { object_.Reset(); }

  Zval Exec(const std::string& sql);
  Statement Query(const std::string& sql);
  Statement Prepare(const std::string& sql);
  Zval BeginTransaction();
  Zval Commit();
  Zval RollBack();
  Zval InTransaction();
  Zval LastInsertId();
  Zval ErrorCode();
  Zval ErrorInfo();
  Zval SetAttribute(zend_long attribute, const Param& value);
  Zval GetAttribute(zend_long attribute);
  Zval GetPool();
  // Any method, with PHP values.
  Zval Call(const char* method, const std::vector<Param>& args = {});

 private:
  Zval object_;
};

// A PDOStatement object (empty when prepare()/query() returned false or
// threw; the return value is then in result()).
class Statement {
 public:
  Statement() = default;
  explicit Statement(Zval value);

  bool ok() const { return Z_TYPE_P(value_.get()) == IS_OBJECT; }
  // What prepare()/query() returned (the object, false, or UNDEF).
  const Zval& result() const { return value_; }
  zval* zv() { return value_.get(); }
  void Reset() { value_.Reset(); }

  Zval Execute();
  Zval Execute(const std::vector<Param>& params);
  // Named parameters (":name" => value).
  Zval ExecuteNamed(const std::vector<std::pair<std::string, Param>>& params);
  Zval Fetch(zend_long mode = PDO_FETCH_USE_DEFAULT);
  Zval FetchAll(zend_long mode = PDO_FETCH_USE_DEFAULT);
  Zval FetchColumn(zend_long column = 0);
  Zval RowCount();
  Zval ErrorCode();
  Zval ErrorInfo();

 private:
  Zval value_;
};

}  // namespace pdo_sim

#endif  // ZAR_PDO_SIM_CLIENT_H_
