/*
 * zend-async-ref: the internal coroutine context.
 *
 * C extensions keep per-coroutine values under numeric keys:
 *   1. once, an extension allocates a key for a static C string
 *      (zend_async_internal_context_key_alloc); the same string ADDRESS
 *      always gets the same key, another address with the same text gets a
 *      new one;
 *   2. it then finds/sets/unsets values of a coroutine under that key;
 *   3. the values die with the coroutine
 *      (zend_async_coroutine_internal_context_dispose).
 *
 * The key table is process-wide and persistent: it maps key -> name
 * pointer (IS_PTR, not owned). Keys are allocated sequentially from 1.
 * Values live in a per-coroutine request array created on first set.
 *
 * Threading: no ZTS support; the table is used from the main thread only.
 */
#include "zend_async_API.h"

/* key (1, 2, ...) -> const char* name; NULL outside the engine's life. */
static HashTable *context_key_names = NULL;

ZEND_API void zend_async_init_internal_context_api(void) {
  if (context_key_names != NULL) {
    return;
  }
  context_key_names = (HashTable *)pemalloc(sizeof(HashTable), 1);
  /* No destructor: the names belong to the extensions. */
  zend_hash_init(context_key_names, 8, NULL, NULL, 1);
}

ZEND_API void zend_async_internal_context_api_shutdown(void) {
  if (context_key_names == NULL) {
    return;
  }
  zend_hash_destroy(context_key_names);
  pefree(context_key_names, 1);
  context_key_names = NULL;
}

ZEND_API uint32_t zend_async_internal_context_key_alloc(const char *key_name) {
  zend_ulong existing_key;
  const char *existing_name;

  if (UNEXPECTED(context_key_names == NULL)) {
    zend_async_init_internal_context_api();
  }

  ZEND_HASH_FOREACH_NUM_KEY_PTR(context_key_names, existing_key,
                                existing_name) {
    if (existing_name == key_name) {
      return (uint32_t)existing_key;
    }
  }
  ZEND_HASH_FOREACH_END();

  const uint32_t key = zend_hash_num_elements(context_key_names) + 1;
  zend_hash_index_add_ptr(context_key_names, key, (void *)key_name);
  return key;
}

ZEND_API const char *zend_async_internal_context_key_name(uint32_t key) {
  if (context_key_names == NULL) {
    return NULL;
  }
  return (const char *)zend_hash_index_find_ptr(context_key_names, key);
}

ZEND_API zval *zend_async_internal_context_find(zend_coroutine_t *coroutine,
                                                uint32_t key) {
  if (coroutine == NULL || coroutine->internal_context == NULL) {
    return NULL;
  }
  return zend_hash_index_find(coroutine->internal_context, key);
}

ZEND_API bool zend_async_internal_context_set(zend_coroutine_t *coroutine,
                                              uint32_t key, zval *value) {
  zval copy;

  if (coroutine == NULL) {
    return false;
  }

  if (coroutine->internal_context == NULL) {
    coroutine->internal_context = zend_new_array(0);
  }

  /* The context holds its own reference; the caller keeps `value`. */
  ZVAL_COPY(&copy, value);
  zend_hash_index_update(coroutine->internal_context, key, &copy);
  return true;
}

ZEND_API bool zend_async_internal_context_unset(zend_coroutine_t *coroutine,
                                                uint32_t key) {
  if (coroutine == NULL || coroutine->internal_context == NULL) {
    return false;
  }
  return zend_hash_index_del(coroutine->internal_context, key) == SUCCESS;
}

ZEND_API void zend_async_coroutine_internal_context_init(
    zend_coroutine_t *coroutine) {
  coroutine->internal_context = NULL;
}

ZEND_API void zend_async_coroutine_internal_context_dispose(
    zend_coroutine_t *coroutine) {
  if (coroutine->internal_context != NULL) {
    zend_array_release(coroutine->internal_context);
    coroutine->internal_context = NULL;
  }
}
