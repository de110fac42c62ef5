// Deadlock detection: every coroutine waits and nothing can wake them.

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

class DeadlockTest : public SchedulerTest {
 protected:
  // The error the scheduler throws when `waiting` coroutines wait and none
  // is active (php-async scheduler.c).
  static std::string DeadlockError(int waiting) {
    return "Async\\DeadlockError: Deadlock detected: no active coroutines, " +
           std::to_string(waiting) + " coroutines in waiting";
  }
};

TEST_F(DeadlockTest, WaitersOnAnEventNothingFiresAreCancelledAndReported) {
  ExpectUncaught(DeadlockError(2));
  std::vector<std::string> log;
  zend_async_event_t* never = nullptr;
  EXPECT_FALSE(RunMain([&] {
    never = NewPlainEvent();
    for (const char* name : {"A", "B"}) {
      Spawn([&log, &never, name](mock_zend::Call&) {
        log.push_back(std::string(name) + " waits");
        WaitFor(never);
        log.push_back(std::string(name) + " unwound: " + TakeExceptionText());
      });
    }
  }));
  EXPECT_THAT(log, ElementsAre("A waits", "B waits",
                               "A unwound: Async\\AsyncCancellation: "
                               "Deadlock detected",
                               "B unwound: Async\\AsyncCancellation: "
                               "Deadlock detected"));
  EXPECT_THAT(ErrorLog(), ElementsAre("E_ERROR: Uncaught " + DeadlockError(2)));
  ZEND_ASYNC_EVENT_RELEASE(never);
}

TEST_F(DeadlockTest, AHiddenTimerDoesNotHideADeadlock) {
  ExpectUncaught(DeadlockError(1));
  std::vector<std::string> log;
  zend_async_timer_event_t* timer = nullptr;
  zend_async_event_t* never = nullptr;
  EXPECT_FALSE(RunMain([&] {
    never = NewPlainEvent();
    timer = ZEND_ASYNC_NEW_TIMER_EVENT(60000, true);
    ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);
    timer->base.start(&timer->base);
    Spawn([&](mock_zend::Call&) {
      WaitFor(never);
      log.push_back(TakeExceptionText());
    });
  }));
  EXPECT_THAT(log, ElementsAre("Async\\AsyncCancellation: Deadlock detected"));
  EXPECT_THAT(ErrorLog(), ElementsAre("E_ERROR: Uncaught " + DeadlockError(1)));
  timer->base.stop(&timer->base);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
  ZEND_ASYNC_EVENT_RELEASE(never);
}

TEST_F(DeadlockTest, MainWaitingOnACoroutineThatWaitsOnMainIsADeadlock) {
  ExpectUncaught(DeadlockError(2));
  std::string main_error;
  EXPECT_FALSE(RunMain([&] {
    CoroutineRef coroutine(Spawn(
        [&](mock_zend::Call&) { WaitFor(&ZEND_ASYNC_MAIN_COROUTINE->event); }));
    main_error = Await(coroutine.get()).error;
  }));
  EXPECT_EQ(main_error, "Async\\AsyncCancellation: Deadlock detected");
  EXPECT_THAT(ErrorLog(), ElementsAre("E_ERROR: Uncaught " + DeadlockError(2)));
}

}  // namespace
}  // namespace zar::scheduler_testing
