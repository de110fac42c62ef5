#include "tests/abi/support/fake_async.h"

#include <cstddef>

#include "mock_zend/class_builder.h"
#include "mock_zend/inspect.h"

namespace zar::abi_testing {
namespace {

// ---- FakeEvent vtable -------------------------------------------------------

EventProbe* ProbeOf(zend_async_event_t* event) {
  return reinterpret_cast<FakeEvent*>(event)->probe;
}

bool FakeAddCallback(zend_async_event_t* event,
                     zend_async_event_callback_t* callback) {
  EventProbe* probe = ProbeOf(event);
  probe->add_callbacks++;
  if (probe->fail_add_callback) {
    zend_throw_error(nullptr, "add_callback failed");
    return false;
  }
  return zend_async_callbacks_push(event, callback);
}

bool FakeDelCallback(zend_async_event_t* event,
                     zend_async_event_callback_t* callback) {
  ProbeOf(event)->del_callbacks++;
  return zend_async_callbacks_remove(event, callback);
}

bool FakeStart(zend_async_event_t* event) {
  ProbeOf(event)->starts++;
  return true;
}

bool FakeStop(zend_async_event_t* event) {
  ProbeOf(event)->stops++;
  return true;
}

bool FakeDispose(zend_async_event_t* event) {
  EventProbe* probe = ProbeOf(event);
  probe->disposes++;
  probe->ref_count_at_dispose = event->ref_count;
  zend_async_callbacks_free(event);
  efree(event);
  return true;
}

// ---- Object events ----------------------------------------------------------

zend_class_entry* object_event_ce = nullptr;
zend_class_entry* event_reference_ce = nullptr;
zend_object_handlers object_event_handlers;
zend_object_handlers event_reference_handlers;

bool ObjectEventDispose(zend_async_event_t* event) {
  reinterpret_cast<ObjectEvent*>(event)->disposes++;
  return true;
}

bool ObjectEventNoop(zend_async_event_t*) { return true; }

void ObjectEventFree(zend_object* object) {
  ObjectEvent* self = reinterpret_cast<ObjectEvent*>(
      reinterpret_cast<char*>(object) - offsetof(ObjectEvent, std));
  zend_async_callbacks_free(&self->event);
  zend_object_std_dtor(object);
}

// ---- The fake scheduler and reactor ----------------------------------------

zend_class_entry* async_exception_ce = nullptr;
zend_class_entry* async_cancellation_ce = nullptr;
zend_class_entry* timeout_exception_ce = nullptr;
zend_class_entry* operation_canceled_ce = nullptr;

char fake_module_name[] = "zar_fake_async";

bool FakeLaunch() {
  State().launches++;
  ZEND_ASYNC_ACTIVATE;
  return true;
}

// engine_shutdown_fn: the fake keeps no engine-wide request state. (PHP's
// zend_deactivate calls the hook unconditionally.)
bool FakeEngineShutdown() { return true; }

bool FakeSuspend(bool from_main, bool is_bailout) {
  State().suspends.push_back({from_main, is_bailout, ZEND_ASYNC_G(state)});
  return true;
}

// Records the call, then does what a scheduler's resume does to the waker:
// merges the error (ZEND_ASYNC_WAKER_APPLY_ERROR) and queues it.
bool FakeResume(zend_coroutine_t* coroutine, zend_object* error,
                const bool transfer_error) {
  ResumeCall call{coroutine, error != nullptr, "", "", transfer_error};
  if (error != nullptr) {
    call.error_class = mock_zend::ClassName(error);
    call.error_message = mock_zend::ExceptionMessage(error);
  }
  State().resumes.push_back(call);

  if (error != nullptr) {
    ZEND_ASYNC_WAKER_APPLY_ERROR(coroutine->waker, error, transfer_error);
  }
  if (coroutine->waker != nullptr) {
    coroutine->waker->status = ZEND_ASYNC_WAKER_QUEUED;
  }
  return true;
}

bool FakeEnqueue(zend_coroutine_t*) { return true; }

zend_class_entry* FakeGetClassCe(zend_async_class type) {
  switch (type) {
    case ZEND_ASYNC_EXCEPTION_DEFAULT:
      return async_exception_ce;
    case ZEND_ASYNC_EXCEPTION_CANCELLATION:
      return async_cancellation_ce;
    case ZEND_ASYNC_EXCEPTION_TIMEOUT:
      return timeout_exception_ce;
    case ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED:
      return operation_canceled_ce;
    default:
      return nullptr;
  }
}

zend_async_timer_event_t* FakeNewTimer(const zend_ulong timeout,
                                       const zend_ulong nanoseconds,
                                       const bool is_periodic,
                                       size_t extra_size) {
  (void)nanoseconds;
  (void)extra_size;
  State().timers.push_back({timeout, is_periodic});
  EventProbe* probe = &State().timer_probes.emplace_back();
  auto* timer =
      reinterpret_cast<zend_async_timer_event_t*>(NewFakeEvent(probe));
  timer->timeout = static_cast<unsigned int>(timeout);
  timer->is_periodic = is_periodic;
  return timer;
}

void DefineClasses() {
  async_exception_ce = mock_zend::ClassBuilder("Async\\AsyncException")
                           .Extends(zend_ce_exception)
                           .Build();
  async_cancellation_ce = mock_zend::ClassBuilder("Async\\AsyncCancellation")
                              .Extends(zend_ce_cancellation)
                              .Build();
  timeout_exception_ce = mock_zend::ClassBuilder("Async\\TimeoutException")
                             .Extends(zend_ce_exception)
                             .Build();
  operation_canceled_ce =
      mock_zend::ClassBuilder("Async\\OperationCanceledException")
          .Extends(async_cancellation_ce)
          .Build();

  object_event_ce = mock_zend::ClassBuilder("ZarTest\\ObjectEvent").Build();
  object_event_handlers = std_object_handlers;
  object_event_handlers.offset = offsetof(ObjectEvent, std);
  object_event_handlers.free_obj = ObjectEventFree;
  object_event_handlers.clone_obj = nullptr;

  event_reference_ce =
      mock_zend::ClassBuilder("ZarTest\\EventReference").Build();
  event_reference_handlers = std_object_handlers;
  event_reference_handlers.offset = offsetof(EventReferenceObject, std);
  event_reference_handlers.clone_obj = nullptr;
}

zend_result FakeMinit(int, int) {
  State() = FakeAsyncState();
  DefineClasses();

  zend_async_scheduler_register(
      fake_module_name, false, FakeLaunch, /*new_coroutine_fn=*/nullptr,
      /*new_scope_fn=*/nullptr, /*new_context_fn=*/nullptr,
      /*spawn_fn=*/nullptr, FakeSuspend, FakeEnqueue, FakeResume,
      /*cancel_fn=*/nullptr, /*scope_await_after_cancellation_fn=*/nullptr,
      /*spawn_and_throw_fn=*/nullptr, /*shutdown_fn=*/nullptr,
      /*waker_new_fn=*/nullptr, /*waker_destroy_fn=*/nullptr,
      /*get_coroutines_fn=*/nullptr, /*add_microtask_fn=*/nullptr,
      /*get_awaiting_info_fn=*/nullptr, FakeGetClassCe,
      /*new_iterator_fn=*/nullptr, /*new_future_fn=*/nullptr,
      /*new_channel_fn=*/nullptr, /*new_future_obj_fn=*/nullptr,
      /*new_channel_obj_fn=*/nullptr, /*new_group_fn=*/nullptr,
      FakeEngineShutdown, /*thread_snapshot_create_fn=*/nullptr,
      /*thread_snapshot_destroy_fn=*/nullptr, /*thread_run_fn=*/nullptr,
      /*thread_load_result_fn=*/nullptr);

  zend_async_reactor_register(fake_module_name, false, nullptr, nullptr,
                              nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, FakeNewTimer, nullptr, nullptr, nullptr,
                              nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, nullptr, nullptr, nullptr, nullptr);
  return SUCCESS;
}

zend_result FakeRinit(int, int) {
  ZEND_ASYNC_INITIALIZE;
  State().state_after_rinit = ZEND_ASYNC_G(state);
  return SUCCESS;
}

zend_result FakeRshutdown(int, int) {
  State().state_in_rshutdown = ZEND_ASYNC_G(state);
  return SUCCESS;
}

zend_module_entry fake_module = {
    STANDARD_MODULE_HEADER,
    "zar_fake_async",
    nullptr,
    FakeMinit,
    nullptr,
    FakeRinit,
    FakeRshutdown,
    nullptr,
    "0.1",
    STANDARD_MODULE_PROPERTIES,
};

}  // namespace

zend_async_event_t* NewFakeEvent(EventProbe* probe) {
  auto* fake = static_cast<FakeEvent*>(ecalloc(1, sizeof(FakeEvent)));
  fake->probe = probe;
  zend_async_event_t* event = &fake->timer.base;
  event->ref_count = 1;
  event->add_callback = FakeAddCallback;
  event->del_callback = FakeDelCallback;
  event->start = FakeStart;
  event->stop = FakeStop;
  event->dispose = FakeDispose;
  return event;
}

ObjectEvent* NewObjectEvent() {
  auto* self = static_cast<ObjectEvent*>(
      zend_object_alloc(sizeof(ObjectEvent), object_event_ce));
  zend_object_std_init(&self->std, object_event_ce);
  object_properties_init(&self->std, object_event_ce);
  self->std.handlers = &object_event_handlers;
  self->event.add_callback = zend_async_callbacks_push;
  self->event.del_callback = zend_async_callbacks_remove;
  self->event.start = ObjectEventNoop;
  self->event.stop = ObjectEventNoop;
  self->event.dispose = ObjectEventDispose;
  ZEND_ASYNC_EVENT_SET_ZEND_OBJ(&self->event);
  ZEND_ASYNC_EVENT_SET_ZEND_OBJ_OFFSET(&self->event,
                                       offsetof(ObjectEvent, std));
  return self;
}

EventReferenceObject* NewEventReferenceObject(zend_async_event_t* target) {
  auto* self = static_cast<EventReferenceObject*>(
      zend_object_alloc(sizeof(EventReferenceObject), event_reference_ce));
  zend_object_std_init(&self->std, event_reference_ce);
  object_properties_init(&self->std, event_reference_ce);
  self->std.handlers = &event_reference_handlers;
  ZEND_ASYNC_EVENT_REF_SET(&self->ref, offsetof(EventReferenceObject, std),
                           target);
  return self;
}

FakeAsyncState& State() {
  static FakeAsyncState state;
  return state;
}

zend_module_entry* FakeAsyncModule() { return &fake_module; }

char* FakeModuleName() { return fake_module_name; }

zend_class_entry* AsyncExceptionClass() { return async_exception_ce; }
zend_class_entry* AsyncCancellationClass() { return async_cancellation_ce; }
zend_class_entry* TimeoutExceptionClass() { return timeout_exception_ce; }
zend_class_entry* OperationCanceledExceptionClass() {
  return operation_canceled_ce;
}
zend_class_entry* ObjectEventClass() { return object_event_ce; }

zend_coroutine_t MakeCoroutine() {
  zend_coroutine_t coroutine = Zeroed<zend_coroutine_t>();
  ZVAL_UNDEF(&coroutine.result);
  return coroutine;
}

}  // namespace zar::abi_testing
