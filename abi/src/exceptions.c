/*
 * zend-async-ref: exceptions of the classes the scheduler registers.
 *
 * The class of each kind (ZEND_ASYNC_EXCEPTION_*) comes from
 * ZEND_ASYNC_GET_EXCEPTION_CE, i.e. from the registered scheduler, or from
 * the defaults (Exception; Error for cancellations) when none is.
 *
 * zend_async_new_exception creates an exception without throwing it (the
 * caller owns the returned reference); the zend_async_throw* helpers throw
 * (EG(exception) owns it, the returned pointer is borrowed).
 */
#include "zend_async_API.h"

static zend_always_inline zend_async_class
exception_kind(zend_async_class type) {
  return type == ZEND_ASYNC_CLASS_NO ? ZEND_ASYNC_EXCEPTION_DEFAULT : type;
}

ZEND_API ZEND_COLD zend_object *zend_async_new_exception(zend_async_class type,
                                                         const char *format,
                                                         ...) {
  zend_class_entry *exception_ce =
      ZEND_ASYNC_GET_EXCEPTION_CE(exception_kind(type));
  zval exception;
  zval message_zv;
  va_list args;

  ZEND_ASSERT(exception_ce != NULL &&
              instanceof_function(exception_ce, zend_ce_throwable) &&
              "exception classes must implement Throwable");

  object_init_ex(&exception, exception_ce);

  va_start(args, format);
  zend_string *message = zend_vstrpprintf(0, format, args);
  va_end(args);

  ZVAL_STR(&message_zv, message);
  zend_update_property_ex(exception_ce, Z_OBJ(exception),
                          ZSTR_KNOWN(ZEND_STR_MESSAGE), &message_zv);
  zend_string_release(message);

  return Z_OBJ(exception);
}

ZEND_API ZEND_COLD zend_object *zend_async_throw(zend_async_class type,
                                                 const char *format, ...) {
  va_list args;

  va_start(args, format);
  zend_string *message = zend_vstrpprintf(0, format, args);
  va_end(args);

  zend_object *exception = zend_throw_exception(
      ZEND_ASYNC_GET_EXCEPTION_CE(exception_kind(type)), ZSTR_VAL(message), 0);
  zend_string_release(message);
  return exception;
}

ZEND_API ZEND_COLD zend_object *zend_async_throw_cancellation(
    const char *format, ...) {
  const zend_object *pending = EG(exception);
  zend_string *message;

  if (format == NULL) {
    const zend_class_entry *timeout_ce =
        ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_TIMEOUT);
    const bool after_timeout = pending != NULL && timeout_ce != NULL &&
                               instanceof_function(pending->ce, timeout_ce);
    message = after_timeout
                  ? zend_string_init_literal(
                        "The operation was canceled by timeout", 0)
                  : zend_string_init_literal("The operation was canceled", 0);
  } else {
    /* Formatted here with the caller's arguments. (Upstream hands its
     * va_list to a variadic formatter, which reads garbage for any
     * conversion; this implementation formats the arguments given.) */
    va_list args;
    va_start(args, format);
    message = zend_vstrpprintf(0, format, args);
    va_end(args);
  }

  zend_object *exception = zend_throw_exception(
      ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION),
      ZSTR_VAL(message), 0);
  zend_string_release(message);
  return exception;
}

ZEND_API ZEND_COLD zend_object *zend_async_throw_timeout(
    const char *format, const zend_long timeout) {
  zend_class_entry *timeout_ce =
      ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_TIMEOUT);

  if (format == NULL) {
    /* The ABI's text is "A timeout of %u microseconds occurred"; the value
     * is a zend_long, so it is printed with the matching conversion. */
    return zend_throw_exception_ex(
        timeout_ce, 0, "A timeout of " ZEND_LONG_FMT " microseconds occurred",
        timeout);
  }

  /* A caller's format receives the zend_long `timeout` as its argument. */
  return zend_throw_exception_ex(timeout_ce, 0, format, timeout);
}
