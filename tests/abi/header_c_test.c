/*
 * The ABI header compiled as C11: its macros and inline functions used the
 * way a C extension uses them. Each check returns 0 on success or the line
 * of the first failed condition; header_c_test.cc runs them inside an
 * engine request.
 */
#include "header_c_test.h"

#include <string.h>

#include "Zend/zend_async_API.h"
#include "tests/support/c_check.h"

static int disposes = 0;

static bool counting_dispose(zend_async_event_t* event) {
  (void)event;
  disposes++;
  return true;
}

static void noop_callback(zend_async_event_t* event,
                          zend_async_event_callback_t* callback, void* result,
                          zend_object* exception) {
  (void)event;
  (void)callback;
  (void)result;
  (void)exception;
}

int zar_c_check_version(void) {
  C_CHECK(ZEND_ASYNC_API_VERSION_NUMBER == 0x001A00);
  C_CHECK(zend_async_get_api_version_number() == 6656);
  C_CHECK(strcmp(ZEND_ASYNC_API, "TrueAsync ABI v0.26.0") == 0);
  C_CHECK(strcmp(zend_async_get_api_version(), ZEND_ASYNC_API) == 0);
  return 0;
}

int zar_c_check_event_flags(void) {
  zend_async_event_t event;
  memset(&event, 0, sizeof(event));

  ZEND_ASYNC_EVENT_SET_CLOSED(&event);
  C_CHECK(ZEND_ASYNC_EVENT_IS_CLOSED(&event));
  C_CHECK(event.flags == ZEND_ASYNC_EVENT_F_CLOSED);
  ZEND_ASYNC_EVENT_CLR_CLOSED(&event);
  C_CHECK(!ZEND_ASYNC_EVENT_IS_CLOSED(&event));

  ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(&event);
  ZEND_ASYNC_EVENT_SET_HIDDEN(&event);
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&event);
  C_CHECK(ZEND_ASYNC_EVENT_WILL_ZVAL_RESULT(&event));
  C_CHECK(ZEND_ASYNC_EVENT_IS_HIDDEN(&event));
  C_CHECK(ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(&event));
  C_CHECK(event.flags == ((1u << 3) | (1u << 10) | (1u << 6)));

  zend_coroutine_t coroutine;
  memset(&coroutine, 0, sizeof(coroutine));
  ZEND_COROUTINE_SET_MAIN(&coroutine);
  ZEND_COROUTINE_SET_STARTED(&coroutine);
  C_CHECK(ZEND_COROUTINE_IS_MAIN(&coroutine));
  C_CHECK(ZEND_COROUTINE_IS_STARTED(&coroutine));
  C_CHECK(!ZEND_COROUTINE_IS_FINISHED(&coroutine));
  C_CHECK(coroutine.event.flags == ((1u << 17) | (1u << 13)));

  zend_async_scope_t scope;
  memset(&scope, 0, sizeof(scope));
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(&scope);
  ZEND_ASYNC_SCOPE_SET_CLOSED(&scope);
  C_CHECK(ZEND_ASYNC_SCOPE_IS_OWNER_PINNED(&scope));
  C_CHECK(ZEND_ASYNC_SCOPE_IS_CLOSED(&scope));
  ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(&scope);
  C_CHECK(scope.event.flags == ZEND_ASYNC_EVENT_F_CLOSED);
  return 0;
}

int zar_c_check_event_refcount(void) {
  zend_async_event_t event;
  memset(&event, 0, sizeof(event));
  event.ref_count = 1;
  event.dispose = counting_dispose;
  disposes = 0;

  ZEND_ASYNC_EVENT_ADD_REF(&event);
  C_CHECK(ZEND_ASYNC_EVENT_REFCOUNT(&event) == 2);
  ZEND_ASYNC_EVENT_DEL_REF(&event);
  C_CHECK(event.ref_count == 1);
  ZEND_ASYNC_EVENT_ADD_REF(&event);
  ZEND_ASYNC_EVENT_RELEASE(&event);
  C_CHECK(event.ref_count == 1 && disposes == 0);
  ZEND_ASYNC_EVENT_RELEASE(&event);
  C_CHECK(event.ref_count == 0 && disposes == 1);

  zend_async_event_t* ev = &event;
  C_CHECK(!ZEND_ASYNC_EVENT_REPLAY(ev, NULL));
  return 0;
}

int zar_c_check_callbacks_push(void) {
  zend_async_event_t event;
  memset(&event, 0, sizeof(event));
  zend_async_event_callback_t callbacks[5];
  memset(callbacks, 0, sizeof(callbacks));

  for (int i = 0; i < 5; i++) {
    callbacks[i].callback = noop_callback;
    C_CHECK(zend_async_callbacks_push(&event, &callbacks[i]));
    C_CHECK(callbacks[i].ref_count == 1);
  }
  C_CHECK(event.callbacks.length == 5);
  C_CHECK(event.callbacks.capacity == 8);
  C_CHECK(event.callbacks.data[4] == &callbacks[4]);
  efree(event.callbacks.data);

  zend_async_event_callback_t* heap = ZEND_ASYNC_EVENT_CALLBACK(noop_callback);
  C_CHECK(heap->ref_count == 0 && heap->callback == noop_callback);
  ZEND_ASYNC_EVENT_CALLBACK_ADD_REF(heap);
  ZEND_ASYNC_EVENT_CALLBACK_RELEASE(heap);
  return 0;
}

int zar_c_check_waker_macros(void) {
  zend_coroutine_t coroutine;
  memset(&coroutine, 0, sizeof(coroutine));
  C_CHECK(!ZEND_COROUTINE_SUSPENDED(&coroutine));

  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine);
  C_CHECK(waker != NULL && coroutine.waker == waker);
  C_CHECK(ZEND_ASYNC_WAKER_WAITING(waker));
  C_CHECK(ZEND_COROUTINE_SUSPENDED(&coroutine));
  C_CHECK(ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker));
  waker->status = ZEND_ASYNC_WAKER_QUEUED;
  C_CHECK(ZEND_ASYNC_WAKER_IN_QUEUE(waker));
  waker->status = ZEND_ASYNC_WAKER_RESULT;
  C_CHECK(!ZEND_ASYNC_WAKER_WAITING(waker));

  ZEND_ASYNC_WAKER_DESTROY(&coroutine);
  C_CHECK(coroutine.waker == NULL);
  efree(waker);
  return 0;
}

int zar_c_check_microtask(void) {
  zend_async_microtask_t* microtask =
      (zend_async_microtask_t*)ecalloc(1, sizeof(zend_async_microtask_t));
  microtask->ref_count = 1;
  ZEND_ASYNC_MICROTASK_ADD_REF(microtask);
  C_CHECK(microtask->ref_count == 2);
  ZEND_ASYNC_MICROTASK_RELEASE(microtask);
  C_CHECK(microtask->ref_count == 1);
  ZEND_ASYNC_MICROTASK_RELEASE(microtask); /* freed */
  return 0;
}

int zar_c_check_globals(void) {
  C_CHECK(ZEND_ASYNC_IS_OFF || ZEND_ASYNC_IS_READY);
  C_CHECK(ZEND_ASYNC_CURRENT_COROUTINE == NULL);
  C_CHECK(ZEND_ASYNC_CURRENT_SCOPE == NULL);
  C_CHECK(!ZEND_ASYNC_IS_SCHEDULER_CONTEXT);
  ZEND_ASYNC_SCHEDULER_CONTEXT = true;
  C_CHECK(ZEND_ASYNC_IS_SCHEDULER_CONTEXT);
  ZEND_ASYNC_SCHEDULER_CONTEXT = false;
  return 0;
}

size_t zar_c_sizeof_waker_trigger(void) {
  return sizeof(zend_async_waker_trigger_t);
}

size_t zar_c_sizeof_waker(void) { return sizeof(zend_async_waker_t); }

size_t zar_c_sizeof_coroutine(void) { return sizeof(zend_coroutine_t); }

/* What ABI v0.24-v0.26 added, used from C: the timer flag's macros, the IO
 * bits, the fork macros with nothing registered, and the awaited writev's
 * expansion (its flags reach the writev entry). */
static uint32_t seen_writev_flags;

static zend_async_io_req_t* recording_writev(
    zend_async_io_t* io, const void* bufs, unsigned nbufs, uint32_t flags,
    zend_async_io_write_free_cb_t free_cb, void* user_data) {
  (void)io;
  (void)bufs;
  (void)nbufs;
  (void)free_cb;
  (void)user_data;
  seen_writev_flags = flags;
  return NULL;
}

int zar_c_check_v026_additions(void) {
  zend_async_timer_event_t timer;
  memset(&timer, 0, sizeof(timer));
  C_CHECK(!ZEND_ASYNC_TIMER_IS_REFRESH_CLOCK(&timer));
  ZEND_ASYNC_TIMER_SET_REFRESH_CLOCK(&timer);
  C_CHECK(ZEND_ASYNC_TIMER_IS_REFRESH_CLOCK(&timer));
  C_CHECK(timer.base.flags == (1u << 14));
  C_CHECK(!ZEND_ASYNC_TIMER_IS_MULTISHOT(&timer));

  C_CHECK(ZEND_ASYNC_IO_WRITE_FAILED == (1 << 7));
  C_CHECK((ZEND_ASYNC_IO_WRITEV_IOV & ZEND_ASYNC_IO_WRITEV_MODE_MASK) ==
          ZEND_ASYNC_IO_WRITEV_IOV);
  C_CHECK((ZEND_ASYNC_IO_WRITEV_AWAIT & ZEND_ASYNC_IO_WRITEV_MODE_MASK) == 0);

  C_CHECK(zend_async_before_fork_fn == NULL);
  C_CHECK(ZEND_ASYNC_BEFORE_FORK());
  ZEND_ASYNC_AFTER_FORK_CHILD();

  zend_async_io_writev_t saved = zend_async_io_writev_fn;
  zend_async_io_writev_fn = recording_writev;
  zend_string* parts[1] = {NULL};
  C_CHECK(ZEND_ASYNC_IO_WRITEV_AWAITED((zend_async_io_t*)NULL, parts, 0) ==
          NULL);
  zend_async_io_writev_fn = saved;
  C_CHECK(seen_writev_flags ==
          (ZEND_ASYNC_IO_WRITEV_ZSTR | ZEND_ASYNC_IO_WRITEV_AWAIT));
  return 0;
}
