// Strict mode and the scheduler: suspending in the scheduler context (a
// microtask, a reactor callback) is refused with Error "Cannot suspend in
// the scheduler context", as without strict mode, and also reported with
// the call and the coroutine it happened on.

#include <string>
#include <vector>

#include "tests/strict/support/strict_test.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

namespace zar::strict_testing {
namespace {

class SchedulerStrictTest : public StrictTest {};

std::string microtask_error;

void SuspendingHandler(zend_async_microtask_t* /*microtask*/) {
  EXPECT_FALSE(ZEND_ASYNC_SUSPEND());
  microtask_error = TakeException();
}

TEST_F(SchedulerStrictTest, SuspendInAMicrotaskIsReportedWithTheCoroutine) {
  microtask_error.clear();
  uint32_t handle = 0;
  RunMain([&] {
    zar::testing::CoroutineRef worker(zar::testing::Spawn([&] {
      auto* microtask = static_cast<zend_async_microtask_t*>(
          ecalloc(1, sizeof(zend_async_microtask_t)));
      microtask->handler = SuspendingHandler;
      microtask->ref_count = 1;
      ZEND_ASYNC_ADD_MICROTASK(microtask);
      ZEND_ASYNC_MICROTASK_RELEASE(microtask);
      zar::testing::Yield();  // the microtask runs on this coroutine's switch
    }));
    handle = ZEND_ASYNC_EVENT_TO_OBJECT(&worker.get()->event)->handle;
    zar::testing::Await(worker.get());
  });
  EXPECT_EQ(microtask_error,
            "Async\\AsyncException \"A coroutine cannot be stopped from the "
            "Scheduler context\"");
  const std::string id = std::to_string(handle);
  EXPECT_EQ(Diagnostics(),
            Strings{"ZEND_ASYNC_SUSPEND: cannot suspend in the scheduler "
                    "context (current coroutine: #" +
                    id + " Coroutine " + id +
                    " spawned at :0, suspended at :0 ({closure}))"});
}

}  // namespace
}  // namespace zar::strict_testing
