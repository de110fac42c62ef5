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

// A NULL waker constructor/destructor would select the ABI's default; both
// are ours, as upstream's: every coroutine carries its embedded waker from
// creation until it is freed, NewWaker hands it out (cleaned) and
// EmptyWaker empties it without taking it away.
bool RegisterScheduler() {
  return zend_async_scheduler_register(
      kSchedulerModuleName, /*allow_override=*/false,
      /*scheduler_launch_fn=*/&Launch,
      /*new_coroutine_fn=*/&NewCoroutine,
      /*new_scope_fn=*/&NewScope,
      /*new_context_fn=*/&NewContext,
      /*spawn_fn=*/&Spawn,
      /*suspend_fn=*/&Suspend,
      /*enqueue_coroutine_fn=*/&Enqueue,
      /*resume_fn=*/&Resume,
      /*cancel_fn=*/&Cancel,
      /*scope_await_after_cancellation_fn=*/&ScopeAwaitAfterCancellation,
      /*spawn_and_throw_fn=*/&SpawnAndThrow,
      /*shutdown_fn=*/&Shutdown,
      /*waker_new_fn=*/&NewWaker,
      /*waker_destroy_fn=*/&EmptyWaker,
      /*get_coroutines_fn=*/&GetCoroutines,
      /*add_microtask_fn=*/&AddMicrotask,
      /*get_awaiting_info_fn=*/&GetAwaitingInfo,
      /*get_class_ce_fn=*/&GetClassCe,
      /*new_iterator_fn=*/&NewIterator,
      /*new_future_fn=*/&NewFuture,
      /*new_channel_fn=*/&NewChannel,
      /*new_future_obj_fn=*/&NewFutureObject,
      /*new_channel_obj_fn=*/&NewChannelObject,
      /*new_group_fn=*/&NewGroup,
      /*engine_shutdown_fn=*/&EngineShutdown,
      // The thread lifecycle (core/thread_pool/thread.h).
      /*thread_snapshot_create_fn=*/&thread_pool::ThreadSnapshotCreate,
      /*thread_snapshot_destroy_fn=*/&thread_pool::ThreadSnapshotDestroy,
      /*thread_run_fn=*/&thread_pool::ThreadRun,
      /*thread_load_result_fn=*/&thread_pool::ThreadLoadResult);
}

}  // namespace zar::core
