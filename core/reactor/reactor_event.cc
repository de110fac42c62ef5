#include "core/reactor/reactor_event.h"

#include <cctype>
#include <cinttypes>
#include <cstdlib>

#include "core/observability.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::core::reactor {
namespace {

// The id of the last event created in this request.
uint32_t last_event_id = 0;

// The live events, oldest first. Per request: empty again after
// ShutdownAllEvents().
struct LiveList {
  EventCore* head = nullptr;
  EventCore* tail = nullptr;
  size_t count = 0;
};

LiveList& Live() {
  static LiveList list;
  return list;
}

void Track(EventCore* core) {
  LiveList& list = Live();
  core->prev = list.tail;
  core->next = nullptr;
  if (list.tail != nullptr) {
    list.tail->next = core;
  } else {
    list.head = core;
  }
  list.tail = core;
  list.count++;
}

void Untrack(EventCore* core) {
  LiveList& list = Live();
  if (core->prev != nullptr) {
    core->prev->next = core->next;
  } else {
    list.head = core->next;
  }
  if (core->next != nullptr) {
    core->next->prev = core->prev;
  } else {
    list.tail = core->prev;
  }
  core->prev = core->next = nullptr;
  list.count--;
}

// Frees the event's block, or, in strict mode, hands it to the quarantine
// (zend_async_ref/strict.h) under the name Destroy recorded.
void FreeEventMemory(EventCore* core) {
  zend_async_event_t* event = core->event;
  char* name = core->disposed_name;
  if (UNEXPECTED(name != nullptr)) {
    core->disposed_name = nullptr;
    const bool quarantined = zend_async_ref_strict_quarantine(
        event, event->extra_offset, name, core->disposed_ref_count);
    free(name);
    if (quarantined) return;
  }
  efree(event);
}

// The destroyed event's last owed callback came: its memory goes.
void Release(EventCore* core) {
  if (core->kind->closed != nullptr) {
    core->kind->closed(core->event);
  }
  FreeEventMemory(core);
}

void OnHandleClosed(uv_handle_t* handle) {
  auto* core = static_cast<EventCore*>(handle->data);
  core->handle = nullptr;
  if (--core->owed_callbacks == 0 && core->destroyed) {
    Release(core);
  }
}

char* CopyString(const std::string& text) {
  char* copy = static_cast<char*>(malloc(text.size() + 1));
  if (copy != nullptr) memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

}  // namespace

// ---- Transitions ------------------------------------------------------------

void Ref(EventCore* core) {
  zend_async_event_t* event = core->event;
  if (event->loop_ref_count++ == 0) {
    if (core->handle != nullptr) {
      uv_ref(core->handle);
    }
    ZEND_ASYNC_INCREASE_EVENT_COUNT(event);
  }
}

void Unref(EventCore* core) {
  zend_async_event_t* event = core->event;
  if (event->loop_ref_count == 0) {
    return;
  }
  if (--event->loop_ref_count == 0) {
    if (core->handle != nullptr) {
      uv_unref(core->handle);
    }
    ZEND_ASYNC_DECREASE_EVENT_COUNT(event);
  }
}

int StartEvent(EventCore* core) {
  zend_async_event_t* event = core->event;
  if (core->destroyed || ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    return kEventClosed;
  }
  if (event->loop_ref_count == 0) {
    const int error = core->kind->arm(event);
    if (error != 0) {
      return error;
    }
    Ref(core);
    return 0;
  }
  Ref(core);
  if (core->kind->refs_changed != nullptr) {
    core->kind->refs_changed(event);
  }
  return 0;
}

bool StartEventOrThrow(EventCore* core) {
  const int error = StartEvent(core);
  if (error < 0) {
    const EventKind* kind = core->kind;
    if (kind->start_failure != nullptr) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s: %s",
                       kind->start_failure, uv_strerror(error));
    } else {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to start %s handle: %s", kind->name,
                       uv_strerror(error));
    }
  }
  return error == 0;
}

bool StopEvent(EventCore* core) {
  zend_async_event_t* event = core->event;
  if (event->loop_ref_count == 0) {
    return true;
  }
  if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    event->loop_ref_count = 1;
  }
  if (event->loop_ref_count == 1) {
    core->kind->disarm(event);
    Unref(core);
    return true;
  }
  Unref(core);
  if (core->kind->refs_changed != nullptr) {
    core->kind->refs_changed(event);
  }
  return true;
}

void StopEventCompletely(EventCore* core) {
  zend_async_event_t* event = core->event;
  if (event->loop_ref_count > 0) {
    event->loop_ref_count = 1;
    StopEvent(core);
  }
}

void CloseEvent(EventCore* core) {
  StopEventCompletely(core);
  ZEND_ASYNC_EVENT_SET_CLOSED(core->event);
}

bool DisposeEvent(EventCore* core) {
  zend_async_event_t* event = core->event;
  // A direct dispose() by one of several owners drops that owner's
  // reference (ZEND_ASYNC_EVENT_RELEASE sets ref_count to 0 before calling
  // dispose, so it never takes this path).
  if (ZEND_ASYNC_EVENT_REFCOUNT(event) > 1) {
    ZEND_ASYNC_EVENT_DEL_REF(event);
    return true;
  }
  if (!core->destroyed) {
    Destroy(core);
  }
  return true;
}

void Destroy(EventCore* core) {
  ZEND_ASSERT(!core->destroyed);
  zend_async_event_t* event = core->event;
  if (ZEND_ASYNC_REF_STRICT()) {
    // Named before the teardown: the quarantine reports under this name.
    core->disposed_name = CopyString(EventName(core));
    core->disposed_ref_count = event->ref_count;
  }
  core->destroyed = true;
  StopEventCompletely(core);
  zend_async_callbacks_free(event);
  if (core->kind->teardown != nullptr) {
    core->kind->teardown(event);
  }
  Untrack(core);
  if (core->handle != nullptr && !uv_is_closing(core->handle)) {
    CloseHandleEarly(core);
  }
  if (core->owed_callbacks == 0) {
    Release(core);
  }
}

void BeginRequest(EventCore* core) { core->owed_callbacks++; }

bool EndRequest(EventCore* core) {
  core->owed_callbacks--;
  if (!core->destroyed) {
    return true;
  }
  if (core->owed_callbacks == 0) {
    Release(core);
  }
  return false;
}

void CloseHandleEarly(EventCore* core) {
  core->owed_callbacks++;
  uv_close(core->handle, OnHandleClosed);
}

void ShutdownAllEvents() {
  for (EventCore* core = Live().head; core != nullptr; core = core->next) {
    CloseEvent(core);
  }
  // Destroying one event may release (and so destroy) another: always take
  // the current head.
  while (Live().head != nullptr) {
    Destroy(Live().head);
  }
}

size_t LiveEventCount() { return Live().count; }

// ---- Names
// --------------------------------------------------------------------

const char* EventToken(const EventCore* core,
                       char buf[ZEND_ASYNC_REF_NAME_SIZE]) {
  // "poll proxy" -> "PollProxy".
  char kind[24];
  size_t length = 0;
  bool word_start = true;
  for (const char* c = core->kind->name;
       *c != '\0' && length + 1 < sizeof(kind); c++) {
    if (*c == ' ') {
      word_start = true;
      continue;
    }
    kind[length++] = static_cast<char>(
        word_start ? toupper(static_cast<unsigned char>(*c)) : *c);
    word_start = false;
  }
  kind[length] = '\0';
  snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "%s#%" PRIu32, kind, core->id);
  return buf;
}

std::string EventName(EventCore* core) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  return NameWithInfo(EventToken(core, token), core->event);
}

void ResetEventIds() { last_event_id = 0; }

void ReportLiveEventsAtRequestEnd() {
  for (EventCore* core = Live().head; core != nullptr; core = core->next) {
    const zend_async_event_t* event = core->event;
    zend_async_ref_strict_report(
        "request shutdown",
        "%s: still alive (%s, %" PRIu32 " reference(s), %" PRIu32
        " callback(s))",
        EventName(core).c_str(),
        event->loop_ref_count > 0 ? "started" : "stopped", event->ref_count,
        event->callbacks.length);
  }
}

void StopLoopIfException(uv_loop_t* loop) {
  if (EG(exception) != nullptr) {
    uv_stop(loop);
  }
}

// ---- Construction -----------------------------------------------------------

bool HandleInitialized(int error, void* block, const char* what,
                       zend_async_class type) {
  if (EXPECTED(error >= 0)) return true;
  zend_async_throw(type, "Failed to initialize %s handle: %s", what,
                   uv_strerror(error));
  efree(block);
  return false;
}

void InitCore(EventCore* core, const EventKind* kind, zend_async_event_t* event,
              uv_handle_t* handle) {
  core->kind = kind;
  core->event = event;
  core->handle = handle;
  core->destroyed = false;
  core->id = ++last_event_id;
  core->disposed_name = nullptr;
  core->disposed_ref_count = 0;
  core->owed_callbacks = 0;
  if (handle != nullptr) {
    handle->data = core;
    uv_unref(handle);
  }
  Track(core);
}

}  // namespace zar::core::reactor
