/*
 * HashTable positions and iterators used from C11. See hash_iterators_c.h.
 */
#include "hash_iterators_c.h"

#include "php.h"
#include "tests/support/c_check.h"

static HashTable* three_longs(void) {
  HashTable* ht = zend_new_array(0);
  for (zend_long i = 1; i <= 3; i++) {
    zval value;
    ZVAL_LONG(&value, i * 10);
    zend_hash_next_index_insert(ht, &value);
  }
  return ht;
}

int hash_iterators_c_positions_check(void) {
  HashTable* ht = three_longs();
  HashPosition pos;
  zend_long sum = 0;
  zend_hash_internal_pointer_reset_ex(ht, &pos);
  for (const zval* entry; (entry = zend_hash_get_current_data_ex(ht, &pos));
       zend_hash_move_forward_ex(ht, &pos)) {
    zend_string* str_key = NULL;
    zend_ulong num_key = 0;
    C_CHECK(zend_hash_get_current_key_ex(ht, &str_key, &num_key, &pos) ==
            HASH_KEY_IS_LONG);
    C_CHECK((zend_long)num_key * 10 + 10 == Z_LVAL_P(entry));
    sum += Z_LVAL_P(entry);
  }
  C_CHECK(sum == 60);
  C_CHECK(zend_hash_get_current_key_type_ex(ht, &pos) == HASH_KEY_NON_EXISTENT);

  zval* zv;
  zval key;
  zend_hash_internal_pointer_reset(ht);
  zend_hash_move_forward(ht);
  C_CHECK((zv = zend_hash_get_current_data(ht)) != NULL);
  C_CHECK(Z_LVAL_P(zv) == 20);
  zend_hash_get_current_key_zval(ht, &key);
  C_CHECK(Z_TYPE(key) == IS_LONG && Z_LVAL(key) == 1);
  zend_array_destroy(ht);
  return 0;
}

int hash_iterators_c_iterator_check(void) {
  zval array;
  ZVAL_ARR(&array, three_longs());
  HashPosition position = 0;
  zend_hash_internal_pointer_reset_ex(Z_ARRVAL(array), &position);
  uint32_t idx = zend_hash_iterator_add(Z_ARRVAL(array), position);
  C_CHECK(EG(ht_iterators)[idx].ht == Z_ARRVAL(array));

  /* iterator.c's step: reload, move, store back. */
  position = zend_hash_iterator_pos_ex(idx, &array);
  zend_hash_move_forward_ex(Z_ARRVAL(array), &position);
  EG(ht_iterators)[idx].pos = position;
  zend_hash_index_del(Z_ARRVAL(array), 1);
  position = zend_hash_iterator_pos(idx, Z_ARRVAL(array));
  C_CHECK(Z_LVAL_P(zend_hash_get_current_data_ex(Z_ARRVAL(array), &position)) ==
          30);
  zend_hash_iterator_del(idx);
  C_CHECK(EG(ht_iterators_used) == 0);
  zval_ptr_dtor(&array);
  return 0;
}

static void return_empty_array(zval* return_value) { RETURN_EMPTY_ARRAY(); }

int hash_iterators_c_helpers_check(void) {
  HashTable* ht = zend_new_array(0);
  C_CHECK(zend_hash_str_add_empty_element(ht, "ext", 3) != NULL);
  C_CHECK(zend_hash_index_add_empty_element(ht, 2) != NULL);
  zval value;
  ZVAL_LONG(&value, 7);
  C_CHECK(zend_hash_next_index_insert_new(ht, &value) ==
          zend_hash_index_find(ht, 3));
  zend_array_destroy(ht);

  HashTable functions;
  zend_hash_init(&functions, 8, NULL, NULL, 0);
  static int target;
  zend_hash_str_update_ptr(&functions, "lower", 5, &target);
  C_CHECK(zend_hash_str_find_ptr_lc(&functions, "LoWeR", 5) == &target);
  zend_hash_destroy(&functions);

  zval result;
  return_empty_array(&result);
  C_CHECK(Z_TYPE(result) == IS_ARRAY && Z_ARR(result) == &zend_empty_array);

  zval slot;
  ZVAL_INDIRECT(&slot, &value);
  C_CHECK(Z_INDIRECT_P(&slot) == &value);

  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  zend_get_gc_buffer_add_ht(buffer, Z_ARR(result));
  zval* table;
  int n;
  zend_get_gc_buffer_use(buffer, &table, &n);
  C_CHECK(n == 0);
  return 0;
}
