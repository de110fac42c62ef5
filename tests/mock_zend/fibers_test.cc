// Tests of the fiber surface (zend_fibers.h): PHP's types and layout, the
// switch-blocking counter, fiber contexts that really switch (values and
// flags carried, statuses, per-context executor state, observers,
// destruction) and the Fiber class's calls, which fail with an
// E_CORE_ERROR naming themselves.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <string>
#include <vector>

#include "tests/mock_zend/fibers_c.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_exceptions.h"
#include "zend_execute.h"
#include "zend_fibers.h"
#include "zend_observer.h"
}

namespace {

using zar::mock_zend_testing::ExpectFieldsInOrder;
using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

class MockZendFibersTest : public zar::testing::RequestFixture {};

// The E_CORE_ERROR of a Fiber class call the mock does not run.
std::string Unsupported(const std::string& function) {
  return UnsupportedMessage(
      function,
      "it runs no PHP code (extensions switch zend fiber contexts with "
      "zend_fiber_switch_context)");
}

std::string LastError() {
  const uint32_t count = zend_mock_error_count();
  return count == 0 ? "" : zend_mock_error_message(count - 1);
}

TEST_F(MockZendFibersTest, TypesEmbedInAnExtensionStructFromC) {
  EXPECT_EQ(surface_c_fiber_types_check(), 0);
}

TEST_F(MockZendFibersTest, LayoutIsTheSameInCAndCxx) {
  EXPECT_EQ(surface_c_sizeof_fiber_context(), sizeof(zend_fiber_context));
  EXPECT_EQ(surface_c_sizeof_fiber_transfer(), sizeof(zend_fiber_transfer));
  EXPECT_EQ(surface_c_sizeof_fiber(), sizeof(zend_fiber));
  EXPECT_EQ(surface_c_offsetof_fiber_context(), offsetof(zend_fiber, context));
}

TEST_F(MockZendFibersTest, ContextFieldsAreInPhpsOrder) {
  // PHP's field order: each offset past the one before.
  ExpectFieldsInOrder({
      offsetof(zend_fiber_context, handle),
      offsetof(zend_fiber_context, kind),
      offsetof(zend_fiber_context, function),
      offsetof(zend_fiber_context, cleanup),
      offsetof(zend_fiber_context, stack),
      offsetof(zend_fiber_context, status),
      offsetof(zend_fiber_context, top_observed_frame),
      offsetof(zend_fiber_context, reserved),
  });
  EXPECT_EQ(offsetof(zend_fiber, std), 0u);
  EXPECT_EQ(sizeof(zend_fiber_context),
            7 * sizeof(void*) + ZEND_MAX_RESERVED_RESOURCES * sizeof(void*));
}

TEST_F(MockZendFibersTest, FromContextFindsTheFiberAroundIt) {
  zend_fiber fiber{};
  fiber.context.kind = zend_ce_fiber;
  EXPECT_EQ(zend_fiber_get_context(&fiber), &fiber.context);
  EXPECT_EQ(zend_fiber_from_context(&fiber.context), &fiber);
}

TEST_F(MockZendFibersTest, SwitchBlockNestsUntilEveryBlockIsUndone) {
  EXPECT_FALSE(zend_fiber_switch_blocked());
  zend_fiber_switch_block();
  zend_fiber_switch_block();
  EXPECT_TRUE(zend_fiber_switch_blocked());
  zend_fiber_switch_unblock();
  EXPECT_TRUE(zend_fiber_switch_blocked());
  zend_fiber_switch_unblock();
  EXPECT_FALSE(zend_fiber_switch_blocked());
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendFibersTest, UnblockWithoutBlockWarnsAndStaysUnblocked) {
  zend_fiber_switch_unblock();
  EXPECT_FALSE(zend_fiber_switch_blocked());
  ASSERT_NO_FATAL_FAILURE(
      ExpectOnlyError(E_CORE_WARNING,
                      "zend_fiber_switch_unblock() called without a matching "
                      "zend_fiber_switch_block()"));
  zend_fiber_switch_block();
  EXPECT_TRUE(zend_fiber_switch_blocked());
  zend_fiber_switch_unblock();
  EXPECT_FALSE(zend_fiber_switch_blocked());
}

TEST_F(MockZendFibersTest, StartResumeSuspendFailAndReturnNull) {
  ExpectFatalErrors({Unsupported("zend_fiber_start"),
                     Unsupported("zend_fiber_resume"),
                     Unsupported("zend_fiber_suspend")});
  zend_fiber fiber{};
  zval result;
  ZVAL_LONG(&result, 1);
  EXPECT_EQ(zend_fiber_start(&fiber, &result), FAILURE);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  EXPECT_EQ(LastError().rfind("zend_fiber_start() is not supported", 0), 0u);
  ZVAL_LONG(&result, 1);
  zend_fiber_resume(&fiber, nullptr, &result);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  EXPECT_EQ(LastError().rfind("zend_fiber_resume() is not supported", 0), 0u);
  ZVAL_LONG(&result, 1);
  zend_fiber_suspend(&fiber, nullptr, &result);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  EXPECT_EQ(LastError().rfind("zend_fiber_suspend() is not supported", 0), 0u);
  EXPECT_EQ(zend_mock_error_count(), 3u);
}

TEST_F(MockZendFibersTest, TheMockRegistersNoFiberClass) {
  EXPECT_EQ(zend_ce_fiber, nullptr);
}

// ---- Fiber contexts that switch ----

// A context embedded in a structure of the test's, as an extension embeds
// one, with the test's name for it.
struct TestContext {
  zend_fiber_context context;
  const char* name;
};

std::vector<TestContext*>& Contexts() {
  static auto* contexts = new std::vector<TestContext*>;
  return *contexts;
}

std::vector<std::string>& Log() {
  static auto* log = new std::vector<std::string>;
  return *log;
}

// "main", a test context's name, or "?".
std::string Name(const zend_fiber_context* context) {
  if (context == EG(main_fiber_context)) return "main";
  for (TestContext* test : Contexts()) {
    if (&test->context == context) return test->name;
  }
  return "?";
}

const char* StatusName(zend_fiber_status status) {
  switch (status) {
    case ZEND_FIBER_STATUS_INIT:
      return "INIT";
    case ZEND_FIBER_STATUS_RUNNING:
      return "RUNNING";
    case ZEND_FIBER_STATUS_SUSPENDED:
      return "SUSPENDED";
    case ZEND_FIBER_STATUS_DEAD:
      return "DEAD";
  }
  return "?";
}

// Logs "cleanup <name> <status>".
void LoggingCleanup(zend_fiber_context* context) {
  Log().push_back("cleanup " + Name(context) + " " +
                  StatusName(context->status));
}

class MockZendFiberContextTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    Contexts().clear();
    Log().clear();
  }
  void TearDown() override {
    Contexts().clear();
    RequestFixture::TearDown();
  }

  // Initialises `test` named `name` to run `function`, with the logging
  // cleanup.
  static void Init(TestContext* test, const char* name,
                   zend_fiber_coroutine function) {
    Contexts().push_back(test);
    test->name = name;
    ASSERT_EQ(zend_fiber_init_context(&test->context, nullptr, function, 0),
              SUCCESS);
    test->context.cleanup = LoggingCleanup;
  }

  // Switches to `to` with the integer `value`; returns the transfer that
  // came back.
  static zend_fiber_transfer SwitchWith(zend_fiber_context* to,
                                        zend_long value) {
    zend_fiber_transfer transfer{};
    transfer.context = to;
    ZVAL_LONG(&transfer.value, value);
    zend_fiber_switch_context(&transfer);
    return transfer;
  }
};

// Logs "<running> got <value> from <sender>".
void LogReceived(const zend_fiber_transfer* transfer) {
  Log().push_back(Name(EG(current_fiber_context)) + " got " +
                  std::to_string(Z_LVAL(transfer->value)) + " from " +
                  Name(transfer->context));
}

TestContext ping_a;
TestContext ping_b;

// A: 1 from main; 2 to B; 3 from B; 4 to main (never resumed after).
void PingPongA(zend_fiber_transfer* transfer) {
  LogReceived(transfer);
  transfer->context = &ping_b.context;
  ZVAL_LONG(&transfer->value, 2);
  zend_fiber_switch_context(transfer);
  LogReceived(transfer);
  transfer->context = EG(main_fiber_context);
  ZVAL_LONG(&transfer->value, 4);
  zend_fiber_switch_context(transfer);
}

// B: 2 from A; 3 to A; 5 from main; returns 6 to main.
void PingPongB(zend_fiber_transfer* transfer) {
  LogReceived(transfer);
  transfer->context = &ping_a.context;
  ZVAL_LONG(&transfer->value, 3);
  zend_fiber_switch_context(transfer);
  LogReceived(transfer);
  transfer->context = EG(main_fiber_context);
  ZVAL_LONG(&transfer->value, 6);
}

TEST_F(MockZendFiberContextTest, ContextsPingPongValuesInOrder) {
  ASSERT_NO_FATAL_FAILURE(Init(&ping_a, "A", PingPongA));
  ASSERT_NO_FATAL_FAILURE(Init(&ping_b, "B", PingPongB));
  zend_fiber_transfer back = SwitchWith(&ping_a.context, 1);
  LogReceived(&back);
  back = SwitchWith(&ping_b.context, 5);
  LogReceived(&back);
  EXPECT_EQ(back.flags, 0);
  // B's function returned: B is dead, destroyed by main when it resumed.
  // A waits where it switched to main, until destroyed.
  EXPECT_EQ(ping_a.context.status, ZEND_FIBER_STATUS_SUSPENDED);
  zend_fiber_destroy_context(&ping_a.context);
  EXPECT_EQ(Log(),
            (std::vector<std::string>{
                "A got 1 from main", "B got 2 from A", "A got 3 from B",
                "main got 4 from A", "B got 5 from main", "cleanup B DEAD",
                "main got 6 from B", "cleanup A SUSPENDED"}));
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TestContext statuses;

// Logs what it sees while running, twice.
void LogsStatuses(zend_fiber_transfer* transfer) {
  for (int round = 0; round < 2; round++) {
    Log().push_back(Name(EG(current_fiber_context)) + " runs; self " +
                    StatusName(statuses.context.status) + ", main " +
                    StatusName(EG(main_fiber_context)->status));
    transfer->context = EG(main_fiber_context);
    if (round == 0) zend_fiber_switch_context(transfer);
  }
}

TEST_F(MockZendFiberContextTest, StatusesAndTheCurrentContextFollowSwitches) {
  ASSERT_NE(EG(main_fiber_context), nullptr);
  EXPECT_EQ(EG(current_fiber_context), EG(main_fiber_context));
  EXPECT_EQ(EG(main_fiber_context)->status, ZEND_FIBER_STATUS_RUNNING);
  ASSERT_NO_FATAL_FAILURE(Init(&statuses, "F", LogsStatuses));
  EXPECT_EQ(statuses.context.status, ZEND_FIBER_STATUS_INIT);
  EXPECT_EQ(statuses.context.kind, nullptr);
  EXPECT_EQ(statuses.context.function, LogsStatuses);
  ASSERT_NE(statuses.context.stack, nullptr);

  zend_fiber_transfer back = SwitchWith(&statuses.context, 0);
  EXPECT_EQ(back.context, &statuses.context);
  EXPECT_EQ(EG(current_fiber_context), EG(main_fiber_context));
  EXPECT_EQ(statuses.context.status, ZEND_FIBER_STATUS_SUSPENDED);
  EXPECT_EQ(EG(main_fiber_context)->status, ZEND_FIBER_STATUS_RUNNING);
  SwitchWith(&statuses.context, 0);
  EXPECT_EQ(EG(current_fiber_context), EG(main_fiber_context));
  EXPECT_EQ(Log(),
            (std::vector<std::string>{"F runs; self RUNNING, main SUSPENDED",
                                      "F runs; self RUNNING, main SUSPENDED",
                                      "cleanup F DEAD"}));
}

TestContext owner;

// Takes the string that came, checks it, releases it, and answers with a
// string of its own.
void AnswersPong(zend_fiber_transfer* transfer) {
  const bool ping = Z_TYPE(transfer->value) == IS_STRING &&
                    std::string(Z_STRVAL(transfer->value)) == "ping";
  Log().push_back(ping ? "got ping" : "got something else");
  zval_ptr_dtor(&transfer->value);
  ZVAL_STR(&transfer->value, zend_string_init("pong", 4, 0));
  transfer->context = EG(main_fiber_context);
}

TEST_F(MockZendFiberContextTest, TheReceiverOwnsTheTransferredValue) {
  ASSERT_NO_FATAL_FAILURE(Init(&owner, "F", AnswersPong));
  zend_fiber_transfer transfer{};
  transfer.context = &owner.context;
  ZVAL_STR(&transfer.value, zend_string_init("ping", 4, 0));
  zend_fiber_switch_context(&transfer);
  ASSERT_EQ(Z_TYPE(transfer.value), IS_STRING);
  EXPECT_EQ(std::string(Z_STRVAL(transfer.value)), "pong");
  EXPECT_EQ(GC_REFCOUNT(Z_STR(transfer.value)), 1u);
  zval_ptr_dtor(&transfer.value);
  EXPECT_EQ(Log(), (std::vector<std::string>{"got ping", "cleanup F DEAD"}));
  // The request's leak check (TearDown) finds neither string.
}

TestContext thrower;

// Ends with an exception carried to main as an error transfer.
void ThrowsToMain(zend_fiber_transfer* transfer) {
  object_init_ex(&transfer->value, zend_ce_exception);
  transfer->flags = ZEND_FIBER_TRANSFER_FLAG_ERROR;
  transfer->context = EG(main_fiber_context);
}

TEST_F(MockZendFiberContextTest, AnErrorTransferComesBackWithItsThrowable) {
  ASSERT_NO_FATAL_FAILURE(Init(&thrower, "F", ThrowsToMain));
  zend_fiber_transfer back = SwitchWith(&thrower.context, 0);
  EXPECT_EQ(back.flags, ZEND_FIBER_TRANSFER_FLAG_ERROR);
  ASSERT_EQ(Z_TYPE(back.value), IS_OBJECT);
  EXPECT_EQ(Z_OBJCE(back.value), zend_ce_exception);
  EXPECT_EQ(EG(exception), nullptr);
  zval_ptr_dtor(&back.value);
}

TestContext bailer;

// Bails out with no zend_try of its own.
void BailsOut(zend_fiber_transfer* transfer) {
  (void)transfer;
  Log().push_back("bailing out");
  zend_bailout();
}

TEST_F(MockZendFiberContextTest, ABailoutInAContextReachesTheSwitcher) {
  ASSERT_NO_FATAL_FAILURE(Init(&bailer, "F", BailsOut));
  JMP_BUF* const switcher_bailout = EG(bailout);
  zend_fiber_transfer back = SwitchWith(&bailer.context, 0);
  EXPECT_EQ(back.flags, ZEND_FIBER_TRANSFER_FLAG_BAILOUT);
  EXPECT_EQ(back.context, &bailer.context);
  EXPECT_EQ(Z_TYPE(back.value), IS_NULL);
  EXPECT_EQ(EG(bailout), switcher_bailout);
  EXPECT_EQ(EG(current_fiber_context), EG(main_fiber_context));
  // The switcher re-raises it, as PHP's Fiber does with the flag.
  volatile bool caught = false;
  zend_try {
    if (back.flags & ZEND_FIBER_TRANSFER_FLAG_BAILOUT) zend_bailout();
  }
  zend_catch { caught = true; }
  zend_end_try();
  EXPECT_TRUE(caught);
  EXPECT_EQ(Log(), (std::vector<std::string>{"bailing out", "cleanup F DEAD"}));
}

TestContext stateful;
zend_execute_data fiber_frame;

// Sets executor state of its own, switches to main, and finds it again.
void KeepsItsOwnState(zend_fiber_transfer* transfer) {
  alignas(16) char page_memory[ZEND_FIBER_VM_STACK_SIZE];
  auto page = reinterpret_cast<zend_vm_stack>(page_memory);
  page->top = ZEND_VM_STACK_ELEMENTS(page);
  page->end = reinterpret_cast<zval*>(page_memory + sizeof(page_memory));
  page->prev = nullptr;
  EG(vm_stack) = page;
  EG(vm_stack_top) = page->top + ZEND_CALL_FRAME_SLOT;
  EG(vm_stack_end) = page->end;
  EG(vm_stack_page_size) = ZEND_FIBER_VM_STACK_SIZE;
  EG(current_execute_data) = &fiber_frame;
  EG(error_reporting) = 0;
  EG(jit_trace_num) = 7;
  transfer->context = EG(main_fiber_context);
  zend_fiber_switch_context(transfer);
  const bool kept = EG(vm_stack) == page &&
                    EG(vm_stack_top) == page->top + ZEND_CALL_FRAME_SLOT &&
                    EG(vm_stack_end) == page->end &&
                    EG(vm_stack_page_size) == ZEND_FIBER_VM_STACK_SIZE &&
                    EG(current_execute_data) == &fiber_frame &&
                    EG(error_reporting) == 0 && EG(jit_trace_num) == 7;
  Log().push_back(kept ? "fiber state kept" : "fiber state lost");
  transfer->context = EG(main_fiber_context);
}

TEST_F(MockZendFiberContextTest, EachContextKeepsItsOwnExecutorState) {
  ASSERT_NO_FATAL_FAILURE(Init(&stateful, "F", KeepsItsOwnState));
  const zend_vm_stack page = EG(vm_stack);
  zval* const top = EG(vm_stack_top);
  zval* const end = EG(vm_stack_end);
  zend_execute_data* const frame = EG(current_execute_data);
  SwitchWith(&stateful.context, 0);
  EXPECT_EQ(EG(vm_stack), page);
  EXPECT_EQ(EG(vm_stack_top), top);
  EXPECT_EQ(EG(vm_stack_end), end);
  EXPECT_EQ(EG(vm_stack_page_size), ZEND_VM_STACK_PAGE_SIZE);
  EXPECT_EQ(EG(current_execute_data), frame);
  EXPECT_EQ(EG(error_reporting), E_ALL);
  EXPECT_EQ(EG(jit_trace_num), 0u);
  SwitchWith(&stateful.context, 0);
  EXPECT_EQ(Log(),
            (std::vector<std::string>{"fiber state kept", "cleanup F DEAD"}));
}

TEST_F(MockZendFiberContextTest, RequestStartupMadeTheMainContextAndVmStack) {
  ASSERT_NE(EG(main_fiber_context), nullptr);
  EXPECT_EQ(EG(current_fiber_context), EG(main_fiber_context));
  EXPECT_EQ(EG(main_fiber_context)->status, ZEND_FIBER_STATUS_RUNNING);
  EXPECT_EQ(EG(active_fiber), nullptr);
  EXPECT_EQ(EG(fiber_stack_size), ZEND_FIBER_DEFAULT_C_STACK_SIZE);
  EXPECT_EQ(EG(error_reporting), E_ALL);
  EXPECT_FALSE(zend_fiber_switch_blocked());
  ASSERT_NE(EG(vm_stack), nullptr);
  EXPECT_EQ(EG(vm_stack_page_size), ZEND_VM_STACK_PAGE_SIZE);
  EXPECT_EQ(EG(vm_stack_top), ZEND_VM_STACK_ELEMENTS(EG(vm_stack)));
  EXPECT_EQ(reinterpret_cast<char*>(EG(vm_stack_end)) -
                reinterpret_cast<char*>(EG(vm_stack)),
            static_cast<ptrdiff_t>(ZEND_VM_STACK_PAGE_SIZE));
  EXPECT_EQ(EG(vm_stack)->prev, nullptr);
}

TestContext never_run;

void NeverRuns(zend_fiber_transfer* transfer) {
  (void)transfer;
  Log().push_back("ran");
}

TEST_F(MockZendFiberContextTest, DestroyRunsTheCleanupOnceWithoutRunning) {
  ASSERT_NO_FATAL_FAILURE(Init(&never_run, "F", NeverRuns));
  zend_fiber_destroy_context(&never_run.context);
  EXPECT_EQ(Log(), (std::vector<std::string>{"cleanup F INIT"}));
  zend_fiber_destroy_context(nullptr);
  EXPECT_EQ(Log().size(), 1u);
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendFiberContextTest, AStackBelowTwoPagesIsRefusedWithAnException) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  zend_fiber_context context{};
  EXPECT_EQ(zend_fiber_init_context(&context, nullptr, NeverRuns, 2 * page - 1),
            FAILURE);
  EXPECT_EQ(context.stack, nullptr);
  ASSERT_NE(EG(exception), nullptr);
  EXPECT_EQ(EG(exception)->ce, zend_ce_exception);
  zval message;
  ZVAL_STR(&message, zval_get_string(zend_read_property(
                         zend_ce_exception, EG(exception), "message",
                         sizeof("message") - 1, 1, nullptr)));
  EXPECT_EQ(std::string(Z_STRVAL(message)),
            "Fiber stack size is too small, it needs to be at least " +
                std::to_string(2 * page) + " bytes");
  zval_ptr_dtor(&message);
  zend_clear_exception();
  EXPECT_TRUE(Log().empty());
}

TEST_F(MockZendFiberContextTest, TheRunningContextIsNeitherSwitchedToNorFreed) {
  zend_fiber_transfer transfer{};
  transfer.context = EG(current_fiber_context);
  ZVAL_LONG(&transfer.value, 3);
  zend_fiber_switch_context(&transfer);
  EXPECT_EQ(transfer.context, EG(main_fiber_context));
  EXPECT_EQ(Z_LVAL(transfer.value), 3);
  EXPECT_EQ(transfer.flags, 0);
  ASSERT_NO_FATAL_FAILURE(
      ExpectOnlyError(E_CORE_WARNING,
                      "zend_fiber_switch_context(): cannot switch into the "
                      "running fiber context"));
  zend_fiber_destroy_context(EG(main_fiber_context));
  ASSERT_EQ(zend_mock_error_count(), 2u);
  EXPECT_EQ(std::string(zend_mock_error_message(1)),
            "zend_fiber_destroy_context(): cannot destroy the running fiber "
            "context");
  EXPECT_EQ(EG(main_fiber_context)->status, ZEND_FIBER_STATUS_RUNNING);
}

// Observers log the event, the contexts, and the running context.
void ObserveInit(zend_fiber_context* context) {
  Log().push_back("init " + Name(context) + " " + StatusName(context->status) +
                  " in " + Name(EG(current_fiber_context)));
}
void ObserveSwitch(zend_fiber_context* from, zend_fiber_context* to) {
  Log().push_back("switch " + Name(from) + " -> " + Name(to) + " in " +
                  Name(EG(current_fiber_context)));
}
void ObserveDestroy(zend_fiber_context* context) {
  Log().push_back("destroy " + Name(context) + " in " +
                  Name(EG(current_fiber_context)));
}

TestContext observed;

void SwitchesToMainOnce(zend_fiber_transfer* transfer) {
  transfer->context = EG(main_fiber_context);
  zend_fiber_switch_context(transfer);
  transfer->context = EG(main_fiber_context);
}

TEST_F(MockZendFiberContextTest, ObserversSeeInitSwitchesAndDestroyInOrder) {
  zend_observer_fiber_init_register(ObserveInit);
  zend_observer_fiber_switch_register(ObserveSwitch);
  zend_observer_fiber_destroy_register(ObserveDestroy);
  Contexts().push_back(&observed);
  observed.name = "F";
  ASSERT_EQ(zend_fiber_init_context(&observed.context, nullptr,
                                    SwitchesToMainOnce, 0),
            SUCCESS);
  SwitchWith(&observed.context, 0);
  SwitchWith(&observed.context, 0);
  EXPECT_EQ(Log(), (std::vector<std::string>{
                       "init F INIT in main", "switch main -> F in main",
                       "switch F -> main in F", "switch main -> F in main",
                       "switch F -> main in F", "destroy F in main"}));
}

TEST_F(MockZendFiberContextTest, TheContextsWorkFromC) {
  EXPECT_EQ(surface_c_fiber_ping_pong(), 0);
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

}  // namespace
