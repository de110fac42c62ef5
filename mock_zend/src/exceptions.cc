// zend-async-ref: mock Zend engine. Throwing, chaining and reporting
// exceptions (zend_exceptions.h).
//
// EG(exception) owns one reference to the exception in flight. Throwing
// while another exception is in flight appends the old one at the end of
// the new one's `previous` chain (its reference moves there), so nothing in
// flight is lost, as in PHP.

#include <string>

#include "engine_internal.h"

namespace {

using mock_zend::internal::PropertySlot;

zval* PreviousSlot(zend_object* exception) {
  return PropertySlot(exception, ZEND_STRL("previous"));
}

zend_object* PreviousOf(zend_object* exception) {
  zval* slot = PreviousSlot(exception);
  return slot != nullptr && Z_TYPE_P(slot) == IS_OBJECT ? Z_OBJ_P(slot)
                                                        : nullptr;
}

bool ChainContains(zend_object* chain, zend_object* needle) {
  for (zend_object* e = chain; e != nullptr; e = PreviousOf(e)) {
    if (e == needle) return true;
  }
  return false;
}

zend_object* ThrowNew(zend_class_entry* ce, const char* message,
                      zend_long code) {
  zval exception;
  if (object_init_ex(&exception, ce) != SUCCESS) return nullptr;
  zend_object* object = Z_OBJ(exception);
  if (message != nullptr) {
    zend_update_property_string(zend_get_exception_base(object), object,
                                ZEND_STRL("message"), message);
  }
  if (code != 0) {
    zend_update_property_long(zend_get_exception_base(object), object,
                              ZEND_STRL("code"), code);
  }
  zend_throw_exception_internal(object);
  return object;
}

}  // namespace

extern "C" {

zend_object* zend_throw_exception(zend_class_entry* exception_ce,
                                  const char* message, zend_long code) {
  return ThrowNew(exception_ce != nullptr ? exception_ce : zend_ce_exception,
                  message, code);
}

zend_object* zend_throw_exception_ex(zend_class_entry* exception_ce,
                                     zend_long code, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  return zend_throw_exception(exception_ce, message.c_str(), code);
}

void zend_throw_exception_object(zval* exception) {
  if (exception == nullptr || Z_TYPE_P(exception) != IS_OBJECT) {
    zend_error_noreturn(E_CORE_ERROR,
                        "Need to supply an object when throwing an exception");
  }
  if (!instanceof_function(Z_OBJCE_P(exception), zend_ce_throwable)) {
    zend_throw_error(nullptr,
                     "Cannot throw objects that do not implement Throwable");
    zval_ptr_dtor(exception);
    return;
  }
  zend_throw_exception_internal(Z_OBJ_P(exception));
}

void zend_throw_exception_internal(zend_object* exception) {
  if (exception == nullptr) return;
  if (EG(exception) != nullptr) {
    zend_exception_set_previous(exception, EG(exception));
  }
  EG(exception) = exception;
}

void zend_throw_error(zend_class_entry* exception_ce, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  ThrowNew(exception_ce != nullptr ? exception_ce : zend_ce_error,
           message.c_str(), 0);
}

void zend_type_error(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  ThrowNew(zend_ce_type_error, message.c_str(), 0);
}

void zend_value_error(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  ThrowNew(zend_ce_value_error, message.c_str(), 0);
}

// The caller's reference to `add_previous` always moves in: it is stored
// at the end of `exception`'s chain, or released when linking would be a
// no-op (NULL `exception`, the same object) or would make a cycle.
void zend_exception_set_previous(zend_object* exception,
                                 zend_object* add_previous) {
  // As in PHP: with either side missing there is nothing to link, and
  // add_previous stays with the caller.
  if (exception == nullptr || add_previous == nullptr) return;
  if (exception == add_previous || ChainContains(exception, add_previous) ||
      ChainContains(add_previous, exception)) {
    OBJ_RELEASE(add_previous);
    return;
  }
  zend_object* deepest = exception;
  while (zend_object* next = PreviousOf(deepest)) deepest = next;
  zval* slot = PreviousSlot(deepest);
  if (slot == nullptr) {  // not a standard throwable: nowhere to link it
    OBJ_RELEASE(add_previous);
    return;
  }
  zval_ptr_dtor(slot);
  ZVAL_OBJ(slot, add_previous);
}

void zend_exception_save(void) {
  if (EG(prev_exception) != nullptr && EG(exception) != nullptr) {
    zend_exception_set_previous(EG(exception), EG(prev_exception));
  }
  if (EG(exception) != nullptr) EG(prev_exception) = EG(exception);
  EG(exception) = nullptr;
}

void zend_exception_restore(void) {
  if (EG(prev_exception) == nullptr) return;
  if (EG(exception) != nullptr) {
    zend_exception_set_previous(EG(exception), EG(prev_exception));
  } else {
    EG(exception) = EG(prev_exception);
  }
  EG(prev_exception) = nullptr;
}

void zend_clear_exception(void) {
  if (zend_object* parked = EG(prev_exception)) {
    EG(prev_exception) = nullptr;
    OBJ_RELEASE(parked);
  }
  if (zend_object* exception = EG(exception)) {
    EG(exception) = nullptr;
    OBJ_RELEASE(exception);
  }
}

zend_result zend_exception_error(zend_object* ex, int severity) {
  if (ex == nullptr) return SUCCESS;
  if (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex)) {
    // The stack unwound as asked: nothing to report.
    if (EG(exception) == ex) EG(exception) = nullptr;
    OBJ_RELEASE(ex);
    return SUCCESS;
  }
  zend_string* class_name = ex->handlers->get_class_name(ex);
  zval* message = PropertySlot(ex, ZEND_STRL("message"));
  zend_string* text = message != nullptr ? zval_get_string(message)
                                         : zend_string_copy(zend_empty_string);
  zend_error(severity | E_DONT_BAIL, "Uncaught %s: %s", ZSTR_VAL(class_name),
             ZSTR_VAL(text));
  zend_string_release(text);
  zend_string_release(class_name);
  if (EG(exception) == ex) EG(exception) = nullptr;
  OBJ_RELEASE(ex);
  return SUCCESS;
}

zend_class_entry* zend_get_exception_base(zend_object* object) {
  if (instanceof_function(object->ce, zend_ce_error)) return zend_ce_error;
  if (zend_ce_cancellation != nullptr &&
      instanceof_function(object->ce, zend_ce_cancellation)) {
    return zend_ce_cancellation;
  }
  return zend_ce_exception;
}

const char* zend_mock_exception_message(zend_object* ex) {
  zval* message = PropertySlot(ex, ZEND_STRL("message"));
  return message != nullptr && Z_TYPE_P(message) == IS_STRING
             ? Z_STRVAL_P(message)
             : "";
}

zend_long zend_mock_exception_code(zend_object* ex) {
  zval* code = PropertySlot(ex, ZEND_STRL("code"));
  return code != nullptr ? zval_get_long(code) : 0;
}

zend_object* zend_mock_exception_previous(zend_object* ex) {
  return PreviousOf(ex);
}

}  // extern "C"
