// zend-async-ref: mock Zend engine. The HashTable iterators of
// EG(ht_iterators) (zend_hash.h): positions that a table keeps current
// while it changes.
//
// An iterator is an entry of EG(ht_iterators) (ht, pos, next_copy); the
// table counts its iterators in u.v.nIteratorsCount (saturating at
// HT_ITERATORS_OVERFLOW, after which the table no longer counts and every
// change looks the entries up). Deleting the bucket an iterator names
// moves it to the next live bucket (hash.cc); squeezing the table's holes
// out moves it with its bucket, an iterator on a hole or at the end to the
// compacted position of the next live bucket (HashIteratorsCompact).
// Destroying a table detaches its iterators: they point at a poisoned
// table until zend_hash_iterator_pos(_ex) reattaches them or they are
// deleted. zend_array_dup copies each iterator onto the copy (next_copy
// links the copies); the first use of an iterator on one of the tables
// keeps that copy and drops the others, as PHP does.
//
// Ownership: EG(ht_iterators) is request memory, freed at request shutdown
// (HashIteratorsShutdown). Threading: the request's thread.

#include "engine_internal.h"

namespace {

// EG(ht_iterators) entries of a destroyed table point here.
HashTable* Poisoned() {
  return reinterpret_cast<HashTable*>(~static_cast<uintptr_t>(0));
}

bool IsAttached(const HashTable* ht) {
  return ht != nullptr && ht != Poisoned();
}

// Calls fn(iterator) for each registered iterator of `ht`.
template <typename Fn>
void ForEachIterator(const HashTable* ht, Fn fn) {
  HashTableIterator* iter = EG(ht_iterators);
  HashTableIterator* end = iter + EG(ht_iterators_used);
  for (; iter != end; iter++) {
    if (iter->ht == ht) fn(iter);
  }
}

// The index `pos` has once the table's holes are squeezed out: the number
// of live buckets before it.
uint32_t CompactedPos(const HashTable* ht, uint32_t pos) {
  uint32_t live = 0;
  const uint32_t end = pos < ht->nNumUsed ? pos : ht->nNumUsed;
  for (uint32_t i = 0; i < end; i++) {
    if (Z_TYPE(ht->arData[i].val) != IS_UNDEF) live++;
  }
  return live;
}

// Releases the copies of iterator `idx` (zend_array_dup made them).
void RemoveCopies(uint32_t idx) {
  uint32_t next = EG(ht_iterators)[idx].next_copy;
  while (next != idx) {
    const uint32_t copy = next;
    next = EG(ht_iterators)[copy].next_copy;
    EG(ht_iterators)[copy].next_copy = copy;  // deletes it alone
    zend_hash_iterator_del(copy);
  }
  EG(ht_iterators)[idx].next_copy = idx;
}

void Detach(HashTableIterator* iter) {
  if (IsAttached(iter->ht) && !HT_ITERATORS_OVERFLOW(iter->ht)) {
    HT_DEC_ITERATORS_COUNT(iter->ht);
  }
}

void Attach(HashTableIterator* iter, HashTable* ht, HashPosition pos) {
  if (!HT_ITERATORS_OVERFLOW(ht)) HT_INC_ITERATORS_COUNT(ht);
  iter->ht = ht;
  iter->pos = pos;
}

// When iterator `idx` has a copy on `ht`, it takes over that copy's
// position and every copy is released.
bool TakeCopyOn(uint32_t idx, HashTable* ht) {
  HashTableIterator* iter = EG(ht_iterators) + idx;
  for (uint32_t next = iter->next_copy; next != idx;
       next = EG(ht_iterators)[next].next_copy) {
    const HashTableIterator* copy = EG(ht_iterators) + next;
    if (copy->ht == ht) {
      Detach(iter);
      Attach(iter, ht, copy->pos);
      RemoveCopies(idx);
      return true;
    }
  }
  RemoveCopies(idx);
  return false;
}

}  // namespace

extern "C" {

uint32_t zend_hash_iterator_add(HashTable* ht, HashPosition pos) {
  if (!HT_ITERATORS_OVERFLOW(ht)) HT_INC_ITERATORS_COUNT(ht);
  uint32_t idx = 0;
  while (idx < EG(ht_iterators_count) && EG(ht_iterators)[idx].ht != nullptr) {
    idx++;
  }
  if (idx == EG(ht_iterators_count)) {
    const uint32_t count = EG(ht_iterators_count) + 8;
    const size_t bytes = sizeof(HashTableIterator) * count;
    EG(ht_iterators) = static_cast<HashTableIterator*>(
        EG(ht_iterators) == nullptr ? emalloc(bytes)
                                    : erealloc(EG(ht_iterators), bytes));
    memset(EG(ht_iterators) + idx, 0, sizeof(HashTableIterator) * 8);
    EG(ht_iterators_count) = count;
  }
  HashTableIterator* iter = EG(ht_iterators) + idx;
  iter->ht = ht;
  iter->pos = pos;
  iter->next_copy = idx;
  if (idx + 1 > EG(ht_iterators_used)) EG(ht_iterators_used) = idx + 1;
  return idx;
}

HashPosition zend_hash_iterator_pos(uint32_t idx, HashTable* ht) {
  HashTableIterator* iter = EG(ht_iterators) + idx;
  if (UNEXPECTED(iter->ht != ht) && !TakeCopyOn(idx, ht)) {
    Detach(iter);
    Attach(iter, ht, zend_hash_get_current_pos(ht));
  }
  return iter->pos;
}

HashPosition zend_hash_iterator_pos_ex(uint32_t idx, zval* array) {
  HashTable* ht = Z_ARRVAL_P(array);
  HashTableIterator* iter = EG(ht_iterators) + idx;
  if (UNEXPECTED(iter->ht != ht) && !TakeCopyOn(idx, ht)) {
    Detach(iter);
    if (GC_REFCOUNT(ht) > 1) {  // shared (or immutable): separate it
      HashTable* copy = zend_array_dup(ht);
      GC_TRY_DELREF(ht);
      ZVAL_ARR(array, copy);
      ht = copy;
      iter = EG(ht_iterators) + idx;  // the dup may have grown the array
    }
    Attach(iter, ht, zend_hash_get_current_pos(ht));
  }
  return iter->pos;
}

void zend_hash_iterator_del(uint32_t idx) {
  HashTableIterator* iter = EG(ht_iterators) + idx;
  Detach(iter);
  iter->ht = nullptr;
  if (UNEXPECTED(iter->next_copy != idx)) RemoveCopies(idx);
  if (idx + 1 == EG(ht_iterators_used)) {
    while (idx > 0 && EG(ht_iterators)[idx - 1].ht == nullptr) idx--;
    EG(ht_iterators_used) = idx;
  }
}

HashPosition zend_hash_iterators_lower_pos(const HashTable* ht,
                                           HashPosition start) {
  HashPosition lowest = ht->nNumUsed;
  ForEachIterator(ht, [&](const HashTableIterator* iter) {
    if (iter->pos >= start && iter->pos < lowest) lowest = iter->pos;
  });
  return lowest;
}

void _zend_hash_iterators_update(const HashTable* ht, HashPosition from,
                                 HashPosition to) {
  ForEachIterator(ht, [&](HashTableIterator* iter) {
    if (iter->pos == from) iter->pos = to;
  });
}

void zend_hash_iterators_advance(const HashTable* ht, HashPosition step) {
  ForEachIterator(ht, [&](HashTableIterator* iter) { iter->pos += step; });
}

}  // extern "C"

namespace mock_zend::internal {

// Before a compaction: every cursor to its compacted position.
void HashIteratorsCompact(HashTable* ht) {
  if (HT_HAS_ITERATORS(ht)) {
    ForEachIterator(ht, [ht](HashTableIterator* iter) {
      iter->pos = CompactedPos(ht, iter->pos);
    });
  }
  ht->nInternalPointer = CompactedPos(ht, ht->nInternalPointer);
}

void HashIteratorsPoison(const HashTable* ht) {
  ForEachIterator(ht, [](HashTableIterator* iter) { iter->ht = Poisoned(); });
}

void HashIteratorsClampToEnd(const HashTable* ht) {
  ForEachIterator(ht, [ht](HashTableIterator* iter) {
    if (iter->pos > ht->nNumUsed) iter->pos = ht->nNumUsed;
  });
}

void CopyHashIterators(const HashTable* source, HashTable* target) {
  if (!HT_HAS_ITERATORS(source)) return;
  const uint32_t used = EG(ht_iterators_used);
  for (uint32_t i = 0; i < used; i++) {
    if (EG(ht_iterators)[i].ht != source) continue;
    const uint32_t copy = zend_hash_iterator_add(
        target, CompactedPos(source, EG(ht_iterators)[i].pos));
    // zend_hash_iterator_add may have moved EG(ht_iterators).
    EG(ht_iterators)[copy].next_copy = EG(ht_iterators)[i].next_copy;
    EG(ht_iterators)[i].next_copy = copy;
  }
}

void HashIteratorsShutdown() {
  if (EG(ht_iterators) != nullptr) efree(EG(ht_iterators));
  EG(ht_iterators) = nullptr;
  EG(ht_iterators_count) = 0;
  EG(ht_iterators_used) = 0;
}

}  // namespace mock_zend::internal
