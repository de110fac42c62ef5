// zar_gdb_fixture: a request stopped in the middle, for the gdb helpers'
// test (run_gdb.cmake, golden file gdb_expected.txt).
//
// The main script sets up, through the ABI only, everything the helpers
// print, then calls zar_gdb_breakpoint_here() (the debugger stops there;
// the state is in RunScene's locals, frame 1, and in `scene`):
//
//   finished   a coroutine that returned int(42) (a reference is kept)
//   cancelled  a coroutine cancelled while it slept on a timer
//   pool       max 3: the main coroutine holds two resources, one is idle
//              and reserved for waiter1 (queued: woken, not yet run),
//              waiter2 waits; so idle 1, active 2, reserved 1, waiters 2
//   fresh      spawned by C code with no script position, never run
//              (queued)
//   channel    capacity 1 holding int(1); `sender` is parked sending
//              string "two" (buffer full)
//   parked     a coroutine of each other kind of wait, each parked through
//              the waker (resume_when) as an extension's C code parks:
//              `sleeper` on a one-shot 60 s timer, `receiver` on the empty
//              channel `inbox` (capacity 1), `joiner` awaiting the sleeper,
//              `taker1` then `taker2` awaiting the future `awaited`,
//              `settler` awaiting the task group `group` (no tasks: it waits
//              for the next settling) and `reader` on the pipe handle `io`
//              while main's 16-byte read `read` is in flight on it (`io` is
//              descriptor 100, one end of a socket pair)
//   timer      a periodic, HIDDEN timer event that was never started
//   zvals      int, string, object, pointer, array, null, float, bool
//   futures    `settled`, completed with int(42) at scene.php:13 (made at
//              12); `pending`, made at scene.php:14, with a chain
//              subscription in its resolve_callbacks
//
// Locations are fake script positions (zend_mock_set_location): "spawned
// at" is where the spawn happened (for `fresh`, the C line that spawned
// it), "suspended at" where the coroutine suspended. After the breakpoint the
// parked coroutines are woken (the future completed, a value sent, the others
// resumed), everything is released and the request ends; the exit status is 0
// when nothing leaked.
//
// Built with -O0 so that the locals stay readable.

#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "core/extension.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php_main.h"
}

extern "C" [[gnu::noinline]] void zar_gdb_breakpoint_here(void) {
  // Keeps the call from being optimised away.
  __asm__ volatile("" ::: "memory");
}

namespace {

constexpr char kScript[] = "scene.php";

// What the coroutine entries need (they take no arguments).
struct Scene {
  zend_async_pool_t* pool = nullptr;
  zend_async_channel_t* channel = nullptr;
  zend_long resources_made = 0;
  zend_async_channel_t* inbox = nullptr;
  // The coroutines AwaitEvent runs and the event each of them awaits.
  std::vector<std::pair<zend_coroutine_t*, zend_async_event_t*>> awaiting;
};

Scene scene;

bool Factory(zend_async_pool_t*, zval* result) {
  ZVAL_LONG(result, ++scene.resources_made);
  return true;
}

void Destructor(zend_async_pool_t*, zval*) {}

// Suspends the current coroutine until `event` notifies it, or it is
// resumed or cancelled; with `owned`, the waker takes the caller's
// reference to the event (and releases it when cleaned).
void WaitFor(zend_async_event_t* event, bool owned) {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  ZEND_ASYNC_WAKER_NEW(self);
  zend_async_resume_when(self, event, owned, zend_async_waker_callback_resolve,
                         nullptr);
  ZEND_ASYNC_SUSPEND();
  zend_async_waker_clean(self);
}

// Suspends the current coroutine until a one-shot timer fires (or the
// coroutine is resumed or cancelled).
void Sleep(zend_ulong ms) {
  WaitFor(&ZEND_ASYNC_NEW_TIMER_EVENT(ms, false)->base, true);
}

// Lets every other queued coroutine run once.
void Yield() {
  ZEND_ASYNC_ENQUEUE_COROUTINE(ZEND_ASYNC_CURRENT_COROUTINE);
  ZEND_ASYNC_SUSPEND();
}

zend_coroutine_t* SpawnAt(uint32_t line, zend_coroutine_entry_t entry) {
  zend_mock_set_location(kScript, line);
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN();
  coroutine->internal_entry = entry;
  return coroutine;
}

void ReturnFortyTwo() { ZVAL_LONG(&ZEND_ASYNC_CURRENT_COROUTINE->result, 42); }

// Cancelled while it sleeps: the cancellation becomes its outcome.
void SleepLong() {
  zend_mock_set_location(kScript, 30);
  Sleep(60000);
}

// Parks on the full channel until the main coroutine receives.
void SendTwo() {
  zend_mock_set_location(kScript, 50);
  zval two;
  ZVAL_STRING(&two, "two");
  scene.channel->send(scene.channel, &two);
  zval_ptr_dtor(&two);
}

void AcquireAndRelease() {
  zend_mock_set_location(kScript, 40);
  zval resource;
  if (ZEND_ASYNC_POOL_ACQUIRE(scene.pool, &resource, 0)) {
    ZEND_ASYNC_POOL_RELEASE(scene.pool, &resource);
    zval_ptr_dtor(&resource);
  }
}

// Parked on a 60 s timer until the main coroutine resumes it.
void SleepUntilResumed() {
  zend_mock_set_location(kScript, 21);
  Sleep(60000);
}

// Parks on the empty inbox until the main coroutine sends.
void ReceiveOne() {
  zend_mock_set_location(kScript, 22);
  zval value;
  if (scene.inbox->receive(scene.inbox, &value, nullptr)) {
    zval_ptr_dtor(&value);
  }
}

// Awaits the event SpawnAwaiting gave the coroutine, suspending where it
// was spawned.
void AwaitEvent() {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  for (const auto& [coroutine, event] : scene.awaiting) {
    if (coroutine != self) continue;
    zend_mock_set_location(kScript, self->lineno);
    WaitFor(event, false);
    return;
  }
}

zend_coroutine_t* SpawnAwaiting(uint32_t line, zend_async_event_t* event) {
  zend_coroutine_t* coroutine = SpawnAt(line, AwaitEvent);
  scene.awaiting.emplace_back(coroutine, event);
  return coroutine;
}

// The pending future's chain subscription (never called).
void IgnoreSettled(zend_async_event_t*, zend_async_event_callback_t*, void*,
                   zend_object*) {}

void RunScene(void*) {
  zend_mock_set_location(kScript, 2);
  // First, before any other coroutine exists: a thread that ran and ended
  // (result UNDEF), and one never started.
  zend_async_thread_event_t* ended =
      ZEND_ASYNC_NEW_THREAD_EVENT(nullptr, nullptr);
  ended->base.start(&ended->base);  // the spawn
  ended->base.start(&ended->base);  // an awaiter
  while (!ZEND_ASYNC_EVENT_IS_CLOSED(&ended->base)) Yield();
  zend_async_thread_event_t* unstarted =
      ZEND_ASYNC_NEW_THREAD_EVENT(nullptr, nullptr);
  // A worker pool of two that ran one task and was closed.
  zend_async_thread_pool_t* workers = ZEND_ASYNC_NEW_THREAD_POOL(2, 0);
  zend_async_event_t* task = workers->submit_internal(
      workers, [](zend_async_event_t*, void*) {}, nullptr);
  while (!ZEND_ASYNC_EVENT_IS_CLOSED(task)) Yield();
  ZEND_ASYNC_EVENT_RELEASE(task);
  workers->close(workers);
  ZEND_ASYNC_REACTOR_QUIESCE();  // both workers have left

  zend_coroutine_t* finished = SpawnAt(2, ReturnFortyTwo);
  ZEND_ASYNC_EVENT_ADD_REF(&finished->event);
  zend_coroutine_t* cancelled = SpawnAt(3, SleepLong);
  ZEND_ASYNC_EVENT_ADD_REF(&cancelled->event);
  Yield();  // finished returns; cancelled falls asleep
  ZEND_ASYNC_CANCEL(cancelled, nullptr, false);
  Yield();  // cancelled wakes up with the cancellation and ends

  zend_mock_set_location(kScript, 4);
  scene.channel = ZEND_ASYNC_NEW_CHANNEL(1, false, false);
  zend_async_channel_t* channel = scene.channel;
  zval one;
  ZVAL_LONG(&one, 1);
  channel->send(channel, &one);
  zend_coroutine_t* sender = SpawnAt(4, SendTwo);
  Yield();  // the sender parks: the buffer is full

  zend_mock_set_location(kScript, 20);
  scene.inbox = ZEND_ASYNC_NEW_CHANNEL(1, false, false);
  zend_future_t* awaited = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_FUTURE_SET_IGNORED(awaited);
  zend_async_group_t* group = ZEND_ASYNC_NEW_GROUP(0, 0, nullptr);
  // Descriptor 100, so that what gdb prints does not depend on what else
  // the process has open.
  int pair[2];
  socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair);
  dup2(pair[0], 100);
  close(pair[0]);
  zend_async_io_t* io =
      ZEND_ASYNC_IO_CREATE(100, ZEND_ASYNC_IO_TYPE_PIPE,
                           ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_WRITABLE);
  zend_async_io_req_t* read = ZEND_ASYNC_IO_READ(io, nullptr, 16);
  zend_coroutine_t* sleeper = SpawnAt(21, SleepUntilResumed);
  zend_coroutine_t* receiver = SpawnAt(22, ReceiveOne);
  zend_coroutine_t* joiner = SpawnAwaiting(23, &sleeper->event);
  zend_coroutine_t* taker1 = SpawnAwaiting(24, &awaited->event);
  zend_coroutine_t* taker2 = SpawnAwaiting(24, &awaited->event);
  zend_coroutine_t* settler = SpawnAwaiting(25, &group->event);
  // On the pipe handle, where main's read is in flight.
  zend_coroutine_t* reader = SpawnAwaiting(26, &io->event);
  Yield();  // each parks

  zend_mock_set_location(kScript, 5);
  scene.pool = ZEND_ASYNC_NEW_POOL(Factory, Destructor, nullptr, nullptr,
                                   nullptr, 1, 3, 0);
  zend_async_pool_t* pool = scene.pool;
  zval held[3];
  for (zval& resource : held) ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0);
  zend_coroutine_t* waiter1 = SpawnAt(7, AcquireAndRelease);
  zend_coroutine_t* waiter2 = SpawnAt(8, AcquireAndRelease);
  Yield();  // both wait: the pool is exhausted
  zend_mock_set_location(kScript, 9);
  ZEND_ASYNC_POOL_RELEASE(pool, &held[0]);  // reserved for waiter1
  zval_ptr_dtor(&held[0]);
  // Spawned by C code with no script position: its "spawned at" is this
  // line, the spawn's caller.
  zend_mock_set_location(nullptr, 0);
  zend_coroutine_t* fresh = ZEND_ASYNC_SPAWN();
  fresh->internal_entry = ReturnFortyTwo;

  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(250, true);
  ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);

  zval zv_long, zv_string, zv_object, zv_ptr, zv_array, zv_null, zv_double,
      zv_bool;
  ZVAL_LONG(&zv_long, 42);
  ZVAL_STRING(&zv_string, "x");
  ZVAL_OBJ_COPY(&zv_object, ZEND_ASYNC_EVENT_TO_OBJECT(&finished->event));
  ZVAL_PTR(&zv_ptr, pool);
  array_init(&zv_array);
  add_next_index_long(&zv_array, 1);
  add_next_index_long(&zv_array, 2);
  add_next_index_string(&zv_array, "three");
  ZVAL_NULL(&zv_null);
  ZVAL_DOUBLE(&zv_double, 1.5);
  ZVAL_TRUE(&zv_bool);

  zend_mock_set_location(kScript, 12);
  zend_future_t* settled = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_FUTURE_SET_IGNORED(settled);
  zend_mock_set_location(kScript, 13);
  ZEND_FUTURE_COMPLETE(settled, &zv_long);
  zend_mock_set_location(kScript, 14);
  zend_future_t* pending = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_FUTURE_SET_IGNORED(pending);
  zend_async_callbacks_vector_push(&pending->resolve_callbacks,
                                   ZEND_ASYNC_EVENT_CALLBACK(IgnoreSettled));

  zar_gdb_breakpoint_here();

  ZEND_ASYNC_EVENT_RELEASE(&ended->base);
  ZEND_ASYNC_EVENT_RELEASE(&unstarted->base);
  ZEND_THREAD_POOL_DELREF(workers);

  ZEND_ASYNC_EVENT_RELEASE(&settled->event);
  ZEND_ASYNC_EVENT_RELEASE(&pending->event);

  (void)waiter1;
  (void)waiter2;
  (void)fresh;
  (void)sender;
  (void)receiver;
  (void)joiner;
  (void)taker1;
  (void)taker2;
  // The parked coroutines are woken: the takers by the future, the
  // receiver by a value, the sleeper (and with its end the joiner), the
  // settler and the reader by a resume.
  ZEND_FUTURE_COMPLETE(awaited, &zv_long);
  scene.inbox->send(scene.inbox, &one);
  ZEND_ASYNC_RESUME(sleeper);
  ZEND_ASYNC_RESUME(settler);
  ZEND_ASYNC_RESUME(reader);
  ZEND_ASYNC_POOL_RELEASE(pool, &held[1]);
  ZEND_ASYNC_POOL_RELEASE(pool, &held[2]);
  zval_ptr_dtor(&held[1]);
  zval_ptr_dtor(&held[2]);
  zval received;
  for (int i = 0; i < 2; i++) {  // int(1), then the sender's "two"
    if (channel->receive(channel, &received, nullptr)) {
      zval_ptr_dtor(&received);
    }
  }
  while (ZEND_ASYNC_ACTIVE_COROUTINE_COUNT > 1) Yield();
  ZEND_ASYNC_EVENT_RELEASE(&channel->event);
  scene.channel = nullptr;
  ZEND_ASYNC_EVENT_RELEASE(&scene.inbox->event);
  scene.inbox = nullptr;
  scene.awaiting.clear();
  ZEND_ASYNC_EVENT_RELEASE(&awaited->event);
  ZEND_ASYNC_EVENT_RELEASE(&group->event);
  ZEND_ASYNC_POOL_CLOSE(pool);
  ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  scene.pool = nullptr;
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
  read->dispose(read);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  close(pair[1]);
  ZEND_ASYNC_EVENT_RELEASE(&finished->event);
  ZEND_ASYNC_EVENT_RELEASE(&cancelled->event);
  zval_ptr_dtor(&zv_string);
  zval_ptr_dtor(&zv_object);
  zval_ptr_dtor(&zv_array);
}

}  // namespace

int main() {
  sapi_startup(&php_mock_sapi_module);
  if (php_module_startup(&php_mock_sapi_module, &zar_async_module_entry) !=
      SUCCESS) {
    return 1;
  }
  if (php_request_startup() != SUCCESS) return 1;
  const bool completed = php_execute_main(RunScene, nullptr);
  php_request_shutdown(nullptr);
  const php_mock_request_report report = php_mock_last_request_report();
  php_module_shutdown();
  sapi_shutdown();
  if (!completed || report.leaked_blocks != 0 ||
      report.objects_alive_at_shutdown != 0) {
    fprintf(stderr, "zar_gdb_fixture: %s, %zu blocks leaked, %u objects\n",
            completed ? "completed" : "bailed out", report.leaked_blocks,
            report.objects_alive_at_shutdown);
    return 1;
  }
  return 0;
}
