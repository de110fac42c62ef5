// Tests of the output layer (main/php_output.h, PHPWRITE/PUTS in php.h),
// add_next_index_stringl (Zend/zend_API.h) and the object handlers'
// transfer_obj slot (Zend/zend_object_handlers.h).

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "SAPI.h"
#include "php.h"
#include "php_output.h"
}

namespace {

// The engine fixture with the SAPI's unbuffered write captured.
class MockZendOutputTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    output_ = std::make_unique<zar::mock_zend_testing::CapturedOutput>();
  }
  void TearDown() override {
    output_.reset();
    RequestFixture::TearDown();
  }
  const std::string& written() const { return output_->text(); }

 private:
  std::unique_ptr<zar::mock_zend_testing::CapturedOutput> output_;
};

TEST_F(MockZendOutputTest, PhpOutputWriteGoesToTheSapisUnbufferedWrite) {
  EXPECT_EQ(php_output_write("a\0b", 3), 3u);
  EXPECT_EQ(written(), std::string("a\0b", 3));
}

TEST_F(MockZendOutputTest, PhpwriteAndPutsWriteThroughTheOutputLayer) {
  PHPWRITE("xy", 2);
  PUTS("z\n");
  EXPECT_EQ(written(), "xyz\n");
}

TEST_F(MockZendOutputTest, CoroutineWritesReachTheSameOutputLayer) {
  // true-async/php-src's PHPWRITE_CORO: without output buffers every
  // coroutine's output is the request's.
  EXPECT_EQ(PHPWRITE_CORO("co", 2, nullptr), 2u);
  EXPECT_EQ(written(), "co");
}

TEST_F(MockZendOutputTest, ThereAreNoOutputBuffers) {
  EXPECT_EQ(php_output_get_level(), 0);
}

TEST_F(MockZendOutputTest, AddNextIndexStringlAppendsExactlyTheGivenBytes) {
  zval array;
  array_init(&array);
  add_next_index_stringl(&array, "a\0bc", 3);
  add_next_index_stringl(&array, "", 0);
  zval* first = zend_hash_index_find(Z_ARRVAL(array), 0);
  zval* second = zend_hash_index_find(Z_ARRVAL(array), 1);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_EQ(Z_TYPE_P(first), IS_STRING);
  EXPECT_EQ(std::string(Z_STRVAL_P(first), Z_STRLEN_P(first)),
            std::string("a\0b", 3));
  EXPECT_EQ(Z_STRLEN_P(second), 0u);
  zval_ptr_dtor(&array);
}

TEST_F(MockZendOutputTest, StandardObjectsHaveNoTransferHandler) {
  EXPECT_EQ(std_object_handlers.transfer_obj, nullptr);
  EXPECT_EQ(ZEND_OBJECT_TRANSFER, 0);
  EXPECT_EQ(ZEND_OBJECT_LOAD, 1);
  EXPECT_EQ(ZEND_OBJECT_TRANSFER_RELEASE, 2);
}

}  // namespace
