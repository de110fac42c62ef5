// A coroutine's finish callbacks run on the finished coroutine and may
// suspend it, as upstream allows (the PDO pool rolls a connection back
// there, which may wait for the server).

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using FinishCallbackTest = SchedulerTest;

// A finish callback that waits on a timer before it records "callback end".
struct WaitingFinishCallback {
  zend_async_event_callback_t base;
  std::vector<std::string>* log;
  zend_coroutine_t* expected_current;
};

void OnFinish(zend_async_event_t*, zend_async_event_callback_t* callback, void*,
              zend_object*) {
  auto* self = reinterpret_cast<WaitingFinishCallback*>(callback);
  self->log->push_back(ZEND_ASYNC_CURRENT_COROUTINE == self->expected_current
                           ? "callback start on the finished coroutine"
                           : "callback start elsewhere");
  Delay(1);
  self->log->push_back(EG(exception) == nullptr ? "callback end"
                                                : "callback end with error");
}

void DisposeNothing(zend_async_event_callback_t* callback,
                    zend_async_event_t*) {
  if (callback->ref_count > 0) callback->ref_count--;
}

TEST_F(FinishCallbackTest, FinishCallbackMaySuspendTheFinishedCoroutine) {
  std::vector<std::string> log;
  WaitingFinishCallback callback{};
  callback.base.callback = OnFinish;
  callback.base.dispose = DisposeNothing;
  callback.log = &log;

  EXPECT_TRUE(RunMain([&] {
    CoroutineRef worker(
        Spawn([&](mock_zend::Call&) { log.push_back("body end"); }));
    callback.expected_current = worker.get();
    worker->event.add_callback(&worker->event, &callback.base);
    Spawn([&](mock_zend::Call&) {
      log.push_back("other runs while the callback waits");
    });
    const AwaitOutcome outcome = Await(worker.get());
    log.push_back("awaiter resumed: " + outcome.error);
  }));

  // Callbacks are notified in registration order: the awaiter's (added
  // after this one) runs once the suspended callback has returned.
  EXPECT_THAT(
      log, ElementsAre("body end", "callback start on the finished coroutine",
                       "other runs while the callback waits", "callback end",
                       "awaiter resumed: "));
  EXPECT_EQ(callback.base.ref_count, 0u);
}

}  // namespace
}  // namespace zar::scheduler_testing
