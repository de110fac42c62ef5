// zend-async-ref core: the plumbing every reactor event shares.
//
// Each reactor event is one emalloc'd block laid out as
//
//   struct XxxEvent {
//     zend_async_xxx_event_t abi;  // ABI structure (must be first)
//     EventCore core;              // this file's bookkeeping
//     uv_xxx_t handle;             // the libuv handle (absent: poll proxy)
//   };                             // + extra_size bytes at extra_offset
//
// The ABI event's state moves only through the named transitions below:
//
//   StartEvent   start(): the first start arms the backend (EventKind::arm)
//                and takes the loop reference (Ref); a further start only
//                takes another reference. A CLOSED or disposed event is not
//                started: start() returns false without an exception; an
//                arm failure throws Async\AsyncException "Failed to start
//                <kind> handle: <libuv message>" (or the kind's own
//                start_failure text) and returns false.
//   StopEvent    stop(): drops one reference; the last one disarms the
//                backend (EventKind::disarm). A CLOSED event drops them all.
//   Ref / Unref  loop_ref_count; on 0 -> 1 (1 -> 0) the libuv handle is
//                uv_ref'd (uv_unref'd) and ZEND_ASYNC_INCREASE_EVENT_COUNT
//                (DECREASE) runs, which skips F_HIDDEN events. So
//                ZEND_ASYNC_ACTIVE_EVENT_COUNT is the number of started,
//                non-hidden reactor events, and a handle keeps the loop
//                alive exactly while its event is started.
//   CloseEvent   stops completely and sets CLOSED: the event cannot be
//                started again.
//   DisposeEvent dispose(): with ZEND_ASYNC_EVENT_REFCOUNT > 1 it only drops
//                a reference (as upstream); otherwise Destroy.
//   Destroy      stops completely, frees the callbacks
//                (zend_async_callbacks_free), runs EventKind::teardown,
//                forgets the event and uv_close()s its handle (unless
//                already closing); the memory is freed once no libuv
//                callback is owed (see below). Runs once per event.
//
// libuv callbacks still owed to an event keep its memory: each request
// submitted for it (BeginRequest ... EndRequest: a DNS lookup, a file
// operation) and its handle's close callback. Destroy frees the memory at
// once when none is owed, else the last owed callback frees it; such a
// callback calls EndRequest first and touches nothing of the event when it
// returns false. A kind whose requests can be cancelled cancels them in its
// teardown (uv_cancel). A handle may be closed before its event is
// destroyed (CloseHandleEarly: an IO handle's close()); the event lives on
// without it.
//
// Every handle is uv_unref'd at creation, so a created but never started
// event never keeps the loop alive. F_HIDDEN must not change while an event
// is started (the count would drift, as with the ABI macros anywhere).
//
// Threading: everything here runs on the request's thread (the loop
// thread). Lifetime: an event lives from its New* function until Destroy's
// close callback; ShutdownAllEvents() destroys every event still alive.

#ifndef ZAR_CORE_REACTOR_REACTOR_EVENT_H_
#define ZAR_CORE_REACTOR_REACTOR_EVENT_H_

#include <uv.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core::reactor {

// What differs between kinds of event: one static table per kind.
struct EventKind {
  // Names the kind in traces and in the start failure below.
  const char* name = nullptr;
  // Arms the backend (uv_*_start). Returns 0 or a negative libuv error.
  // required
  int (*arm)(zend_async_event_t* event) = nullptr;
  // Disarms the backend (uv_*_stop). Never fails. required
  void (*disarm)(zend_async_event_t* event) = nullptr;
  // Releases what the event owns besides its memory; runs once, after the
  // callbacks were freed and before the handle is closed. optional
  void (*teardown)(zend_async_event_t* event) = nullptr;
  // Runs once the handle is closed, just before the memory is freed.
  // optional
  void (*closed)(zend_async_event_t* event) = nullptr;
  // Runs after a start or stop that left the event armed with another
  // number of loop references (a poll retunes its mask). optional
  void (*refs_changed)(zend_async_event_t* event) = nullptr;
  // The text of a start that failed, before ": <libuv error>"; NULL:
  // "Failed to start <name> handle". As upstream's reactor words each
  // kind's start failure (Async\AsyncException).
  const char* start_failure = nullptr;
};

// The reactor's bookkeeping of one event.
struct EventCore {
  const EventKind* kind;
  zend_async_event_t* event;  // the ABI event; also the block to efree
  uv_handle_t* handle;        // NULL for events without a libuv handle
  EventCore* prev;            // the list of live (not destroyed) events
  EventCore* next;
  bool destroyed;  // Destroy ran; the memory goes with the close callback
  // Names the event in traces and strict-mode diagnostics ("Timer#<id>"):
  // 1, 2, ... in creation order within a request, whatever the kind.
  uint32_t id;
  // Strict mode, from Destroy until the memory goes: the event's name and
  // ref_count when it was destroyed (malloc'd; see FreeEventMemory).
  char* disposed_name;
  uint32_t disposed_ref_count;
  // libuv callbacks still to come that use the event's memory: requests
  // in flight and a closing handle (see above).
  uint32_t owed_callbacks;
};

// ---- Transitions -----------------------------------------------------------

// StartEvent's result for a CLOSED or destroyed event (libuv errors are
// negative).
inline constexpr int kEventClosed = 1;

// Returns 0 (started), kEventClosed, or arm's libuv error; never throws.
int StartEvent(EventCore* core);
// The start() handler: StartEvent, with the error thrown as described above.
bool StartEventOrThrow(EventCore* core);
bool StopEvent(EventCore* core);
// Drops every loop reference at once (no-op when not started).
void StopEventCompletely(EventCore* core);
void Ref(EventCore* core);
void Unref(EventCore* core);
void CloseEvent(EventCore* core);
bool DisposeEvent(EventCore* core);
void Destroy(EventCore* core);

// Requests. BeginRequest: a request was submitted for the event and its
// completion callback will run. EndRequest, first thing in that callback:
// the request is over; returns true when the event is still alive, false
// when it was destroyed meanwhile (its memory is then freed here if no
// other callback is owed).
void BeginRequest(EventCore* core);
bool EndRequest(EventCore* core);

// uv_close()s the event's handle now; the event stays alive, without a
// handle once the close callback ran. At most once; not after Destroy.
void CloseHandleEarly(EventCore* core);

// Destroys every live event: first all are closed (so that stopping one,
// e.g. a poll proxy, still finds the others intact), then each is
// destroyed. Their close callbacks run on the next loop pass.
void ShutdownAllEvents();
// Number of events created and not yet destroyed.
size_t LiveEventCount();

// ---- Names (traces, strict mode)
// ---------------------------------------------

// "Timer#3": the kind's name in CamelCase and the event's id.
const char* EventToken(const EventCore* core,
                       char buf[ZEND_ASYNC_REF_NAME_SIZE]);
// "Timer#3 Timer(timeout=10ms, once)": the token and info().
std::string EventName(EventCore* core);
// Event ids start again at 1 (each request).
void ResetEventIds();
// Strict mode, request end: reports every live event (its name, whether it
// is started, how many callbacks it has).
void ReportLiveEventsAtRequestEnd();

// After a notification from a libuv callback: a pending exception stops the
// loop (uv_stop), so that the pass ends after the current libuv phase and
// execute() returns to the scheduler with EG(exception) still set. (Other
// callbacks of the same phase, e.g. more due timers, still run.)
void StopLoopIfException(uv_loop_t* loop);

// ---- Construction ----------------------------------------------------------

// The base of every reactor event struct: its ABI structure is its first
// member, so the ABI's event is the struct (FromAbi).
//   struct TimerEvent : EventOf<TimerEvent> {
//     zend_async_timer_event_t abi;  // first
//     EventCore core;
//     ...
//   };
template <typename Self>
struct EventOf {
  static Self* FromAbi(zend_async_event_t* event) {
    return reinterpret_cast<Self*>(event);
  }
};

// Allocates a zeroed Event + extra_size bytes (emalloc) and sets the ABI
// fields every reactor event shares: ref_count 1, extra_offset, the
// callbacks handlers (zend_async_callbacks_push / _remove), start, stop,
// dispose and info; replay stays NULL. Event must have `abi` (whose first
// member is the zend_async_event_t) and `core`, and static
// FromAbi(zend_async_event_t*) and Info(zend_async_event_t*).
template <typename Event>
Event* AllocateEvent(size_t extra_size);

// The uv_*_init of a new event's handle (or the uv_* call that starts its
// request) returned `error`. True when it succeeded; otherwise throws
// `type` (Async\AsyncException unless given) "Failed to initialize <what>
// handle: <libuv error>", as upstream's reactor words it, frees `block`
// (the event: libuv never took its handle) and returns false.
bool HandleInitialized(int error, void* block, const char* what,
                       zend_async_class type = ZEND_ASYNC_EXCEPTION_DEFAULT);

// Links the core into the live list. `handle` (already uv_*_init'ed, or
// NULL) gets data = core and is uv_unref'd.
void InitCore(EventCore* core, const EventKind* kind, zend_async_event_t* event,
              uv_handle_t* handle);

// ---- Template implementation ------------------------------------------------

namespace internal {

template <typename Event>
bool StartHandler(zend_async_event_t* event) {
  return StartEventOrThrow(&Event::FromAbi(event)->core);
}

template <typename Event>
bool StopHandler(zend_async_event_t* event) {
  return StopEvent(&Event::FromAbi(event)->core);
}

template <typename Event>
bool DisposeHandler(zend_async_event_t* event) {
  return DisposeEvent(&Event::FromAbi(event)->core);
}

}  // namespace internal

template <typename Event>
Event* AllocateEvent(size_t extra_size) {
  static_assert(std::is_standard_layout_v<Event>);
  static_assert(offsetof(Event, abi) == 0, "ABI structure must be first");
  // safe_emalloc aborts on size overflow, as PHP does.
  auto* self = static_cast<Event*>(safe_emalloc(1, extra_size, sizeof(Event)));
  std::memset(static_cast<void*>(self), 0, sizeof(Event) + extra_size);

  // Every ABI event structure starts with its zend_async_event_t (`base`,
  // or `event` for zend_async_io_t).
  auto* base = reinterpret_cast<zend_async_event_t*>(&self->abi);
  base->ref_count = 1;
  base->extra_offset = static_cast<uint32_t>(sizeof(Event));
  base->add_callback = zend_async_callbacks_push;
  base->del_callback = zend_async_callbacks_remove;
  base->start = internal::StartHandler<Event>;
  base->stop = internal::StopHandler<Event>;
  base->dispose = internal::DisposeHandler<Event>;
  base->info = Event::Info;
  base->replay = nullptr;
  return self;
}

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_REACTOR_EVENT_H_
