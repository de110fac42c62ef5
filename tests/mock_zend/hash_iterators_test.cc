// Tests of HashTable positions and iterators (Zend/zend_hash.h): walking a
// table with a HashPosition, the registered iterators of EG(ht_iterators)
// that follow a table as it changes, and the smaller zend_hash names
// php-async uses beside them.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "php.h"
#include "tests/mock_zend/hash_iterators_c.h"
}

namespace {

class MockZendHashIteratorTest : public zar::testing::RequestFixture {};

zval Long(zend_long value) {
  zval z;
  ZVAL_LONG(&z, value);
  return z;
}

// A new array with "a" => 1, "b" => 2, ... for each letter of `keys`.
HashTable* Letters(const std::string& keys) {
  HashTable* ht = zend_new_array(0);
  zend_long value = 1;
  for (char key : keys) {
    zval v = Long(value++);
    zend_hash_str_add(ht, &key, 1, &v);
  }
  return ht;
}

// The string key at `pos` ("" at the end).
std::string KeyAt(const HashTable* ht, HashPosition pos) {
  zend_string* key = nullptr;
  zend_ulong index = 0;
  if (zend_hash_get_current_key_ex(ht, &key, &index, &pos) !=
      HASH_KEY_IS_STRING) {
    return "";
  }
  return std::string(ZSTR_VAL(key), ZSTR_LEN(key));
}

// The values from `pos` to the end, moving with zend_hash_move_forward_ex.
std::vector<zend_long> WalkForward(const HashTable* ht, HashPosition pos) {
  std::vector<zend_long> values;
  while (zval* value = zend_hash_get_current_data_ex(ht, &pos)) {
    values.push_back(Z_LVAL_P(value));
    EXPECT_EQ(zend_hash_move_forward_ex(ht, &pos), SUCCESS);
  }
  return values;
}

TEST_F(MockZendHashIteratorTest,
       APositionWalksForwardInInsertionOrderSkippingDeletedElements) {
  HashTable* ht = Letters("abcd");
  zend_hash_str_del(ht, ZEND_STRL("b"));
  HashPosition pos;
  zend_hash_internal_pointer_reset_ex(ht, &pos);
  EXPECT_EQ(WalkForward(ht, pos), (std::vector<zend_long>{1, 3, 4}));

  HashPosition end;
  zend_hash_internal_pointer_reset_ex(ht, &end);
  while (zend_hash_get_current_data_ex(ht, &end) != nullptr) {
    zend_hash_move_forward_ex(ht, &end);
  }
  EXPECT_EQ(zend_hash_get_current_key_type_ex(ht, &end), HASH_KEY_NON_EXISTENT);
  EXPECT_EQ(zend_hash_has_more_elements_ex(ht, &end), FAILURE);
  EXPECT_EQ(zend_hash_move_forward_ex(ht, &end), FAILURE);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, APositionWalksBackwardFromTheLastElement) {
  HashTable* ht = Letters("abc");
  zend_hash_str_del(ht, ZEND_STRL("c"));
  HashPosition pos;
  zend_hash_internal_pointer_end_ex(ht, &pos);
  EXPECT_EQ(Z_LVAL_P(zend_hash_get_current_data_ex(ht, &pos)), 2);
  EXPECT_EQ(zend_hash_move_backwards_ex(ht, &pos), SUCCESS);
  EXPECT_EQ(Z_LVAL_P(zend_hash_get_current_data_ex(ht, &pos)), 1);
  // Moving back from the first element leaves the table: the end.
  EXPECT_EQ(zend_hash_move_backwards_ex(ht, &pos), SUCCESS);
  EXPECT_EQ(zend_hash_get_current_data_ex(ht, &pos), nullptr);
  EXPECT_EQ(zend_hash_move_backwards_ex(ht, &pos), FAILURE);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, AnEmptyTableStartsAtItsEnd) {
  HashTable* ht = zend_new_array(0);
  HashPosition pos = 7;
  zend_hash_internal_pointer_reset_ex(ht, &pos);
  EXPECT_EQ(pos, 0u);
  EXPECT_EQ(zend_hash_get_current_data_ex(ht, &pos), nullptr);
  zend_hash_internal_pointer_end_ex(ht, &pos);
  EXPECT_EQ(pos, 0u);
  zval key;
  zend_hash_get_current_key_zval_ex(ht, &key, &pos);
  EXPECT_EQ(Z_TYPE(key), IS_NULL);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, CurrentKeyReportsStringAndIntegerKeys) {
  HashTable* ht = zend_new_array(0);
  zval v = Long(10);
  zend_hash_str_add(ht, ZEND_STRL("name"), &v);
  v = Long(20);
  zend_hash_index_add(ht, 42, &v);
  HashPosition pos;
  zend_hash_internal_pointer_reset_ex(ht, &pos);

  zend_string* str_key = nullptr;
  zend_ulong num_key = 0;
  EXPECT_EQ(zend_hash_get_current_key_ex(ht, &str_key, &num_key, &pos),
            HASH_KEY_IS_STRING);
  ASSERT_NE(str_key, nullptr);
  EXPECT_STREQ(ZSTR_VAL(str_key), "name");
  const uint32_t refcount = GC_REFCOUNT(str_key);
  zval key;
  zend_hash_get_current_key_zval_ex(ht, &key, &pos);
  ASSERT_EQ(Z_TYPE(key), IS_STRING);
  EXPECT_EQ(Z_STR(key), str_key);
  EXPECT_EQ(GC_REFCOUNT(str_key), refcount + 1);  // the zval's own
  zval_ptr_dtor(&key);

  zend_hash_move_forward_ex(ht, &pos);
  EXPECT_EQ(zend_hash_get_current_key_type_ex(ht, &pos), HASH_KEY_IS_LONG);
  EXPECT_EQ(zend_hash_get_current_key_ex(ht, &str_key, &num_key, &pos),
            HASH_KEY_IS_LONG);
  EXPECT_EQ(num_key, 42u);
  zend_hash_get_current_key_zval_ex(ht, &key, &pos);
  EXPECT_EQ(Z_TYPE(key), IS_LONG);
  EXPECT_EQ(Z_LVAL(key), 42);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, FunctionsWithoutExMoveTheTablesOwnPointer) {
  HashTable* ht = Letters("abc");
  zend_hash_internal_pointer_reset(ht);
  EXPECT_EQ(Z_LVAL_P(zend_hash_get_current_data(ht)), 1);
  zend_hash_move_forward(ht);
  zval key;
  zend_hash_get_current_key_zval(ht, &key);
  EXPECT_STREQ(Z_STRVAL(key), "b");
  zval_ptr_dtor(&key);
  EXPECT_EQ(zend_hash_get_current_key_type(ht), HASH_KEY_IS_STRING);
  EXPECT_EQ(zend_hash_get_current_pos(ht), 1u);
  zend_hash_internal_pointer_end(ht);
  EXPECT_EQ(Z_LVAL_P(zend_hash_get_current_data(ht)), 3);
  zend_hash_move_backwards(ht);
  EXPECT_EQ(Z_LVAL_P(zend_hash_get_current_data(ht)), 2);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, PointerTablesAreWalkedWithTheirPointers) {
  HashTable ht;
  zend_hash_init(&ht, 8, nullptr, nullptr, false);
  int first = 1;
  int second = 2;
  zend_hash_str_update_ptr(&ht, ZEND_STRL("first"), &first);
  zend_hash_str_update_ptr(&ht, ZEND_STRL("second"), &second);
  HashPosition pos;
  zend_hash_internal_pointer_reset_ex(&ht, &pos);
  EXPECT_EQ(zend_hash_get_current_data_ptr_ex(&ht, &pos), &first);
  EXPECT_EQ(zend_hash_has_more_elements_ex(&ht, &pos), SUCCESS);
  zend_hash_internal_pointer_end(&ht);
  EXPECT_EQ(zend_hash_get_current_data_ptr(&ht), &second);
  EXPECT_EQ(zend_hash_has_more_elements(&ht), SUCCESS);
  zend_hash_move_forward(&ht);
  EXPECT_EQ(zend_hash_get_current_data_ptr(&ht), nullptr);
  EXPECT_EQ(zend_hash_has_more_elements(&ht), FAILURE);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashIteratorTest,
       DeletingTheElementAtTheInternalPointerMovesItToTheNext) {
  HashTable* ht = Letters("abc");
  zend_hash_internal_pointer_reset(ht);
  zend_hash_move_forward(ht);
  zend_hash_str_del(ht, ZEND_STRL("b"));
  EXPECT_EQ(ht->nInternalPointer, 2u);
  EXPECT_EQ(Z_LVAL_P(zend_hash_get_current_data(ht)), 3);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest,
       AnIteratorOnADeletedElementMovesToTheNextLiveOne) {
  HashTable* ht = Letters("abcd");
  HashPosition pos;
  zend_hash_internal_pointer_reset_ex(ht, &pos);
  zend_hash_move_forward_ex(ht, &pos);  // "b"
  const uint32_t idx = zend_hash_iterator_add(ht, pos);
  EXPECT_EQ(HT_ITERATORS_COUNT(ht), 1);
  zend_hash_str_del(ht, ZEND_STRL("c"));
  zend_hash_str_del(ht, ZEND_STRL("b"));
  EXPECT_EQ(EG(ht_iterators)[idx].pos, 3u);
  EXPECT_EQ(KeyAt(ht, zend_hash_iterator_pos(idx, ht)), "d");
  zend_hash_iterator_del(idx);
  EXPECT_EQ(HT_ITERATORS_COUNT(ht), 0);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, AnIteratorAtTheEndSeesElementsAppendedLater) {
  HashTable* ht = Letters("ab");
  HashPosition pos;
  zend_hash_internal_pointer_reset_ex(ht, &pos);
  zend_hash_move_forward_ex(ht, &pos);
  zend_hash_move_forward_ex(ht, &pos);
  const uint32_t idx = zend_hash_iterator_add(ht, pos);
  zval v = Long(3);
  zend_hash_str_add(ht, ZEND_STRL("c"), &v);
  EXPECT_EQ(KeyAt(ht, zend_hash_iterator_pos(idx, ht)), "c");
  zend_hash_iterator_del(idx);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest,
       IteratorsFollowTheirElementsWhenAGrowingTableSqueezesOutHoles) {
  // 8 elements fill the first allocation; deleting 4 and adding 4 more
  // compacts the table in place, deleting none and adding more doubles it
  // (and compacts the copy): each iterator stays on its element.
  HashTable* ht = Letters("abcdefgh");
  HashPosition at_f;
  HashPosition at_d;
  zend_hash_internal_pointer_reset_ex(ht, &at_f);
  for (int i = 0; i < 5; i++) zend_hash_move_forward_ex(ht, &at_f);
  zend_hash_internal_pointer_reset_ex(ht, &at_d);
  for (int i = 0; i < 3; i++) zend_hash_move_forward_ex(ht, &at_d);
  const uint32_t f = zend_hash_iterator_add(ht, at_f);
  const uint32_t d = zend_hash_iterator_add(ht, at_d);
  zend_hash_internal_pointer_reset(ht);
  for (int i = 0; i < 6; i++) zend_hash_move_forward(ht);  // "g"
  for (const char* gone : {"a", "b", "c", "e"}) {
    zend_hash_str_del(ht, gone, 1);
  }
  EXPECT_EQ(EG(ht_iterators)[f].pos, 5u);
  const std::string more = "ijklmnopqrstuvwxyz";
  for (char key : more) {
    zval v = Long(0);
    zend_hash_str_add(ht, &key, 1, &v);
  }
  EXPECT_LT(EG(ht_iterators)[f].pos, 5u);  // the holes are gone
  EXPECT_EQ(KeyAt(ht, zend_hash_iterator_pos(f, ht)), "f");
  EXPECT_EQ(KeyAt(ht, zend_hash_iterator_pos(d, ht)), "d");
  EXPECT_EQ(KeyAt(ht, zend_hash_get_current_pos(ht)), "g");
  zend_hash_iterator_del(f);
  zend_hash_iterator_del(d);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest,
       AnIteratorOfADuplicatedArrayContinuesOnTheCopyAtTheSameElement) {
  HashTable* ht = Letters("abcd");
  zend_hash_str_del(ht, ZEND_STRL("a"));
  HashPosition pos;
  zend_hash_internal_pointer_reset_ex(ht, &pos);
  zend_hash_move_forward_ex(ht, &pos);  // "c"
  const uint32_t idx = zend_hash_iterator_add(ht, pos);
  HashTable* copy = zend_array_dup(ht);
  EXPECT_EQ(HT_ITERATORS_COUNT(copy), 1);
  EXPECT_NE(EG(ht_iterators)[idx].next_copy, idx);
  // The iterator moves to the copy (as when an array it walks separates);
  // its copy is released, the original table no longer counts it.
  EXPECT_EQ(KeyAt(copy, zend_hash_iterator_pos(idx, copy)), "c");
  EXPECT_EQ(EG(ht_iterators)[idx].ht, copy);
  EXPECT_EQ(EG(ht_iterators)[idx].next_copy, idx);
  EXPECT_EQ(HT_ITERATORS_COUNT(ht), 0);
  EXPECT_EQ(HT_ITERATORS_COUNT(copy), 1);
  zend_hash_iterator_del(idx);
  EXPECT_EQ(EG(ht_iterators_used), 0u);
  zend_array_destroy(ht);
  zend_array_destroy(copy);
}

TEST_F(MockZendHashIteratorTest,
       AnIteratorMovedToAnotherTableStartsAtItsInternalPointer) {
  HashTable* first = Letters("ab");
  HashTable* second = Letters("xyz");
  zend_hash_internal_pointer_reset(second);
  zend_hash_move_forward(second);
  const uint32_t idx = zend_hash_iterator_add(first, 1);
  EXPECT_EQ(KeyAt(second, zend_hash_iterator_pos(idx, second)), "y");
  EXPECT_EQ(HT_ITERATORS_COUNT(first), 0);
  EXPECT_EQ(HT_ITERATORS_COUNT(second), 1);
  zend_hash_iterator_del(idx);
  zend_array_destroy(first);
  zend_array_destroy(second);
}

TEST_F(MockZendHashIteratorTest, PosExSeparatesASharedArrayBeforeFollowingIt) {
  zval walked;
  ZVAL_ARR(&walked, Letters("ab"));
  const uint32_t idx = zend_hash_iterator_add(Z_ARRVAL(walked), 0);
  // The zval now holds another array that someone else shares.
  HashTable* shared = Letters("xy");
  zval other_holder;
  ZVAL_ARR(&other_holder, shared);
  zval_ptr_dtor(&walked);
  ZVAL_COPY(&walked, &other_holder);
  ASSERT_EQ(GC_REFCOUNT(shared), 2u);

  const HashPosition pos = zend_hash_iterator_pos_ex(idx, &walked);
  EXPECT_NE(Z_ARRVAL(walked), shared);
  EXPECT_EQ(GC_REFCOUNT(shared), 1u);
  EXPECT_EQ(GC_REFCOUNT(Z_ARRVAL(walked)), 1u);
  EXPECT_EQ(EG(ht_iterators)[idx].ht, Z_ARRVAL(walked));
  EXPECT_EQ(KeyAt(Z_ARRVAL(walked), pos), "x");
  // The first array was freed with the iterator still on it: detached.
  zend_hash_iterator_del(idx);
  zval_ptr_dtor(&walked);
  zval_ptr_dtor(&other_holder);
}

TEST_F(MockZendHashIteratorTest, DestroyingATableDetachesItsIterators) {
  HashTable* ht = Letters("ab");
  const uint32_t idx = zend_hash_iterator_add(ht, 0);
  zend_array_destroy(ht);
  EXPECT_NE(EG(ht_iterators)[idx].ht, nullptr);
  EXPECT_NE(EG(ht_iterators)[idx].ht, ht);
  HashTable* next = Letters("z");
  EXPECT_EQ(KeyAt(next, zend_hash_iterator_pos(idx, next)), "z");
  zend_hash_iterator_del(idx);
  zend_array_destroy(next);
}

TEST_F(MockZendHashIteratorTest, CleaningATableLeavesItsIteratorsAtItsEnd) {
  HashTable* ht = Letters("abc");
  const uint32_t idx = zend_hash_iterator_add(ht, 2);
  zend_hash_clean(ht);
  zval v = Long(9);
  zend_hash_str_add(ht, ZEND_STRL("n"), &v);
  EXPECT_EQ(KeyAt(ht, zend_hash_iterator_pos(idx, ht)), "n");
  zend_hash_iterator_del(idx);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, ADeletedIteratorsIndexIsReusedAndUsedShrinks) {
  HashTable* ht = Letters("ab");
  const uint32_t first = zend_hash_iterator_add(ht, 0);
  const uint32_t second = zend_hash_iterator_add(ht, 1);
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(second, 1u);
  EXPECT_EQ(EG(ht_iterators_used), 2u);
  EXPECT_GE(EG(ht_iterators_count), 2u);
  EXPECT_EQ(HT_ITERATORS_COUNT(ht), 2);
  zend_hash_iterator_del(first);
  EXPECT_EQ(EG(ht_iterators_used), 2u);
  EXPECT_EQ(zend_hash_iterator_add(ht, 0), 0u);
  zend_hash_iterator_del(0);
  zend_hash_iterator_del(second);
  EXPECT_EQ(EG(ht_iterators_used), 0u);
  EXPECT_EQ(HT_ITERATORS_COUNT(ht), 0);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, ManyIteratorsGrowTheRequestsIteratorArray) {
  HashTable* ht = Letters("abc");
  std::vector<uint32_t> indexes;
  for (uint32_t i = 0; i < 20; i++) {
    indexes.push_back(zend_hash_iterator_add(ht, i % 3));
  }
  EXPECT_GE(EG(ht_iterators_count), 20u);
  for (uint32_t i = 0; i < 20; i++) {
    EXPECT_EQ(indexes[i], i);
    EXPECT_EQ(zend_hash_iterator_pos(indexes[i], ht), i % 3);
  }
  for (uint32_t idx : indexes) zend_hash_iterator_del(idx);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest,
       LowerPosUpdateAndAdvanceActOnOneTablesIterators) {
  HashTable* ht = Letters("abcd");
  HashTable* other = Letters("abcd");
  const uint32_t at1 = zend_hash_iterator_add(ht, 1);
  const uint32_t at3 = zend_hash_iterator_add(ht, 3);
  const uint32_t elsewhere = zend_hash_iterator_add(other, 2);
  EXPECT_EQ(zend_hash_iterators_lower_pos(ht, 0), 1u);
  EXPECT_EQ(zend_hash_iterators_lower_pos(ht, 2), 3u);
  EXPECT_EQ(zend_hash_iterators_lower_pos(ht, 4), 4u);  // none: nNumUsed
  zend_hash_iterators_update(ht, 3, 0);
  EXPECT_EQ(EG(ht_iterators)[at3].pos, 0u);
  zend_hash_iterators_advance(ht, 2);
  EXPECT_EQ(EG(ht_iterators)[at1].pos, 3u);
  EXPECT_EQ(EG(ht_iterators)[at3].pos, 2u);
  EXPECT_EQ(EG(ht_iterators)[elsewhere].pos, 2u);
  for (uint32_t idx : {at1, at3, elsewhere}) zend_hash_iterator_del(idx);
  zend_array_destroy(ht);
  zend_array_destroy(other);
}

TEST_F(MockZendHashIteratorTest, AddEmptyElementStoresNullUnderANewKeyOnly) {
  HashTable* ht = zend_new_array(0);
  zend_string* key = zend_string_init(ZEND_STRL("k"), false);
  zval* added = zend_hash_add_empty_element(ht, key);
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(Z_TYPE_P(added), IS_NULL);
  EXPECT_EQ(zend_hash_add_empty_element(ht, key), nullptr);
  zend_string_release(key);
  EXPECT_NE(zend_hash_str_add_empty_element(ht, ZEND_STRL("s")), nullptr);
  EXPECT_EQ(zend_hash_str_add_empty_element(ht, ZEND_STRL("s")), nullptr);
  EXPECT_NE(zend_hash_index_add_empty_element(ht, 5), nullptr);
  EXPECT_EQ(zend_hash_index_add_empty_element(ht, 5), nullptr);
  EXPECT_EQ(Z_TYPE_P(zend_hash_index_find(ht, 5)), IS_NULL);
  EXPECT_EQ(zend_hash_num_elements(ht), 3u);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, NextIndexInsertNewAppendsAtTheNextFreeIndex) {
  HashTable* ht = zend_new_array(0);
  zval v = Long(1);
  EXPECT_NE(zend_hash_next_index_insert_new(ht, &v), nullptr);
  v = Long(2);
  zend_hash_index_add(ht, 10, &v);
  v = Long(3);
  zval* appended = zend_hash_next_index_insert_new(ht, &v);
  EXPECT_EQ(appended, zend_hash_index_find(ht, 11));
  zval* first = zend_hash_index_find(ht, 0);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(Z_LVAL_P(first), 1);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, FindPtrLcLowercasesTheKeyItLooksFor) {
  HashTable ht;
  zend_hash_init(&ht, 8, nullptr, nullptr, false);
  int target = 0;
  zend_hash_str_update_ptr(&ht, ZEND_STRL("mixedcase"), &target);
  EXPECT_EQ(zend_hash_str_find_ptr_lc(&ht, ZEND_STRL("MixedCase")), &target);
  zend_string* key = zend_string_init(ZEND_STRL("MIXEDCASE"), false);
  EXPECT_EQ(zend_hash_find_ptr_lc(&ht, key), &target);
  zend_string_release(key);
  EXPECT_EQ(zend_hash_str_find_ptr_lc(&ht, ZEND_STRL("Other")), nullptr);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashIteratorTest, TheEmptyArrayIsSharedImmutableAndNotCounted) {
  zval a;
  zval b;
  ZVAL_EMPTY_ARRAY(&a);
  ZVAL_EMPTY_ARRAY(&b);
  EXPECT_EQ(Z_ARR(a), &zend_empty_array);
  EXPECT_EQ(Z_ARR(a), Z_ARR(b));
  EXPECT_FALSE(Z_REFCOUNTED(a));
  EXPECT_TRUE(GC_FLAGS(Z_ARR(a)) & IS_ARRAY_IMMUTABLE);
  EXPECT_EQ(zend_hash_num_elements(Z_ARR(a)), 0u);
  zval_ptr_dtor(&a);  // nothing to release
  EXPECT_EQ(Z_ARR(b), &zend_empty_array);
}

TEST_F(MockZendHashIteratorTest, AnIndirectZvalPointsAtItsTarget) {
  zval target = Long(5);
  zval slot;
  ZVAL_INDIRECT(&slot, &target);
  EXPECT_EQ(Z_TYPE(slot), IS_INDIRECT);
  EXPECT_EQ(Z_INDIRECT(slot), &target);
  EXPECT_EQ(Z_LVAL_P(Z_INDIRECT_P(&slot)), 5);
}

TEST_F(MockZendHashIteratorTest, GcBufferAddHtReportsMutableArraysOnly) {
  HashTable* ht = zend_new_array(0);
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  zend_get_gc_buffer_add_ht(buffer, ht);
  zend_get_gc_buffer_add_ht(buffer, const_cast<HashTable*>(&zend_empty_array));
  zval* table = nullptr;
  int n = 0;
  zend_get_gc_buffer_use(buffer, &table, &n);
  ASSERT_EQ(n, 1);
  EXPECT_EQ(Z_TYPE(table[0]), IS_ARRAY);
  EXPECT_EQ(Z_ARR(table[0]), ht);
  zend_array_destroy(ht);
}

TEST_F(MockZendHashIteratorTest, TheMapAndPackedForeachFormsWalkEveryElement) {
  HashTable* list = zend_new_array(0);
  for (zend_long i = 0; i < 3; i++) {
    zval v = Long(i * 2);
    zend_hash_next_index_insert(list, &v);
  }
  std::vector<zend_long> seen;
  zval* value;
  zend_ulong h;
  ZEND_HASH_PACKED_FOREACH_VAL(list, value) { seen.push_back(Z_LVAL_P(value)); }
  ZEND_HASH_FOREACH_END();
  ZEND_HASH_PACKED_FOREACH_KEY_VAL(list, h, value) {
    seen.push_back(static_cast<zend_long>(h) * 100 + Z_LVAL_P(value));
  }
  ZEND_HASH_FOREACH_END();
  EXPECT_EQ(seen, (std::vector<zend_long>{0, 2, 4, 0, 102, 204}));
  zend_array_destroy(list);

  HashTable* map = Letters("ab");
  std::vector<std::string> keys;
  zend_string* key;
  ZEND_HASH_MAP_FOREACH_KEY_VAL(map, h, key, value) {
    keys.push_back(std::string(ZSTR_VAL(key)) +
                   std::to_string(Z_LVAL_P(value)));
  }
  ZEND_HASH_FOREACH_END();
  Bucket* bucket;
  ZEND_HASH_MAP_FOREACH_BUCKET(map, bucket) {
    keys.push_back(ZSTR_VAL(bucket->key));
  }
  ZEND_HASH_FOREACH_END();
  EXPECT_EQ(keys, (std::vector<std::string>{"a1", "b2", "a", "b"}));
  zend_array_destroy(map);
}

TEST_F(MockZendHashIteratorTest, ThePositionalApiWorksFromC) {
  EXPECT_EQ(hash_iterators_c_positions_check(), 0);
  EXPECT_EQ(hash_iterators_c_iterator_check(), 0);
  EXPECT_EQ(hash_iterators_c_helpers_check(), 0);
}

}  // namespace
