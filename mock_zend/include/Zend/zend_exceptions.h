/*
 * zend-async-ref: mock Zend engine.
 *
 * Throwables. Exception and Error objects carry PHP's declared properties
 * (message, string, code, file, line, trace, previous) in their property
 * slots; `previous` chains are built and walked as in PHP.
 *
 * Throwing: zend_throw_* create the object and make it EG(exception). When
 * an exception is already in flight, the new one takes the old one as its
 * deepest `previous` (PHP's behaviour), so nothing in flight is lost.
 */
#ifndef ZEND_EXCEPTIONS_H
#define ZEND_EXCEPTIONS_H

#include "zend_globals.h"

BEGIN_EXTERN_C()

ZEND_API extern zend_class_entry *zend_ce_throwable;
ZEND_API extern zend_class_entry *zend_ce_exception;
ZEND_API extern zend_class_entry *zend_ce_error_exception;
ZEND_API extern zend_class_entry *zend_ce_error;
ZEND_API extern zend_class_entry *zend_ce_compile_error;
ZEND_API extern zend_class_entry *zend_ce_type_error;
ZEND_API extern zend_class_entry *zend_ce_argument_count_error;
ZEND_API extern zend_class_entry *zend_ce_value_error;
ZEND_API extern zend_class_entry *zend_ce_arithmetic_error;
ZEND_API extern zend_class_entry *zend_ce_division_by_zero_error;
ZEND_API extern zend_class_entry *zend_ce_unhandled_match_error;
/* The TrueAsync core's root of cancellation throwables (implements
 * Throwable, extends neither Exception nor Error). */
ZEND_API extern zend_class_entry *zend_ce_cancellation;

/* Creates and throws; returns the new exception (borrowed: EG owns it). */
ZEND_API ZEND_COLD zend_object *zend_throw_exception(
    zend_class_entry *exception_ce, const char *message, zend_long code);
ZEND_API ZEND_COLD zend_object *zend_throw_exception_ex(
    zend_class_entry *exception_ce, zend_long code, const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);
/* Throws an existing exception object; takes over the zval's reference. */
ZEND_API ZEND_COLD void zend_throw_exception_object(zval *exception);
/* Makes `exception` EG(exception); takes over one reference. */
ZEND_API ZEND_COLD void zend_throw_exception_internal(zend_object *exception);
/* Throws an Error (or `exception_ce` when given). */
ZEND_API ZEND_COLD void zend_throw_error(zend_class_entry *exception_ce,
                                         const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API ZEND_COLD void zend_type_error(const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);
ZEND_API ZEND_COLD void zend_value_error(const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);

/* Appends `add_previous` at the end of `exception`'s previous chain,
 * taking over one reference of `add_previous` (released when the link
 * would create a cycle or is a no-op). When either is NULL nothing happens
 * and `add_previous` stays with the caller. */
ZEND_API void zend_exception_set_previous(zend_object *exception,
                                          zend_object *add_previous);
/* Parks the exception in flight (EG(prev_exception)) / puts it back. */
ZEND_API void zend_exception_save(void);
ZEND_API void zend_exception_restore(void);

/* zend_exception_save/restore on a caller's pair of slots instead of
 * EG(exception)/EG(prev_exception), as PHP's inline versions:
 *
 * save_fast parks *exception_ptr in *prev_exception_ptr and clears
 * *exception_ptr. When something is parked already, the exception in flight
 * (if any) gets it appended as its previous and replaces it.
 *
 * restore_fast puts the parked exception back: into *exception_ptr when
 * that is empty, otherwise appended to the previous chain of the exception
 * now in flight (the newer exception wins and carries the older one).
 * *prev_exception_ptr is empty afterwards.
 *
 * Ownership: each slot owns its reference; references move, none is added. */
static zend_always_inline void zend_exception_save_fast(
    zend_object **exception_ptr, zend_object **prev_exception_ptr) {
  if (UNEXPECTED(*prev_exception_ptr)) {
    zend_exception_set_previous(*exception_ptr, *prev_exception_ptr);
  }
  if (UNEXPECTED(*exception_ptr)) {
    *prev_exception_ptr = *exception_ptr;
  }
  *exception_ptr = NULL;
}

static zend_always_inline void zend_exception_restore_fast(
    zend_object **exception_ptr, zend_object **prev_exception_ptr) {
  if (UNEXPECTED(*prev_exception_ptr)) {
    if (*exception_ptr) {
      zend_exception_set_previous(*exception_ptr, *prev_exception_ptr);
    } else {
      *exception_ptr = *prev_exception_ptr;
    }
    *prev_exception_ptr = NULL;
  }
}
/* Releases EG(exception) (and a parked one) and clears it. */
ZEND_API void zend_clear_exception(void);
/* Reports an uncaught exception: "Uncaught <Class>: <message>" at
 * `severity`, then releases it. */
ZEND_API ZEND_COLD zend_result zend_exception_error(zend_object *ex,
                                                    int severity);
ZEND_API zend_class_entry *zend_get_exception_base(zend_object *object);

/* PHP's internal unwinding objects: exit() throws an UnwindExit, and a
 * graceful shutdown a GracefulExit. Their classes are internal (no class
 * table entry, not Throwable, no properties); code that catches exceptions
 * recognizes them with zend_is_*_exit and lets them pass, and an uncaught
 * one ends its stack silently (zend_exception_error reports nothing). The
 * create functions return a new object (one reference); the throw functions
 * put one in EG(exception). */
ZEND_API ZEND_COLD zend_object *zend_create_unwind_exit(void);
ZEND_API ZEND_COLD zend_object *zend_create_graceful_exit(void);
ZEND_API ZEND_COLD void zend_throw_unwind_exit(void);
ZEND_API ZEND_COLD void zend_throw_graceful_exit(void);
ZEND_API bool zend_is_unwind_exit(const zend_object *ex);
ZEND_API bool zend_is_graceful_exit(const zend_object *ex);

/* Reading exception state (mock extension): the message/code/previous
 * properties of an Exception or Error. The returned pointers are borrowed. */
ZEND_API const char *zend_mock_exception_message(zend_object *ex);
ZEND_API zend_long zend_mock_exception_code(zend_object *ex);
ZEND_API zend_object *zend_mock_exception_previous(zend_object *ex);

END_EXTERN_C()

#endif /* ZEND_EXCEPTIONS_H */
