/*
 * Object iterators used from C11. See object_iterators_c.h.
 */
#include "object_iterators_c.h"

#include "ext/spl/spl_iterators.h"
#include "php.h"
#include "tests/support/c_check.h"

typedef struct {
  zend_object_iterator it;
  zend_long remaining;
  zval current;
} countdown_iterator_t;

static void countdown_dtor(zend_object_iterator* iter) {
  countdown_iterator_t* iterator = (countdown_iterator_t*)iter;
  zval_ptr_dtor(&iterator->current);
  zval_ptr_dtor(&iter->data);
}

static zend_result countdown_valid(zend_object_iterator* iter) {
  return ((countdown_iterator_t*)iter)->remaining > 0 ? SUCCESS : FAILURE;
}

static zval* countdown_get_current_data(zend_object_iterator* iter) {
  countdown_iterator_t* iterator = (countdown_iterator_t*)iter;
  ZVAL_LONG(&iterator->current, iterator->remaining);
  return &iterator->current;
}

static void countdown_get_current_key(zend_object_iterator* iter, zval* key) {
  (void)iter;
  ZVAL_NULL(key);
}

static void countdown_move_forward(zend_object_iterator* iter) {
  ((countdown_iterator_t*)iter)->remaining--;
}

static const zend_object_iterator_funcs countdown_iterator_funcs = {
    .dtor = countdown_dtor,
    .valid = countdown_valid,
    .get_current_data = countdown_get_current_data,
    .get_current_key = countdown_get_current_key,
    .move_forward = countdown_move_forward,
};

static zend_object_iterator* countdown_get_iterator(zend_class_entry* ce,
                                                    zval* object, int by_ref) {
  (void)ce;
  if (by_ref) {
    zend_throw_error(NULL, "Cannot iterate Countdown by reference");
    return NULL;
  }
  countdown_iterator_t* iterator = ecalloc(1, sizeof(countdown_iterator_t));
  zend_iterator_init(&iterator->it);
  iterator->it.funcs = &countdown_iterator_funcs;
  ZVAL_COPY(&iterator->it.data, object);
  ZVAL_UNDEF(&iterator->current);
  iterator->remaining = 3;
  return &iterator->it;
}

static int sum_values(zend_object_iterator* iter, void* puser) {
  *(zend_long*)puser += Z_LVAL_P(iter->funcs->get_current_data(iter));
  return ZEND_HASH_APPLY_KEEP;
}

int object_iterators_c_check(void) {
  zend_class_entry* ce =
      zend_hash_str_find_ptr(EG(class_table), "ccountdown", 10);
  if (ce == NULL) {
    zend_class_entry entry;
    INIT_CLASS_ENTRY(entry, "CCountdown", NULL);
    ce = zend_register_internal_class_ex(&entry, NULL);
    zend_class_implements(ce, 1, zend_ce_aggregate);
    C_CHECK(ce->get_iterator == zend_user_it_get_new_iterator);
    ce->get_iterator = countdown_get_iterator;
  }

  zval object;
  object_init_ex(&object, ce);
  zend_object_iterator* iter = ce->get_iterator(ce, &object, 0);
  C_CHECK(iter != NULL && iter->index == 0);
  C_CHECK(iter->funcs->valid(iter) == SUCCESS);
  C_CHECK(Z_OBJ(iter->data) == Z_OBJ(object));
  zend_iterator_dtor(iter);

  zend_long sum = 0;
  C_CHECK(spl_iterator_apply(&object, sum_values, &sum) == SUCCESS);
  C_CHECK(sum == 6);

  C_CHECK(ce->get_iterator(ce, &object, 1) == NULL);
  C_CHECK(EG(exception) != NULL);
  zend_clear_exception();
  zval_ptr_dtor(&object);
  return 0;
}
