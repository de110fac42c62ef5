// Strict mode at request end: what is still registered is listed, each
// with its info() (live reactor events, open pools with waiters or
// callbacks, coroutines with callbacks); the request then ends as usual and
// frees it.

#include <string>
#include <vector>

#include "tests/strict/support/strict_test.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

namespace zar::strict_testing {
namespace {

class LeftoversTest : public StrictTest {};

zend_async_event_callback_t forgotten = {
    .ref_count = 1, .callback = Ignore, .dispose = KeepCallback};

TEST_F(LeftoversTest, NothingIsReportedAfterATidyRequest) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(1);
    zar::testing::CoroutineRef worker(zar::testing::Spawn([&] {
      zval resource;
      ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
      zar::testing::Delay(1);
      ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    }));
    zar::testing::Await(worker.get());
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  });
  EndRequest();
  EXPECT_EQ(Diagnostics(), Strings{});
}

TEST_F(LeftoversTest, LiveTimerIsListed) {
  RunMain([&] {
    zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1000, false);
    timer->base.add_callback(&timer->base, &forgotten);
    timer->base.start(&timer->base);
    // Never stopped nor released.
  });
  EndRequest();
  EXPECT_EQ(Diagnostics(),
            Strings{"request shutdown: Timer#1 Timer(timeout=1000ms, once): "
                    "still alive (started, 1 reference(s), 1 callback(s))"});
}

TEST_F(LeftoversTest, OpenPoolWithACallbackIsListed) {
  ExpectObjectsAliveAtEnd(1);  // the Async\Pool object kept by mistake
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(2);
    ZEND_ASYNC_NEW_POOL_OBJ(pool);  // leaked on purpose: it keeps the pool
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    pool->event.add_callback(&pool->event, &forgotten);
  });
  EndRequest();
  EXPECT_EQ(Diagnostics(),
            Strings{"request shutdown: Pool#1 Pool(idle=0, active=0, "
                    "reserved=0, max=2): still open with 0 waiter(s) and 1 "
                    "callback(s) registered"});
}

TEST_F(LeftoversTest, CoroutineWithACallbackIsListed) {
  ExpectObjectsAliveAtEnd(1);  // the coroutine kept by mistake
  uint32_t handle = 0;
  RunMain([&] {
    zend_coroutine_t* coroutine = zar::testing::Spawn([] {});
    ZEND_ASYNC_EVENT_ADD_REF(&coroutine->event);  // never released
    handle = ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event)->handle;
    zar::testing::Await(coroutine);
    // Registered after it finished, never removed.
    coroutine->event.add_callback(&coroutine->event, &forgotten);
  });
  EndRequest();
  const std::string id = std::to_string(handle);
  // A finished coroutine keeps its waker with no status, which
  // ZEND_COROUTINE_SUSPENDED counts as waiting: its info() says "suspended
  // at", as upstream's does.
  EXPECT_EQ(Diagnostics(),
            Strings{"request shutdown: #" + id + " Coroutine " + id +
                    " spawned at :0, suspended at :0 (): 1 callback(s) "
                    "still registered"});
}

}  // namespace
}  // namespace zar::strict_testing
