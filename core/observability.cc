// Tracing and strict mode at the extension's lifecycle points
// (observability.h).

#include "core/observability.h"

#include <cinttypes>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/channel/channel.h"
#include "core/future/future.h"
#include "core/iterator/iterator.h"
#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/reactor/reactor_event.h"
#include "core/scheduler/coroutine.h"
#include "core/task_group/trace.h"
#include "core/thread_pool/worker_pool.h"

extern "C" {
#include "zend_async_ref/strict.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core {
namespace {

// Every live Async\Coroutine object whose event still has callbacks.
void ReportCoroutinesWithCallbacks() {
  const zend_objects_store& store = EG(objects_store);
  const zend_object_handlers* handlers = CoroutineObjectHandlers();
  for (uint32_t handle = 1; handle < store.top; handle++) {
    zend_object* object = store.object_buckets[handle];
    if (object == nullptr || !IS_OBJ_VALID(object) ||
        object->handlers != handlers) {
      continue;
    }
    AsyncCoroutine* coroutine = AsyncCoroutine::FromObject(object);
    const uint32_t callbacks = coroutine->event()->callbacks.length;
    if (callbacks == 0) continue;
    zend_async_ref_strict_report(
        "request shutdown", "%s: %" PRIu32 " callback(s) still registered",
        CoroutineName(coroutine->abi()).c_str(), callbacks);
  }
}

}  // namespace

void ObservabilityModuleStartup() {
  zend_async_ref_strict_configure_from_env();
  zend_async_ref_trace_configure_from_env();
}

void ObservabilityModuleShutdown() { ForgetPoolLedgers(); }

void ObservabilityRequestStartup() {
  ResetPoolIds();
  ResetFutureIds();
  ResetChannelIds();
  ResetIteratorIds();
  ResetTaskGroupIds();
  thread_pool::ResetWorkerPoolIds();
  reactor::ResetEventIds();
  ForgetPoolLedgers();
  zend_async_ref_strict_request_startup();
}

void ReportLeftoversAtRequestEnd() {
  if (!ZEND_ASYNC_REF_STRICT()) return;
  reactor::ReportLiveEventsAtRequestEnd();
  ReportOpenPoolsAtRequestEnd();
  ReportCoroutinesWithCallbacks();
}

void ObservabilityRequestShutdown() {
  zend_async_ref_strict_request_shutdown();
}

std::string NameWithInfo(const char* token, zend_async_event_t* event) {
  if (event->info == nullptr) return token;
  zend_string* info = event->info(event);
  std::string name = absl::StrCat(
      token, " ", absl::string_view(ZSTR_VAL(info), ZSTR_LEN(info)));
  zend_string_release(info);
  return name;
}

std::string CoroutineName(zend_coroutine_t* coroutine) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  return NameWithInfo(zend_async_ref_coroutine_name(coroutine, token),
                      &coroutine->event);
}

void ReportSuspendInSchedulerContext(zend_coroutine_t* coroutine) {
  const std::string current =
      coroutine == nullptr || coroutine == ZEND_ASYNC_SCHEDULER
          ? std::string("scheduler")
          : CoroutineName(coroutine);
  zend_async_ref_strict_report(
      "ZEND_ASYNC_SUSPEND",
      "cannot suspend in the scheduler context (current coroutine: %s)",
      current.c_str());
}

}  // namespace zar::core
