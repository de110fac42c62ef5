#include "core/thread_pool/worker_pool.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

#include "core/internal/php_object.h"
#include "core/reactor/thread_event.h"
#include "core/thread_pool/thread.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "php.h"
#include "zend_async_ref/park.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core::thread_pool {
namespace {

zend_class_entry* thread_pool_exception_ce = nullptr;
zend_class_entry* thread_channel_exception_ce = nullptr;

void ThrowPoolError(const char* message) {
  zend_throw_exception(thread_pool_exception_ce, message, 0);
}

// One submitted task.
struct PoolTask {
  zend_thread_pool_internal_handler_t handler;
  void* ctx;  // the caller's
  // The task's reference to its future; the request's thread only. NULL
  // once the request let go of it (a worker still running the task then
  // just frees the task).
  zend_future_t* future;
};

struct WorkerPool {
  zend_async_thread_pool_t base;  // ABI structure (must be first)

  std::mutex mutex;
  std::condition_variable work;  // a task was queued, or the pool closed
  // Under `mutex`:
  std::deque<PoolTask*> queue;      // waiting for a worker, FIFO
  std::vector<PoolTask*> running;   // in a handler
  std::vector<PoolTask*> finished;  // handler returned, future not settled
  std::vector<zend_async_trigger_event_t*> parked;  // submitters awaiting room
  int live_workers = 0;
  // Wakes the request's thread for `finished`; NULL before the first
  // submit and after the request let go of the pool.
  zend_async_trigger_event_t* notifier = nullptr;

  size_t capacity = 0;  // queued tasks at most
  bool coroutine_mode = false;
  int32_t concurrency = 0;

  // The request's thread only:
  uint32_t id = 0;         // names the pool in traces: WorkerPool#<id>
  uint32_t in_flight = 0;  // futures not settled yet (the notifier is
                           // started while there are any)
  WorkerPool* next_in_request = nullptr;

  static WorkerPool* FromBase(zend_async_thread_pool_t* base) {
    return reinterpret_cast<WorkerPool*>(base);
  }
};

// The pools the request made (the request's thread), newest first.
WorkerPool* request_pools = nullptr;
uint32_t last_pool_id = 0;  // the request's thread

[[gnu::cold]] void TracePool(const WorkerPool* pool, const char* what) {
  zend_async_ref_trace("worker pool %s WorkerPool#%u", what, pool->id);
}

// The notifier's callback, which knows its pool.
struct FinishedCallback {
  zend_async_event_callback_t base;
  WorkerPool* pool;
};

bool IsClosed(WorkerPool* pool) {
  return zend_atomic_int_load(&pool->base.closed) != 0;
}

// Wakes every submitter parked on a full queue (under `mutex`): each one
// looks again.
void WakeParked(WorkerPool* pool) {
  for (zend_async_trigger_event_t* trigger : pool->parked) {
    trigger->trigger(trigger);
  }
}

// ---- Workers ---------------------------------------------------------------

// A worker's body (start_thread's internal entry): takes tasks until the
// pool is closed and its queue empty. No engine here.
void WorkerMain(zend_async_thread_event_t*, void* arg) {
  auto* pool = static_cast<WorkerPool*>(arg);
  std::unique_lock<std::mutex> lock(pool->mutex);
  for (;;) {
    pool->work.wait(lock,
                    [pool] { return !pool->queue.empty() || IsClosed(pool); });
    if (pool->queue.empty()) break;  // closed, and nothing left to run
    PoolTask* task = pool->queue.front();
    pool->queue.pop_front();
    pool->running.push_back(task);
    zend_atomic_int_dec(&pool->base.pending_count);
    zend_atomic_int_inc(&pool->base.running_count);
    WakeParked(pool);  // a place in the queue is free
    lock.unlock();

    task->handler(nullptr, task->ctx);

    lock.lock();
    zend_atomic_int_dec(&pool->base.running_count);
    zend_atomic_int_inc(&pool->base.completed_count);
    pool->running.erase(
        std::find(pool->running.begin(), pool->running.end(), task));
    if (pool->notifier != nullptr) {
      pool->finished.push_back(task);
      pool->notifier->trigger(pool->notifier);
    } else {
      delete task;  // the request let go of it
    }
  }
  pool->live_workers--;
  lock.unlock();
  ZEND_THREAD_POOL_DELREF(&pool->base);
}

// ---- The request's thread --------------------------------------------------

// Settles the futures of the tasks the workers finished.
void OnFinished(zend_async_event_t*, zend_async_event_callback_t* callback,
                void*, zend_object*) {
  WorkerPool* pool = reinterpret_cast<FinishedCallback*>(callback)->pool;
  std::vector<PoolTask*> done;
  {
    std::lock_guard<std::mutex> lock(pool->mutex);
    done.swap(pool->finished);
  }
  for (PoolTask* task : done) {
    zval undefined{};  // no result: the handler has no engine to make one
    ZVAL_UNDEF(&undefined);
    ZEND_FUTURE_COMPLETE(task->future, &undefined);
    ZEND_ASYNC_EVENT_RELEASE(&task->future->event);
    delete task;
    if (ZEND_ASYNC_REF_TRACING()) TracePool(pool, "done");
    if (--pool->in_flight == 0 && pool->notifier != nullptr) {
      pool->notifier->base.stop(&pool->notifier->base);
    }
  }
}

bool EnsureNotifier(WorkerPool* pool) {
  if (pool->notifier != nullptr) return true;
  zend_async_trigger_event_t* notifier = ZEND_ASYNC_NEW_TRIGGER_EVENT();
  if (notifier == nullptr) return false;
  auto* callback = reinterpret_cast<FinishedCallback*>(
      zend_async_event_callback_new(OnFinished, sizeof(FinishedCallback)));
  callback->pool = pool;
  notifier->base.add_callback(&notifier->base, &callback->base);
  std::lock_guard<std::mutex> lock(pool->mutex);
  pool->notifier = notifier;
  return true;
}

// Returns once the queue has room (true), or false with the exception
// thrown: the pool closed, no coroutine to suspend, or the wait failed.
bool WaitForRoom(WorkerPool* pool) {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(pool->mutex);
      if (IsClosed(pool)) break;
      if (pool->queue.size() < pool->capacity) return true;
    }
    // Outside a coroutine the scheduler is launched, so that the caller
    // becomes the main coroutine (as a channel's or a pool's wait does).
    if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr) {
      ZEND_ASYNC_SCHEDULER_LAUNCH();
      if (EG(exception) != nullptr) return false;
    }
    zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
    if (coroutine == nullptr) {
      ThrowPoolError("ThreadPool queue is full");
      return false;
    }
    zend_async_trigger_event_t* room = ZEND_ASYNC_NEW_TRIGGER_EVENT();
    if (room == nullptr) return false;
    {
      std::lock_guard<std::mutex> lock(pool->mutex);
      pool->parked.push_back(room);
      // A worker that took a task before the line above found no one to
      // wake: look again with the trigger in place.
      if (IsClosed(pool) || pool->queue.size() < pool->capacity) {
        room->trigger(room);
      }
    }
    // Parked on the trigger (the room stays ours: taken out of the list and
    // let go whatever the wait's outcome); false with the wait's exception.
    zend_async_ref_park_t park = {};
    park.events[0].event = &room->base;
    const bool resumed = zend_async_ref_park(coroutine, &park);
    {
      std::lock_guard<std::mutex> lock(pool->mutex);
      pool->parked.erase(
          std::find(pool->parked.begin(), pool->parked.end(), room));
    }
    ZEND_ASYNC_EVENT_RELEASE(&room->base);
    if (!resumed) return false;
  }
  // As upstream's submit, which waits for room in its task channel's send:
  // the channel's own exception, which the pool leaves in place.
  zend_throw_exception(thread_channel_exception_ce, "ThreadChannel is closed",
                       0);
  return false;
}

zend_async_event_t* SubmitInternal(zend_async_thread_pool_t* base,
                                   zend_thread_pool_internal_handler_t handler,
                                   void* ctx) {
  WorkerPool* pool = WorkerPool::FromBase(base);
  if (IsClosed(pool)) {
    ThrowPoolError("ThreadPool is closed");
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(pool->mutex);
    if (pool->live_workers == 0) {
      ThrowPoolError("ThreadPool has no live worker threads");
      return nullptr;
    }
  }
  if (!EnsureNotifier(pool) || !WaitForRoom(pool)) return nullptr;
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE(false);
  if (future == nullptr) return nullptr;
  ZEND_ASYNC_EVENT_ADD_REF(&future->event);  // the task's
  auto* task = new PoolTask{handler, ctx, future};
  {
    std::lock_guard<std::mutex> lock(pool->mutex);
    pool->queue.push_back(task);
    zend_atomic_int_inc(&pool->base.pending_count);
  }
  pool->work.notify_one();
  if (ZEND_ASYNC_REF_TRACING()) TracePool(pool, "submit");
  if (pool->in_flight++ == 0) {
    pool->notifier->base.start(&pool->notifier->base);
  }
  ZEND_FUTURE_SET_USED(future);
  return &future->event;
}

void Close(zend_async_thread_pool_t* base) {
  WorkerPool* pool = WorkerPool::FromBase(base);
  std::lock_guard<std::mutex> lock(pool->mutex);
  zend_atomic_int_store(&pool->base.closed, 1);
  pool->work.notify_all();
  WakeParked(pool);
}

void Dispose(zend_async_thread_pool_t* base) {
  WorkerPool* pool = WorkerPool::FromBase(base);
  for (PoolTask* task : pool->queue)
    delete task;  // never ran; ctx is the
                  // caller's
  pefree(pool->base.workers, 1);
  delete pool;
}

// The request lets go of `pool`: see worker_pool.h ("Request end").
void Detach(WorkerPool* pool) {
  Close(&pool->base);
  std::deque<PoolTask*> dropped;
  std::vector<PoolTask*> finished;
  std::vector<zend_future_t*> running;
  zend_async_trigger_event_t* notifier;
  {
    std::lock_guard<std::mutex> lock(pool->mutex);
    dropped.swap(pool->queue);
    zend_atomic_int_store(&pool->base.pending_count, 0);
    finished.swap(pool->finished);
    for (PoolTask* task : pool->running) {
      running.push_back(task->future);
      task->future = nullptr;
    }
    notifier = pool->notifier;
    pool->notifier = nullptr;
  }
  for (PoolTask* task : dropped) {
    ZEND_ASYNC_EVENT_RELEASE(&task->future->event);
    delete task;
  }
  for (PoolTask* task : finished) {
    ZEND_ASYNC_EVENT_RELEASE(&task->future->event);
    delete task;
  }
  for (zend_future_t* future : running) {
    ZEND_ASYNC_EVENT_RELEASE(&future->event);
  }
  pool->in_flight = 0;
  if (notifier != nullptr) {
    notifier->base.stop(&notifier->base);
    ZEND_ASYNC_EVENT_RELEASE(&notifier->base);
  }
  ZEND_THREAD_POOL_DELREF(&pool->base);  // the request's reference
}

// Starts worker `index`; false (nothing left behind) if it could not.
bool StartWorker(WorkerPool* pool, int32_t index) {
  auto* entry = static_cast<zend_async_thread_internal_entry_t*>(
      pemalloc(sizeof(zend_async_thread_internal_entry_t), 1));
  entry->handler = WorkerMain;
  entry->ctx = pool;
  // No event; start_thread takes the thread's reference.
  auto* context = static_cast<zend_async_thread_context_t*>(
      pecalloc(1, sizeof(zend_async_thread_context_t), 1));
  // The worker's pool reference and count, before it can end and drop
  // them.
  ZEND_THREAD_POOL_ADDREF(&pool->base);
  {
    std::lock_guard<std::mutex> lock(pool->mutex);
    pool->live_workers++;
  }
  const zend_async_thread_handle_t key =
      ZEND_ASYNC_START_THREAD(entry, context);
  if (key == 0) {
    {
      std::lock_guard<std::mutex> lock(pool->mutex);
      pool->live_workers--;
    }
    zend_atomic_int_dec(&pool->base.ref_count);  // the caller's remains
    pefree(entry, 1);
    pefree(context, 1);
    return false;
  }
  pool->base.workers[index] = key;
  return true;
}

}  // namespace

zend_async_thread_pool_t* NewWorkerPool(int32_t worker_count,
                                        int32_t queue_size,
                                        const zend_fcall_t* bootloader,
                                        bool coroutine_mode,
                                        int32_t concurrency) {
  if (bootloader != nullptr) {
    // A PHP callable: refused (thread.h).
    ThrowPoolError(kCallableRefused);
    return nullptr;
  }
  const int32_t workers = std::max(worker_count, 0);
  auto* pool = new WorkerPool;
  std::memset(static_cast<void*>(&pool->base), 0, sizeof(pool->base));
  ZEND_ATOMIC_INT_INIT(&pool->base.ref_count,
                       2);  // the caller's, the request's
  pool->base.close = Close;
  pool->base.dispose = Dispose;
  pool->base.submit_internal = SubmitInternal;
  pool->base.reload = nullptr;
  pool->base.workers = static_cast<zend_async_thread_handle_t*>(
      pecalloc(std::max(workers, 1), sizeof(zend_async_thread_handle_t), 1));
  pool->capacity = queue_size > 0
                       ? static_cast<size_t>(queue_size)
                       : std::max<size_t>(1, 4 * static_cast<size_t>(workers));
  pool->coroutine_mode = coroutine_mode;
  pool->concurrency = concurrency;
  pool->next_in_request = request_pools;
  pool->id = ++last_pool_id;
  request_pools = pool;

  for (int32_t i = 0; i < workers; i++) {
    if (!StartWorker(pool, i)) {
      zend_clear_exception();  // start_thread's, replaced below
      ThrowPoolError("Failed to start worker thread");
      Close(&pool->base);
      ZEND_THREAD_POOL_DELREF(&pool->base);  // the caller's: NULL returned
      return nullptr;  // the request's reference goes at request end
    }
    pool->base.worker_count = i + 1;
  }
  if (ZEND_ASYNC_REF_TRACING()) TracePool(pool, "new");
  return &pool->base;
}

void ResetWorkerPoolIds() { last_pool_id = 0; }

void ShutdownWorkerPools() {
  WorkerPool* pool = request_pools;
  request_pools = nullptr;
  while (pool != nullptr) {
    WorkerPool* next = pool->next_in_request;
    Detach(pool);
    pool = next;
  }
}

bool RegisterThreadPoolExceptionClasses(zend_class_entry* async_exception) {
  thread_pool_exception_ce = core::internal::RegisterClass(
      {.name = "Async\\ThreadPoolException", .parent = zend_ce_exception});
  thread_channel_exception_ce = core::internal::RegisterClass(
      {.name = "Async\\ThreadChannelException", .parent = async_exception});
  return thread_pool_exception_ce != nullptr &&
         thread_channel_exception_ce != nullptr;
}

}  // namespace zar::core::thread_pool
