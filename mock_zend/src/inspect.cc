// zend-async-ref: C++ helpers over the mock Zend engine. Reading engine
// state in tests and tools (mock_zend/inspect.h).

#include "mock_zend/inspect.h"

#include <cinttypes>

#include "absl/strings/str_format.h"
#include "engine_internal.h"

namespace mock_zend {

std::vector<ReportedError> ReportedErrors() {
  std::vector<ReportedError> errors;
  const uint32_t count = zend_mock_error_count();
  errors.reserve(count);
  for (uint32_t i = 0; i < count; i++) {
    errors.push_back({zend_mock_error_type(i), zend_mock_error_message(i)});
  }
  return errors;
}

void ClearReportedErrors() { zend_mock_errors_clear(); }

std::string ErrorLevelName(int type) {
  switch (type & ~E_DONT_BAIL) {
    case E_ERROR:
      return "E_ERROR";
    case E_WARNING:
      return "E_WARNING";
    case E_PARSE:
      return "E_PARSE";
    case E_NOTICE:
      return "E_NOTICE";
    case E_CORE_ERROR:
      return "E_CORE_ERROR";
    case E_CORE_WARNING:
      return "E_CORE_WARNING";
    case E_COMPILE_ERROR:
      return "E_COMPILE_ERROR";
    case E_COMPILE_WARNING:
      return "E_COMPILE_WARNING";
    case E_USER_ERROR:
      return "E_USER_ERROR";
    case E_USER_WARNING:
      return "E_USER_WARNING";
    case E_USER_NOTICE:
      return "E_USER_NOTICE";
    case E_STRICT:
      return "E_STRICT";
    case E_RECOVERABLE_ERROR:
      return "E_RECOVERABLE_ERROR";
    case E_DEPRECATED:
      return "E_DEPRECATED";
    case E_USER_DEPRECATED:
      return "E_USER_DEPRECATED";
    default:
      return "E_UNKNOWN(" + std::to_string(type) + ")";
  }
}

std::string ClassName(const zend_object* object) {
  return std::string(ZSTR_VAL(object->ce->name), ZSTR_LEN(object->ce->name));
}

std::string ExceptionMessage(zend_object* exception) {
  return zend_mock_exception_message(exception);
}

std::vector<std::string> ExceptionChain(zend_object* exception) {
  std::vector<std::string> chain;
  for (zend_object* e = exception; e != nullptr;
       e = zend_mock_exception_previous(e)) {
    chain.push_back(ClassName(e) + ": " + ExceptionMessage(e));
  }
  return chain;
}

zend_object* TakeException() {
  zend_object* exception = EG(exception);
  EG(exception) = nullptr;
  return exception;
}

std::string Describe(const zval* value) {
  switch (Z_TYPE_P(value)) {
    case IS_UNDEF:
      return "undef";
    case IS_NULL:
      return "null";
    case IS_FALSE:
      return "bool(false)";
    case IS_TRUE:
      return "bool(true)";
    case IS_LONG:
      return "int(" + std::to_string(Z_LVAL_P(value)) + ")";
    case IS_DOUBLE:
      return "float(" + internal::DoubleToString(Z_DVAL_P(value)) + ")";
    case IS_STRING:
      return "string(\"" + std::string(Z_STRVAL_P(value), Z_STRLEN_P(value)) +
             "\")";
    case IS_ARRAY:
      return "array(" +
             std::to_string(zend_hash_num_elements(Z_ARRVAL_P(value))) + ")";
    case IS_OBJECT:
      return "object(" + ClassName(Z_OBJ_P(value)) + ")#" +
             std::to_string(Z_OBJ_P(value)->handle);
    case IS_REFERENCE:
      return "reference(" + Describe(Z_REFVAL_P(value)) + ")";
    case IS_PTR:
      return absl::StrFormat("ptr(%p)", Z_PTR_P(value));
    default:
      return "type(" + std::to_string(Z_TYPE_P(value)) + ")";
  }
}

}  // namespace mock_zend
