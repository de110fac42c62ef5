// Thread events and lightweight threads: an OS thread running a C thread
// body (an internal entry), its end delivered to the request's thread as
// the event's notification, with the result and exception it handed over
// (php-async libuv_reactor.c "Thread API", thread.c async_thread_run and
// async_thread_load_result; the ABI's new_thread_event, start_thread,
// thread_run, thread_load_result and reactor_quiesce).
//
// The thread bodies here touch no engine state: they only move values the
// request's thread transferred beforehand, as a body on an engine-less
// thread must (and as any implementation allows).

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/thread_pool/support/latch.h"
#include "tests/thread_pool/support/thread_pool_test.h"
#include "zend_async_ref/testing/coroutines.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
}

namespace zar::thread_pool_testing {
namespace {

// What a thread body does and what it saw. Values to hand over are
// transferred on the request's thread before the start.
struct Body {
  std::atomic<int> runs{0};
  std::atomic<bool> finished{false};
  zend_async_thread_event_t* event_seen = nullptr;
  std::thread::id thread;
  Latch* gate = nullptr;                // waited at first, when set
  std::atomic<int>* arrived = nullptr;  // counts the bodies at the gate
  zval result;                          // handed over when not UNDEF
  zend_object* exception = nullptr;     // handed over when set
  Body() { ZVAL_UNDEF(&result); }
};

void RunBody(zend_async_thread_event_t* event, void* arg) {
  auto* body = static_cast<Body*>(arg);
  if (body->arrived != nullptr) body->arrived->fetch_add(1);
  if (body->gate != nullptr) body->gate->Wait();
  body->thread = std::this_thread::get_id();
  body->event_seen = event;
  if (event != nullptr && !Z_ISUNDEF(body->result)) {
    ZVAL_COPY_VALUE(&event->result, &body->result);
  }
  if (event != nullptr && body->exception != nullptr) {
    event->exception = body->exception;
  }
  body->runs.fetch_add(1);
  body->finished.store(true);
}

// A persistent internal entry running RunBody(body): the thread frees it.
zend_async_thread_internal_entry_t* EntryFor(Body* body) {
  auto* entry = static_cast<zend_async_thread_internal_entry_t*>(
      pemalloc(sizeof(zend_async_thread_internal_entry_t), 1));
  entry->handler = RunBody;
  entry->ctx = body;
  return entry;
}

// A thread event whose body is RunBody(body).
zend_async_thread_event_t* NewThreadEventRunning(Body* body) {
  zend_async_thread_event_t* event =
      ZEND_ASYNC_NEW_THREAD_EVENT(nullptr, nullptr);
  if (event != nullptr) event->context->internal_entry = EntryFor(body);
  return event;
}

// The first start launches the thread; the second awaits it.
void LaunchAndAwait(zend_async_thread_event_t* event) {
  ASSERT_TRUE(event->base.start(&event->base));
  ASSERT_TRUE(event->base.start(&event->base));
}

// Records the event's notifications in `log`, launches the thread, awaits
// it and runs the loop until the end was notified; false if it never was.
bool RunToItsEnd(zend_async_thread_event_t* event, NotificationLog* log) {
  AddRecorder(&event->base, log, "done");
  if (!event->base.start(&event->base) || !event->base.start(&event->base)) {
    return false;
  }
  return RunUntil([&] { return !log->empty(); });
}

// Lets go of `event` and waits until every thread of the request is done,
// so that nothing a thread still holds is counted by the leak check.
void ReleaseAndQuiesce(zend_async_thread_event_t* event) {
  ZEND_ASYNC_EVENT_RELEASE(&event->base);
  ZEND_ASYNC_REACTOR_QUIESCE();
}

// A thread event without a body, run to its end (RunToItsEnd); NULL, the
// event released, when its end was never notified.
zend_async_thread_event_t* EndedThreadWithoutABody(NotificationLog* log) {
  zend_async_thread_event_t* event =
      ZEND_ASYNC_NEW_THREAD_EVENT(nullptr, nullptr);
  if (RunToItsEnd(event, log)) return event;
  ReleaseAndQuiesce(event);
  return nullptr;
}

// Transfers `value` for a thread to hand back (the request's thread).
void Prepare(zval* transferred, zval* value) {
  ZEND_ASYNC_THREAD_TRANSFER_ZVAL_TOPLEVEL(transferred, value);
}

// Makes int(`number`), transferred, what `body` hands back.
void HandBackLong(Body* body, zend_long number) {
  zval value;
  ZVAL_LONG(&value, number);
  Prepare(&body->result, &value);
}

// Transfers Exception(message, code) for a thread to hand back.
zend_object* PrepareException(const char* message, zend_long code) {
  zend_throw_exception(zend_ce_exception, message, code);
  zval thrown;
  ZVAL_OBJ(&thrown, EG(exception));
  GC_ADDREF(EG(exception));
  zend_clear_exception();
  zval transferred;
  Prepare(&transferred, &thrown);
  zval_ptr_dtor(&thrown);
  return Z_OBJ(transferred);
}

std::string CallString(zend_object* object, const char* method) {
  zval retval;
  zend_call_method(object, object->ce, nullptr, method, strlen(method), &retval,
                   0, nullptr, nullptr);
  std::string text =
      Z_TYPE(retval) == IS_STRING ? Z_STRVAL(retval) : "<not a string>";
  zval_ptr_dtor(&retval);
  return text;
}

class ThreadEventTest : public ReactorTest {};

TEST_F(ThreadEventTest, ANewThreadEventIsTransparentAndOwnsItsContext) {
  zend_async_thread_event_t* event =
      ZEND_ASYNC_NEW_THREAD_EVENT_EX(nullptr, nullptr, 0, 16);
  ASSERT_NE(event, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_HIDDEN(&event->base));
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(&event->base), 1u);
  EXPECT_TRUE(Z_ISUNDEF(event->result));
  EXPECT_EQ(event->exception, nullptr);
  EXPECT_EQ(event->filename, nullptr);
  EXPECT_EQ(event->lineno, 0u);
  ASSERT_NE(event->context, nullptr);
  EXPECT_EQ(zend_atomic_int_load(&event->context->ref_count), 1);
  EXPECT_EQ(event->context->snapshot, nullptr);
  EXPECT_EQ(zend_atomic_ptr_load(&event->context->event), nullptr);
  EXPECT_NE(event->notify_parent, nullptr);
  EXPECT_EQ(InfoOf(&event->base), "thread #0 spawned at unknown:0");
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&event->base);
}

TEST_F(ThreadEventTest, TheFirstStartRunsTheEntryOnAThreadOfItsOwn) {
  Body body;
  Latch gate;
  body.gate = &gate;
  NotificationLog log;
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  AddRecorder(&event->base, &log, "done");

  ASSERT_TRUE(event->base.start(&event->base));
  // The spawn leaves the event transparent: not counted, still hidden.
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_HIDDEN(&event->base));
  EXPECT_EQ(zend_atomic_ptr_load(&event->context->event), event);
  // An awaiter makes it visible.
  ASSERT_TRUE(event->base.start(&event->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_HIDDEN(&event->base));
  gate.Open();

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  EXPECT_EQ(body.runs.load(), 1);
  EXPECT_NE(body.thread, std::this_thread::get_id());
  EXPECT_EQ(body.event_seen, event);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_FALSE(log[0].closed);  // notified first, closed after
  EXPECT_TRUE(log[0].has_result);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&event->base));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_HIDDEN(&event->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_TRUE(ZEND_THREAD_IS_RESULT_LOADED(event));
  EXPECT_TRUE(Z_ISUNDEF(event->result));
  EXPECT_NE(zend_atomic_int64_load(&event->context->thread_id), 0);
  EXPECT_EQ(InfoOf(&event->base).rfind("thread #", 0), 0u);
  EXPECT_NE(InfoOf(&event->base), "thread #0 spawned at unknown:0");
  ReleaseAndQuiesce(event);
}

TEST_F(ThreadEventTest, TheResultTheThreadHandsOverIsLoadedIntoTheRequest) {
  Body body;
  zval value;
  array_init(&value);
  add_next_index_stringl(&value, "forty-two", 9);
  add_next_index_long(&value, 42);
  Prepare(&body.result, &value);
  zval_ptr_dtor(&value);
  NotificationLog log;
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  ASSERT_TRUE(RunToItsEnd(event, &log));

  EXPECT_TRUE(ZEND_THREAD_IS_RESULT_LOADED(event));
  EXPECT_TRUE(event->base.flags & ZEND_ASYNC_EVENT_F_ZVAL_RESULT);
  ASSERT_EQ(Z_TYPE(event->result), IS_ARRAY);
  ASSERT_EQ(zend_hash_num_elements(Z_ARRVAL(event->result)), 2u);
  zval* first = zend_hash_index_find(Z_ARRVAL(event->result), 0);
  ASSERT_NE(first, nullptr);
  ASSERT_EQ(Z_TYPE_P(first), IS_STRING);
  EXPECT_STREQ(Z_STRVAL_P(first), "forty-two");
  EXPECT_FALSE(GC_FLAGS(Z_STR_P(first)) & IS_STR_PERSISTENT);
  zval* second = zend_hash_index_find(Z_ARRVAL(event->result), 1);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(Z_LVAL_P(second), 42);
  ReleaseAndQuiesce(event);
}

TEST_F(ThreadEventTest, TheThreadsExceptionArrivesWrappedInARemoteException) {
  Body body;
  body.exception = PrepareException("boom", 7);
  NotificationLog log;
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  ASSERT_TRUE(RunToItsEnd(event, &log));

  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].exception, "Async\\RemoteException: boom");
  zend_object* remote = event->exception;
  ASSERT_NE(remote, nullptr);
  EXPECT_EQ(remote->ce,
            ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_REMOTE));
  zval rv;
  zval* code = zend_read_property_ex(remote->ce, remote,
                                     ZSTR_KNOWN(ZEND_STR_CODE), true, &rv);
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(Z_LVAL_P(code), 7);
  EXPECT_EQ(CallString(remote, "getremoteclass"), "Exception");
  zval original;
  zend_call_method(remote, remote->ce, nullptr, "getremoteexception",
                   strlen("getremoteexception"), &original, 0, nullptr,
                   nullptr);
  ASSERT_EQ(Z_TYPE(original), IS_OBJECT);
  EXPECT_EQ(Z_OBJCE(original), zend_ce_exception);
  EXPECT_EQ(CallString(Z_OBJ(original), "getmessage"), "boom");
  zval_ptr_dtor(&original);

  // Nobody handled it: disposing the event throws it, as upstream does.
  ZEND_ASYNC_EVENT_RELEASE(&event->base);
  EXPECT_EQ(TakeExceptionText(), "Async\\RemoteException: boom");
  ZEND_ASYNC_REACTOR_QUIESCE();
}

TEST_F(ThreadEventTest, AnExceptionACallbackHandledIsNotThrownAgain) {
  Body body;
  body.exception = PrepareException("handled", 0);
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  zend_async_event_callback_t* handler = zend_async_event_callback_new(
      [](zend_async_event_t* event, zend_async_event_callback_t*, void*,
         zend_object* exception) {
        if (exception != nullptr) ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
      },
      0);
  ASSERT_TRUE(event->base.add_callback(&event->base, handler));

  LaunchAndAwait(event);
  ASSERT_TRUE(
      RunUntil([&] { return ZEND_ASYNC_EVENT_IS_CLOSED(&event->base); }));

  EXPECT_TRUE(ZEND_THREAD_IS_EXCEPTION_CONSUMED(event));
  ZEND_ASYNC_EVENT_RELEASE(&event->base);
  EXPECT_EQ(EG(exception), nullptr);
  ZEND_ASYNC_REACTOR_QUIESCE();
}

TEST_F(ThreadEventTest, ABailoutMessageArrivesAsAThreadTransferException) {
  Body body;
  NotificationLog log;
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  // What a thread that bailed out leaves in its context.
  event->context->bailout_error_message =
      pestrdup("Allowed memory size exhausted", 1);
  ASSERT_TRUE(RunToItsEnd(event, &log));

  EXPECT_EQ(log[0].exception,
            "Async\\ThreadTransferException: Allowed memory size exhausted");
  EXPECT_EQ(event->context->bailout_error_message, nullptr);
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&event->base);
  ZEND_THREAD_SET_EXCEPTION_CONSUMED(event);
  ReleaseAndQuiesce(event);
}

TEST_F(ThreadEventTest, AThreadWithoutABodyEndsWithNothingToHandOver) {
  NotificationLog log;
  zend_async_thread_event_t* event = EndedThreadWithoutABody(&log);
  ASSERT_NE(event, nullptr);

  EXPECT_EQ(log[0].exception, "");
  EXPECT_TRUE(Z_ISUNDEF(event->result));
  EXPECT_EQ(event->exception, nullptr);
  ReleaseAndQuiesce(event);
}

TEST_F(ThreadEventTest, ReplayGivesTheOutcomeAgainOnlyAfterTheEnd) {
  Body body;
  HandBackLong(&body, 5);
  NotificationLog log;
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  AddRecorder(&event->base, &log, "done");
  zval early;
  ZVAL_UNDEF(&early);
  EXPECT_FALSE(event->base.replay(&event->base, nullptr, &early, nullptr));

  LaunchAndAwait(event);
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  zval again;
  ZVAL_UNDEF(&again);
  zend_object* exception = nullptr;
  EXPECT_TRUE(event->base.replay(&event->base, nullptr, &again, &exception));
  EXPECT_EQ(Z_TYPE(again), IS_LONG);
  EXPECT_EQ(Z_LVAL(again), 5);
  EXPECT_EQ(exception, nullptr);
  ReleaseAndQuiesce(event);
}

TEST_F(ThreadEventTest, AnEndedThreadEventIsNotStartedAgain) {
  NotificationLog log;
  zend_async_thread_event_t* event = EndedThreadWithoutABody(&log);
  ASSERT_NE(event, nullptr);

  // A closed event cannot be started (the ABI's event comment); what
  // start() returns then is the implementation's (the reference false,
  // php-async true).
  event->base.start(&event->base);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(event->base.loop_ref_count, 0u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ReleaseAndQuiesce(event);
}

TEST_F(ThreadEventTest, StoppingTheLastAwaiterMakesTheEventTransparentAgain) {
  Body body;
  Latch gate;
  body.gate = &gate;
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  LaunchAndAwait(event);
  ASSERT_TRUE(event->base.start(&event->base));  // a second awaiter
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  EXPECT_TRUE(event->base.stop(&event->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  EXPECT_TRUE(event->base.stop(&event->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_HIDDEN(&event->base));

  gate.Open();
  ReleaseAndQuiesce(event);
  EXPECT_EQ(body.runs.load(), 1);
}

TEST_F(ThreadEventTest, DisposingWhileTheThreadRunsDetachesItFromTheEvent) {
  Body body;
  Latch gate;
  body.gate = &gate;
  zend_async_thread_event_t* event = NewThreadEventRunning(&body);
  zend_async_thread_context_t* context = event->context;
  ZEND_ASYNC_THREAD_CONTEXT_ADDREF(context);  // to look at it afterwards
  ASSERT_TRUE(event->base.start(&event->base));

  ZEND_ASYNC_EVENT_RELEASE(&event->base);
  EXPECT_EQ(zend_atomic_ptr_load(&context->event), nullptr);
  gate.Open();
  ZEND_ASYNC_REACTOR_QUIESCE();

  EXPECT_EQ(body.runs.load(), 1);
  EXPECT_EQ(zend_atomic_int_load(&context->ref_count), 1);  // ours
  ZEND_ASYNC_THREAD_CONTEXT_RELEASE(context);
}

TEST_F(ThreadEventTest, ACoroutineAwaitsAThreadThroughItsWaker) {
  Body body;
  HandBackLong(&body, 9);
  EXPECT_TRUE(RunMain([&] {
    zend_async_thread_event_t* event = NewThreadEventRunning(&body);
    ASSERT_TRUE(event->base.start(&event->base));  // the spawn
    EXPECT_TRUE(zar::testing::WaitFor(&event->base));
    EXPECT_EQ(body.runs.load(), 1);
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&event->base));
    EXPECT_EQ(Z_LVAL(event->result), 9);
    ZEND_ASYNC_EVENT_RELEASE(&event->base);
  }));
  ZEND_ASYNC_REACTOR_QUIESCE();
}

TEST_F(ThreadEventTest, StartThreadRunsALightweightThreadWithoutAnEvent) {
  Body body;
  auto* context = static_cast<zend_async_thread_context_t*>(
      pecalloc(1, sizeof(zend_async_thread_context_t), 1));
  ZEND_ATOMIC_INT_INIT(&context->ref_count, 1);  // ours

  const zend_async_thread_handle_t key =
      ZEND_ASYNC_START_THREAD(EntryFor(&body), context);
  EXPECT_NE(key, 0u);
  ZEND_ASYNC_THREAD_CONTEXT_RELEASE(context);  // the thread keeps its own
  ZEND_ASYNC_REACTOR_QUIESCE();

  EXPECT_EQ(body.runs.load(), 1);
  EXPECT_EQ(body.event_seen, nullptr);
  EXPECT_NE(body.thread, std::this_thread::get_id());
}

// The bodies are held at a gate until every thread has reached it and the
// test's thread is about to quiesce, and then some more: a quiesce that did
// not wait would return while they are still held.
TEST_F(ThreadEventTest, QuiesceReturnsOnlyOnceEveryChildThreadHasLeft) {
  constexpr int kThreads = 4;
  Body bodies[kThreads];
  Latch gate;
  std::atomic<int> arrived{0};
  std::atomic<bool> quiescing{false};
  for (Body& body : bodies) {
    body.gate = &gate;
    body.arrived = &arrived;
    auto* context = static_cast<zend_async_thread_context_t*>(
        pecalloc(1, sizeof(zend_async_thread_context_t), 1));
    ZEND_ATOMIC_INT_INIT(&context->ref_count, 1);
    ASSERT_NE(ZEND_ASYNC_START_THREAD(EntryFor(&body), context), 0u);
    ZEND_ASYNC_THREAD_CONTEXT_RELEASE(context);
  }
  std::thread opener([&] {
    // Bounded, so that bodies that never run fail the test instead of
    // hanging it.
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((arrived.load() < kThreads || !quiescing.load()) &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::yield();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.Open();
  });

  quiescing = true;
  ZEND_ASYNC_REACTOR_QUIESCE();

  int finished = 0;
  for (Body& body : bodies) finished += body.finished.load() ? 1 : 0;
  EXPECT_EQ(finished, kThreads);
  opener.join();
}

}  // namespace
}  // namespace zar::thread_pool_testing
