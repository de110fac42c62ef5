// zend-async-ref: ABI conformance tests, support.
//
// Minimal stand-ins for the pieces an async extension provides, written
// only against the ABI header and the mock Zend API:
//
//   - FakeEvent: a plain C event (ref_count 1 at birth) whose vtable uses
//     the ABI's callbacks vector and counts what is done to it.
//   - ObjectEvent / EventReferenceObject: events embedded in (or referenced
//     by) a zend_object, for the F_ZEND_OBJ and reference-prefix rules.
//   - The "zar_fake_async" module (FakeAsyncModule()): its MINIT defines
//     the async exception classes and registers a recording scheduler and a
//     reactor that only makes timers, through the ABI's register functions;
//     its RINIT does ZEND_ASYNC_INITIALIZE, its launch ZEND_ASYNC_ACTIVATE.
//
// Exception classes of the fake scheduler (what ZEND_ASYNC_GET_EXCEPTION_CE
// returns while it is registered):
//   DEFAULT              Async\AsyncException extends Exception
//   CANCELLATION         Async\AsyncCancellation extends Cancellation
//   TIMEOUT              Async\TimeoutException extends Exception
//   OPERATION_CANCELLED  Async\OperationCanceledException extends
//                        Async\AsyncCancellation
//   anything else        NULL
//
// Threading: tests are single-threaded; all state here is per process and
// reset by the module's MINIT.

#ifndef ZAR_TESTS_ABI_SUPPORT_FAKE_ASYNC_H_
#define ZAR_TESTS_ABI_SUPPORT_FAKE_ASYNC_H_

#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::abi_testing {

// A T with every byte zero, as ecalloc gives a C struct.
template <typename T>
T Zeroed() {
  T value;
  memset(&value, 0, sizeof(value));
  return value;
}

// ---- Events ---------------------------------------------------------------

// What happened to one FakeEvent; outlives the event.
struct EventProbe {
  int starts = 0;
  int stops = 0;
  int disposes = 0;
  int add_callbacks = 0;
  int del_callbacks = 0;
  // ref_count seen by dispose() (0 for a RELEASE at 1).
  uint32_t ref_count_at_dispose = ~0u;
  // When set, add_callback throws Error "add_callback failed" instead of
  // adding.
  bool fail_add_callback = false;
};

// A plain C event, laid out as a timer event (so it can stand for one).
struct FakeEvent {
  zend_async_timer_event_t timer;  // ABI structure (must be first)
  EventProbe* probe;
};

// A new FakeEvent (emalloc'd, ref_count 1). add_callback pushes onto the
// ABI callbacks vector, del_callback removes from it, dispose frees the
// callbacks and the event. `probe` must outlive the event.
zend_async_event_t* NewFakeEvent(EventProbe* probe);

// An event embedded in an object (F_ZEND_OBJ): the object's refcount is
// the event's. Created with refcount 1; freed by the engine at refcount 0.
struct ObjectEvent {
  zend_async_event_t event;  // ABI structure (must be first)
  int disposes;
  zend_object std;  // last, as zend_object_alloc requires
};

// An object standing for an event it does not embed: its memory starts
// with a zend_async_event_ref_t (first word ZEND_ASYNC_EVENT_REFERENCE_PREFIX).
struct EventReferenceObject {
  zend_async_event_ref_t ref;
  zend_object std;
};

// REQUIRES: the fake module is started (its MINIT defined the classes).
ObjectEvent* NewObjectEvent();
EventReferenceObject* NewEventReferenceObject(zend_async_event_t* target);

// ---- The fake async extension --------------------------------------------

struct SuspendCall {
  bool from_main;
  bool is_bailout;
  zend_async_state_t state;  // ZEND_ASYNC_G(state) when called
};

struct ResumeCall {
  zend_coroutine_t* coroutine;
  bool had_error;
  std::string error_class;  // "" without an error
  std::string error_message;
  bool transfer_error;
};

struct TimerCall {
  zend_ulong timeout;
  bool is_periodic;
};

struct FakeAsyncState {
  int launches = 0;
  std::vector<SuspendCall> suspends;
  std::vector<ResumeCall> resumes;
  std::vector<TimerCall> timers;
  // One probe per timer made, in order (stable addresses).
  std::deque<EventProbe> timer_probes;
  // States seen by the module hooks.
  zend_async_state_t state_after_rinit = ZEND_ASYNC_OFF;
  zend_async_state_t state_in_rshutdown = ZEND_ASYNC_ACTIVE;
};

FakeAsyncState& State();

// The module; Modules() of a fixture returns it to get the fake scheduler.
zend_module_entry* FakeAsyncModule();

// The module-name pointer the fake registers its scheduler and reactor
// with.
char* FakeModuleName();

// Classes defined by the module's MINIT (NULL before).
zend_class_entry* AsyncExceptionClass();
zend_class_entry* AsyncCancellationClass();
zend_class_entry* TimeoutExceptionClass();
zend_class_entry* OperationCanceledExceptionClass();
zend_class_entry* ObjectEventClass();

// ---- Helpers --------------------------------------------------------------

// A zeroed coroutine struct (a test's stand-in for one the scheduler made).
zend_coroutine_t MakeCoroutine();

// Reported errors as "E_LEVEL: message" lines; EG(exception) taken and
// rendered "Class: message" (ZendAsyncRef::testing).
using zar::testing::ErrorLog;
using zar::testing::TakeExceptionText;

}  // namespace zar::abi_testing

#endif  // ZAR_TESTS_ABI_SUPPORT_FAKE_ASYNC_H_
