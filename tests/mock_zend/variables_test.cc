// Tests of the mock engine's value ownership: ZVAL_COPY, zval_ptr_dtor and
// rc_dtor_func.

#include <gtest/gtest.h>

#include <functional>

#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendVariablesTest : public zar::testing::RequestFixture {};

// A new string "value" between `hold`, which must take a second reference
// to it (refcount 2), and `release`, which must give that one back
// (refcount 1); the string's own reference then goes with `drop`.
void ExpectHeldThenReleased(const std::function<void(zval*)>& hold,
                            const std::function<void(zval*)>& release,
                            void (*drop)(zval*) = zval_ptr_dtor) {
  zval str;
  ZVAL_STRING(&str, "value");
  hold(&str);
  EXPECT_EQ(Z_REFCOUNT(str), 2u);
  release(&str);
  EXPECT_EQ(Z_REFCOUNT(str), 1u);
  drop(&str);
}

TEST_F(MockZendVariablesTest, ZvalCopyAddsAReferenceAndPtrDtorDropsIt) {
  zval copy;
  ExpectHeldThenReleased([&](zval* original) { ZVAL_COPY(&copy, original); },
                         [&](zval*) { zval_ptr_dtor(&copy); });
}

TEST_F(MockZendVariablesTest, DroppingTheLastReferenceFreesTheString) {
  const size_t blocks = zend_mm_live_blocks();
  zval z;
  ZVAL_STRING(&z, "freed");
  EXPECT_EQ(zend_mm_live_blocks(), blocks + 1);
  zval_ptr_dtor(&z);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

TEST_F(MockZendVariablesTest, ZvalCopyValueMovesWithoutAddingAReference) {
  zval original;
  ZVAL_STRING(&original, "moved");
  zval moved;
  ZVAL_COPY_VALUE(&moved, &original);
  EXPECT_EQ(Z_REFCOUNT(moved), 1u);
  zval_ptr_dtor(&moved);
}

TEST_F(MockZendVariablesTest, ScalarsAndInternedStringsAreNotRefcounted) {
  zval values[4];
  ZVAL_LONG(&values[0], 1);
  ZVAL_NULL(&values[1]);
  ZVAL_TRUE(&values[2]);
  ZVAL_STR(&values[3], ZSTR_KNOWN(ZEND_STR_MESSAGE));
  for (zval& value : values) {
    EXPECT_FALSE(Z_REFCOUNTED(value));
    zval_ptr_dtor(&value);  // a no-op
  }
  EXPECT_EQ(GC_REFCOUNT(ZSTR_KNOWN(ZEND_STR_MESSAGE)), 1u);
}

TEST_F(MockZendVariablesTest, ReferenceDestroysItsInnerValueWhenFreed) {
  const size_t blocks = zend_mm_live_blocks();
  auto* ref = static_cast<zend_reference*>(emalloc(sizeof(zend_reference)));
  GC_SET_REFCOUNT(ref, 1);
  GC_TYPE_INFO(ref) = IS_REFERENCE;
  ref->sources = nullptr;
  ZVAL_STRING(&ref->val, "inner");
  zval z;
  Z_REF(z) = ref;
  Z_TYPE_INFO(z) = IS_REFERENCE_EX;
  EXPECT_EQ(zend_mm_live_blocks(), blocks + 2);
  zval* deref = &z;
  ZVAL_DEREF(deref);
  EXPECT_STREQ(Z_STRVAL_P(deref), "inner");
  zval_ptr_dtor(&z);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

TEST_F(MockZendVariablesTest, ArrayValuesAreReleasedWithTheArray) {
  zval array;
  ExpectHeldThenReleased(
      [&](zval* str) {
        array_init(&array);
        Z_ADDREF_P(str);
        add_next_index_zval(&array, str);
      },
      [&](zval*) { zval_ptr_dtor(&array); });
}

TEST_F(MockZendVariablesTest, ZvalAddRefOnlyTouchesRefcountedValues) {
  ExpectHeldThenReleased(zval_add_ref, zval_ptr_dtor_nogc,
                         zval_internal_ptr_dtor);
  zval number;
  ZVAL_LONG(&number, 5);
  zval_add_ref(&number);
  EXPECT_EQ(Z_LVAL(number), 5);
}

}  // namespace
