/*
 * zend-async-ref pdo_sim: the per-connection prepared-statement cache
 * (pdo_pool.h).
 *
 * A HashTable keeps insertion order, so its first live bucket is the least
 * recently used entry and its last the most recently used: lookup moves
 * an entry to the end (delete + add), insert evicts the first when full.
 * The table has no destructor: the cache owns its entries explicitly, so
 * moving one does not free it.
 */
#include "pdo_pool.h"

struct _pdo_pool_stmt_cache {
  HashTable entries; /* nsql -> pdo_pool_stmt_cache_entry_t*, LRU first */
  uint32_t capacity; /* > 0 */
};

pdo_pool_stmt_cache_t *pdo_pool_stmt_cache_create(uint32_t capacity) {
  if (capacity == 0) return NULL;
  pdo_pool_stmt_cache_t *cache = emalloc(sizeof(*cache));
  cache->capacity = capacity;
  zend_hash_init(&cache->entries, capacity, NULL, NULL, 0);
  return cache;
}

void pdo_pool_stmt_cache_entry_free(pdo_pool_stmt_cache_entry_t *entry) {
  if (entry == NULL) return;
  if (entry->nsql != NULL) zend_string_release(entry->nsql);
  if (entry->server_stmt_name != NULL) efree(entry->server_stmt_name);
  if (entry->driver_data != NULL && entry->driver_data_dtor != NULL) {
    entry->driver_data_dtor(entry->driver_data);
  }
  efree(entry);
}

void pdo_pool_stmt_cache_destroy(pdo_pool_stmt_cache_t *cache) {
  if (cache == NULL) return;
  pdo_pool_stmt_cache_entry_t *entry;
  ZEND_HASH_FOREACH_PTR(&cache->entries, entry) {
    pdo_pool_stmt_cache_entry_free(entry);
  }
  ZEND_HASH_FOREACH_END();
  zend_hash_destroy(&cache->entries);
  efree(cache);
}

pdo_pool_stmt_cache_entry_t *pdo_pool_stmt_cache_lookup(
    pdo_pool_stmt_cache_t *cache, zend_string *nsql) {
  if (cache == NULL) return NULL;
  pdo_pool_stmt_cache_entry_t *entry =
      zend_hash_find_ptr(&cache->entries, nsql);
  if (entry == NULL) return NULL;
  zend_hash_del(&cache->entries, nsql);
  zend_hash_add_ptr(&cache->entries, entry->nsql, entry);
  return entry;
}

pdo_pool_stmt_cache_entry_t *pdo_pool_stmt_cache_insert(
    pdo_pool_stmt_cache_t *cache, zend_string *nsql,
    pdo_pool_stmt_cache_entry_t **evicted_out) {
  *evicted_out = NULL;
  if (cache == NULL) return NULL;
  if (zend_hash_num_elements(&cache->entries) >= cache->capacity) {
    pdo_pool_stmt_cache_entry_t *oldest = NULL;
    ZEND_HASH_FOREACH_PTR(&cache->entries, oldest) { break; }
    ZEND_HASH_FOREACH_END();
    if (oldest != NULL) {
      zend_hash_del(&cache->entries, oldest->nsql);
      *evicted_out = oldest;
    }
  }
  pdo_pool_stmt_cache_entry_t *entry = ecalloc(1, sizeof(*entry));
  entry->nsql = zend_string_copy(nsql);
  zend_hash_add_ptr(&cache->entries, entry->nsql, entry);
  return entry;
}

pdo_pool_stmt_cache_entry_t *pdo_pool_stmt_cache_take(
    pdo_pool_stmt_cache_t *cache, zend_string *nsql) {
  if (cache == NULL) return NULL;
  pdo_pool_stmt_cache_entry_t *entry =
      zend_hash_find_ptr(&cache->entries, nsql);
  if (entry != NULL) zend_hash_del(&cache->entries, nsql);
  return entry;
}

uint32_t pdo_pool_stmt_cache_size(const pdo_pool_stmt_cache_t *cache) {
  return cache != NULL ? zend_hash_num_elements(&cache->entries) : 0;
}

uint32_t pdo_pool_stmt_cache_capacity(const pdo_pool_stmt_cache_t *cache) {
  return cache != NULL ? cache->capacity : 0;
}
