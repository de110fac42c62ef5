// zend-async-ref: mock Zend engine. The ordered hash table (zend_hash.h).
//
// Layout (PHP's hashed layout): one allocation holds nHashSize uint32 hash
// slots followed by nTableSize Buckets; arData points at the first Bucket
// and the slots sit at negative indexes, slot(h) = arHash[(int32)(h |
// nTableMask)] with nTableMask = -nHashSize and nHashSize = 2 * nTableSize.
// A slot holds the index of the newest bucket of its chain; buckets chain
// through val.u2.next; HT_INVALID_IDX ends a chain.
//
// Order: arData[0, nNumUsed) in insertion order. Deleting a bucket unlinks
// it from its chain and leaves it IS_UNDEF in place: nothing moves, so a
// ZEND_HASH_FOREACH that deletes as it goes stays valid. Holes are only
// squeezed out when an insert finds the table full (rehash in place when
// enough holes, otherwise double and copy).
//
// An empty table owns no memory: until the first insert it points at a
// shared, read-only pair of empty slots (HASH_FLAG_UNINITIALIZED).
//
// Cursors: positions that follow a table as it changes -- its internal
// pointer and the registered iterators of EG(ht_iterators)
// (hash_iterators.cc). Deleting the bucket a cursor names moves the cursor
// to the next live bucket (or nNumUsed, the end); squeezing holes out moves
// each cursor with its bucket (internal::HashIteratorsCompact).

#include "engine_internal.h"

namespace {

constexpr uint32_t kMaxSize = 0x40000000;

// Two empty slots shared by every uninitialized table; never written.
const uint32_t kUninitializedSlots[2] = {HT_INVALID_IDX, HT_INVALID_IDX};

enum class InsertMode { kAdd, kAddNew, kUpdate };

uint32_t& Slot(const HashTable* ht, zend_ulong h) {
  const uint32_t n_index = static_cast<uint32_t>(h) | ht->nTableMask;
  return ht->arHash[static_cast<int32_t>(n_index)];
}

bool IsPersistent(const HashTable* ht) {
  return (ht->u.flags & HASH_FLAG_PERSISTENT) != 0;
}

bool IsUninitialized(const HashTable* ht) {
  return (ht->u.flags & HASH_FLAG_UNINITIALIZED) != 0;
}

void SetUninitialized(HashTable* ht) {
  ht->u.flags |= HASH_FLAG_UNINITIALIZED;
  ht->nTableMask = HT_MIN_MASK;
  ht->arHash = const_cast<uint32_t*>(&kUninitializedSlots[2]);
}

uint32_t RoundTableSize(uint32_t size) {
  if (size <= HT_MIN_SIZE) return HT_MIN_SIZE;
  if (size >= kMaxSize) {
    fprintf(stderr,
            "Possible integer overflow in memory allocation (%u * %zu + %zu)\n",
            size, sizeof(Bucket), static_cast<size_t>(0));
    abort();
  }
  uint32_t rounded = HT_MIN_SIZE;
  while (rounded < size) rounded <<= 1;
  return rounded;
}

// Allocates the slots and buckets for `size` buckets; slots are empty.
Bucket* AllocateData(uint32_t size, bool persistent) {
  const uint32_t hash_size = size * 2;
  const size_t bytes =
      hash_size * sizeof(uint32_t) + static_cast<size_t>(size) * sizeof(Bucket);
  char* memory = static_cast<char*>(pemalloc(bytes, persistent));
  memset(memory, 0xff, hash_size * sizeof(uint32_t));
  return reinterpret_cast<Bucket*>(memory + hash_size * sizeof(uint32_t));
}

void FreeData(HashTable* ht) {
  if (IsUninitialized(ht)) return;
  pefree(HT_GET_DATA_ADDR(ht), IsPersistent(ht));
}

void LinkBucket(HashTable* ht, uint32_t idx) {
  Bucket* p = ht->arData + idx;
  uint32_t& slot = Slot(ht, p->h);
  p->val.u2.next = slot;
  slot = idx;
}

void RebuildChains(HashTable* ht) {
  memset(HT_GET_DATA_ADDR(ht), 0xff, HT_HASH_SIZE(ht->nTableMask));
  for (uint32_t i = 0; i < ht->nNumUsed; i++) LinkBucket(ht, i);
}

[[gnu::noinline]] void Initialize(HashTable* ht) {
  ht->arData = AllocateData(ht->nTableSize, IsPersistent(ht));
  ht->nTableMask = HT_SIZE_TO_MASK(ht->nTableSize);
  ht->u.flags &= ~HASH_FLAG_UNINITIALIZED;
}

// The live bucket at `idx` is being deleted: its cursors move on.
[[gnu::noinline]] void SkipDeletedCursors(HashTable* ht, uint32_t idx) {
  uint32_t next = idx + 1;
  while (next < ht->nNumUsed && Z_TYPE(ht->arData[next].val) == IS_UNDEF) {
    next++;
  }
  if (ht->nInternalPointer == idx) ht->nInternalPointer = next;
  zend_hash_iterators_update(ht, idx, next);
}

// Makes room for one more bucket: squeezes holes out in place when at least
// 1/32 of the used buckets are holes, otherwise doubles the table.
[[gnu::noinline]] void Grow(HashTable* ht) {
  mock_zend::internal::HashIteratorsCompact(ht);
  if (ht->nNumUsed > ht->nNumOfElements + (ht->nNumOfElements >> 5)) {
    uint32_t j = 0;
    for (uint32_t i = 0; i < ht->nNumUsed; i++) {
      if (Z_TYPE(ht->arData[i].val) == IS_UNDEF) continue;
      if (i != j) ht->arData[j] = ht->arData[i];
      j++;
    }
    ht->nNumUsed = j;
  } else {
    const uint32_t new_size = RoundTableSize(ht->nTableSize * 2);
    Bucket* data = AllocateData(new_size, IsPersistent(ht));
    uint32_t j = 0;
    for (uint32_t i = 0; i < ht->nNumUsed; i++) {
      if (Z_TYPE(ht->arData[i].val) != IS_UNDEF) data[j++] = ht->arData[i];
    }
    FreeData(ht);
    ht->arData = data;
    ht->nTableSize = new_size;
    ht->nTableMask = HT_SIZE_TO_MASK(new_size);
    ht->nNumUsed = j;
  }
  RebuildChains(ht);
}

Bucket* FindKey(const HashTable* ht, zend_string* key, zend_ulong h) {
  uint32_t idx = Slot(ht, h);
  while (idx != HT_INVALID_IDX) {
    Bucket* p = ht->arData + idx;
    if (p->key == key) return p;
    if (p->h == h && p->key != nullptr && zend_string_equal_val(p->key, key)) {
      return p;
    }
    idx = p->val.u2.next;
  }
  return nullptr;
}

Bucket* FindStr(const HashTable* ht, const char* str, size_t len,
                zend_ulong h) {
  uint32_t idx = Slot(ht, h);
  while (idx != HT_INVALID_IDX) {
    Bucket* p = ht->arData + idx;
    if (p->h == h && p->key != nullptr && ZSTR_LEN(p->key) == len &&
        memcmp(ZSTR_VAL(p->key), str, len) == 0) {
      return p;
    }
    idx = p->val.u2.next;
  }
  return nullptr;
}

Bucket* FindIndex(const HashTable* ht, zend_ulong h) {
  uint32_t idx = Slot(ht, h);
  while (idx != HT_INVALID_IDX) {
    Bucket* p = ht->arData + idx;
    if (p->h == h && p->key == nullptr) return p;
    idx = p->val.u2.next;
  }
  return nullptr;
}

// Replaces the value of an existing bucket; the old value is destroyed
// after the new one is in place.
zval* Replace(HashTable* ht, Bucket* p, zval* pData) {
  zval old;
  ZVAL_COPY_VALUE(&old, &p->val);
  ZVAL_COPY_VALUE(&p->val, pData);
  if (ht->pDestructor != nullptr) ht->pDestructor(&old);
  return &p->val;
}

// Appends a new bucket. `key` (may be NULL) is stored as given: the caller
// has already taken the table's reference to it.
//
// Append, InsertIndex, DeleteBucket and DeleteAt are forced inline into the
// exported functions, and Initialize and Grow kept out of line: a waker's
// events table gets an index insert and a clean at nearly every suspension
// of a coroutine, so these paths stay free of calls and stack frames.
[[gnu::always_inline]] inline zval* Append(HashTable* ht, zend_string* key,
                                           zend_ulong h, zval* pData) {
  if (UNEXPECTED(ht->nNumUsed >= ht->nTableSize)) Grow(ht);
  const uint32_t idx = ht->nNumUsed++;
  ht->nNumOfElements++;
  Bucket* p = ht->arData + idx;
  p->key = key;
  p->h = h;
  ZVAL_COPY_VALUE(&p->val, pData);
  LinkBucket(ht, idx);
  if (key == nullptr && static_cast<zend_long>(h) >= ht->nNextFreeElement) {
    ht->nNextFreeElement = static_cast<zend_long>(h) < ZEND_LONG_MAX
                               ? static_cast<zend_long>(h) + 1
                               : ZEND_LONG_MAX;
  }
  return &p->val;
}

zval* InsertKey(HashTable* ht, zend_string* key, zval* pData, InsertMode mode) {
  const zend_ulong h = zend_string_hash_val(key);
  if (IsUninitialized(ht)) {
    Initialize(ht);
  } else if (mode != InsertMode::kAddNew) {
    if (Bucket* p = FindKey(ht, key, h)) {
      return mode == InsertMode::kAdd ? nullptr : Replace(ht, p, pData);
    }
  }
  return Append(ht, zend_string_copy(key), h, pData);
}

zval* InsertStr(HashTable* ht, const char* str, size_t len, zval* pData,
                InsertMode mode) {
  const zend_ulong h = zend_hash_func(str, len);
  if (IsUninitialized(ht)) {
    Initialize(ht);
  } else if (Bucket* p = FindStr(ht, str, len, h)) {
    return mode == InsertMode::kAdd ? nullptr : Replace(ht, p, pData);
  }
  zend_string* key = zend_string_init(str, len, IsPersistent(ht));
  ZSTR_H(key) = h;
  return Append(ht, key, h, pData);
}

[[gnu::always_inline]] inline zval* InsertIndex(HashTable* ht, zend_ulong h,
                                                zval* pData, InsertMode mode) {
  if (UNEXPECTED(IsUninitialized(ht))) {
    Initialize(ht);
  } else if (mode != InsertMode::kAddNew) {
    if (Bucket* p = FindIndex(ht, h)) {
      return mode == InsertMode::kAdd ? nullptr : Replace(ht, p, pData);
    }
  }
  return Append(ht, nullptr, h, pData);
}

// Unlinks `p` (whose chain predecessor is `prev`, or NULL when `p` heads
// its chain), marks it IS_UNDEF and then destroys its key and value, so a
// destructor that reenters the table sees it already gone.
[[gnu::always_inline]] inline void DeleteBucket(HashTable* ht, Bucket* p,
                                                Bucket* prev) {
  if (prev != nullptr) {
    prev->val.u2.next = p->val.u2.next;
  } else {
    Slot(ht, p->h) = p->val.u2.next;
  }
  ht->nNumOfElements--;
  const auto idx = static_cast<uint32_t>(p - ht->arData);
  if (UNEXPECTED(ht->nInternalPointer == idx || HT_HAS_ITERATORS(ht))) {
    SkipDeletedCursors(ht, idx);
  }
  zend_string* key = p->key;
  p->key = nullptr;
  zval old;
  ZVAL_COPY_VALUE(&old, &p->val);
  ZVAL_UNDEF(&p->val);
  if (key != nullptr) zend_string_release(key);
  if (ht->pDestructor != nullptr) ht->pDestructor(&old);
}

// Deletes the live bucket at `idx`, finding its chain predecessor.
[[gnu::always_inline]] inline void DeleteAt(HashTable* ht, uint32_t idx) {
  Bucket* target = ht->arData + idx;
  Bucket* prev = nullptr;
  uint32_t i = Slot(ht, target->h);
  while (i != idx) {
    prev = ht->arData + i;
    i = prev->val.u2.next;
  }
  DeleteBucket(ht, target, prev);
}

template <typename Match>
zend_result DeleteMatching(HashTable* ht, zend_ulong h, Match match) {
  Bucket* prev = nullptr;
  uint32_t idx = Slot(ht, h);
  while (idx != HT_INVALID_IDX) {
    Bucket* p = ht->arData + idx;
    if (match(p)) {
      DeleteBucket(ht, p, prev);
      return SUCCESS;
    }
    prev = p;
    idx = p->val.u2.next;
  }
  return FAILURE;
}

// Deletes every element in order (destructors run one by one, each after
// its element is gone).
void DeleteAll(HashTable* ht) {
  for (uint32_t i = 0; i < ht->nNumUsed; i++) {
    if (Z_TYPE(ht->arData[i].val) != IS_UNDEF) DeleteAt(ht, i);
  }
}

}  // namespace

extern "C" {

void _zend_hash_init(HashTable* ht, uint32_t nSize, dtor_func_t pDestructor,
                     bool persistent) {
  GC_SET_REFCOUNT(ht, 1);
  GC_TYPE_INFO(ht) =
      IS_ARRAY | (persistent ? (GC_PERSISTENT | GC_NOT_COLLECTABLE) : 0);
  ht->u.flags = persistent ? HASH_FLAG_PERSISTENT : 0;
  SetUninitialized(ht);
  ht->nNumUsed = 0;
  ht->nNumOfElements = 0;
  ht->nTableSize = RoundTableSize(nSize);
  ht->nInternalPointer = 0;
  ht->nNextFreeElement = ZEND_LONG_MIN;
  ht->pDestructor = pDestructor;
}

void zend_hash_destroy(HashTable* ht) {
  DeleteAll(ht);
  if (HT_HAS_ITERATORS(ht)) mock_zend::internal::HashIteratorsPoison(ht);
  FreeData(ht);
  SetUninitialized(ht);
  ht->nNumUsed = 0;
  ht->nNumOfElements = 0;
}

void zend_hash_clean(HashTable* ht) {
  if (ht->nNumUsed != 0) {
    DeleteAll(ht);
    // Every deletion unlinked its bucket from its chain, so once nothing is
    // left every slot is already empty: only the used range is reset.
    if (ht->nNumOfElements == 0) ht->nNumUsed = 0;
  }
  ht->nNextFreeElement = ZEND_LONG_MIN;
  ht->nInternalPointer = 0;
  // The table is empty: its iterators are at its (new) end.
  if (HT_HAS_ITERATORS(ht)) mock_zend::internal::HashIteratorsClampToEnd(ht);
}

zval* zend_hash_index_add(HashTable* ht, zend_ulong h, zval* pData) {
  return InsertIndex(ht, h, pData, InsertMode::kAdd);
}

zval* zend_hash_index_add_new(HashTable* ht, zend_ulong h, zval* pData) {
  return InsertIndex(ht, h, pData, InsertMode::kAddNew);
}

zval* zend_hash_index_update(HashTable* ht, zend_ulong h, zval* pData) {
  return InsertIndex(ht, h, pData, InsertMode::kUpdate);
}

zval* zend_hash_index_find(const HashTable* ht, zend_ulong h) {
  Bucket* p = FindIndex(ht, h);
  return p != nullptr ? &p->val : nullptr;
}

zend_result zend_hash_index_del(HashTable* ht, zend_ulong h) {
  return DeleteMatching(
      ht, h, [h](const Bucket* p) { return p->h == h && p->key == nullptr; });
}

zval* zend_hash_next_index_insert(HashTable* ht, zval* pData) {
  const zend_long next =
      ht->nNextFreeElement == ZEND_LONG_MIN ? 0 : ht->nNextFreeElement;
  return InsertIndex(ht, static_cast<zend_ulong>(next), pData,
                     InsertMode::kAdd);
}

zval* zend_hash_add(HashTable* ht, zend_string* key, zval* pData) {
  return InsertKey(ht, key, pData, InsertMode::kAdd);
}

zval* zend_hash_add_new(HashTable* ht, zend_string* key, zval* pData) {
  return InsertKey(ht, key, pData, InsertMode::kAddNew);
}

zval* zend_hash_update(HashTable* ht, zend_string* key, zval* pData) {
  return InsertKey(ht, key, pData, InsertMode::kUpdate);
}

zval* zend_hash_find(const HashTable* ht, zend_string* key) {
  Bucket* p = FindKey(ht, key, zend_string_hash_val(key));
  return p != nullptr ? &p->val : nullptr;
}

zend_result zend_hash_del(HashTable* ht, zend_string* key) {
  const zend_ulong h = zend_string_hash_val(key);
  return DeleteMatching(ht, h, [key, h](const Bucket* p) {
    return p->key == key || (p->h == h && p->key != nullptr &&
                             zend_string_equal_val(p->key, key));
  });
}

zval* zend_hash_str_add(HashTable* ht, const char* key, size_t len,
                        zval* pData) {
  return InsertStr(ht, key, len, pData, InsertMode::kAdd);
}

zval* zend_hash_str_update(HashTable* ht, const char* key, size_t len,
                           zval* pData) {
  return InsertStr(ht, key, len, pData, InsertMode::kUpdate);
}

zval* zend_hash_str_find(const HashTable* ht, const char* key, size_t len) {
  Bucket* p = FindStr(ht, key, len, zend_hash_func(key, len));
  return p != nullptr ? &p->val : nullptr;
}

zend_result zend_hash_str_del(HashTable* ht, const char* key, size_t len) {
  const zend_ulong h = zend_hash_func(key, len);
  return DeleteMatching(ht, h, [key, len, h](const Bucket* p) {
    return p->h == h && p->key != nullptr && ZSTR_LEN(p->key) == len &&
           memcmp(ZSTR_VAL(p->key), key, len) == 0;
  });
}

zval* zend_hash_index_add_empty_element(HashTable* ht, zend_ulong h) {
  zval null_value;
  ZVAL_NULL(&null_value);
  return zend_hash_index_add(ht, h, &null_value);
}

zval* zend_hash_add_empty_element(HashTable* ht, zend_string* key) {
  zval null_value;
  ZVAL_NULL(&null_value);
  return zend_hash_add(ht, key, &null_value);
}

zval* zend_hash_str_add_empty_element(HashTable* ht, const char* key,
                                      size_t len) {
  zval null_value;
  ZVAL_NULL(&null_value);
  return zend_hash_str_add(ht, key, len, &null_value);
}

zval* zend_hash_next_index_insert_new(HashTable* ht, zval* pData) {
  const zend_long next =
      ht->nNextFreeElement == ZEND_LONG_MIN ? 0 : ht->nNextFreeElement;
  return InsertIndex(ht, static_cast<zend_ulong>(next), pData,
                     InsertMode::kAddNew);
}

void* zend_hash_str_find_ptr_lc(const HashTable* ht, const char* str,
                                size_t len) {
  std::string lower(str, len);
  zend_str_tolower(lower.data(), len);
  return zend_hash_str_find_ptr(ht, lower.data(), len);
}

void* zend_hash_find_ptr_lc(const HashTable* ht, zend_string* key) {
  return zend_hash_str_find_ptr_lc(ht, ZSTR_VAL(key), ZSTR_LEN(key));
}

// ---- Positions ----

HashPosition zend_hash_get_current_pos_ex(const HashTable* ht,
                                          HashPosition pos) {
  while (pos < ht->nNumUsed && Z_TYPE(ht->arData[pos].val) == IS_UNDEF) {
    pos++;
  }
  return pos;
}

HashPosition zend_hash_get_current_pos(const HashTable* ht) {
  return zend_hash_get_current_pos_ex(ht, ht->nInternalPointer);
}

void zend_hash_internal_pointer_reset_ex(const HashTable* ht,
                                         HashPosition* pos) {
  *pos = zend_hash_get_current_pos_ex(ht, 0);
}

void zend_hash_internal_pointer_end_ex(const HashTable* ht, HashPosition* pos) {
  for (uint32_t idx = ht->nNumUsed; idx > 0; idx--) {
    if (Z_TYPE(ht->arData[idx - 1].val) != IS_UNDEF) {
      *pos = idx - 1;
      return;
    }
  }
  *pos = ht->nNumUsed;
}

zend_result zend_hash_move_forward_ex(const HashTable* ht, HashPosition* pos) {
  const uint32_t idx = zend_hash_get_current_pos_ex(ht, *pos);
  if (idx >= ht->nNumUsed) return FAILURE;
  *pos = zend_hash_get_current_pos_ex(ht, idx + 1);
  return SUCCESS;
}

zend_result zend_hash_move_backwards_ex(const HashTable* ht,
                                        HashPosition* pos) {
  uint32_t idx = *pos;
  if (idx >= ht->nNumUsed) return FAILURE;
  while (idx > 0) {
    idx--;
    if (Z_TYPE(ht->arData[idx].val) != IS_UNDEF) {
      *pos = idx;
      return SUCCESS;
    }
  }
  *pos = ht->nNumUsed;
  return SUCCESS;
}

zend_hash_key_type zend_hash_get_current_key_ex(const HashTable* ht,
                                                zend_string** str_index,
                                                zend_ulong* num_index,
                                                const HashPosition* pos) {
  const uint32_t idx = zend_hash_get_current_pos_ex(ht, *pos);
  if (idx >= ht->nNumUsed) return HASH_KEY_NON_EXISTENT;
  const Bucket* p = ht->arData + idx;
  if (p->key != nullptr) {
    *str_index = p->key;
    return HASH_KEY_IS_STRING;
  }
  *num_index = p->h;
  return HASH_KEY_IS_LONG;
}

void zend_hash_get_current_key_zval_ex(const HashTable* ht, zval* key,
                                       const HashPosition* pos) {
  const uint32_t idx = zend_hash_get_current_pos_ex(ht, *pos);
  if (idx >= ht->nNumUsed) {
    ZVAL_NULL(key);
    return;
  }
  const Bucket* p = ht->arData + idx;
  if (p->key != nullptr) {
    ZVAL_STR_COPY(key, p->key);
  } else {
    ZVAL_LONG(key, static_cast<zend_long>(p->h));
  }
}

zend_hash_key_type zend_hash_get_current_key_type_ex(const HashTable* ht,
                                                     const HashPosition* pos) {
  const uint32_t idx = zend_hash_get_current_pos_ex(ht, *pos);
  if (idx >= ht->nNumUsed) return HASH_KEY_NON_EXISTENT;
  return ht->arData[idx].key != nullptr ? HASH_KEY_IS_STRING : HASH_KEY_IS_LONG;
}

zval* zend_hash_get_current_data_ex(const HashTable* ht,
                                    const HashPosition* pos) {
  const uint32_t idx = zend_hash_get_current_pos_ex(ht, *pos);
  return idx < ht->nNumUsed ? &ht->arData[idx].val : nullptr;
}

}  // extern "C"
