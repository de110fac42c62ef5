// Coroutine helpers: zend_coroutine_gen_info, zend_coroutine_callable_name,
// ZEND_ASYNC_FCALL_DEFINE / zend_fcall_release, coroutine flag macros.

#include <string>

#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

class AbiCoroutineTest : public zar::testing::RequestFixture {
 protected:
  void TearDown() override {
    if (coroutine_.filename != nullptr) {
      zend_string_release(coroutine_.filename);
    }
    zend_async_waker_t* waker = coroutine_.waker;
    if (waker != nullptr) {
      ZEND_ASYNC_WAKER_DESTROY(&coroutine_);
      efree(waker);
    }
    RequestFixture::TearDown();
  }

  std::string GenInfo(const char* name) {
    zend_string* info =
        zend_coroutine_gen_info(&coroutine_, const_cast<char*>(name));
    std::string text(ZSTR_VAL(info), ZSTR_LEN(info));
    zend_string_release(info);
    return text;
  }

  zend_coroutine_t coroutine_ = MakeCoroutine();
};

TEST_F(AbiCoroutineTest, GenInfoOfARunningCoroutine) {
  coroutine_.filename = zend_string_init("spawn.php", 9, 0);
  coroutine_.lineno = 10;

  EXPECT_EQ(GenInfo("worker"), "Coroutine spawned at spawn.php:10 (worker)");
  EXPECT_EQ(GenInfo(nullptr), "Coroutine spawned at spawn.php:10 ()");
}

TEST_F(AbiCoroutineTest, GenInfoOfASuspendedCoroutineNamesBothPlaces) {
  coroutine_.filename = zend_string_init("spawn.php", 9, 0);
  coroutine_.lineno = 10;
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  waker->status = ZEND_ASYNC_WAKER_WAITING;
  waker->filename = zend_string_init("wait.php", 8, 0);
  waker->lineno = 20;

  EXPECT_EQ(GenInfo("worker"),
            "Coroutine spawned at spawn.php:10, suspended at wait.php:20 "
            "(worker)");

  waker->status = ZEND_ASYNC_WAKER_RESULT;  // no longer suspended
  EXPECT_EQ(GenInfo("worker"), "Coroutine spawned at spawn.php:10 (worker)");
}

TEST_F(AbiCoroutineTest, GenInfoWithoutLocationsPrintsEmptyNames) {
  ZEND_ASYNC_WAKER_NEW(&coroutine_);  // NO_STATUS counts as suspended
  EXPECT_EQ(GenInfo("x"), "Coroutine spawned at :0, suspended at :0 (x)");
}

TEST_F(AbiCoroutineTest, CallableNameOfMainAndInternalCoroutines) {
  zend_string* name = zend_coroutine_callable_name(&coroutine_);
  EXPECT_STREQ(ZSTR_VAL(name), "internal function");
  zend_string_release(name);

  ZEND_COROUTINE_SET_MAIN(&coroutine_);
  name = zend_coroutine_callable_name(&coroutine_);
  EXPECT_STREQ(ZSTR_VAL(name), "main");
  zend_string_release(name);
}

TEST_F(AbiCoroutineTest, FlagMacrosSetAndTestTheirBits) {
  ZEND_COROUTINE_SET_STARTED(&coroutine_);
  ZEND_COROUTINE_SET_CANCELLED(&coroutine_);
  ZEND_COROUTINE_SET_ZOMBIE(&coroutine_);
  ZEND_COROUTINE_SET_PROTECTED(&coroutine_);
  ZEND_COROUTINE_SET_FIBER(&coroutine_);
  ZEND_COROUTINE_SET_YIELD(&coroutine_);
  ZEND_COROUTINE_SET_EXCEPTION_HANDLED(&coroutine_);
  EXPECT_TRUE(ZEND_COROUTINE_IS_STARTED(&coroutine_));
  EXPECT_TRUE(ZEND_COROUTINE_IS_CANCELLED(&coroutine_));
  EXPECT_TRUE(ZEND_COROUTINE_IS_ZOMBIE(&coroutine_));
  EXPECT_TRUE(ZEND_COROUTINE_IS_PROTECTED(&coroutine_));
  EXPECT_TRUE(ZEND_COROUTINE_IS_FIBER(&coroutine_));
  EXPECT_TRUE(ZEND_COROUTINE_IS_YIELD(&coroutine_));
  EXPECT_TRUE(ZEND_COROUTINE_IS_EXCEPTION_HANDLED(&coroutine_));
  EXPECT_FALSE(ZEND_COROUTINE_IS_FINISHED(&coroutine_));
  EXPECT_FALSE(ZEND_COROUTINE_IS_MAIN(&coroutine_));

  ZEND_COROUTINE_CLR_PROTECTED(&coroutine_);
  ZEND_COROUTINE_CLR_YIELD(&coroutine_);
  ZEND_COROUTINE_CLR_EXCEPTION_HANDLED(&coroutine_);
  ZEND_COROUTINE_SET_FINISHED(&coroutine_);
  EXPECT_FALSE(ZEND_COROUTINE_IS_PROTECTED(&coroutine_));
  EXPECT_FALSE(ZEND_COROUTINE_IS_YIELD(&coroutine_));
  EXPECT_FALSE(ZEND_COROUTINE_IS_EXCEPTION_HANDLED(&coroutine_));
  EXPECT_TRUE(ZEND_COROUTINE_IS_FINISHED(&coroutine_));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&coroutine_.event));
}

TEST_F(AbiCoroutineTest, FcallDefineCopiesArgumentsAndReleaseUndoesIt) {
  zend_fcall_info fci = empty_fcall_info;
  zend_fcall_info_cache fcc = empty_fcall_info_cache;
  fci.size = sizeof(fci);
  ZVAL_STR(&fci.function_name, zend_string_init("strlen", 6, 0));
  zval args[2];
  ZVAL_STR(&args[0], zend_string_init("first", 5, 0));
  ZVAL_LONG(&args[1], 2);
  HashTable* named = zend_new_array(0);

  ZEND_ASYNC_FCALL_DEFINE(fcall, fci, fcc, args, 2u, named);

  EXPECT_EQ(fcall->fci.param_count, 2u);
  EXPECT_NE(fcall->fci.params, args);
  EXPECT_EQ(Z_STR(fcall->fci.params[0]), Z_STR(args[0]));
  EXPECT_EQ(Z_REFCOUNT(args[0]), 2u);
  EXPECT_EQ(Z_REFCOUNT(fci.function_name), 2u);
  EXPECT_EQ(fcall->fci.named_params, named);
  EXPECT_EQ(GC_REFCOUNT(named), 2u);

  zend_fcall_release(fcall);

  EXPECT_EQ(Z_REFCOUNT(args[0]), 1u);
  EXPECT_EQ(Z_REFCOUNT(fci.function_name), 1u);
  EXPECT_EQ(GC_REFCOUNT(named), 1u);

  zval_ptr_dtor(&args[0]);
  zval_ptr_dtor(&fci.function_name);
  zend_array_release(named);
}

TEST_F(AbiCoroutineTest, FcallReleaseOfNullDoesNothing) {
  const size_t blocks = zend_mm_live_blocks();
  zend_fcall_release(nullptr);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

}  // namespace
}  // namespace zar::abi_testing
