/*
 * zend-async-ref: mock Zend engine.
 *
 * Atomics under PHP's names. The storage is a plain volatile field operated
 * on with the GCC __atomic builtins (sequentially consistent), which is what
 * PHP's zend_atomic.h uses when C11 atomics are unavailable; it compiles the
 * same way as C and as C++.
 */
#ifndef ZEND_ATOMIC_H
#define ZEND_ATOMIC_H

#include "zend_portability.h"

BEGIN_EXTERN_C()

typedef struct zend_atomic_bool_s {
  volatile bool value;
} zend_atomic_bool;
typedef struct zend_atomic_int_s {
  volatile int value;
} zend_atomic_int;
typedef struct zend_atomic_int64_s {
  volatile int64_t value;
} zend_atomic_int64;
typedef struct zend_atomic_ptr_s {
  void *volatile value;
} zend_atomic_ptr;

#define ZEND_ATOMIC_SEQ __ATOMIC_SEQ_CST

/* Initialisation of an object no other thread can see yet (a plain store),
 * and static initialisers. */
#define ZEND_ATOMIC_BOOL_INIT(obj, desired) ((obj)->value = (desired))
#define ZEND_ATOMIC_INT_INIT(obj, desired) ((obj)->value = (desired))
#define ZEND_ATOMIC_INT64_INIT(obj, desired) ((obj)->value = (desired))
#define ZEND_ATOMIC_BOOL_INITIALIZER(desired) \
  { .value = (desired) }
#define ZEND_ATOMIC_INT_INITIALIZER(desired) \
  { .value = (desired) }
#define ZEND_ATOMIC_INT64_INITIALIZER(desired) \
  { .value = (desired) }

/* The _ex forms are PHP's inline primitives; the forms without _ex are the
 * same operations (PHP exports them as functions). Every operation is
 * sequentially consistent. exchange returns the previous value;
 * compare_exchange stores `desired` and returns true when the value equals
 * *expected, otherwise writes the current value to *expected and returns
 * false (a strong compare-exchange: no spurious failure). */
#define ZEND_MOCK_ATOMIC_OPS(name, type)                                      \
  static zend_always_inline void zend_atomic_##name##_store_ex(               \
      zend_atomic_##name *obj, type desired) {                                \
    __atomic_store_n(&obj->value, desired, ZEND_ATOMIC_SEQ);                  \
  }                                                                           \
  static zend_always_inline type zend_atomic_##name##_load_ex(                \
      const zend_atomic_##name *obj) {                                        \
    return __atomic_load_n(&obj->value, ZEND_ATOMIC_SEQ);                     \
  }                                                                           \
  static zend_always_inline type zend_atomic_##name##_exchange_ex(            \
      zend_atomic_##name *obj, type desired) {                                \
    return __atomic_exchange_n(&obj->value, desired, ZEND_ATOMIC_SEQ);        \
  }                                                                           \
  static zend_always_inline bool zend_atomic_##name##_compare_exchange_ex(    \
      zend_atomic_##name *obj, type *expected, type desired) {                \
    return __atomic_compare_exchange_n(&obj->value, expected, desired, false, \
                                       ZEND_ATOMIC_SEQ, ZEND_ATOMIC_SEQ);     \
  }                                                                           \
  static zend_always_inline void zend_atomic_##name##_init(                   \
      zend_atomic_##name *obj, type desired) {                                \
    zend_atomic_##name##_store_ex(obj, desired);                              \
  }                                                                           \
  static zend_always_inline void zend_atomic_##name##_store(                  \
      zend_atomic_##name *obj, type desired) {                                \
    zend_atomic_##name##_store_ex(obj, desired);                              \
  }                                                                           \
  static zend_always_inline type zend_atomic_##name##_load(                   \
      const zend_atomic_##name *obj) {                                        \
    return zend_atomic_##name##_load_ex(obj);                                 \
  }                                                                           \
  static zend_always_inline type zend_atomic_##name##_exchange(               \
      zend_atomic_##name *obj, type desired) {                                \
    return zend_atomic_##name##_exchange_ex(obj, desired);                    \
  }                                                                           \
  static zend_always_inline bool zend_atomic_##name##_compare_exchange(       \
      zend_atomic_##name *obj, type *expected, type desired) {                \
    return zend_atomic_##name##_compare_exchange_ex(obj, expected, desired);  \
  }

ZEND_MOCK_ATOMIC_OPS(bool, bool)
ZEND_MOCK_ATOMIC_OPS(int, int)
ZEND_MOCK_ATOMIC_OPS(int64, int64_t)

/* Add/subtract `val`; return the value held before the operation. */
static zend_always_inline int zend_atomic_int_fetch_add(zend_atomic_int *obj,
                                                        int val) {
  return __atomic_fetch_add(&obj->value, val, ZEND_ATOMIC_SEQ);
}
static zend_always_inline int zend_atomic_int_fetch_sub(zend_atomic_int *obj,
                                                        int val) {
  return __atomic_fetch_sub(&obj->value, val, ZEND_ATOMIC_SEQ);
}
#define zend_atomic_int_inc(obj) zend_atomic_int_fetch_add((obj), 1)
#define zend_atomic_int_dec(obj) zend_atomic_int_fetch_sub((obj), 1)

/* Pointers. */
#define ZEND_ATOMIC_PTR_INIT(obj, desired) ((obj)->value = (desired))
#define ZEND_ATOMIC_PTR_INITIALIZER(desired) \
  { .value = (desired) }
ZEND_MOCK_ATOMIC_OPS(ptr, void *)

END_EXTERN_C()

#endif /* ZEND_ATOMIC_H */
