// Coroutine switch handlers and the per-thread main-coroutine start
// handlers (zend_coroutine_add_switch_handler() and
// zend_async_add_main_coroutine_start_handler() in true-async/php-src
// Zend/zend_async_API.c, de8c19de).

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> calls;

std::string Describe(const char* name, bool is_enter, bool is_finishing) {
  return std::string(name) + (is_enter ? ":enter" : ":leave") +
         (is_finishing ? ":finish" : "");
}

bool KeepA(zend_coroutine_t*, bool is_enter, bool is_finishing) {
  calls.push_back(Describe("A", is_enter, is_finishing));
  return true;
}
bool KeepB(zend_coroutine_t*, bool is_enter, bool is_finishing) {
  calls.push_back(Describe("B", is_enter, is_finishing));
  return true;
}
bool OnceC(zend_coroutine_t*, bool is_enter, bool is_finishing) {
  calls.push_back(Describe("C", is_enter, is_finishing));
  return false;
}
bool OnceD(zend_coroutine_t*, bool is_enter, bool is_finishing) {
  calls.push_back(Describe("D", is_enter, is_finishing));
  return false;
}
// Tries to change the vector while the handlers run.
bool Meddler(zend_coroutine_t* coroutine, bool, bool) {
  calls.push_back("meddler");
  EXPECT_EQ(zend_coroutine_add_switch_handler(coroutine, KeepB), 0u);
  EXPECT_FALSE(zend_coroutine_remove_switch_handler(coroutine, 0));
  return true;
}
bool Thrower(zend_coroutine_t*, bool, bool) {
  calls.push_back("thrower");
  zend_throw_error(nullptr, "handler failed");
  return true;
}

class AbiSwitchHandlersTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    calls.clear();
  }
  void TearDown() override {
    zend_coroutine_switch_handlers_destroy(&coroutine_);
    RequestFixture::TearDown();
  }

  zend_coroutine_t coroutine_ = MakeCoroutine();
};

TEST_F(AbiSwitchHandlersTest, AddReturnsIndexesAndDeduplicates) {
  EXPECT_EQ(ZEND_COROUTINE_ADD_SWITCH_HANDLER(&coroutine_, KeepA), 0u);
  EXPECT_EQ(ZEND_COROUTINE_ADD_SWITCH_HANDLER(&coroutine_, KeepB), 1u);
  EXPECT_EQ(ZEND_COROUTINE_ADD_SWITCH_HANDLER(&coroutine_, KeepA), 0u);

  ASSERT_NE(coroutine_.switch_handlers, nullptr);
  EXPECT_EQ(coroutine_.switch_handlers->length, 2u);
  EXPECT_EQ(coroutine_.switch_handlers->capacity, 4u);
  EXPECT_FALSE(coroutine_.switch_handlers->in_execution);
}

TEST_F(AbiSwitchHandlersTest, TheVectorGrowsFromFourByDoubling) {
  zend_coroutine_switch_handler_fn handlers[] = {KeepA, KeepB, OnceC, OnceD,
                                                 Meddler};
  for (uint32_t i = 0; i < 5; i++) {
    EXPECT_EQ(zend_coroutine_add_switch_handler(&coroutine_, handlers[i]), i);
  }
  EXPECT_EQ(coroutine_.switch_handlers->capacity, 8u);
}

TEST_F(AbiSwitchHandlersTest, AddingNullWarnsAndReturnsZero) {
  EXPECT_EQ(zend_coroutine_add_switch_handler(&coroutine_, nullptr), 0u);
  EXPECT_THAT(ErrorLog(),
              ElementsAre("E_WARNING: Cannot add NULL switch handler"));
  EXPECT_EQ(coroutine_.switch_handlers, nullptr);
}

TEST_F(AbiSwitchHandlersTest, CallRunsEveryHandlerInOrderWithItsArguments) {
  zend_coroutine_add_switch_handler(&coroutine_, KeepA);
  zend_coroutine_add_switch_handler(&coroutine_, KeepB);

  ZEND_COROUTINE_ENTER(&coroutine_)
  ZEND_COROUTINE_LEAVE(&coroutine_);
  ZEND_COROUTINE_FINISH(&coroutine_);

  EXPECT_THAT(calls, ElementsAre("A:enter", "B:enter", "A:leave", "B:leave",
                                 "A:leave:finish", "B:leave:finish"));
}

TEST_F(AbiSwitchHandlersTest, HandlersReturningFalseAreRemovedInOrder) {
  zend_coroutine_add_switch_handler(&coroutine_, OnceC);
  zend_coroutine_add_switch_handler(&coroutine_, KeepA);
  zend_coroutine_add_switch_handler(&coroutine_, OnceD);
  zend_coroutine_add_switch_handler(&coroutine_, KeepB);

  EXPECT_TRUE(zend_coroutine_call_switch_handlers(&coroutine_, true, false));
  EXPECT_THAT(calls, ElementsAre("C:enter", "A:enter", "D:enter", "B:enter"));
  ASSERT_EQ(coroutine_.switch_handlers->length, 2u);
  EXPECT_EQ(coroutine_.switch_handlers->data[0].handler, &KeepA);
  EXPECT_EQ(coroutine_.switch_handlers->data[1].handler, &KeepB);

  calls.clear();
  zend_coroutine_call_switch_handlers(&coroutine_, false, false);
  EXPECT_THAT(calls, ElementsAre("A:leave", "B:leave"));
}

TEST_F(AbiSwitchHandlersTest, TheVectorIsFreedWhenNoHandlerRemains) {
  zend_coroutine_add_switch_handler(&coroutine_, OnceC);

  EXPECT_TRUE(zend_coroutine_call_switch_handlers(&coroutine_, true, false));

  EXPECT_EQ(coroutine_.switch_handlers, nullptr);
  EXPECT_TRUE(zend_coroutine_call_switch_handlers(&coroutine_, true, false));
  EXPECT_THAT(calls, ElementsAre("C:enter"));
}

TEST_F(AbiSwitchHandlersTest, AddAndRemoveAreRefusedWhileHandlersRun) {
  zend_coroutine_add_switch_handler(&coroutine_, Meddler);

  zend_coroutine_call_switch_handlers(&coroutine_, true, false);

  EXPECT_THAT(calls, ElementsAre("meddler"));
  EXPECT_THAT(
      ErrorLog(),
      ElementsAre("E_WARNING: Cannot add switch handler during handler "
                  "execution",
                  "E_WARNING: Cannot remove switch handler during handler "
                  "execution"));
  EXPECT_EQ(coroutine_.switch_handlers->length, 1u);
  EXPECT_FALSE(coroutine_.switch_handlers->in_execution);
}

TEST_F(AbiSwitchHandlersTest, RemoveShiftsLaterHandlersDown) {
  zend_coroutine_add_switch_handler(&coroutine_, KeepA);
  zend_coroutine_add_switch_handler(&coroutine_, KeepB);
  zend_coroutine_add_switch_handler(&coroutine_, OnceC);

  EXPECT_TRUE(zend_coroutine_remove_switch_handler(&coroutine_, 0));

  ASSERT_EQ(coroutine_.switch_handlers->length, 2u);
  EXPECT_EQ(coroutine_.switch_handlers->data[0].handler, &KeepB);
  EXPECT_EQ(coroutine_.switch_handlers->data[1].handler, &OnceC);
  EXPECT_FALSE(zend_coroutine_remove_switch_handler(&coroutine_, 2));
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

TEST_F(AbiSwitchHandlersTest, RemoveWithoutHandlersReturnsFalse) {
  EXPECT_FALSE(zend_coroutine_remove_switch_handler(&coroutine_, 0));
}

TEST_F(AbiSwitchHandlersTest, InitAndDestroy) {
  zend_coroutine_switch_handlers_init(&coroutine_);
  zend_coroutine_switch_handlers_vector_t* vector = coroutine_.switch_handlers;
  ASSERT_NE(vector, nullptr);
  EXPECT_EQ(vector->length, 0u);
  EXPECT_EQ(vector->capacity, 0u);
  EXPECT_EQ(vector->data, nullptr);

  zend_coroutine_switch_handlers_init(&coroutine_);  // already there
  EXPECT_EQ(coroutine_.switch_handlers, vector);

  zend_coroutine_add_switch_handler(&coroutine_, KeepA);
  zend_coroutine_switch_handlers_destroy(&coroutine_);
  EXPECT_EQ(coroutine_.switch_handlers, nullptr);
}

// ---- Main-coroutine start handlers ---------------------------------------

TEST_F(AbiSwitchHandlersTest, StartHandlersRejectDuplicates) {
  EXPECT_TRUE(ZEND_ASYNC_ADD_MAIN_COROUTINE_START_HANDLER(KeepA));
  EXPECT_FALSE(ZEND_ASYNC_ADD_MAIN_COROUTINE_START_HANDLER(KeepA));
  EXPECT_TRUE(ZEND_ASYNC_ADD_MAIN_COROUTINE_START_HANDLER(KeepB));

  const zend_coroutine_switch_handlers_vector_t& vector =
      ZEND_ASYNC_G(main_coroutine_start_handlers);
  EXPECT_EQ(vector.length, 2u);
  EXPECT_EQ(vector.capacity, 4u);
}

TEST_F(AbiSwitchHandlersTest, StartHandlersGrowByDoubling) {
  zend_coroutine_switch_handler_fn handlers[] = {KeepA, KeepB, OnceC, OnceD,
                                                 Meddler};
  for (zend_coroutine_switch_handler_fn handler : handlers) {
    EXPECT_TRUE(zend_async_add_main_coroutine_start_handler(handler));
  }
  EXPECT_EQ(ZEND_ASYNC_G(main_coroutine_start_handlers).capacity, 8u);
}

TEST_F(AbiSwitchHandlersTest, StartHandlersAreCopiedIntoTheMainCoroutine) {
  zend_async_add_main_coroutine_start_handler(KeepA);
  zend_async_add_main_coroutine_start_handler(OnceC);

  EXPECT_TRUE(zend_async_call_main_coroutine_start_handlers(&coroutine_));

  EXPECT_THAT(calls, ElementsAre("A:enter", "C:enter"));
  ASSERT_NE(coroutine_.switch_handlers, nullptr);
  EXPECT_EQ(coroutine_.switch_handlers->length, 1u);
  // The per-thread list is unchanged for the next main coroutine.
  EXPECT_EQ(ZEND_ASYNC_G(main_coroutine_start_handlers).length, 2u);
}

TEST_F(AbiSwitchHandlersTest, StartHandlersReportAPendingException) {
  zend_async_add_main_coroutine_start_handler(Thrower);

  EXPECT_FALSE(zend_async_call_main_coroutine_start_handlers(&coroutine_));
  EXPECT_EQ(TakeExceptionText(), "Error: handler failed");
}

TEST_F(AbiSwitchHandlersTest, WithoutStartHandlersNothingIsCreated) {
  EXPECT_TRUE(zend_async_call_main_coroutine_start_handlers(&coroutine_));
  EXPECT_EQ(coroutine_.switch_handlers, nullptr);
}

TEST_F(AbiSwitchHandlersTest, AddSwitchHandlerMacroTargetsTheCurrentCoroutine) {
  ZEND_ASYNC_ADD_SWITCH_HANDLER(KeepA)  // no coroutine: a start handler
  EXPECT_EQ(ZEND_ASYNC_G(main_coroutine_start_handlers).length, 1u);

  ZEND_ASYNC_CURRENT_COROUTINE = &coroutine_;
  ZEND_ASYNC_ADD_SWITCH_HANDLER(KeepB)
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;
  ASSERT_NE(coroutine_.switch_handlers, nullptr);
  EXPECT_EQ(coroutine_.switch_handlers->data[0].handler, &KeepB);
  EXPECT_EQ(ZEND_ASYNC_G(main_coroutine_start_handlers).length, 1u);
}

}  // namespace
}  // namespace zar::abi_testing
