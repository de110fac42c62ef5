/*
 * zend-async-ref: mock Zend engine.
 *
 * Closure objects. PHP closures wrap compiled userland code; the mock has
 * no compiler, so a "userland" callable is a Closure whose body is a native
 * function (zend_mock_closure_new). Such a closure behaves like a PHP
 * closure toward the engine: it is an object of class Closure, callable
 * through zend_call_function, named "{closure}", and the values it `use`s
 * are owned by it and reported to the cycle collector.
 */
#ifndef ZEND_CLOSURES_H
#define ZEND_CLOSURES_H

#include "zend_API.h"

BEGIN_EXTERN_C()

ZEND_API extern zend_class_entry *zend_ce_closure;

/* The native body of a closure. `closure` is the closure object being
 * called; arguments are read with ZEND_NUM_ARGS()/ZEND_CALL_ARG as in any
 * internal function. Errors are reported by throwing. */
typedef void (*zend_mock_closure_body)(zend_object *closure,
                                       zend_execute_data *execute_data,
                                       zval *return_value, void *data);
/* Called once when the closure is freed, to release `data`. */
typedef void (*zend_mock_closure_data_dtor)(void *data);

/* Creates a Closure (refcount 1). */
ZEND_API zend_object *zend_mock_closure_new(zend_mock_closure_body body,
                                            void *data,
                                            zend_mock_closure_data_dtor dtor);
/* Adds a captured value (copied, so one reference is added). Captured
 * values are released when the closure is freed and are what get_gc
 * reports, which lets the cycle collector free cycles through closures. */
ZEND_API void zend_mock_closure_add_use(zend_object *closure, zval *value);
ZEND_API uint32_t zend_mock_closure_num_uses(zend_object *closure);
ZEND_API zval *zend_mock_closure_use(zend_object *closure, uint32_t index);
/* Drops every captured value now (breaking a cycle by hand). */
ZEND_API void zend_mock_closure_clear_uses(zend_object *closure);

/* PHP's closure functions. zend_create_closure makes a Closure (in `res`)
 * that calls an internal function `func`; a user function (an op array)
 * or binding an object as $this fails loudly and leaves `res` NULL, since
 * the mock runs no PHP code and its closures carry no $this.
 * zend_get_closure_method_def returns the closure's function (NULL for an
 * object that is not a Closure); zend_get_closure_this_ptr the bound $this,
 * which is always UNDEF in the mock. */
ZEND_API void zend_create_closure(zval *res, zend_function *func,
                                  zend_class_entry *scope,
                                  zend_class_entry *called_scope,
                                  zval *this_ptr);
ZEND_API const zend_function *zend_get_closure_method_def(zend_object *obj);
ZEND_API zval *zend_get_closure_this_ptr(zval *obj);

END_EXTERN_C()

#endif /* ZEND_CLOSURES_H */
