/*
 * HashTable positions and iterators used from C11, as php-async's
 * iterator.c, future.c and task_group.c use them. hash_iterators_test.cc
 * runs the checks; each returns 0 on success or the line of the first
 * failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_HASH_ITERATORS_C_H_
#define ZAR_TESTS_MOCK_ZEND_HASH_ITERATORS_C_H_

#ifdef __cplusplus
extern "C" {
#endif

/* A HashPosition walk (reset, data, key, move) and the _ex-less forms. */
int hash_iterators_c_positions_check(void);
/* zend_hash_iterator_add/_pos/_pos_ex/_del and EG(ht_iterators). */
int hash_iterators_c_iterator_check(void);
/* Empty elements, insert_new, _lc lookups, the empty array, indirect
 * zvals and zend_get_gc_buffer_add_ht. */
int hash_iterators_c_helpers_check(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_HASH_ITERATORS_C_H_ */
