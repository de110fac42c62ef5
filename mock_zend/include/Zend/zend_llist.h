/*
 * zend-async-ref: mock Zend engine. The doubly linked list type (PHP's
 * zend_llist.h), declared for the structures that embed one
 * (sapi_headers_struct). The mock keeps no SAPI headers, so it declares
 * the types only; no zend_llist_* function is provided.
 */
#ifndef ZEND_LLIST_H
#define ZEND_LLIST_H

#include "zend_portability.h"

typedef struct _zend_llist_element {
  struct _zend_llist_element *next;
  struct _zend_llist_element *prev;
  char data[1]; /* Needs to always be last in the struct */
} zend_llist_element;

typedef void (*llist_dtor_func_t)(void *);
typedef int (*llist_compare_func_t)(const zend_llist_element **,
                                    const zend_llist_element **);
typedef void (*llist_apply_with_args_func_t)(void *data, int num_args,
                                             va_list args);
typedef void (*llist_apply_with_arg_func_t)(void *data, void *arg);
typedef void (*llist_apply_func_t)(void *);

typedef struct _zend_llist {
  zend_llist_element *head;
  zend_llist_element *tail;
  size_t count;
  size_t size;
  llist_dtor_func_t dtor;
  unsigned char persistent;
  zend_llist_element *traverse_ptr;
} zend_llist;

typedef zend_llist_element *zend_llist_position;

#endif /* ZEND_LLIST_H */
