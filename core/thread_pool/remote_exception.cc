#include "core/thread_pool/remote_exception.h"

#include <cstring>

#include "core/internal/arginfo.h"
#include "core/internal/php_object.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "php.h"
}

namespace zar::core::thread_pool {
namespace {

using core::internal::arginfo_none;

zend_class_entry* remote_exception_ce = nullptr;

zval* ReadOwnProperty(zend_object* object, const char* name, zval* rv) {
  return zend_read_property(remote_exception_ce, object, name, strlen(name),
                            true, rv);
}

void DeclareProperty(zend_class_entry* ce, const char* name, zval* value) {
  zend_string* key = zend_string_init_interned(name, strlen(name), true);
  zend_declare_property_ex(ce, key, value, ZEND_ACC_PRIVATE, nullptr);
}

}  // namespace

ZEND_METHOD(Async_RemoteException, getRemoteException) {
  ZEND_PARSE_PARAMETERS_NONE();
  zval rv;
  zval* remote = ReadOwnProperty(Z_OBJ_P(ZEND_THIS), "remoteException", &rv);
  if (remote == nullptr || Z_TYPE_P(remote) != IS_OBJECT) RETURN_NULL();
  RETURN_COPY(remote);
}

ZEND_METHOD(Async_RemoteException, getRemoteClass) {
  ZEND_PARSE_PARAMETERS_NONE();
  zval rv;
  zval* remote_class = ReadOwnProperty(Z_OBJ_P(ZEND_THIS), "remoteClass", &rv);
  if (remote_class == nullptr || Z_TYPE_P(remote_class) != IS_STRING) {
    RETURN_EMPTY_STRING();
  }
  RETURN_COPY(remote_class);
}

namespace {

// clang-format off
const zend_function_entry kRemoteExceptionMethods[] = {
    ZEND_ME(Async_RemoteException, getRemoteException, arginfo_none,
            ZEND_ACC_PUBLIC)
    ZEND_ME(Async_RemoteException, getRemoteClass, arginfo_none,
            ZEND_ACC_PUBLIC)
    ZEND_FE_END};
// clang-format on

}  // namespace

zend_class_entry* RegisterRemoteExceptionClass(
    zend_class_entry* async_exception) {
  remote_exception_ce =
      core::internal::RegisterClass({.name = "Async\\RemoteException",
                                     .flags = ZEND_ACC_NO_DYNAMIC_PROPERTIES,
                                     .methods = kRemoteExceptionMethods,
                                     .parent = async_exception});
  if (remote_exception_ce == nullptr) return nullptr;
  zval null_value;
  ZVAL_NULL(&null_value);
  DeclareProperty(remote_exception_ce, "remoteException", &null_value);
  zval empty;
  ZVAL_EMPTY_STRING(&empty);
  DeclareProperty(remote_exception_ce, "remoteClass", &empty);
  return remote_exception_ce;
}

zend_object* NewRemoteException(zend_object* remote,
                                zend_string* remote_class) {
  zval wrapper;
  object_init_ex(&wrapper, remote_exception_ce);
  zend_object* object = Z_OBJ(wrapper);
  zval rv;
  zval* message = zend_read_property_ex(
      remote->ce, remote, ZSTR_KNOWN(ZEND_STR_MESSAGE), true, &rv);
  if (message != nullptr && Z_TYPE_P(message) == IS_STRING) {
    zend_update_property_ex(remote_exception_ce, object,
                            ZSTR_KNOWN(ZEND_STR_MESSAGE), message);
  }
  zval* code = zend_read_property_ex(remote->ce, remote,
                                     ZSTR_KNOWN(ZEND_STR_CODE), true, &rv);
  if (code != nullptr && Z_TYPE_P(code) == IS_LONG) {
    zend_update_property_ex(remote_exception_ce, object,
                            ZSTR_KNOWN(ZEND_STR_CODE), code);
  }
  zval remote_zv;
  ZVAL_OBJ(&remote_zv, remote);
  zend_update_property(remote_exception_ce, object, "remoteException",
                       strlen("remoteException"), &remote_zv);
  zval class_zv;
  ZVAL_STR(&class_zv, remote_class);
  zend_update_property(remote_exception_ce, object, "remoteClass",
                       strlen("remoteClass"), &class_zv);
  return object;
}

}  // namespace zar::core::thread_pool
