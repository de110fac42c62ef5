// zend-async-ref pdo_sim: user functions, aggregates and collations of the
// SQLite driver, and the Pdo\Sqlite methods that register them
// (sqlite_internal.h, pdo_sim/sqlite_driver.h).

#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "pdo_sim/src/drivers/sqlite_internal.h"

extern "C" {
#include "ext/pdo/php_pdo_int.h"
}

namespace pdo_sim::sqlite::internal {
namespace {

// Templates' registries (a template has no driver_data to keep it in).
absl::flat_hash_map<const pdo_dbh_t*, std::shared_ptr<Registry>>&
TemplateRegistries() {
  static auto* registries =
      new absl::flat_hash_map<const pdo_dbh_t*, std::shared_ptr<Registry>>;
  return *registries;
}

void ToZval(sqlite3_value* value, zval* out) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER:
      ZVAL_LONG(out, sqlite3_value_int64(value));
      break;
    case SQLITE_FLOAT:
      ZVAL_DOUBLE(out, sqlite3_value_double(value));
      break;
    case SQLITE_NULL:
      ZVAL_NULL(out);
      break;
    default:
      ZVAL_STRINGL(out,
                   reinterpret_cast<const char*>(sqlite3_value_text(value)),
                   static_cast<size_t>(sqlite3_value_bytes(value)));
      break;
  }
}

void SetResult(sqlite3_context* context, zval* value) {
  switch (Z_TYPE_P(value)) {
    case IS_LONG:
      sqlite3_result_int64(context, Z_LVAL_P(value));
      break;
    case IS_DOUBLE:
      sqlite3_result_double(context, Z_DVAL_P(value));
      break;
    case IS_NULL:
    case IS_UNDEF:
      sqlite3_result_null(context);
      break;
    case IS_FALSE:
    case IS_TRUE:
      sqlite3_result_int(context, Z_TYPE_P(value) == IS_TRUE);
      break;
    default: {
      zend_string* str = zval_get_string(value);
      sqlite3_result_text(context, ZSTR_VAL(str),
                          static_cast<int>(ZSTR_LEN(str)), SQLITE_TRANSIENT);
      zend_string_release(str);
    }
  }
}

// Calls `callable` with `argc` arguments (borrowed); false when it threw
// or could not be called (`retval` then UNDEF).
bool CallUser(zval* callable, uint32_t argc, zval* args, zval* retval) {
  ZVAL_UNDEF(retval);
  if (EG(exception) != nullptr) return false;
  if (call_user_function(nullptr, nullptr, callable, retval, argc, args) !=
          SUCCESS ||
      EG(exception) != nullptr) {
    zval_ptr_dtor(retval);
    ZVAL_UNDEF(retval);
    return false;
  }
  return true;
}

constexpr const char kCallbackError[] =
    "An error occurred while invoking the callback";

void InvokeFunction(sqlite3_context* context, int argc, sqlite3_value** argv) {
  auto* entry = static_cast<Entry*>(sqlite3_user_data(context));
  std::vector<zval> args(static_cast<size_t>(argc));
  for (int i = 0; i < argc; i++) ToZval(argv[i], &args[static_cast<size_t>(i)]);
  zval retval;
  if (CallUser(&entry->callback, static_cast<uint32_t>(argc), args.data(),
               &retval)) {
    SetResult(context, &retval);
  } else {
    sqlite3_result_error(context, kCallbackError, -1);
  }
  zval_ptr_dtor(&retval);
  for (zval& arg : args) zval_ptr_dtor(&arg);
}

// The aggregate's state between steps (zeroed by SQLite: context UNDEF).
struct AggregateContext {
  zval context;
  zend_long rows;
};

void InvokeStep(sqlite3_context* context, int argc, sqlite3_value** argv) {
  auto* entry = static_cast<Entry*>(sqlite3_user_data(context));
  auto* state = static_cast<AggregateContext*>(
      sqlite3_aggregate_context(context, sizeof(AggregateContext)));
  if (state == nullptr) {
    sqlite3_result_error_nomem(context);
    return;
  }
  std::vector<zval> args(static_cast<size_t>(argc) + 2);
  if (Z_ISUNDEF(state->context)) {
    ZVAL_NULL(&args[0]);
  } else {
    ZVAL_COPY(&args[0], &state->context);
  }
  ZVAL_LONG(&args[1], ++state->rows);
  for (int i = 0; i < argc; i++)
    ToZval(argv[i], &args[static_cast<size_t>(i) + 2]);
  zval retval;
  if (CallUser(&entry->callback, static_cast<uint32_t>(args.size()),
               args.data(), &retval)) {
    zval_ptr_dtor(&state->context);
    ZVAL_COPY_VALUE(&state->context, &retval);
  } else {
    sqlite3_result_error(context, kCallbackError, -1);
  }
  for (zval& arg : args) zval_ptr_dtor(&arg);
}

void InvokeFinal(sqlite3_context* context) {
  auto* entry = static_cast<Entry*>(sqlite3_user_data(context));
  auto* state =
      static_cast<AggregateContext*>(sqlite3_aggregate_context(context, 0));
  zval args[2];
  if (state == nullptr || Z_ISUNDEF(state->context)) {
    ZVAL_NULL(&args[0]);
  } else {
    ZVAL_COPY_VALUE(&args[0], &state->context);  // handed over
    ZVAL_UNDEF(&state->context);
  }
  ZVAL_LONG(&args[1], state != nullptr ? state->rows : 0);
  zval retval;
  if (CallUser(&entry->finalize, 2, args, &retval)) {
    SetResult(context, &retval);
  } else {
    sqlite3_result_error(context, kCallbackError, -1);
  }
  zval_ptr_dtor(&retval);
  zval_ptr_dtor(&args[0]);
}

int InvokeCollation(void* data, int a_len, const void* a, int b_len,
                    const void* b) {
  auto* entry = static_cast<Entry*>(data);
  zval args[2];
  ZVAL_STRINGL(&args[0], static_cast<const char*>(a),
               static_cast<size_t>(a_len));
  ZVAL_STRINGL(&args[1], static_cast<const char*>(b),
               static_cast<size_t>(b_len));
  zval retval;
  int result = 0;
  if (CallUser(&entry->callback, 2, args, &retval)) {
    const zend_long order = zval_get_long(&retval);
    result = order < 0 ? -1 : (order > 0 ? 1 : 0);
  }
  zval_ptr_dtor(&retval);
  zval_ptr_dtor(&args[0]);
  zval_ptr_dtor(&args[1]);
  return result;
}

}  // namespace

bool ApplyEntries(sqlite3* db, const Registry& registry, size_t from) {
  for (size_t i = from; i < registry.entries.size(); i++) {
    Entry* entry = registry.entries[i].get();
    int rc;
    switch (entry->kind) {
      case Entry::kFunction:
        rc = sqlite3_create_function_v2(
            db, entry->name.c_str(), entry->arity, SQLITE_UTF8 | entry->flags,
            entry, InvokeFunction, nullptr, nullptr, nullptr);
        break;
      case Entry::kAggregate:
        rc = sqlite3_create_function_v2(db, entry->name.c_str(), entry->arity,
                                        SQLITE_UTF8, entry, nullptr, InvokeStep,
                                        InvokeFinal, nullptr);
        break;
      case Entry::kCollation:
        rc = sqlite3_create_collation_v2(db, entry->name.c_str(), SQLITE_UTF8,
                                         entry, InvokeCollation, nullptr);
        break;
    }
    if (rc != SQLITE_OK) return false;
  }
  return true;
}

std::shared_ptr<Registry> TemplateRegistry(const pdo_dbh_t* tmpl, bool create) {
  auto& registries = TemplateRegistries();
  auto it = registries.find(tmpl);
  if (it != registries.end()) return it->second;
  if (!create) return nullptr;
  auto registry = std::make_shared<Registry>();
  registries.emplace(tmpl, registry);
  return registry;
}

void ForgetTemplateRegistry(const pdo_dbh_t* tmpl) {
  TemplateRegistries().erase(tmpl);
}

void ThrowPdoException(const std::string& message) {
  zend_throw_exception(php_pdo_get_exception(), message.c_str(), 0);
}

namespace {

const char* KindName(Entry::Kind kind) {
  switch (kind) {
    case Entry::kFunction:
      return "createFunction";
    case Entry::kAggregate:
      return "createAggregate";
    case Entry::kCollation:
      return "createCollation";
  }
  return "";
}

bool SameName(const std::string& a, const std::string& b) {
  return a.size() == b.size() &&
         strncasecmp(a.c_str(), b.c_str(), a.size()) == 0;
}

// Registers `entry` on the handle (the template's registry when pooled).
bool Register(pdo_dbh_t* dbh, std::unique_ptr<Entry> entry) {
  if (dbh->pool != nullptr) {
    std::shared_ptr<Registry> registry = TemplateRegistry(dbh, true);
    if (registry->frozen) {
      ThrowPdoException(std::string("PDO_SQLite: ") + KindName(entry->kind) +
                        "() cannot be called once the pool has handed out a "
                        "connection: register before the first query when "
                        "PDO::ATTR_POOL_ENABLED is set");
      return false;
    }
    for (const std::unique_ptr<Entry>& other : registry->entries) {
      const bool collation = entry->kind == Entry::kCollation;
      if ((other->kind == Entry::kCollation) != collation ||
          !SameName(other->name, entry->name)) {
        continue;
      }
      if (collation) {
        ThrowPdoException("PDO_SQLite: collation \"" + entry->name +
                          "\" is already registered on the pool template");
        return false;
      }
      if (other->arity == entry->arity) {
        ThrowPdoException("PDO_SQLite: function \"" + entry->name + "\" with " +
                          std::to_string(entry->arity) +
                          " argument(s) is already registered on the pool "
                          "template");
        return false;
      }
    }
    registry->entries.push_back(std::move(entry));
    return true;
  }
  SqliteConnection* conn = Conn(dbh);
  if (conn == nullptr) return false;
  if (conn->registry == nullptr) conn->registry = std::make_shared<Registry>();
  conn->registry->entries.push_back(std::move(entry));
  const size_t from = conn->registry->entries.size() - 1;
  conn->registry_applied = conn->registry->entries.size();
  return ApplyEntries(conn->db, *conn->registry, from);
}

std::unique_ptr<Entry> NewEntry(Entry::Kind kind, zend_string* name,
                                zval* callback, zval* finalize, zend_long arity,
                                zend_long flags) {
  auto entry = std::make_unique<Entry>();
  entry->kind = kind;
  entry->name.assign(ZSTR_VAL(name), ZSTR_LEN(name));
  entry->arity = static_cast<int>(arity);
  entry->flags = static_cast<int>(flags);
  ZVAL_COPY(&entry->callback, callback);
  if (finalize != nullptr) {
    ZVAL_COPY(&entry->finalize, finalize);
  } else {
    ZVAL_UNDEF(&entry->finalize);
  }
  return entry;
}

// The handle of a Pdo\Sqlite method's $this, or nullptr with an error.
pdo_dbh_t* SqliteHandle(zend_execute_data* execute_data) {
  pdo_dbh_t* dbh = Z_PDO_DBH_P(ZEND_THIS);
  if (dbh->driver == nullptr) {
    zend_throw_error(nullptr, "PDO object is uninitialized");
    return nullptr;
  }
  if (dbh->driver != &pdo_sqlite_driver) {
    zend_throw_error(nullptr, "Pdo\\Sqlite methods need the \"sqlite\" driver");
    return nullptr;
  }
  return dbh;
}

bool CheckCallable(zval* callable, uint32_t arg_num) {
  if (zend_is_callable(callable, 0, nullptr)) return true;
  zend_argument_type_error(arg_num, "must be a valid callback");
  return false;
}

}  // namespace
}  // namespace pdo_sim::sqlite::internal

using pdo_sim::sqlite::internal::Entry;
using pdo_sim::sqlite::internal::NewEntry;
using pdo_sim::sqlite::internal::Register;
using pdo_sim::sqlite::internal::SqliteHandle;
using pdo_sim::sqlite::internal::ThrowPdoException;

extern "C" {

PHP_METHOD(Pdo_Sqlite, createFunction) {
  zend_string* name;
  zval* callback;
  zend_long arity = -1;
  zend_long flags = 0;
  ZEND_PARSE_PARAMETERS_START(2, 4)
  Z_PARAM_STR(name)
  Z_PARAM_ZVAL(callback)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG(arity)
  Z_PARAM_LONG(flags)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t* dbh = SqliteHandle(execute_data);
  if (dbh == nullptr ||
      !pdo_sim::sqlite::internal::CheckCallable(callback, 2)) {
    RETURN_THROWS();
  }
  RETURN_BOOL(Register(
      dbh, NewEntry(Entry::kFunction, name, callback, nullptr, arity, flags)));
}

PHP_METHOD(Pdo_Sqlite, createAggregate) {
  zend_string* name;
  zval* step;
  zval* finalize;
  zend_long arity = -1;
  ZEND_PARSE_PARAMETERS_START(3, 4)
  Z_PARAM_STR(name)
  Z_PARAM_ZVAL(step)
  Z_PARAM_ZVAL(finalize)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG(arity)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t* dbh = SqliteHandle(execute_data);
  if (dbh == nullptr || !pdo_sim::sqlite::internal::CheckCallable(step, 2) ||
      !pdo_sim::sqlite::internal::CheckCallable(finalize, 3)) {
    RETURN_THROWS();
  }
  RETURN_BOOL(Register(
      dbh, NewEntry(Entry::kAggregate, name, step, finalize, arity, 0)));
}

PHP_METHOD(Pdo_Sqlite, createCollation) {
  zend_string* name;
  zval* callback;
  ZEND_PARSE_PARAMETERS_START(2, 2)
  Z_PARAM_STR(name)
  Z_PARAM_ZVAL(callback)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t* dbh = SqliteHandle(execute_data);
  if (dbh == nullptr ||
      !pdo_sim::sqlite::internal::CheckCallable(callback, 2)) {
    RETURN_THROWS();
  }
  RETURN_BOOL(Register(
      dbh, NewEntry(Entry::kCollation, name, callback, nullptr, -1, 0)));
}

// Methods a pooled template cannot offer (they act on one connection).
static void Unsupported(zend_execute_data* execute_data, const char* method) {
  pdo_dbh_t* dbh = SqliteHandle(execute_data);
  if (dbh == nullptr) return;
  if (dbh->pool != nullptr) {
    ThrowPdoException(std::string("PDO_SQLite: ") + method +
                      "() is not yet supported when PDO::ATTR_POOL_ENABLED is "
                      "set");
  } else {
    ThrowPdoException(std::string("PDO_SQLite: ") + method +
                      "() is not implemented by pdo_sim");
  }
}

PHP_METHOD(Pdo_Sqlite, setAuthorizer) {
  (void)return_value;
  Unsupported(execute_data, "setAuthorizer");
}

PHP_METHOD(Pdo_Sqlite, openBlob) {
  (void)return_value;
  Unsupported(execute_data, "openBlob");
}

PHP_METHOD(Pdo_Sqlite, loadExtension) {
  (void)return_value;
  Unsupported(execute_data, "loadExtension");
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_create_function, 0, 0, 2)
ZEND_ARG_TYPE_INFO(0, function_name, IS_STRING, 0)
ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, num_args, IS_LONG, 0, "-1")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, flags, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_create_aggregate, 0, 0, 3)
ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
ZEND_ARG_TYPE_INFO(0, step, IS_CALLABLE, 0)
ZEND_ARG_TYPE_INFO(0, finalize, IS_CALLABLE, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, numArgs, IS_LONG, 0, "-1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_create_collation, 0, 0, 2)
ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_any, 0, 0, 0)
ZEND_END_ARG_INFO()

// clang-format off
static const zend_function_entry pdo_sqlite_functions[] = {
    PHP_ME(Pdo_Sqlite, createFunction, arginfo_create_function, ZEND_ACC_PUBLIC)
    PHP_ME(Pdo_Sqlite, createAggregate, arginfo_create_aggregate, ZEND_ACC_PUBLIC)
    PHP_ME(Pdo_Sqlite, createCollation, arginfo_create_collation, ZEND_ACC_PUBLIC)
    PHP_ME(Pdo_Sqlite, setAuthorizer, arginfo_any, ZEND_ACC_PUBLIC)
    PHP_ME(Pdo_Sqlite, openBlob, arginfo_any, ZEND_ACC_PUBLIC)
    PHP_ME(Pdo_Sqlite, loadExtension, arginfo_any, ZEND_ACC_PUBLIC)
    PHP_FE_END};
// clang-format on

const zend_function_entry* pdo_sqlite_class_methods(void) {
  return pdo_sqlite_functions;
}

}  // extern "C"
