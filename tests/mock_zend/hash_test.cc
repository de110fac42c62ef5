// Tests of the mock engine's ordered hash table and arrays.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendHashTest : public zar::testing::RequestFixture {
 protected:
  static std::vector<zend_long> destroyed;
  static void RecordDestroyed(zval* value) {
    destroyed.push_back(Z_LVAL_P(value));
  }
  void SetUp() override {
    RequestFixture::SetUp();
    destroyed.clear();
  }
};

std::vector<zend_long> MockZendHashTest::destroyed;

zval Long(zend_long value) {
  zval z;
  ZVAL_LONG(&z, value);
  return z;
}

// The values of `ht` in iteration order.
std::vector<zend_long> Values(HashTable* ht) {
  std::vector<zend_long> values;
  zval* value;
  ZEND_HASH_FOREACH_VAL(ht, value) { values.push_back(Z_LVAL_P(value)); }
  ZEND_HASH_FOREACH_END();
  return values;
}

// zend_hash_str_add / zend_hash_index_add of the int `value`: the added
// zval, or nullptr when the key was already there.
zval* AddLong(HashTable* ht, std::string_view key, zend_long value) {
  zval v = Long(value);
  return zend_hash_str_add(ht, key.data(), key.size(), &v);
}
zval* AddLong(HashTable* ht, zend_ulong index, zend_long value) {
  zval v = Long(value);
  return zend_hash_index_add(ht, index, &v);
}

// Adds the values `from` to `to - 1`, each under the key value * `stride`;
// a key already there fails the test.
void AddLongs(HashTable* ht, zend_long from, zend_long to,
              zend_ulong stride = 1) {
  for (zend_long i = from; i < to; i++) {
    ASSERT_NE(AddLong(ht, static_cast<zend_ulong>(i) * stride, i), nullptr)
        << i;
  }
}

TEST_F(MockZendHashTest, IterationFollowsInsertionOrderAcrossKeyKinds) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  AddLong(&ht, "b", 1);
  AddLong(&ht, 10, 2);
  AddLong(&ht, "a", 3);
  AddLong(&ht, 2, 4);
  EXPECT_EQ(Values(&ht), (std::vector<zend_long>{1, 2, 3, 4}));
  EXPECT_EQ(Z_LVAL_P(zend_hash_str_find(&ht, ZEND_STRL("a"))), 3);
  EXPECT_EQ(Z_LVAL_P(zend_hash_index_find(&ht, 10)), 2);
  EXPECT_EQ(zend_hash_index_find(&ht, 3), nullptr);
  EXPECT_EQ(zend_hash_str_find(&ht, ZEND_STRL("c")), nullptr);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, StringAndIntegerKeysDoNotCollide) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  AddLong(&ht, "1", 1);
  ASSERT_NE(AddLong(&ht, 1, 2), nullptr);
  EXPECT_EQ(zend_hash_num_elements(&ht), 2u);
  EXPECT_EQ(Z_LVAL_P(zend_hash_str_find(&ht, ZEND_STRL("1"))), 1);
  EXPECT_EQ(Z_LVAL_P(zend_hash_index_find(&ht, 1)), 2);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, DeletingDuringIterationSkipsOnlyTheDeletedElement) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  AddLongs(&ht, 0, 6);
  std::vector<zend_long> seen;
  zend_ulong key;
  zval* value;
  ZEND_HASH_FOREACH_NUM_KEY_VAL(&ht, key, value) {
    seen.push_back(Z_LVAL_P(value));
    if (key == 1) {
      EXPECT_EQ(zend_hash_index_del(&ht, 1), SUCCESS);  // the current one
      EXPECT_EQ(zend_hash_index_del(&ht, 3), SUCCESS);  // one ahead
    }
  }
  ZEND_HASH_FOREACH_END();
  EXPECT_EQ(seen, (std::vector<zend_long>{0, 1, 2, 4, 5}));
  EXPECT_EQ(Values(&ht), (std::vector<zend_long>{0, 2, 4, 5}));
  EXPECT_EQ(zend_hash_num_elements(&ht), 4u);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, DestructorRunsOnDeleteUpdateCleanAndDestroy) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, RecordDestroyed, false);
  AddLongs(&ht, 0, 4);
  zend_hash_index_del(&ht, 0);
  EXPECT_EQ(destroyed, (std::vector<zend_long>{0}));
  zval replacement = Long(10);
  zend_hash_index_update(&ht, 1, &replacement);
  EXPECT_EQ(destroyed, (std::vector<zend_long>{0, 1}));
  zend_hash_clean(&ht);
  EXPECT_EQ(destroyed, (std::vector<zend_long>{0, 1, 10, 2, 3}));
  EXPECT_EQ(zend_hash_num_elements(&ht), 0u);
  zval v = Long(7);
  zend_hash_next_index_insert(&ht, &v);
  zend_hash_destroy(&ht);
  EXPECT_EQ(destroyed, (std::vector<zend_long>{0, 1, 10, 2, 3, 7}));
}

// zend_hash_clean leaves a table that works as a new one: every key gone
// (also from the lookup chains), new keys found, the next free index reset;
// cleaning an empty table changes nothing.
TEST_F(MockZendHashTest, CleanedTableIsReusedWithEveryLookupRight) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, RecordDestroyed, false);
  zend_hash_clean(&ht);  // never used
  for (int round = 0; round < 3; round++) {
    ASSERT_NO_FATAL_FAILURE(AddLongs(&ht, 0, 20, 8));
    zend_hash_index_del(&ht, 8);
    zend_hash_clean(&ht);
    EXPECT_EQ(zend_hash_num_elements(&ht), 0u);
    for (zend_long i = 0; i < 20; i++) {
      EXPECT_EQ(zend_hash_index_find(&ht, static_cast<zend_ulong>(i * 8)),
                nullptr);
    }
    zend_hash_clean(&ht);  // already empty
    zval v = Long(100);
    zend_hash_next_index_insert(&ht, &v);
    EXPECT_EQ(Z_LVAL_P(zend_hash_index_find(&ht, 0)), 100);
    zend_hash_clean(&ht);
  }
  EXPECT_EQ(destroyed.size(), 3u * 21u);
  zend_hash_destroy(&ht);
}

// A destructor run by zend_hash_clean finds the elements not yet deleted
// and no longer finds the ones already deleted (its own included).
HashTable* cleaned_table = nullptr;
std::vector<std::string> lookups_during_clean;
void LookUpDuringClean(zval* value) {
  std::string seen = std::to_string(Z_LVAL_P(value)) + ":";
  for (zend_ulong key = 0; key < 3; key++) {
    seen += zend_hash_index_find(cleaned_table, key) != nullptr ? "1" : "0";
  }
  lookups_during_clean.push_back(seen);
}

TEST_F(MockZendHashTest, CleanDestructorsSeeTheElementsNotYetDeleted) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, LookUpDuringClean, false);
  cleaned_table = &ht;
  lookups_during_clean.clear();
  AddLongs(&ht, 0, 3);
  zend_hash_clean(&ht);
  EXPECT_EQ(lookups_during_clean,
            (std::vector<std::string>{"0:011", "1:001", "2:000"}));
  AddLong(&ht, 1, 5);
  EXPECT_EQ(Z_LVAL_P(zend_hash_index_find(&ht, 1)), 5);
  EXPECT_EQ(zend_hash_index_find(&ht, 0), nullptr);
  zend_hash_destroy(&ht);
  cleaned_table = nullptr;
}

TEST_F(MockZendHashTest, AddRefusesAnExistingKeyAndLeavesItsValue) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, RecordDestroyed, false);
  AddLong(&ht, "k", 1);
  EXPECT_EQ(AddLong(&ht, "k", 2), nullptr);
  EXPECT_EQ(AddLong(&ht, 5, 2) != nullptr, true);
  EXPECT_EQ(AddLong(&ht, 5, 2), nullptr);
  EXPECT_EQ(Z_LVAL_P(zend_hash_str_find(&ht, ZEND_STRL("k"))), 1);
  EXPECT_TRUE(destroyed.empty());
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, GrowthPastEightWithHolesKeepsOrderAndEveryKey) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  EXPECT_EQ(ht.nTableSize, 8u);
  AddLongs(&ht, 0, 8, 100);
  zend_hash_index_del(&ht, 100);
  zend_hash_index_del(&ht, 500);
  AddLongs(&ht, 8, 40, 100);
  std::vector<zend_long> expected;
  for (zend_long i = 0; i < 40; i++) {
    if (i != 1 && i != 5) expected.push_back(i);
  }
  EXPECT_EQ(Values(&ht), expected);
  EXPECT_EQ(zend_hash_num_elements(&ht), 38u);
  EXPECT_EQ(ht.nNumUsed, 38u);  // the holes were squeezed out
  EXPECT_GE(ht.nTableSize, 64u);
  for (zend_long i : expected) {
    zval* found = zend_hash_index_find(&ht, i * 100);
    ASSERT_NE(found, nullptr) << i;
    EXPECT_EQ(Z_LVAL_P(found), i);
  }
  EXPECT_EQ(zend_hash_index_find(&ht, 100), nullptr);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, FullTableWithManyHolesIsCompactedInPlace) {
  HashTable ht;
  zend_hash_init(&ht, 8, nullptr, nullptr, false);
  for (zend_long i = 0; i < 8; i++) {
    zval v = Long(i);
    zend_hash_next_index_insert(&ht, &v);
  }
  for (zend_long i = 0; i < 6; i++) zend_hash_index_del(&ht, i);
  zval v = Long(8);
  zend_hash_next_index_insert(&ht, &v);
  EXPECT_EQ(ht.nTableSize, 8u);
  EXPECT_EQ(ht.nNumUsed, 3u);
  EXPECT_EQ(Values(&ht), (std::vector<zend_long>{6, 7, 8}));
  EXPECT_EQ(Z_LVAL_P(zend_hash_index_find(&ht, 8)), 8);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, NextIndexInsertContinuesAfterTheLargestIntegerKey) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  zval v = Long(0);
  EXPECT_NE(zend_hash_next_index_insert(&ht, &v), nullptr);
  EXPECT_NE(zend_hash_index_find(&ht, 0), nullptr);
  zend_hash_index_add(&ht, 41, &v);
  zend_hash_index_add(&ht, 7, &v);
  zend_hash_next_index_insert(&ht, &v);
  EXPECT_NE(zend_hash_index_find(&ht, 42), nullptr);
  EXPECT_EQ(ht.nNextFreeElement, 43);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, TheTableKeepsAReferenceToItsStringKeys) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  zend_string* key = zend_string_init(ZEND_STRL("request-key"), false);
  zval v = Long(1);
  zend_hash_add(&ht, key, &v);
  EXPECT_EQ(GC_REFCOUNT(key), 2u);
  EXPECT_NE(zend_hash_str_find(&ht, ZEND_STRL("request-key")), nullptr);
  zend_string* other = zend_string_init(ZEND_STRL("request-key"), false);
  EXPECT_NE(zend_hash_find(&ht, other), nullptr);  // found by content
  zend_string_release(other);
  EXPECT_EQ(zend_hash_del(&ht, key), SUCCESS);
  EXPECT_EQ(GC_REFCOUNT(key), 1u);
  EXPECT_EQ(zend_hash_del(&ht, key), FAILURE);
  zend_string_release(key);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, AnEmptyTableOwnsNoMemory) {
  const size_t blocks = zend_mm_live_blocks();
  HashTable ht;
  zend_hash_init(&ht, 100, nullptr, nullptr, false);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
  EXPECT_EQ(zend_hash_index_find(&ht, 3), nullptr);
  EXPECT_EQ(zend_hash_str_find(&ht, ZEND_STRL("x")), nullptr);
  EXPECT_EQ(ht.nTableSize, 128u);
  AddLong(&ht, 3, 1);
  EXPECT_EQ(zend_mm_live_blocks(), blocks + 1);
  zend_hash_destroy(&ht);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

TEST_F(MockZendHashTest, PersistentTablesDoNotUseTheRequestAllocator) {
  const size_t blocks = zend_mm_live_blocks();
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, true);
  zval v = Long(1);
  zend_hash_str_update(&ht, ZEND_STRL("key"), &v);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, PointerHelpersStoreIsPtrValues) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  int target = 0;
  zend_hash_str_update_ptr(&ht, ZEND_STRL("p"), &target);
  EXPECT_EQ(zend_hash_str_find_ptr(&ht, ZEND_STRL("p")), &target);
  EXPECT_EQ(Z_TYPE_P(zend_hash_str_find(&ht, ZEND_STRL("p"))), IS_PTR);
  zend_hash_index_add_ptr(&ht, 9, &target);
  EXPECT_EQ(zend_hash_index_find_ptr(&ht, 9), &target);
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, AddNewPointerHelpersAppendIsPtrValues) {
  HashTable ht;
  zend_hash_init(&ht, 0, nullptr, nullptr, false);
  int first = 0;
  int second = 0;
  EXPECT_EQ(zend_hash_index_add_new_ptr(&ht, 7, &first), &first);
  zend_string* key = zend_string_init(ZEND_STRL("k"), false);
  EXPECT_EQ(zend_hash_add_new_ptr(&ht, key, &second), &second);
  zend_string_release(key);
  EXPECT_EQ(zend_hash_num_elements(&ht), 2u);
  EXPECT_EQ(zend_hash_index_find_ptr(&ht, 7), &first);
  EXPECT_EQ(zend_hash_str_find_ptr(&ht, ZEND_STRL("k")), &second);
  EXPECT_EQ(Z_TYPE_P(zend_hash_index_find(&ht, 7)), IS_PTR);
  EXPECT_EQ(Z_TYPE_P(zend_hash_str_find(&ht, ZEND_STRL("k"))), IS_PTR);
  // Appended in insertion order, after what was there.
  std::vector<void*> order;
  void* ptr;
  ZEND_HASH_FOREACH_PTR(&ht, ptr) { order.push_back(ptr); }
  ZEND_HASH_FOREACH_END();
  EXPECT_EQ(order, (std::vector<void*>{&first, &second}));
  zend_hash_destroy(&ht);
}

TEST_F(MockZendHashTest, NewArrayIsARefcountedArrayOfZvals) {
  HashTable* array = zend_new_array(0);
  EXPECT_EQ(GC_REFCOUNT(array), 1u);
  EXPECT_EQ(GC_TYPE(array), IS_ARRAY);
  EXPECT_EQ(array->pDestructor, ZVAL_PTR_DTOR);
  zval str;
  ZVAL_STRING(&str, "owned by the array");
  zend_hash_next_index_insert(array, &str);
  zend_array_release(array);  // frees the string too (fixture leak check)
}

TEST_F(MockZendHashTest, ArrayDupCopiesKeysAndAddsReferencesToValues) {
  zval array;
  array_init(&array);
  zval str;
  ZVAL_STRING(&str, "shared");
  add_assoc_zval(&array, "s", &str);
  add_index_long(&array, 5, 50);
  add_next_index_long(&array, 60);
  HashTable* copy = zend_array_dup(Z_ARRVAL(array));
  EXPECT_EQ(GC_REFCOUNT(Z_STR(str)), 2u);
  EXPECT_EQ(zend_array_count(copy), 3u);
  EXPECT_EQ(Z_STR_P(zend_hash_str_find(copy, ZEND_STRL("s"))), Z_STR(str));
  EXPECT_EQ(Z_LVAL_P(zend_hash_index_find(copy, 6)), 60);
  zval next;
  ZVAL_LONG(&next, 70);
  zend_hash_next_index_insert(copy, &next);
  EXPECT_NE(zend_hash_index_find(copy, 7), nullptr);
  zend_array_destroy(copy);
  EXPECT_EQ(GC_REFCOUNT(Z_STR(str)), 1u);
  zval_ptr_dtor(&array);
}

TEST_F(MockZendHashTest, ArrayApiBuildsAssociativeAndIndexedEntries) {
  zval array;
  array_init_size(&array, 4);
  add_assoc_long(&array, "n", 1);
  add_assoc_bool(&array, "b", true);
  add_assoc_null(&array, "z");
  add_assoc_string(&array, "s", "text");
  add_next_index_string(&array, "first");
  add_next_index_double(&array, 1.5);
  add_next_index_null(&array);
  add_next_index_bool(&array, false);
  EXPECT_EQ(zend_hash_num_elements(Z_ARRVAL(array)), 8u);
  EXPECT_EQ(Z_TYPE_P(zend_hash_str_find(Z_ARRVAL(array), ZEND_STRL("b"))),
            IS_TRUE);
  EXPECT_STREQ(Z_STRVAL_P(zend_hash_index_find(Z_ARRVAL(array), 0)), "first");
  EXPECT_EQ(Z_DVAL_P(zend_hash_index_find(Z_ARRVAL(array), 1)), 1.5);
  EXPECT_EQ(Z_TYPE_P(zend_hash_index_find(Z_ARRVAL(array), 3)), IS_FALSE);
  zval_ptr_dtor(&array);
}

TEST_F(MockZendHashTest, AllocHashtableIsARequestBlockUntilFreed) {
  const size_t blocks = zend_mm_live_blocks();
  HashTable* ht;
  ALLOC_HASHTABLE(ht);
  EXPECT_EQ(zend_mm_live_blocks(), blocks + 1);
  zend_hash_init(ht, 8, nullptr, ZVAL_PTR_DTOR, false);
  zend_hash_index_update_ptr(ht, 3, ht);
  EXPECT_EQ(zend_hash_index_find_ptr(ht, 3), ht);
  zend_hash_destroy(ht);
  FREE_HASHTABLE(ht);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

}  // namespace
