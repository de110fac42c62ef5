#include "core/thread_pool/task.h"

#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::thread_pool {
namespace {

using reactor::EventCore;

struct TaskEvent : reactor::EventOf<TaskEvent> {
  zend_async_task_t abi;  // ABI structure (must be first)
  EventCore core;

  static zend_string* Info(zend_async_event_t*) {
    return zend_string_init(ZEND_STRL("ThreadPoolTask"), 0);
  }
};

// One submission: libuv's request and the task it runs (a task may be
// queued again while in flight, each submission with its own request).
struct Work {
  uv_work_t request;
  TaskEvent* task;
};

[[gnu::cold]] void TraceQueue(EventCore* core) {
  zend_async_ref_trace("task queue %s", reactor::EventName(core).c_str());
}

[[gnu::cold]] void TraceDone(EventCore* core, int status) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("task done %s%s", reactor::EventToken(core, token),
                       status == UV_ECANCELED ? " -> cancelled" : "");
}

// On a worker thread: the task's function, nothing else.
void OnWork(uv_work_t* request) {
  zend_async_task_t* task = &static_cast<Work*>(request->data)->task->abi;
  task->run(task);
}

// On the request's thread, in the loop.
void OnAfterWork(uv_work_t* request, int status) {
  auto* work = static_cast<Work*>(request->data);
  TaskEvent* self = work->task;
  uv_loop_t* loop = request->loop;
  efree(work);  // `request` with it
  if (!reactor::EndRequest(&self->core)) {
    return;  // destroyed at request end: nobody is left to notify
  }
  zend_async_event_t* event = &self->abi.base;
  if (ZEND_ASYNC_REF_TRACING()) TraceDone(&self->core, status);
  reactor::CloseEvent(&self->core);
  zend_object* exception = nullptr;
  if (status == UV_ECANCELED) {
    exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                         "Thread pool task was cancelled");
  }
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, exception);
  if (exception != nullptr) {
    OBJ_RELEASE(exception);
  }
  reactor::StopLoopIfException(loop);
  // The in-flight reference (QueueTask).
  ZEND_ASYNC_EVENT_RELEASE(event);
}

// The work runs from queue_task: start() only takes a loop reference.
int Arm(zend_async_event_t*) { return 0; }
void Disarm(zend_async_event_t*) {}

constexpr reactor::EventKind kTaskKind = {
    .name = "task", .arm = Arm, .disarm = Disarm};

}  // namespace

zend_async_task_t* NewTask(zend_async_task_run_t run, void* data,
                           size_t extra_size) {
  if (run == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot create a task without a run function");
    return nullptr;
  }
  if (reactor::AcquireLoop() == nullptr) {
    return nullptr;
  }
  TaskEvent* self = reactor::AllocateEvent<TaskEvent>(extra_size);
  self->abi.run = run;
  self->abi.data = data;
  reactor::InitCore(&self->core, &kTaskKind, &self->abi.base, nullptr);
  return &self->abi;
}

bool QueueTask(zend_async_task_t* task) {
  if (task == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Cannot queue a NULL task");
    return false;
  }
  if (task->run == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot queue a task without a run function");
    return false;
  }
  uv_loop_t* loop = reactor::AcquireLoop();
  if (loop == nullptr) {
    return false;
  }
  TaskEvent* self = TaskEvent::FromAbi(&task->base);
  auto* work = static_cast<Work*>(emalloc(sizeof(Work)));
  work->task = self;
  work->request.data = work;
  const int error = uv_queue_work(loop, &work->request, OnWork, OnAfterWork);
  if (error < 0) {
    efree(work);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to queue thread pool task: %s",
                     uv_strerror(error));
    return false;
  }
  reactor::BeginRequest(&self->core);
  ZEND_ASYNC_EVENT_ADD_REF(&task->base);
  if (ZEND_ASYNC_REF_TRACING()) TraceQueue(&self->core);
  return true;
}

}  // namespace zar::core::thread_pool
