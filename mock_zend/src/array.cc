// zend-async-ref: mock Zend engine. Arrays: refcounted hash tables of zvals
// (zend_hash.h) and the array-building API of zend_API.h.
//
// An array made by zend_new_array() is an emalloc'd HashTable with refcount
// 1 whose values are destroyed with zval_ptr_dtor. The immutable empty
// array is a static, never refcounted table (zvals of it have type info
// IS_ARRAY without the refcounted flag), like PHP's zend_empty_array.

#include "engine_internal.h"

namespace {

HashTable MakeImmutableEmptyArray() {
  HashTable ht;
  _zend_hash_init(&ht, 0, nullptr, true);
  GC_SET_REFCOUNT(&ht, 2);
  GC_TYPE_INFO(&ht) =
      IS_ARRAY | GC_IMMUTABLE | GC_PERSISTENT | GC_NOT_COLLECTABLE;
  return ht;
}

HashTable* ArrayOf(zval* arg) { return Z_ARRVAL_P(arg); }

}  // namespace

extern "C" {

const HashTable zend_empty_array = MakeImmutableEmptyArray();

}  // extern "C"

namespace mock_zend::internal {

void ZvalEmptyArray(zval* out) { ZVAL_EMPTY_ARRAY(out); }

HashTable* NewEngineTable(uint32_t size) {
  auto* table = static_cast<HashTable*>(__zend_malloc(sizeof(HashTable)));
  zend_hash_init(table, size, nullptr, nullptr, true);
  return table;
}

void FreeEngineTable(HashTable*& table) {
  if (table == nullptr) return;
  zend_hash_destroy(table);
  pefree(table, 1);
  table = nullptr;
}

}  // namespace mock_zend::internal

extern "C" {

HashTable* _zend_new_array(uint32_t size) {
  auto* ht = static_cast<HashTable*>(emalloc(sizeof(HashTable)));
  _zend_hash_init(ht, size, ZVAL_PTR_DTOR, false);
  return ht;
}

void zend_array_destroy(HashTable* ht) {
  if (GC_FLAGS(ht) & IS_ARRAY_IMMUTABLE) return;
  zend_hash_destroy(ht);
  pefree(ht, (GC_FLAGS(ht) & GC_PERSISTENT) != 0);
}

HashTable* zend_array_dup(HashTable* source) {
  HashTable* copy = zend_new_array(source->nNumOfElements);
  Bucket* p;
  ZEND_HASH_FOREACH_BUCKET(source, p) {
    zval value;
    ZVAL_COPY(&value, &p->val);
    if (p->key != nullptr) {
      zend_hash_add_new(copy, p->key, &value);
    } else {
      zend_hash_index_add_new(copy, p->h, &value);
    }
  }
  ZEND_HASH_FOREACH_END();
  copy->nNextFreeElement = source->nNextFreeElement;
  mock_zend::internal::CopyHashIterators(source, copy);
  return copy;
}

uint32_t zend_array_count(HashTable* ht) { return zend_hash_num_elements(ht); }

void array_init(zval* arg) { ZVAL_ARR(arg, zend_new_array(0)); }

void array_init_size(zval* arg, uint32_t size) {
  ZVAL_ARR(arg, zend_new_array(size));
}

void add_next_index_zval(zval* arg, zval* value) {
  zend_hash_next_index_insert(ArrayOf(arg), value);
}

void add_next_index_long(zval* arg, zend_long n) {
  zval tmp;
  ZVAL_LONG(&tmp, n);
  add_next_index_zval(arg, &tmp);
}

void add_next_index_null(zval* arg) {
  zval tmp;
  ZVAL_NULL(&tmp);
  add_next_index_zval(arg, &tmp);
}

void add_next_index_bool(zval* arg, bool b) {
  zval tmp;
  ZVAL_BOOL(&tmp, b);
  add_next_index_zval(arg, &tmp);
}

void add_next_index_double(zval* arg, double d) {
  zval tmp;
  ZVAL_DOUBLE(&tmp, d);
  add_next_index_zval(arg, &tmp);
}

void add_next_index_str(zval* arg, zend_string* str) {
  zval tmp;
  ZVAL_STR(&tmp, str);
  add_next_index_zval(arg, &tmp);
}

void add_next_index_string(zval* arg, const char* str) {
  zval tmp;
  ZVAL_STRING(&tmp, str);
  add_next_index_zval(arg, &tmp);
}

void add_next_index_stringl(zval* arg, const char* str, size_t length) {
  zval tmp;
  ZVAL_STRINGL(&tmp, str, length);
  add_next_index_zval(arg, &tmp);
}

zend_result add_next_index_object(zval* arg, zend_object* obj) {
  zval tmp;
  ZVAL_OBJ(&tmp, obj);
  return zend_hash_next_index_insert(ArrayOf(arg), &tmp) != nullptr ? SUCCESS
                                                                    : FAILURE;
}

void add_index_zval(zval* arg, zend_ulong index, zval* value) {
  zend_hash_index_update(ArrayOf(arg), index, value);
}

void add_index_long(zval* arg, zend_ulong index, zend_long n) {
  zval tmp;
  ZVAL_LONG(&tmp, n);
  add_index_zval(arg, index, &tmp);
}

void add_index_str(zval* arg, zend_ulong index, zend_string* str) {
  zval tmp;
  ZVAL_STR(&tmp, str);
  add_index_zval(arg, index, &tmp);
}

void add_assoc_zval_ex(zval* arg, const char* key, size_t key_len,
                       zval* value) {
  zend_hash_str_update(ArrayOf(arg), key, key_len, value);
}

void add_assoc_long_ex(zval* arg, const char* key, size_t key_len,
                       zend_long n) {
  zval tmp;
  ZVAL_LONG(&tmp, n);
  add_assoc_zval_ex(arg, key, key_len, &tmp);
}

void add_assoc_bool_ex(zval* arg, const char* key, size_t key_len, bool b) {
  zval tmp;
  ZVAL_BOOL(&tmp, b);
  add_assoc_zval_ex(arg, key, key_len, &tmp);
}

void add_assoc_null_ex(zval* arg, const char* key, size_t key_len) {
  zval tmp;
  ZVAL_NULL(&tmp);
  add_assoc_zval_ex(arg, key, key_len, &tmp);
}

void add_assoc_str_ex(zval* arg, const char* key, size_t key_len,
                      zend_string* str) {
  zval tmp;
  ZVAL_STR(&tmp, str);
  add_assoc_zval_ex(arg, key, key_len, &tmp);
}

void add_assoc_string_ex(zval* arg, const char* key, size_t key_len,
                         const char* str) {
  zval tmp;
  ZVAL_STRING(&tmp, str);
  add_assoc_zval_ex(arg, key, key_len, &tmp);
}

void add_assoc_double_ex(zval* arg, const char* key, size_t key_len, double d) {
  zval tmp;
  ZVAL_DOUBLE(&tmp, d);
  add_assoc_zval_ex(arg, key, key_len, &tmp);
}

void add_assoc_stringl_ex(zval* arg, const char* key, size_t key_len,
                          const char* str, size_t length) {
  zval tmp;
  ZVAL_STRINGL(&tmp, str, length);
  add_assoc_zval_ex(arg, key, key_len, &tmp);
}

}  // extern "C"
