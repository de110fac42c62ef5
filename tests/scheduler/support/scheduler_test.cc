#include "tests/scheduler/support/scheduler_test.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <utility>

#include "mock_zend/inspect.h"
#include "tests/support/implementation.h"

namespace zar::scheduler_testing {

std::vector<zend_module_entry*> SchedulerTest::Modules() {
  return {zar::testing::AsyncModule()};
}

CoroutineRef::CoroutineRef(zend_coroutine_t* coroutine)
    : coroutine_(coroutine) {
  if (coroutine_ != nullptr) ZEND_ASYNC_EVENT_ADD_REF(&coroutine_->event);
}

CoroutineRef::CoroutineRef(CoroutineRef&& other) noexcept
    : coroutine_(std::exchange(other.coroutine_, nullptr)) {}

CoroutineRef& CoroutineRef::operator=(CoroutineRef&& other) noexcept {
  if (this != &other) {
    Reset();
    coroutine_ = std::exchange(other.coroutine_, nullptr);
  }
  return *this;
}

void CoroutineRef::Reset() {
  if (coroutine_ != nullptr) {
    zend_coroutine_t* coroutine = coroutine_;
    coroutine_ = nullptr;
    ZEND_ASYNC_EVENT_RELEASE(&coroutine->event);
  }
}

zend_coroutine_t* Spawn(mock_zend::NativeBody body, zend_async_scope_t* scope,
                        int32_t priority) {
  zend_coroutine_t* coroutine = zend_async_spawn_fn(scope, nullptr, priority);
  if (coroutine == nullptr) return nullptr;

  zval callable;
  mock_zend::MakeCallable(&callable, std::move(body));
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  zend_fcall_info_init(&callable, 0, &fci, &fcc, nullptr, nullptr);
  zval* args = nullptr;
  const uint32_t arg_count = 0;
  HashTable* named_args = nullptr;
  ZEND_ASYNC_FCALL_DEFINE(fcall, fci, fcc, args, arg_count, named_args);
  zval_ptr_dtor(&callable);
  coroutine->fcall = fcall;
  return coroutine;
}

namespace {

AwaitOutcome Describe(zval* result, zend_object* exception) {
  AwaitOutcome outcome;
  if (exception != nullptr) {
    outcome.error = mock_zend::ClassName(exception) + ": " +
                    mock_zend::ExceptionMessage(exception);
    outcome.error_object = exception;
    OBJ_RELEASE(exception);
  } else {
    outcome.result = mock_zend::Describe(result);
  }
  zval_ptr_dtor(result);
  return outcome;
}

}  // namespace

AwaitOutcome Await(zend_coroutine_t* coroutine, zend_ulong timeout_ms) {
  zval result;
  ZVAL_UNDEF(&result);
  if (ZEND_COROUTINE_IS_FINISHED(coroutine)) {
    zend_object* exception = nullptr;
    zend_async_event_t* event = &coroutine->event;
    ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(event, &result, &exception);
    return Describe(&result, exception);
  }

  zend_coroutine_t* current = ZEND_ASYNC_CURRENT_COROUTINE;
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(current);
  zend_async_resume_when(current, &coroutine->event, false,
                         zend_async_waker_callback_resolve, nullptr);
  if (timeout_ms > 0) {
    zend_async_resume_when(current,
                           &ZEND_ASYNC_NEW_TIMER_EVENT(timeout_ms, false)->base,
                           true, zend_async_waker_callback_cancel, nullptr);
  }
  ZEND_ASYNC_SUSPEND();
  zend_object* exception = mock_zend::TakeException();
  if (exception == nullptr) ZVAL_COPY(&result, &waker->result);
  zend_async_waker_clean(current);
  return Describe(&result, exception);
}

bool Yield() {
  ZEND_ASYNC_ENQUEUE_COROUTINE(ZEND_ASYNC_CURRENT_COROUTINE);
  return ZEND_ASYNC_SUSPEND();
}

bool Delay(zend_ulong ms) {
  zend_coroutine_t* current = ZEND_ASYNC_CURRENT_COROUTINE;
  ZEND_ASYNC_WAKER_NEW(current);
  zend_async_resume_when(current, &ZEND_ASYNC_NEW_TIMER_EVENT(ms, false)->base,
                         true, zend_async_waker_callback_resolve, nullptr);
  const bool resumed = ZEND_ASYNC_SUSPEND();
  zend_async_waker_clean(current);
  return resumed;
}

namespace {

bool PlainAddCallback(zend_async_event_t* event,
                      zend_async_event_callback_t* callback) {
  return zend_async_callbacks_push(event, callback);
}

bool PlainDelCallback(zend_async_event_t* event,
                      zend_async_event_callback_t* callback) {
  return zend_async_callbacks_remove(event, callback);
}

bool PlainStartStop(zend_async_event_t*) { return true; }

bool PlainDispose(zend_async_event_t* event) {
  zend_async_callbacks_free(event);
  efree(event);
  return true;
}

}  // namespace

zend_async_event_t* NewPlainEvent() {
  auto* event =
      static_cast<zend_async_event_t*>(ecalloc(1, sizeof(zend_async_event_t)));
  event->ref_count = 1;
  event->add_callback = PlainAddCallback;
  event->del_callback = PlainDelCallback;
  event->start = PlainStartStop;
  event->stop = PlainStartStop;
  event->dispose = PlainDispose;
  return event;
}

void FirePlainEvent(zend_async_event_t* event) {
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, nullptr);
}

bool WaitFor(zend_async_event_t* event) {
  zend_coroutine_t* current = ZEND_ASYNC_CURRENT_COROUTINE;
  ZEND_ASYNC_WAKER_NEW(current);
  zend_async_resume_when(current, event, false,
                         zend_async_waker_callback_resolve, nullptr);
  const bool resumed = ZEND_ASYNC_SUSPEND();
  zend_async_waker_clean(current);
  return resumed;
}

void ExpectWakerInitialised(const zend_async_waker_t* waker) {
  EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
  EXPECT_EQ(zend_hash_num_elements(&waker->events), 0u);
  EXPECT_EQ(waker->triggered_events, nullptr);
  EXPECT_EQ(Z_TYPE(waker->result), IS_UNDEF);
  EXPECT_EQ(waker->error, nullptr);
  EXPECT_EQ(waker->filename, nullptr);
  EXPECT_EQ(waker->dtor, nullptr);
}

std::string TakeExceptionText() {
  zend_object* exception = mock_zend::TakeException();
  if (exception == nullptr) return "";
  std::string text = mock_zend::ClassName(exception) + ": " +
                     mock_zend::ExceptionMessage(exception);
  OBJ_RELEASE(exception);
  return text;
}

std::vector<std::string> ErrorLog() {
  std::vector<std::string> log;
  for (const mock_zend::ReportedError& error : mock_zend::ReportedErrors()) {
    log.push_back(mock_zend::ErrorLevelName(error.type) + ": " + error.message);
  }
  return log;
}

}  // namespace zar::scheduler_testing
