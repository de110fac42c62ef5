/*
 * zend-async-ref: mock Zend engine.
 *
 * Generators (Zend/zend_generators.h): PHP's zend_generator and
 * zend_generator_node layouts and flag values, so extension code that walks
 * a suspended call stack (a coroutine's GC handler looking for generator
 * frames) compiles as against PHP. The mock runs no PHP code, so no
 * generator ever exists: zend_ce_generator is NULL, and the functions that
 * would run or inspect one report an E_CORE_ERROR naming themselves and
 * return their failure value.
 */
#ifndef ZEND_GENERATORS_H
#define ZEND_GENERATORS_H

#include "zend.h"
#include "zend_execute.h"
#include "zend_gc.h"

BEGIN_EXTERN_C()

extern ZEND_API zend_class_entry *zend_ce_generator;

typedef struct _zend_generator_node zend_generator_node;
typedef struct _zend_generator zend_generator;

/* The "yield from" tree: a generator's parent (NULL for a root), its
 * children, and the cached root (no children) or leaf. */
struct _zend_generator_node {
  zend_generator *parent;
  uint32_t children;
  union {
    HashTable *ht;
    zend_generator *single;
  } child;
  union {
    zend_generator *leaf;
    zend_generator *root;
  } ptr;
};

struct _zend_generator {
  zend_object std;
  zend_execute_data *execute_data;
  zend_execute_data *frozen_call_stack;
  zval value;
  zval key;
  zval retval;
  zval *send_target;
  zend_long largest_used_integer_key;
  zval values;
  zend_generator_node node;
  zend_execute_data execute_fake;
  uint8_t flags;
};

static const zend_uchar ZEND_GENERATOR_CURRENTLY_RUNNING = 0x1;
static const zend_uchar ZEND_GENERATOR_FORCED_CLOSE = 0x2;
static const zend_uchar ZEND_GENERATOR_AT_FIRST_YIELD = 0x4;
static const zend_uchar ZEND_GENERATOR_DO_INIT = 0x8;
static const zend_uchar ZEND_GENERATOR_IN_FIBER = 0x10;

/* Fail loudly: the mock runs no generators. */
ZEND_API void zend_generator_close(zend_generator *generator,
                                   bool finished_execution);
ZEND_API void zend_generator_resume(zend_generator *generator);
/* The GC roots of a suspended generator's frame; NULL (no symbol table)
 * after the loud failure. */
ZEND_API HashTable *zend_generator_frame_gc(zend_get_gc_buffer *gc_buffer,
                                            zend_generator *generator);

END_EXTERN_C()

#endif /* ZEND_GENERATORS_H */
