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

static zend_always_inline void zend_atomic_bool_init(zend_atomic_bool *obj,
                                                     bool desired) {
  __atomic_store_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}
static zend_always_inline void zend_atomic_bool_store(zend_atomic_bool *obj,
                                                      bool desired) {
  __atomic_store_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}
static zend_always_inline bool zend_atomic_bool_load(
    const zend_atomic_bool *obj) {
  return __atomic_load_n(&obj->value, ZEND_ATOMIC_SEQ);
}
static zend_always_inline bool zend_atomic_bool_exchange(zend_atomic_bool *obj,
                                                         bool desired) {
  return __atomic_exchange_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}

static zend_always_inline void zend_atomic_int_init(zend_atomic_int *obj,
                                                    int desired) {
  __atomic_store_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}
static zend_always_inline void zend_atomic_int_store(zend_atomic_int *obj,
                                                     int desired) {
  __atomic_store_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}
static zend_always_inline int zend_atomic_int_load(const zend_atomic_int *obj) {
  return __atomic_load_n(&obj->value, ZEND_ATOMIC_SEQ);
}
static zend_always_inline int zend_atomic_int_exchange(zend_atomic_int *obj,
                                                       int desired) {
  return __atomic_exchange_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}
/* Increment/decrement return the value held before the operation. */
static zend_always_inline int zend_atomic_int_inc(zend_atomic_int *obj) {
  return __atomic_fetch_add(&obj->value, 1, ZEND_ATOMIC_SEQ);
}
static zend_always_inline int zend_atomic_int_dec(zend_atomic_int *obj) {
  return __atomic_fetch_sub(&obj->value, 1, ZEND_ATOMIC_SEQ);
}

static zend_always_inline void zend_atomic_int64_store(zend_atomic_int64 *obj,
                                                       int64_t desired) {
  __atomic_store_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}
static zend_always_inline int64_t
zend_atomic_int64_load(const zend_atomic_int64 *obj) {
  return __atomic_load_n(&obj->value, ZEND_ATOMIC_SEQ);
}

static zend_always_inline void zend_atomic_ptr_store(zend_atomic_ptr *obj,
                                                     void *desired) {
  __atomic_store_n(&obj->value, desired, ZEND_ATOMIC_SEQ);
}
static zend_always_inline void *zend_atomic_ptr_load(
    const zend_atomic_ptr *obj) {
  return __atomic_load_n(&obj->value, ZEND_ATOMIC_SEQ);
}

END_EXTERN_C()

#endif /* ZEND_ATOMIC_H */
