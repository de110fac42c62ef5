// The internal coroutine context (zend_async_internal_context_*() in
// true-async/php-src Zend/zend_async_API.c, de8c19de): keys by string
// address, per-coroutine values.

#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

const char kFirstKey[] = "ext.first";
const char kSecondKey[] = "ext.second";
const char kFirstKeyTwin[] = "ext.first";  // same text, another address

class AbiInternalContextTest : public zar::testing::RequestFixture {
 protected:
  void TearDown() override {
    zend_async_coroutine_internal_context_dispose(&coroutine_);
    RequestFixture::TearDown();
  }

  zend_coroutine_t coroutine_ = MakeCoroutine();
};

TEST_F(AbiInternalContextTest, KeysAreSequentialFromOneAndIdempotentByAddress) {
  const uint32_t first = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey);
  const uint32_t second = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kSecondKey);

  EXPECT_EQ(first, 1u);
  EXPECT_EQ(second, 2u);
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey), 1u);
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kSecondKey), 2u);
  // Equal text at another address is another key.
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKeyTwin), 3u);
}

TEST_F(AbiInternalContextTest, KeyNameReturnsTheRegisteredPointer) {
  const uint32_t key = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey);

  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_NAME(key), kFirstKey);
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_NAME(key + 1), nullptr);
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_NAME(0), nullptr);
}

TEST_F(AbiInternalContextTest, TheKeyTableIsGoneAfterItsShutdown) {
  const uint32_t key = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey);
  zend_async_internal_context_api_shutdown();
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_NAME(key), nullptr);

  zend_async_init_internal_context_api();
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kSecondKey), 1u);
}

TEST_F(AbiInternalContextTest, SetCopiesTheValueAndFindReturnsIt) {
  const uint32_t key = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey);
  zval value;
  ZVAL_STR(&value, zend_string_init("payload", 7, 0));

  EXPECT_EQ(coroutine_.internal_context, nullptr);
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_FIND(&coroutine_, key), nullptr);
  EXPECT_TRUE(ZEND_ASYNC_INTERNAL_CONTEXT_SET(&coroutine_, key, &value));

  ASSERT_NE(coroutine_.internal_context, nullptr);
  zval* found = ZEND_ASYNC_INTERNAL_CONTEXT_FIND(&coroutine_, key);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(Z_STR_P(found), Z_STR(value));
  EXPECT_EQ(Z_REFCOUNT(value), 2u);  // the context holds its own reference

  zval_ptr_dtor(&value);
}

TEST_F(AbiInternalContextTest, SetReplacesAndUnsetRemoves) {
  const uint32_t key = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey);
  zval first, second;
  ZVAL_LONG(&first, 1);
  ZVAL_LONG(&second, 2);

  ASSERT_TRUE(ZEND_ASYNC_INTERNAL_CONTEXT_SET(&coroutine_, key, &first));
  ASSERT_TRUE(ZEND_ASYNC_INTERNAL_CONTEXT_SET(&coroutine_, key, &second));
  EXPECT_EQ(Z_LVAL_P(ZEND_ASYNC_INTERNAL_CONTEXT_FIND(&coroutine_, key)), 2);

  EXPECT_TRUE(ZEND_ASYNC_INTERNAL_CONTEXT_UNSET(&coroutine_, key));
  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_FIND(&coroutine_, key), nullptr);
  EXPECT_FALSE(ZEND_ASYNC_INTERNAL_CONTEXT_UNSET(&coroutine_, key));
}

TEST_F(AbiInternalContextTest, NullCoroutineOrEmptyContextFindsNothing) {
  const uint32_t key = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey);
  zval value;
  ZVAL_LONG(&value, 1);

  EXPECT_EQ(ZEND_ASYNC_INTERNAL_CONTEXT_FIND(nullptr, key), nullptr);
  EXPECT_FALSE(ZEND_ASYNC_INTERNAL_CONTEXT_SET(nullptr, key, &value));
  EXPECT_FALSE(ZEND_ASYNC_INTERNAL_CONTEXT_UNSET(nullptr, key));
  EXPECT_FALSE(ZEND_ASYNC_INTERNAL_CONTEXT_UNSET(&coroutine_, key));
}

TEST_F(AbiInternalContextTest, ValuesAreReleasedWithTheCoroutine) {
  const uint32_t key = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kFirstKey);
  zval value;
  ZVAL_STR(&value, zend_string_init("payload", 7, 0));
  ASSERT_TRUE(ZEND_ASYNC_INTERNAL_CONTEXT_SET(&coroutine_, key, &value));

  zend_async_coroutine_internal_context_dispose(&coroutine_);

  EXPECT_EQ(coroutine_.internal_context, nullptr);
  EXPECT_EQ(Z_REFCOUNT(value), 1u);
  zval_ptr_dtor(&value);
}

TEST_F(AbiInternalContextTest, InitClearsTheContextPointer) {
  coroutine_.internal_context = reinterpret_cast<HashTable*>(0x10);
  zend_async_coroutine_internal_context_init(&coroutine_);
  EXPECT_EQ(coroutine_.internal_context, nullptr);
}

}  // namespace
}  // namespace zar::abi_testing
