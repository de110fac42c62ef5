/*
 * zend-async-ref: mock Zend engine.
 *
 * Ordered hash tables with integer and string keys, under PHP's names and
 * with PHP's semantics for the operations the ABI and its consumers use:
 * insertion-ordered iteration, deletion during iteration (a deleted slot is
 * skipped, never compacted while the table is being walked), a value
 * destructor called on delete/clean/destroy, refcounted arrays.
 *
 * Not implemented: packed arrays (every table is hashed), a
 * ZEND_HASH_FOREACH over a table that grows inside the loop (a registered
 * iterator, zend_hash_iterator_add, follows a growing table), persistence
 * of arrays across requests.
 */
#ifndef ZEND_HASH_H
#define ZEND_HASH_H

#include "zend_string.h"
#include "zend_types.h"

BEGIN_EXTERN_C()

#define HASH_FLAG_CONSISTENCY ((1 << 0) | (1 << 1))
#define HASH_FLAG_PACKED (1 << 2)
#define HASH_FLAG_UNINITIALIZED (1 << 3)
#define HASH_FLAG_STATIC_KEYS (1 << 4)
#define HASH_FLAG_PERSISTENT (1 << 7)

#define HT_MIN_SIZE 8

/* What zend_hash_get_current_key(_type)(_ex) report. */
typedef enum {
  HASH_KEY_IS_STRING = 1,
  HASH_KEY_IS_LONG,
  HASH_KEY_NON_EXISTENT
} zend_hash_key_type;

/* How many EG(ht_iterators) entries follow a table (u.v.nIteratorsCount);
 * 0xff means "too many to count": the table then never stops looking. */
#define HT_ITERATORS_COUNT(ht) (ht)->u.v.nIteratorsCount
#define HT_ITERATORS_OVERFLOW(ht) (HT_ITERATORS_COUNT(ht) == 0xff)
#define HT_HAS_ITERATORS(ht) (HT_ITERATORS_COUNT(ht) != 0)
#define HT_SET_ITERATORS_COUNT(ht, iters) \
  do {                                    \
    HT_ITERATORS_COUNT(ht) = (iters);     \
  } while (0)
#define HT_INC_ITERATORS_COUNT(ht) \
  HT_SET_ITERATORS_COUNT(ht, HT_ITERATORS_COUNT(ht) + 1)
#define HT_DEC_ITERATORS_COUNT(ht) \
  HT_SET_ITERATORS_COUNT(ht, HT_ITERATORS_COUNT(ht) - 1)

/* The immutable empty array: never refcounted, never freed. */
ZEND_API extern const HashTable zend_empty_array;
#define ZVAL_EMPTY_ARRAY(z)                         \
  do {                                              \
    zval *__z = (z);                                \
    Z_ARR_P(__z) = (zend_array *)&zend_empty_array; \
    Z_TYPE_INFO_P(__z) = IS_ARRAY;                  \
  } while (0)

#define zend_hash_num_elements(ht) (ht)->nNumOfElements
#define zend_hash_init(ht, nSize, pHashFunction, pDestructor, persistent) \
  _zend_hash_init((ht), (nSize), (pDestructor), (persistent))

ZEND_API void _zend_hash_init(HashTable *ht, uint32_t nSize,
                              dtor_func_t pDestructor, bool persistent);
ZEND_API void zend_hash_destroy(HashTable *ht);
ZEND_API void zend_hash_clean(HashTable *ht);

/* Arrays: refcounted tables whose values are zvals destroyed with
 * zval_ptr_dtor. zend_new_array() returns a table with refcount 1. */
ZEND_API HashTable *_zend_new_array(uint32_t size);
#define zend_new_array(size) _zend_new_array(size)
ZEND_API void zend_array_destroy(HashTable *ht);
ZEND_API HashTable *zend_array_dup(HashTable *source);
ZEND_API uint32_t zend_array_count(HashTable *ht);

static zend_always_inline void zend_array_release(zend_array *array) {
  if (!(GC_FLAGS(array) & IS_ARRAY_IMMUTABLE)) {
    if (GC_DELREF(array) == 0) {
      zend_array_destroy(array);
    }
  }
}

/* Integer keys. add* fails (returns NULL) when the key exists; update*
 * replaces (destroying the old value). The stored zval is a bitwise copy
 * of pData (ownership moves into the table). */
ZEND_API zval *zend_hash_index_add(HashTable *ht, zend_ulong h, zval *pData);
ZEND_API zval *zend_hash_index_add_new(HashTable *ht, zend_ulong h,
                                       zval *pData);
ZEND_API zval *zend_hash_index_update(HashTable *ht, zend_ulong h, zval *pData);
ZEND_API zval *zend_hash_index_find(const HashTable *ht, zend_ulong h);
ZEND_API zend_result zend_hash_index_del(HashTable *ht, zend_ulong h);
ZEND_API zval *zend_hash_next_index_insert(HashTable *ht, zval *pData);

/* String keys. The table keeps its own reference to the key. */
ZEND_API zval *zend_hash_add(HashTable *ht, zend_string *key, zval *pData);
ZEND_API zval *zend_hash_add_new(HashTable *ht, zend_string *key, zval *pData);
ZEND_API zval *zend_hash_update(HashTable *ht, zend_string *key, zval *pData);
ZEND_API zval *zend_hash_find(const HashTable *ht, zend_string *key);
ZEND_API zend_result zend_hash_del(HashTable *ht, zend_string *key);
ZEND_API zval *zend_hash_str_add(HashTable *ht, const char *key, size_t len,
                                 zval *pData);
ZEND_API zval *zend_hash_str_update(HashTable *ht, const char *key, size_t len,
                                    zval *pData);
ZEND_API zval *zend_hash_str_find(const HashTable *ht, const char *key,
                                  size_t len);
ZEND_API zend_result zend_hash_str_del(HashTable *ht, const char *key,
                                       size_t len);

static zend_always_inline bool zend_hash_index_exists(const HashTable *ht,
                                                      zend_ulong h) {
  return zend_hash_index_find(ht, h) != NULL;
}
static zend_always_inline bool zend_hash_exists(const HashTable *ht,
                                                zend_string *key) {
  return zend_hash_find(ht, key) != NULL;
}
static zend_always_inline bool zend_hash_str_exists(const HashTable *ht,
                                                    const char *str,
                                                    size_t len) {
  return zend_hash_str_find(ht, str, len) != NULL;
}

/* Pointer-valued helpers (values are IS_PTR zvals). */
static zend_always_inline void *zend_hash_index_add_ptr(HashTable *ht,
                                                        zend_ulong h,
                                                        void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_index_add(ht, h, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}
/* REQUIRES: `h` is not in the table (PHP asserts it; nothing checks). */
static zend_always_inline void *zend_hash_index_add_new_ptr(HashTable *ht,
                                                            zend_ulong h,
                                                            void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_index_add_new(ht, h, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_index_update_ptr(HashTable *ht,
                                                           zend_ulong h,
                                                           void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_index_update(ht, h, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_index_find_ptr(const HashTable *ht,
                                                         zend_ulong h) {
  zval *zv = zend_hash_index_find(ht, h);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_next_index_insert_ptr(HashTable *ht,
                                                                void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_next_index_insert(ht, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_add_ptr(HashTable *ht,
                                                  zend_string *key,
                                                  void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_add(ht, key, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}
/* REQUIRES: `key` is not in the table (PHP asserts it; nothing checks). */
static zend_always_inline void *zend_hash_add_new_ptr(HashTable *ht,
                                                      zend_string *key,
                                                      void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_add_new(ht, key, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_update_ptr(HashTable *ht,
                                                     zend_string *key,
                                                     void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_update(ht, key, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_find_ptr(const HashTable *ht,
                                                   zend_string *key) {
  zval *zv = zend_hash_find(ht, key);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_str_find_ptr(const HashTable *ht,
                                                       const char *str,
                                                       size_t len) {
  zval *zv = zend_hash_str_find(ht, str, len);
  return zv ? Z_PTR_P(zv) : NULL;
}
static zend_always_inline void *zend_hash_str_update_ptr(HashTable *ht,
                                                         const char *str,
                                                         size_t len,
                                                         void *pData) {
  zval tmp, *zv;
  ZVAL_PTR(&tmp, pData);
  zv = zend_hash_str_update(ht, str, len, &tmp);
  return zv ? Z_PTR_P(zv) : NULL;
}

/* What an apply callback returns (zend_hash_apply, spl_iterator_apply). */
#define ZEND_HASH_APPLY_KEEP 0
#define ZEND_HASH_APPLY_REMOVE 1 << 0
#define ZEND_HASH_APPLY_STOP 1 << 1

/* Elements whose value is NULL; NULL when the key exists (add semantics). */
ZEND_API zval *zend_hash_index_add_empty_element(HashTable *ht, zend_ulong h);
ZEND_API zval *zend_hash_add_empty_element(HashTable *ht, zend_string *key);
ZEND_API zval *zend_hash_str_add_empty_element(HashTable *ht, const char *key,
                                               size_t len);
/* Appends at nNextFreeElement; REQUIRES that key to be free (PHP asserts
 * it; nothing checks). */
ZEND_API zval *zend_hash_next_index_insert_new(HashTable *ht, zval *pData);

/* Case-insensitive pointer lookups: the key is lowercased (ASCII) before
 * the search, so the table's keys must be lowercase. */
ZEND_API void *zend_hash_str_find_ptr_lc(const HashTable *ht, const char *str,
                                         size_t len);
ZEND_API void *zend_hash_find_ptr_lc(const HashTable *ht, zend_string *key);

/* ---- Positions (HashPosition, zend_types.h) ----
 * A position names a bucket; a position on a deleted bucket stands for the
 * next live one, and a position at or past nNumUsed is the end. The
 * functions without _ex use the table's own ht->nInternalPointer. Keys
 * are borrowed (zend_hash_get_current_key_ex does not add a reference;
 * zend_hash_get_current_key_zval_ex does). */
ZEND_API HashPosition zend_hash_get_current_pos_ex(const HashTable *ht,
                                                   HashPosition pos);
ZEND_API HashPosition zend_hash_get_current_pos(const HashTable *ht);
ZEND_API zend_result zend_hash_move_forward_ex(const HashTable *ht,
                                               HashPosition *pos);
ZEND_API zend_result zend_hash_move_backwards_ex(const HashTable *ht,
                                                 HashPosition *pos);
ZEND_API zend_hash_key_type
zend_hash_get_current_key_ex(const HashTable *ht, zend_string **str_index,
                             zend_ulong *num_index, const HashPosition *pos);
ZEND_API void zend_hash_get_current_key_zval_ex(const HashTable *ht, zval *key,
                                                const HashPosition *pos);
ZEND_API zend_hash_key_type
zend_hash_get_current_key_type_ex(const HashTable *ht, const HashPosition *pos);
ZEND_API zval *zend_hash_get_current_data_ex(const HashTable *ht,
                                             const HashPosition *pos);
ZEND_API void zend_hash_internal_pointer_reset_ex(const HashTable *ht,
                                                  HashPosition *pos);
ZEND_API void zend_hash_internal_pointer_end_ex(const HashTable *ht,
                                                HashPosition *pos);

static zend_always_inline zend_result
zend_hash_has_more_elements_ex(const HashTable *ht, const HashPosition *pos) {
  return zend_hash_get_current_key_type_ex(ht, pos) == HASH_KEY_NON_EXISTENT
             ? FAILURE
             : SUCCESS;
}
static zend_always_inline zend_result
zend_hash_has_more_elements(const HashTable *ht) {
  return zend_hash_has_more_elements_ex(ht, &ht->nInternalPointer);
}
static zend_always_inline zend_result zend_hash_move_forward(HashTable *ht) {
  return zend_hash_move_forward_ex(ht, &ht->nInternalPointer);
}
static zend_always_inline zend_result zend_hash_move_backwards(HashTable *ht) {
  return zend_hash_move_backwards_ex(ht, &ht->nInternalPointer);
}
static zend_always_inline zend_hash_key_type zend_hash_get_current_key(
    const HashTable *ht, zend_string **str_index, zend_ulong *num_index) {
  return zend_hash_get_current_key_ex(ht, str_index, num_index,
                                      &ht->nInternalPointer);
}
static zend_always_inline void zend_hash_get_current_key_zval(
    const HashTable *ht, zval *key) {
  zend_hash_get_current_key_zval_ex(ht, key, &ht->nInternalPointer);
}
static zend_always_inline zend_hash_key_type
zend_hash_get_current_key_type(const HashTable *ht) {
  return zend_hash_get_current_key_type_ex(ht, &ht->nInternalPointer);
}
static zend_always_inline zval *zend_hash_get_current_data(
    const HashTable *ht) {
  return zend_hash_get_current_data_ex(ht, &ht->nInternalPointer);
}
static zend_always_inline void zend_hash_internal_pointer_reset(HashTable *ht) {
  zend_hash_internal_pointer_reset_ex(ht, &ht->nInternalPointer);
}
static zend_always_inline void zend_hash_internal_pointer_end(HashTable *ht) {
  zend_hash_internal_pointer_end_ex(ht, &ht->nInternalPointer);
}
static zend_always_inline void *zend_hash_get_current_data_ptr_ex(
    const HashTable *ht, const HashPosition *pos) {
  zval *zv = zend_hash_get_current_data_ex(ht, pos);
  return zv ? Z_PTR_P(zv) : NULL;
}
#define zend_hash_get_current_data_ptr(ht) \
  zend_hash_get_current_data_ptr_ex(ht, &(ht)->nInternalPointer)

/* ---- Iterators: positions the table keeps current (EG(ht_iterators)) ----
 * zend_hash_iterator_add() registers `pos` on `ht` and returns its index.
 * While registered, the position follows the table: deleting the element
 * it names moves it to the next live element (or the end), and the
 * compaction of a growing table moves it with its element. Destroying the
 * table detaches it; zend_hash_iterator_pos(idx, ht) then, or whenever the
 * iterator was last on another table, re-attaches it to `ht` at ht's
 * internal pointer, unless it has a copy on `ht` (zend_array_dup copies the
 * iterators of the table it duplicates). zend_hash_iterator_pos_ex() does
 * the same for the array in `array`, first separating it (a copy replaces
 * a shared array in the zval) so that the iterator owns what it follows.
 * zend_hash_iterator_del() releases the index (and its copies). Indexes
 * are per request; the array is freed when the request ends. */
ZEND_API uint32_t zend_hash_iterator_add(HashTable *ht, HashPosition pos);
ZEND_API HashPosition zend_hash_iterator_pos(uint32_t idx, HashTable *ht);
ZEND_API HashPosition zend_hash_iterator_pos_ex(uint32_t idx, zval *array);
ZEND_API void zend_hash_iterator_del(uint32_t idx);
/* The lowest position at or after `start` of an iterator of `ht`, or
 * ht->nNumUsed when there is none. */
ZEND_API HashPosition zend_hash_iterators_lower_pos(const HashTable *ht,
                                                    HashPosition start);
/* Moves every iterator of `ht` at `from` to `to`. */
ZEND_API void _zend_hash_iterators_update(const HashTable *ht,
                                          HashPosition from, HashPosition to);
/* Moves every iterator of `ht` `step` positions forward. */
ZEND_API void zend_hash_iterators_advance(const HashTable *ht,
                                          HashPosition step);
static zend_always_inline void zend_hash_iterators_update(const HashTable *ht,
                                                          HashPosition from,
                                                          HashPosition to) {
  if (UNEXPECTED(HT_HAS_ITERATORS(ht))) {
    _zend_hash_iterators_update(ht, from, to);
  }
}

/* Iteration in insertion order. Deleting the current element (or any
 * other) inside the loop is allowed; inserting is not. */
#define ZEND_HASH_FOREACH_FROM(_ht, indirect, _from)    \
  do {                                                  \
    const HashTable *__ht = (_ht);                      \
    Bucket *_p = __ht->arData + (_from);                \
    const Bucket *_end = __ht->arData + __ht->nNumUsed; \
    for (; _p != _end; _p++) {                          \
      zval *_z = &_p->val;                              \
      (void)_z;                                         \
      if (UNEXPECTED(Z_TYPE_P(_z) == IS_UNDEF)) continue;

#define ZEND_HASH_FOREACH(_ht, indirect) \
  ZEND_HASH_FOREACH_FROM(_ht, indirect, 0)

#define ZEND_HASH_REVERSE_FOREACH(_ht, indirect) \
  do {                                           \
    const HashTable *__ht = (_ht);               \
    uint32_t _idx = __ht->nNumUsed;              \
    Bucket *_p = __ht->arData + _idx;            \
    for (; _idx > 0; _idx--) {                   \
      zval *_z;                                  \
      _p--;                                      \
      _z = &_p->val;                             \
      (void)_z;                                  \
      if (UNEXPECTED(Z_TYPE_P(_z) == IS_UNDEF)) continue;

#define ZEND_HASH_FOREACH_END() \
  }                             \
  }                             \
  while (0)

#define ZEND_HASH_FOREACH_BUCKET(ht, _bucket) \
  ZEND_HASH_FOREACH(ht, 0);                   \
  _bucket = _p;
#define ZEND_HASH_FOREACH_VAL(ht, _val) \
  ZEND_HASH_FOREACH(ht, 0);             \
  _val = _z;
#define ZEND_HASH_FOREACH_PTR(ht, _ptr) \
  ZEND_HASH_FOREACH(ht, 0);             \
  _ptr = Z_PTR_P(_z);
#define ZEND_HASH_FOREACH_NUM_KEY(ht, _h) \
  ZEND_HASH_FOREACH(ht, 0);               \
  _h = _p->h;
#define ZEND_HASH_FOREACH_STR_KEY(ht, _key) \
  ZEND_HASH_FOREACH(ht, 0);                 \
  _key = _p->key;
#define ZEND_HASH_FOREACH_KEY(ht, _h, _key) \
  ZEND_HASH_FOREACH(ht, 0);                 \
  _h = _p->h;                               \
  _key = _p->key;
#define ZEND_HASH_FOREACH_NUM_KEY_VAL(ht, _h, _val) \
  ZEND_HASH_FOREACH(ht, 0);                         \
  _h = _p->h;                                       \
  _val = _z;
#define ZEND_HASH_FOREACH_STR_KEY_VAL(ht, _key, _val) \
  ZEND_HASH_FOREACH(ht, 0);                           \
  _key = _p->key;                                     \
  _val = _z;
#define ZEND_HASH_FOREACH_KEY_VAL(ht, _h, _key, _val) \
  ZEND_HASH_FOREACH(ht, 0);                           \
  _h = _p->h;                                         \
  _key = _p->key;                                     \
  _val = _z;
#define ZEND_HASH_FOREACH_NUM_KEY_PTR(ht, _h, _ptr) \
  ZEND_HASH_FOREACH(ht, 0);                         \
  _h = _p->h;                                       \
  _ptr = Z_PTR_P(_z);
#define ZEND_HASH_FOREACH_STR_KEY_PTR(ht, _key, _ptr) \
  ZEND_HASH_FOREACH(ht, 0);                           \
  _key = _p->key;                                     \
  _ptr = Z_PTR_P(_z);
#define ZEND_HASH_FOREACH_KEY_PTR(ht, _h, _key, _ptr) \
  ZEND_HASH_FOREACH(ht, 0);                           \
  _h = _p->h;                                         \
  _key = _p->key;                                     \
  _ptr = Z_PTR_P(_z);
#define ZEND_HASH_REVERSE_FOREACH_VAL(ht, _val) \
  ZEND_HASH_REVERSE_FOREACH(ht, 0);             \
  _val = _z;
#define ZEND_HASH_REVERSE_FOREACH_PTR(ht, _ptr) \
  ZEND_HASH_REVERSE_FOREACH(ht, 0);             \
  _ptr = Z_PTR_P(_z);

/* The PHP 8.2 packed-array spellings map onto the same walk. */
#define ZEND_HASH_MAP_FOREACH_VAL ZEND_HASH_FOREACH_VAL
#define ZEND_HASH_MAP_FOREACH_PTR ZEND_HASH_FOREACH_PTR
#define ZEND_HASH_MAP_FOREACH_STR_KEY_VAL ZEND_HASH_FOREACH_STR_KEY_VAL
#define ZEND_HASH_MAP_FOREACH_STR_KEY_PTR ZEND_HASH_FOREACH_STR_KEY_PTR
#define ZEND_HASH_MAP_FOREACH_BUCKET ZEND_HASH_FOREACH_BUCKET
#define ZEND_HASH_MAP_FOREACH_KEY_VAL ZEND_HASH_FOREACH_KEY_VAL
/* PHP walks a packed array's zvals; the mock has no packed arrays, and the
 * numeric key of each bucket is the index a packed walk reports. */
#define ZEND_HASH_PACKED_FOREACH_VAL ZEND_HASH_FOREACH_VAL
#define ZEND_HASH_PACKED_FOREACH_KEY_VAL(ht, _h, _val) \
  ZEND_HASH_FOREACH(ht, 0);                            \
  _h = _p->h;                                          \
  _val = _z;

/* A HashTable on the request allocator (initialise it with
 * zend_hash_init; destroy with zend_hash_destroy, then FREE_HASHTABLE). */
#define ALLOC_HASHTABLE(ht) (ht) = (HashTable *)emalloc(sizeof(HashTable))
#define FREE_HASHTABLE(ht) efree(ht)

END_EXTERN_C()

#endif /* ZEND_HASH_H */
