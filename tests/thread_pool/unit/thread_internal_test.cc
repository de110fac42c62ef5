// The reference's own choices for threads (label unit, not in the
// conformance runner): the mock engine is a non-ZTS build, so a PHP
// callable cannot run on another thread and thread_snapshot_create refuses
// it (a thread's entry, a pool's bootloader), before any thread exists;
// and a fork is refused while threads the reactor started run (the child
// would wait for threads it does not have); and start() of an ended thread
// event returns false.

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::thread_pool_testing {
namespace {

using zar::testing::TakeExceptionText;

// The class of upstream's non-ZTS refusals: spawn_thread() throws
// Async\AsyncException, new Async\ThreadPool Async\ThreadPoolException
// (php-async async.c, thread_pool.c).
constexpr char kRefused[] =
    "Async\\AsyncException: Running a PHP callable in a thread requires a "
    "Thread-Safe (ZTS) PHP build";
constexpr char kPoolRefused[] =
    "Async\\ThreadPoolException: Running a PHP callable in a thread requires "
    "a Thread-Safe (ZTS) PHP build";

// zend_fcall_t for the global function "strlen".
struct Callable {
  zend_fcall_t fcall{};
  Callable() {
    ZVAL_STRING(&fcall.fci.function_name, "strlen");
    fcall.fci.size = sizeof(zend_fcall_info);
  }
  ~Callable() { zval_ptr_dtor(&fcall.fci.function_name); }
};

class ThreadInternalTest : public reactor_testing::ReactorTest {};

TEST_F(ThreadInternalTest, ACallableEntryIsRefusedBeforeAnyThreadStarts) {
  Callable entry;
  EXPECT_EQ(ZEND_ASYNC_NEW_THREAD_EVENT(&entry.fcall, nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(), kRefused);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

TEST_F(ThreadInternalTest, SnapshotCreateRefusesACallableAndDestroyTakesNull) {
  Callable entry;
  Callable bootloader;
  EXPECT_EQ(ZEND_ASYNC_THREAD_SNAPSHOT_CREATE(&entry.fcall, &bootloader.fcall),
            nullptr);
  EXPECT_EQ(TakeExceptionText(), kRefused);
  ZEND_ASYNC_THREAD_SNAPSHOT_DESTROY(nullptr);
  EXPECT_EQ(EG(exception), nullptr);
}

TEST_F(ThreadInternalTest, APoolBootloaderIsRefusedBeforeAnyWorkerStarts) {
  Callable bootloader;
  EXPECT_EQ(ZEND_ASYNC_NEW_THREAD_POOL_EX(2, 8, &bootloader.fcall, false, 0),
            nullptr);
  EXPECT_EQ(TakeExceptionText(), kPoolRefused);
}

TEST_F(ThreadInternalTest, AForkIsRefusedWhileAWorkerPoolsThreadsRun) {
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 0);
  ASSERT_NE(pool, nullptr);

  EXPECT_FALSE(ZEND_ASYNC_BEFORE_FORK());
  EXPECT_EQ(TakeExceptionText(),
            "Error: Cannot fork() while threads started by the reactor are "
            "running. Close the thread pools and wait for the threads first.");

  pool->close(pool);
  ZEND_THREAD_POOL_DELREF(pool);
  ZEND_ASYNC_REACTOR_QUIESCE();
  EXPECT_TRUE(ZEND_ASYNC_BEFORE_FORK());  // the threads are gone
  EXPECT_EQ(EG(exception), nullptr);
}

// start() of an ended (closed) thread event returns false; the ABI says
// only that a closed event cannot be started (php-async returns true).
TEST_F(ThreadInternalTest, StartOfAnEndedThreadEventReturnsFalse) {
  zend_async_thread_event_t* event =
      ZEND_ASYNC_NEW_THREAD_EVENT(nullptr, nullptr);
  ASSERT_TRUE(event->base.start(&event->base));  // the spawn
  ASSERT_TRUE(event->base.start(&event->base));  // an awaiter
  ASSERT_TRUE(reactor_testing::RunUntil(
      [&] { return ZEND_ASYNC_EVENT_IS_CLOSED(&event->base); }));

  EXPECT_FALSE(event->base.start(&event->base));
  ZEND_ASYNC_EVENT_RELEASE(&event->base);
  ZEND_ASYNC_REACTOR_QUIESCE();
}

}  // namespace
}  // namespace zar::thread_pool_testing
