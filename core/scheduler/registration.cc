#include "core/scheduler/registration.h"

#include "core/channel/channel.h"
#include "core/channel/object.h"
#include "core/extension.h"
#include "core/future/future.h"
#include "core/future/object.h"
#include "core/iterator/iterator.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/context.h"
#include "core/scheduler/scheduler.h"
#include "core/scheduler/scope.h"
#include "core/task_group/task_group.h"
#include "core/thread_pool/thread.h"

namespace zar::core {
namespace {

// Every operation of the scheduler group, in the register function's
// order. A NULL waker constructor/destructor would select the ABI's
// default; both are ours, as upstream's: every coroutine carries its
// embedded waker from creation until it is freed, NewWaker hands it out
// (cleaned) and EmptyWaker empties it without taking it away.
struct SchedulerRegistration {
  zend_async_scheduler_launch_t scheduler_launch;
  zend_async_new_coroutine_t new_coroutine;
  zend_async_new_scope_t new_scope;
  zend_async_new_context_t new_context;
  zend_async_spawn_t spawn;
  zend_async_suspend_t suspend;
  zend_async_enqueue_coroutine_t enqueue_coroutine;
  zend_async_resume_t resume;
  zend_async_cancel_t cancel;
  zend_async_scope_await_after_cancellation_t scope_await_after_cancellation;
  zend_async_spawn_and_throw_t spawn_and_throw;
  zend_async_shutdown_t shutdown;
  zend_async_waker_new_t waker_new;
  zend_async_waker_destroy_t waker_destroy;
  zend_async_get_coroutines_t get_coroutines;
  zend_async_add_microtask_t add_microtask;
  zend_async_get_awaiting_info_t get_awaiting_info;
  zend_async_get_class_ce_t get_class_ce;
  zend_async_new_iterator_t new_iterator;
  zend_async_new_future_t new_future;
  zend_async_new_channel_t new_channel;
  zend_async_new_future_obj_t new_future_obj;
  zend_async_new_channel_obj_t new_channel_obj;
  zend_async_new_group_t new_group;
  zend_async_engine_shutdown_t engine_shutdown;
  zend_async_thread_snapshot_create_t thread_snapshot_create;
  zend_async_thread_snapshot_destroy_t thread_snapshot_destroy;
  zend_async_thread_run_t thread_run;
  zend_async_thread_load_result_t thread_load_result;
};

constexpr SchedulerRegistration kScheduler = {
    .scheduler_launch = &Launch,
    .new_coroutine = &NewCoroutine,
    .new_scope = &NewScope,
    .new_context = &NewContext,
    .spawn = &Spawn,
    .suspend = &Suspend,
    .enqueue_coroutine = &Enqueue,
    .resume = &Resume,
    .cancel = &Cancel,
    .scope_await_after_cancellation = &ScopeAwaitAfterCancellation,
    .spawn_and_throw = &SpawnAndThrow,
    .shutdown = &Shutdown,
    .waker_new = &NewWaker,
    .waker_destroy = &EmptyWaker,
    .get_coroutines = &GetCoroutines,
    .add_microtask = &AddMicrotask,
    .get_awaiting_info = &GetAwaitingInfo,
    .get_class_ce = &GetClassCe,
    .new_iterator = &NewIterator,
    .new_future = &NewFuture,
    .new_channel = &NewChannel,
    .new_future_obj = &NewFutureObject,
    .new_channel_obj = &NewChannelObject,
    .new_group = &NewGroup,
    .engine_shutdown = &EngineShutdown,
    // The thread lifecycle (core/thread_pool/thread.h).
    .thread_snapshot_create = &thread_pool::ThreadSnapshotCreate,
    .thread_snapshot_destroy = &thread_pool::ThreadSnapshotDestroy,
    .thread_run = &thread_pool::ThreadRun,
    .thread_load_result = &thread_pool::ThreadLoadResult,
};

}  // namespace

bool RegisterScheduler() {
  const SchedulerRegistration& t = kScheduler;
  return zend_async_scheduler_register(
      kSchedulerModuleName, /*allow_override=*/false, t.scheduler_launch,
      t.new_coroutine, t.new_scope, t.new_context, t.spawn, t.suspend,
      t.enqueue_coroutine, t.resume, t.cancel, t.scope_await_after_cancellation,
      t.spawn_and_throw, t.shutdown, t.waker_new, t.waker_destroy,
      t.get_coroutines, t.add_microtask, t.get_awaiting_info, t.get_class_ce,
      t.new_iterator, t.new_future, t.new_channel, t.new_future_obj,
      t.new_channel_obj, t.new_group, t.engine_shutdown,
      t.thread_snapshot_create, t.thread_snapshot_destroy, t.thread_run,
      t.thread_load_result);
}

}  // namespace zar::core
