/*
 * zend-async-ref: the TrueAsync ABI, v0.26.0.
 *
 * A hand-written stand-in for php-src's Zend/zend_async_API.h at ABI
 * v0.26.0 (true-async/php-src, "TrueAsync ABI v0.26.0"). Every type, field
 * order, enum value, flag bit, macro, function-pointer type, exported
 * function-pointer global and register function has upstream's name and
 * meaning, so extension code written against upstream compiles unchanged
 * against this header, as C11 or as C++20. Layout on x86-64 is pinned by
 * abi/src/layout_assert.h.
 *
 * Deliberate differences from upstream (each documented where it appears):
 *  - ZEND_ASYNC_NEW_CONTEXT(parent) ignores `parent`: upstream's function
 *    type takes no argument, so the upstream macro cannot compile.
 *  - ZEND_ASYNC_FCALL_DEFINE casts what ecalloc/safe_emalloc return, which
 *    C++ needs (upstream's, without the casts, compiles only as C).
 *  - zend_async_get_api_version() is defined (upstream declares it only).
 *  - ZTS builds are not supported: globals are a single process-wide
 *    zend_async_globals_api.
 *
 * Reading guide. The header has five parts:
 *   1. Poll/IO/exec/priority/class enums and forward declarations.
 *   2. Function-pointer types for every operation an extension provides.
 *   3. The event base (zend_async_event_t) and its callbacks; every
 *      awaitable thing (coroutine, scope, timer, pool, ...) embeds it first.
 *   4. Coroutines, wakers, scopes, contexts, futures, channels, pools.
 *   5. Globals, lifecycle macros, the exported function pointers, the
 *      register functions and the convenience macros.
 *
 * Conventions for function-pointer fields: "required" means the engine or
 * other extensions call it unconditionally; "optional" means it may be NULL
 * and callers check first.
 */
#ifndef ZEND_ASYNC_API_H
#define ZEND_ASYNC_API_H

/* The engine headers come first, so that the GNU/POSIX API they enable is
 * visible to the system headers that follow. */
/* clang-format off */
#include "zend_API.h"
#include "zend_atomic.h"
#include "zend_globals.h"
#include "zend_stream.h"

#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
/* clang-format on */

/* The one version of the ABI this header describes. */
#define ZEND_ASYNC_API "TrueAsync ABI v0.26.0"
#define ZEND_ASYNC_API_VERSION_MAJOR 0
#define ZEND_ASYNC_API_VERSION_MINOR 26
#define ZEND_ASYNC_API_VERSION_PATCH 0

#define ZEND_ASYNC_API_VERSION_NUMBER     \
  ((ZEND_ASYNC_API_VERSION_MAJOR << 16) | \
   (ZEND_ASYNC_API_VERSION_MINOR << 8) | (ZEND_ASYNC_API_VERSION_PATCH))

/* ===================================================================== */
/* 1. Enums, descriptors and forward declarations                         */
/* ===================================================================== */

/* Poll interest / readiness bits. */
typedef enum {
  ASYNC_READABLE = 1,
  ASYNC_WRITABLE = 2,
  ASYNC_DISCONNECT = 4,
  ASYNC_PRIORITIZED = 8
} async_poll_event;

/* Signal numbers as the ABI names them (Windows-compatible numbering). */
#define ZEND_ASYNC_SIGHUP 1
#define ZEND_ASYNC_SIGINT 2
#define ZEND_ASYNC_SIGQUIT 3
#define ZEND_ASYNC_SIGILL 4
#define ZEND_ASYNC_SIGABRT_COMPAT 6
#define ZEND_ASYNC_SIGFPE 8
#define ZEND_ASYNC_SIGKILL 9
#define ZEND_ASYNC_SIGSEGV 11
#define ZEND_ASYNC_SIGTERM 15
#define ZEND_ASYNC_SIGBREAK 21
#define ZEND_ASYNC_SIGABRT 22
#define ZEND_ASYNC_SIGWINCH 28

/* Descriptors (POSIX): a C runtime fd, a socket fd, a process id. */
typedef int zend_file_descriptor_t;
typedef pid_t zend_process_id_t;
typedef pid_t zend_process_t;
typedef int zend_socket_t;
#define ZEND_FD_NULL (-1)
#define INVALID_IO_DESCRIPTOR (-1)

typedef enum {
  IO_DESCRIPTOR_FD = 1,
  IO_DESCRIPTOR_SOCKET,
  IO_DESCRIPTOR_PROCESS
} io_descriptor_type;

/* Any descriptor, tagged. */
typedef struct io_descriptor_s {
  union {
    zend_file_descriptor_t fd;
    zend_socket_t socket;
    zend_process_t process;
  };
  io_descriptor_type type;
} io_descriptor_t;

/* Async IO handle kinds. */
typedef enum {
  ZEND_ASYNC_IO_TYPE_PIPE,
  ZEND_ASYNC_IO_TYPE_FILE,
  ZEND_ASYNC_IO_TYPE_TCP,
  ZEND_ASYNC_IO_TYPE_UDP,
  ZEND_ASYNC_IO_TYPE_TTY
} zend_async_io_type;

#define ZEND_ASYNC_IO_IS_STREAM(type)                                       \
  ((type) == ZEND_ASYNC_IO_TYPE_PIPE || (type) == ZEND_ASYNC_IO_TYPE_TTY || \
   (type) == ZEND_ASYNC_IO_TYPE_TCP)

/* zend_async_io_t.state bits. */
#define ZEND_ASYNC_IO_READABLE (1 << 0)
#define ZEND_ASYNC_IO_WRITABLE (1 << 1)
#define ZEND_ASYNC_IO_CLOSED (1 << 2)
#define ZEND_ASYNC_IO_EOF (1 << 3)
#define ZEND_ASYNC_IO_APPEND (1 << 4)
/* Keep the descriptor when the io is disposed. It covers only a descriptor
 * the reactor closes on its own account (a file, or a copy the reactor made):
 * a descriptor a stream handle (pipe, TCP) adopted is closed by the backend
 * with the handle, this flag or not. */
#define ZEND_ASYNC_IO_PRESERVE_FD (1 << 5)
#define ZEND_ASYNC_IO_OWNS_FD (1 << 6) /* reactor closes the fd on dispose */
/* A write on this handle completed with an error or was refused at submit.
 * The reactor sets it before the caller's buffer is handed back (before
 * free_cb) and never clears it: it is the only status a fire-and-forget
 * write reports. It says nothing about the read side. (v0.26) */
#define ZEND_ASYNC_IO_WRITE_FAILED (1 << 7)

typedef struct _zend_async_io_s zend_async_io_t;
typedef struct _zend_async_io_req_s zend_async_io_req_t;
typedef struct _zend_async_udp_req_s zend_async_udp_req_t;

/* Modes of the exec family (exec, system, exec into array, passthru,
 * shell_exec). */
typedef enum {
  ZEND_ASYNC_EXEC_MODE_EXEC,
  ZEND_ASYNC_EXEC_MODE_SYSTEM,
  ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY,
  ZEND_ASYNC_EXEC_MODE_PASSTHRU,
  ZEND_ASYNC_EXEC_MODE_SHELL_EXEC
} zend_async_exec_mode;

/* Spawn priority: anything above NORMAL goes to the front of the queue. */
typedef enum {
  ZEND_COROUTINE_NORMAL = 0,
  ZEND_COROUTINE_HI_PRIORITY = 255
} zend_coroutine_priority;

/* Class identifiers for ZEND_ASYNC_GET_CE / ZEND_ASYNC_GET_EXCEPTION_CE. */
typedef enum {
  ZEND_ASYNC_CLASS_NO = 0,
  ZEND_ASYNC_CLASS_AWAITABLE = 1,
  ZEND_ASYNC_CLASS_COROUTINE = 2,
  ZEND_ASYNC_CLASS_SCOPE = 3,
  ZEND_ASYNC_CLASS_CONTEXT = 4,
  ZEND_ASYNC_CLASS_SCOPE_PROVIDER = 5,
  ZEND_ASYNC_CLASS_SPAWN_STRATEGY = 6,
  ZEND_ASYNC_CLASS_TIMEOUT = 7,
  ZEND_ASYNC_CLASS_COMPLETABLE = 8,

  ZEND_ASYNC_CLASS_CHANNEL = 10,
  ZEND_ASYNC_CLASS_FUTURE = 11,
  ZEND_ASYNC_CLASS_GROUP = 12,
  ZEND_ASYNC_CLASS_POOL = 13,

  ZEND_ASYNC_EXCEPTION_DEFAULT = 30,
  ZEND_ASYNC_EXCEPTION_CANCELLATION = 31,
  ZEND_ASYNC_EXCEPTION_TIMEOUT = 32,
  ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT = 33,
  ZEND_ASYNC_EXCEPTION_POLL = 34,
  ZEND_ASYNC_EXCEPTION_DNS = 35,
  ZEND_ASYNC_EXCEPTION_DEADLOCK = 36,
  ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE = 37,
  ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED = 38,
  ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER = 39,
  ZEND_ASYNC_EXCEPTION_REMOTE = 40,
} zend_async_class;

typedef struct _zend_coroutine_s zend_coroutine_t;
typedef struct _zend_future_s zend_future_t;
typedef struct _zend_async_channel_s zend_async_channel_t;
typedef struct _zend_async_pool_s zend_async_pool_t;
typedef struct _zend_async_thread_pool_s zend_async_thread_pool_t;
typedef struct _zend_async_context_s zend_async_context_t;
typedef struct _zend_async_waker_s zend_async_waker_t;
typedef struct _zend_async_microtask_s zend_async_microtask_t;
typedef struct _zend_async_scope_s zend_async_scope_t;
typedef struct _zend_async_iterator_s zend_async_iterator_t;
typedef struct _zend_async_group_s zend_async_group_t;
typedef struct _zend_fcall_s zend_fcall_t;
typedef void (*zend_coroutine_entry_t)(void);

typedef struct _zend_async_event_s zend_async_event_t;

/* Channel methods. receive(): `result` NULL means wait-only; when
 * `cancellation` fires the call returns false with no exception (a closed
 * channel returns false with an exception). */
typedef bool (*zend_channel_send_t)(zend_async_channel_t *channel, zval *value);
typedef bool (*zend_channel_receive_t)(zend_async_channel_t *channel,
                                       zval *result,
                                       zend_async_event_t *cancellation);
typedef void (*zend_channel_close_t)(zend_async_channel_t *channel);

/* Circuit breaker state of a pool. Transitions are only ever made by
 * activate()/deactivate()/recover() (typically from a strategy). */
typedef enum {
  ZEND_ASYNC_CIRCUIT_STATE_ACTIVE = 0, /* requests go through */
  ZEND_ASYNC_CIRCUIT_STATE_INACTIVE,   /* acquire fails fast */
  ZEND_ASYNC_CIRCUIT_STATE_RECOVERING  /* behaves as ACTIVE */
} zend_async_circuit_state_t;

/* Pool resource handlers (C form). The resource is an opaque zval. */
typedef bool (*zend_async_pool_factory_fn)(zend_async_pool_t *pool,
                                           zval *result);
typedef void (*zend_async_pool_destructor_fn)(zend_async_pool_t *pool,
                                              zval *resource);
typedef bool (*zend_async_pool_healthcheck_fn)(zend_async_pool_t *pool,
                                               zval *resource);
typedef bool (*zend_async_pool_before_acquire_fn)(zend_async_pool_t *pool,
                                                  zval *resource);
typedef bool (*zend_async_pool_before_release_fn)(zend_async_pool_t *pool,
                                                  zval *resource);

/* Circuit breaker strategy (C form). should_recover is never called by
 * the reference pool. */
typedef void (*zend_async_pool_cb_report_success_fn)(zend_async_pool_t *pool);
typedef void (*zend_async_pool_cb_report_failure_fn)(zend_async_pool_t *pool,
                                                     zend_object *error);
typedef bool (*zend_async_pool_cb_should_recover_fn)(zend_async_pool_t *pool);

typedef struct _zend_async_circuit_breaker_strategy_s {
  zend_async_pool_cb_report_success_fn report_success; /* optional */
  zend_async_pool_cb_report_failure_fn report_failure; /* optional */
  zend_async_pool_cb_should_recover_fn should_recover; /* optional */
  void *ctx;                                           /* strategy's data */
} zend_async_circuit_breaker_strategy_t;

/* Coroutine switch handlers: called when a coroutine is entered or left;
 * a handler returning false is removed after the call. */
typedef struct _zend_coroutine_switch_handler_s zend_coroutine_switch_handler_t;
typedef struct _zend_coroutine_switch_handlers_vector_s
    zend_coroutine_switch_handlers_vector_t;

typedef bool (*zend_coroutine_switch_handler_fn)(zend_coroutine_t *coroutine,
                                                 bool is_enter,
                                                 bool is_finishing);

/* Event callbacks and event methods. */
typedef struct _zend_async_event_callback_s zend_async_event_callback_t;
typedef struct _zend_async_waker_trigger_s zend_async_waker_trigger_t;
typedef struct _zend_coroutine_event_callback_s zend_coroutine_event_callback_t;
typedef void (*zend_async_event_callback_fn)(
    zend_async_event_t *event, zend_async_event_callback_t *callback,
    void *result, zend_object *exception);
/* Note the order: the callback first, then the event it is leaving (the
 * event may be NULL). */
typedef void (*zend_async_event_callback_dispose_fn)(
    zend_async_event_callback_t *callback, zend_async_event_t *event);
typedef bool (*zend_async_event_add_callback_t)(
    zend_async_event_t *event, zend_async_event_callback_t *callback);
typedef bool (*zend_async_event_del_callback_t)(
    zend_async_event_t *event, zend_async_event_callback_t *callback);
typedef void (*zend_async_event_callbacks_notify_t)(zend_async_event_t *event,
                                                    void *result,
                                                    zend_object *exception);
typedef bool (*zend_async_event_start_t)(zend_async_event_t *event);
typedef bool (*zend_async_event_stop_t)(zend_async_event_t *event);
typedef bool (*zend_future_resolve_t)(zend_async_event_t *event,
                                      void *iterator);

/* replay(): with a callback, invokes it synchronously with the event's
 * (final) outcome; with callback NULL, writes the outcome to `result`
 * and/or `exception`. Returns true when an outcome was applied. */
typedef bool (*zend_async_event_replay_t)(zend_async_event_t *event,
                                          zend_async_event_callback_t *callback,
                                          zval *result,
                                          zend_object **exception);
typedef bool (*zend_async_event_dispose_t)(zend_async_event_t *event);
typedef zend_string *(*zend_async_event_info_t)(zend_async_event_t *event);

typedef struct _zend_async_poll_event_s zend_async_poll_event_t;
typedef struct _zend_async_poll_proxy_s zend_async_poll_proxy_t;
typedef struct _zend_async_timer_event_s zend_async_timer_event_t;
typedef struct _zend_async_signal_event_s zend_async_signal_event_t;
typedef struct _zend_async_filesystem_event_s zend_async_filesystem_event_t;

typedef struct _zend_async_process_event_s zend_async_process_event_t;
typedef struct _zend_async_thread_event_s zend_async_thread_event_t;
typedef struct _zend_async_thread_context_s zend_async_thread_context_t;
typedef struct _zend_async_thread_internal_entry_s
    zend_async_thread_internal_entry_t;
typedef struct _zend_async_trigger_event_s zend_async_trigger_event_t;

typedef struct _zend_async_dns_nameinfo_s zend_async_dns_nameinfo_t;
typedef struct _zend_async_dns_addrinfo_s zend_async_dns_addrinfo_t;

typedef struct _zend_async_exec_event_s zend_async_exec_event_t;

typedef struct _zend_async_listen_event_s zend_async_listen_event_t;

/* zend_async_socket_listen_fn flags; unknown bits are ignored. */
#define ZEND_ASYNC_LISTEN_F_REUSEPORT (1u << 0)
#define ZEND_ASYNC_LISTEN_F_IPV6ONLY (1u << 1)
#define ZEND_ASYNC_LISTEN_F_UNIX (1u << 2) /* host is a path, port ignored */

/* zend_async_udp_bind_fn flags; unknown bits are ignored. */
#define ZEND_ASYNC_UDP_F_REUSEPORT (1u << 0)
#define ZEND_ASYNC_UDP_F_IPV6ONLY (1u << 1)
#define ZEND_ASYNC_UDP_F_RECV_GSO (1u << 2)

typedef struct _zend_async_task_s zend_async_task_t;

/* ===================================================================== */
/* 2. Operation types                                                     */
/* ===================================================================== */

/* --- Scheduler ------------------------------------------------------- */

typedef zend_coroutine_t *(*zend_async_new_coroutine_t)(
    zend_async_scope_t *scope);
typedef zend_async_scope_t *(*zend_async_new_scope_t)(
    zend_async_scope_t *parent_scope, bool with_zend_object);
/* Creates a coroutine in `scope` (or the provider's scope, the current
 * scope, the main scope) and queues it; NULL with an exception on error. */
typedef zend_coroutine_t *(*zend_async_spawn_t)(zend_async_scope_t *scope,
                                                zend_object *scope_provider,
                                                int32_t priority);
/* Suspends the current coroutine. from_main: the main script has ended
 * and the scheduler must run everything left (is_bailout: after a fatal
 * error, shut down gracefully first). */
typedef bool (*zend_async_suspend_t)(bool from_main, bool is_bailout);
/* Runs fn(arg) on the main coroutine's (OS thread) stack. */
typedef void (*zend_async_call_on_main_stack_t)(void (*fn)(void *), void *arg);
typedef bool (*zend_async_enqueue_coroutine_t)(zend_coroutine_t *coroutine);
/* Wakes a suspended coroutine, optionally with an error to throw in it
 * (transfer_error: the callee takes over the caller's reference). */
typedef bool (*zend_async_resume_t)(zend_coroutine_t *coroutine,
                                    zend_object *error,
                                    const bool transfer_error);
typedef bool (*zend_async_cancel_t)(zend_coroutine_t *coroutine,
                                    zend_object *error, bool transfer_error,
                                    const bool is_safely);
/* Suspends `awaiter` until every cancelled coroutine and child scope of
 * `scope` is disposed. `awaiter` must not belong to `scope`. */
typedef void (*zend_async_scope_await_after_cancellation_t)(
    zend_async_scope_t *scope, zend_coroutine_t *awaiter,
    zend_fcall_info *error_fci, zend_fcall_info_cache *error_fci_cache,
    zend_async_event_t *cancellation);
typedef bool (*zend_async_spawn_and_throw_t)(zend_object *exception,
                                             zend_async_scope_t *scope,
                                             int32_t priority);
typedef bool (*zend_async_shutdown_t)(void);
typedef bool (*zend_async_engine_shutdown_t)(void);
/* Fork hooks (v0.24). before_fork() runs in the parent before fork(): false,
 * with an exception thrown, when forking is unsafe (coroutines other than
 * main alive). after_fork_child() runs in the child right after fork(), to
 * give the child a reactor of its own. */
typedef bool (*zend_async_before_fork_t)(void);
typedef void (*zend_async_after_fork_child_t)(void);
typedef zend_array *(*zend_async_get_coroutines_t)(void);
typedef bool (*zend_async_add_microtask_t)(zend_async_microtask_t *microtask);
typedef zend_array *(*zend_async_get_awaiting_info_t)(
    zend_coroutine_t *coroutine);
typedef zend_class_entry *(*zend_async_get_class_ce_t)(zend_async_class type);
typedef zend_future_t *(*zend_async_new_future_t)(bool thread_safe,
                                                  size_t extra_size);
typedef zend_async_channel_t *(*zend_async_new_channel_t)(size_t buffer_size,
                                                          bool resizable,
                                                          bool thread_safe,
                                                          size_t extra_size);

typedef zend_async_group_t *(*zend_async_new_group_t)(uint32_t concurrency,
                                                      uint32_t queue_limit,
                                                      zend_object *scope);

/* --- Pool ------------------------------------------------------------ */

/* Creates a pool whose handlers are C functions (handler_flags bits 0-4
 * set). Pre-warms min_size resources; a healthcheck runs every
 * healthcheck_interval_ms when both are set. */
typedef zend_async_pool_t *(*zend_async_new_pool_t)(
    zend_async_pool_factory_fn factory,
    zend_async_pool_destructor_fn destructor,
    zend_async_pool_healthcheck_fn healthcheck,
    zend_async_pool_before_acquire_fn before_acquire,
    zend_async_pool_before_release_fn before_release, uint32_t min_size,
    uint32_t max_size, uint32_t healthcheck_interval_ms, size_t extra_size);

/* acquire: waits up to timeout_ms (<= 0: forever); false with an exception
 * pending on failure. try_acquire: never waits, never takes a place
 * reserved for a waiter. release: borrows `resource`. */
typedef bool (*zend_async_pool_acquire_t)(zend_async_pool_t *pool, zval *result,
                                          zend_long timeout_ms);
typedef bool (*zend_async_pool_try_acquire_t)(zend_async_pool_t *pool,
                                              zval *result);
typedef void (*zend_async_pool_release_t)(zend_async_pool_t *pool,
                                          zval *resource);
typedef void (*zend_async_pool_close_t)(zend_async_pool_t *pool);

typedef zend_object *(*zend_async_new_future_obj_t)(zend_future_t *future);
typedef zend_object *(*zend_async_new_channel_obj_t)(
    zend_async_channel_t *channel);
/* A new Async\Pool wrapper object for `pool` (takes one pool event ref and
 * sets pool->wrapper). */
typedef zend_object *(*zend_async_new_pool_obj_t)(zend_async_pool_t *pool);

typedef bool (*zend_async_scheduler_launch_t)(void);

/* --- Reactor --------------------------------------------------------- */

typedef bool (*zend_async_reactor_startup_t)(void);
typedef bool (*zend_async_reactor_shutdown_t)(void);
/* Runs one loop iteration; no_wait: do not block for events. Returns
 * whether the loop still has work. */
typedef bool (*zend_async_reactor_execute_t)(bool no_wait);
typedef bool (*zend_async_reactor_loop_alive_t)(void);
typedef void (*zend_async_reactor_tick_t)(void);
/* Waits until every reactor-owned child thread has left; main thread only. */
typedef void (*zend_async_reactor_quiesce_t)(void);

typedef zend_async_poll_event_t *(*zend_async_new_socket_event_t)(
    zend_socket_t socket, async_poll_event events, size_t extra_size);
typedef zend_async_poll_event_t *(*zend_async_new_poll_event_t)(
    zend_file_descriptor_t fh, zend_socket_t socket, async_poll_event events,
    size_t extra_size);
typedef zend_async_poll_proxy_t *(*zend_async_new_poll_proxy_event_t)(
    zend_async_poll_event_t *poll_event, async_poll_event events,
    size_t extra_size);
typedef zend_async_timer_event_t *(*zend_async_new_timer_event_t)(
    const zend_ulong timeout, const zend_ulong nanoseconds,
    const bool is_periodic, size_t extra_size);
/* Reschedules a MULTISHOT timer in place, keeping refcount and callbacks;
 * false for a closed event or a backend failure. */
typedef bool (*zend_async_timer_rearm_t)(zend_async_timer_event_t *event,
                                         const zend_ulong timeout,
                                         const zend_ulong nanoseconds);
typedef zend_async_signal_event_t *(*zend_async_new_signal_event_t)(
    int signum, size_t extra_size);
/* Called from zend_sigaction(): true when the reactor takes delivery of
 * the signal itself. */
typedef bool (*zend_async_sigaction_t)(int signo);
typedef zend_async_process_event_t *(*zend_async_new_process_event_t)(
    zend_process_t process_handle, size_t extra_size);
typedef void (*zend_async_thread_entry_t)(void *arg, size_t extra_size);
typedef zend_async_thread_event_t *(*zend_async_new_thread_event_t)(
    const zend_fcall_t *entry, const zend_fcall_t *bootloader,
    uint32_t thread_flags, size_t extra_size);

/* Thread lifecycle, implemented by the thread module. */
typedef void *(*zend_async_thread_snapshot_create_t)(
    const zend_fcall_t *entry, const zend_fcall_t *bootloader);
typedef void (*zend_async_thread_snapshot_destroy_t)(void *snapshot);
typedef void (*zend_async_thread_run_t)(void *arg);
typedef void (*zend_async_thread_load_result_t)(
    zend_async_thread_event_t *event);

/* State of a deep copy of zvals between threads. */
typedef struct _zend_async_thread_transfer_ctx_s {
  HashTable xlat; /* old pointer -> new pointer */
  uint32_t depth;
  HashTable *defer_release; /* zvals released at teardown (lazy) */
  const char *error;        /* set instead of throwing */
} zend_async_thread_transfer_ctx_t;

typedef void (*zend_async_thread_transfer_zval_t)(
    zend_async_thread_transfer_ctx_t *ctx, zval *dst, const zval *src);
typedef void (*zend_async_thread_load_zval_t)(
    zend_async_thread_transfer_ctx_t *ctx, zval *dst, const zval *src);
typedef void (*zend_async_thread_transfer_zval_toplevel_t)(zval *dst,
                                                           const zval *src);
typedef void (*zend_async_thread_load_zval_toplevel_t)(zval *dst,
                                                       const zval *src);
typedef void (*zend_async_thread_release_transferred_zval_t)(zval *z);
/* Releases `count` roots of one transfer under a single visited set, so an
 * object two roots share is freed once (releasing the roots one by one would
 * free it twice). (v0.24) */
typedef void (*zend_async_thread_release_transferred_zvals_t)(zval **roots,
                                                              size_t count);
typedef void (*zend_async_thread_xlat_put_t)(
    zend_async_thread_transfer_ctx_t *ctx, const void *src, void *dst);
typedef void (*zend_async_thread_defer_release_t)(
    zend_async_thread_transfer_ctx_t *ctx, zval *z);

typedef void (*zend_async_trigger_event_trigger_fn)(
    zend_async_trigger_event_t *event);
typedef zend_async_trigger_event_t *(*zend_async_new_trigger_event_t)(
    size_t extra_size);
typedef zend_async_filesystem_event_t *(*zend_async_new_filesystem_event_t)(
    zend_string *path, const unsigned int flags, size_t extra_size);

typedef zend_async_dns_nameinfo_t *(*zend_async_getnameinfo_t)(
    const struct sockaddr *addr, int flags, size_t extra_size);
typedef zend_async_dns_addrinfo_t *(*zend_async_getaddrinfo_t)(
    const char *node, const char *service, const struct addrinfo *hints,
    size_t extra_size);
typedef bool (*zend_async_freeaddrinfo_t)(struct addrinfo *ai);

typedef zend_async_exec_event_t *(*zend_async_new_exec_event_t)(
    zend_async_exec_mode exec_mode, const char *cmd, zval *return_buffer,
    zval *return_value, zval *std_error, const char *cwd, const char *env,
    size_t extra_size);

typedef zend_async_listen_event_t *(*zend_async_socket_listen_t)(
    const char *host, int port, int backlog, uint32_t flags, size_t extra_size);
/* Listen over an already-listening fd; the reactor owns `fd` from now on
 * (closed on dispose, or by the call itself when it returns NULL). */
typedef zend_async_listen_event_t *(*zend_async_socket_listen_fd_t)(
    zend_socket_t fd, int backlog, uint32_t flags, size_t extra_size);

typedef int (*zend_async_listen_get_local_address_t)(
    zend_async_listen_event_t *listen_event, char *host, size_t host_len,
    int *port);

typedef int (*zend_async_exec_t)(zend_async_exec_mode exec_mode,
                                 const char *cmd, zval *return_buffer,
                                 zval *return_value, zval *std_error,
                                 const char *cwd, const char *env,
                                 const zend_ulong timeout);

/* Number of CPUs this process may use; always >= 1. */
typedef unsigned int (*zend_async_available_parallelism_t)(void);

/* The reactor's cached loop time in milliseconds: one load, no syscall. */
typedef uint64_t (*zend_async_now_t)(void);

/* --- Thread pool ----------------------------------------------------- */

typedef void (*zend_async_task_run_t)(zend_async_task_t *task);
typedef bool (*zend_async_queue_task_t)(zend_async_task_t *task);
typedef zend_async_task_t *(*zend_async_new_task_t)(zend_async_task_run_t run,
                                                    void *data,
                                                    size_t extra_size);

typedef uintptr_t zend_async_thread_handle_t;

typedef zend_async_thread_handle_t (*zend_async_start_thread_t)(
    zend_async_thread_internal_entry_t *entry,
    zend_async_thread_context_t *context);

typedef void (*zend_async_microtask_handler_t)(
    zend_async_microtask_t *microtask);

/* --- Async IO -------------------------------------------------------- */

/* Per-chunk read buffer; layout matches uv_buf_t on POSIX. */
typedef struct {
  char *base;
  size_t len;
} zend_async_buf_t;

/* Per-chunk allocator for reads; out->base NULL or out->len 0 means
 * back-pressure. */
typedef void (*zend_async_io_alloc_cb_t)(zend_async_io_t *io, size_t suggested,
                                         zend_async_buf_t *out);

typedef zend_async_io_t *(*zend_async_io_create_t)(zend_file_descriptor_t fd,
                                                   zend_async_io_type type,
                                                   uint32_t state);
typedef zend_async_io_req_t *(*zend_async_io_read_t)(zend_async_io_t *io,
                                                     char *buf,
                                                     size_t max_size);
/* With free_cb the write is fire-and-forget: the reactor calls
 * free_cb(buf, io) on completion and disposes the request itself. */
typedef void (*zend_async_io_write_free_cb_t)(void *data, zend_async_io_t *io);
typedef zend_async_io_req_t *(*zend_async_io_write_t)(
    zend_async_io_t *io, const char *buf, size_t count,
    zend_async_io_write_free_cb_t free_cb);

/* Vectored write: ZSTR mode (bufs are owned zend_string references,
 * released on completion; at most 65535 of them) or IOV mode (bufs are
 * zend_async_buf_t into caller memory; free_cb(user_data, io) runs once).
 * nbufs == 0 is the only NULL return without an exception: nothing is
 * submitted or consumed (IOV mode still runs free_cb once). On any refusal
 * the reactor has already released or handed back every entry.
 *
 * ZEND_ASYNC_IO_WRITEV_AWAIT (v0.25, ZSTR mode only; IOV | AWAIT is refused)
 * makes the write awaited: the request outlives its completion, io->event is
 * notified with the request as result and no exception (status is on
 * req->transferred / req->exception), and the caller disposes it once. An
 * awaiter also takes a handle-level notification (result NULL, an exception:
 * a closing handle) as its wake-up; disposing after the handle is gone is
 * safe. Without AWAIT the write is fire-and-forget. */
#define ZEND_ASYNC_IO_WRITEV_ZSTR 0u
#define ZEND_ASYNC_IO_WRITEV_IOV 1u
#define ZEND_ASYNC_IO_WRITEV_MODE_MASK 1u
#define ZEND_ASYNC_IO_WRITEV_AWAIT (1u << 1)
typedef zend_async_io_req_t *(*zend_async_io_writev_t)(
    zend_async_io_t *io, const void *bufs, unsigned nbufs, uint32_t flags,
    zend_async_io_write_free_cb_t free_cb, void *user_data);

typedef bool (*zend_async_io_close_t)(zend_async_io_t *io);
typedef int (*zend_async_io_await_t)(zend_async_io_t *io, uint32_t events,
                                     struct timeval *timeout);
typedef zend_async_io_req_t *(*zend_async_io_flush_t)(zend_async_io_t *io);
typedef zend_async_io_req_t *(*zend_async_io_stat_t)(zend_async_io_t *io,
                                                     zend_stat_t *buf);
typedef zend_off_t (*zend_async_io_seek_t)(zend_async_io_t *io,
                                           zend_off_t offset, int whence);

/* Zero-copy file -> socket transfer (plaintext or kTLS sockets only);
 * offset -1 reads from the current position. */
typedef zend_async_io_req_t *(*zend_async_io_sendfile_t)(
    zend_async_io_t *out_io, zend_async_io_t *in_io, zend_off_t offset,
    size_t length);

/* Asynchronous open(2): a pending file io whose completion is notified on
 * its event. */
typedef zend_async_io_t *(*zend_async_fs_open_t)(const char *path, int flags,
                                                 int mode);

typedef enum {
  ZEND_ASYNC_SOCKET_OPT_BROADCAST = 1,
  ZEND_ASYNC_SOCKET_OPT_MULTICAST_LOOP,
  ZEND_ASYNC_SOCKET_OPT_MULTICAST_TTL,
  ZEND_ASYNC_SOCKET_OPT_TTL,
  ZEND_ASYNC_SOCKET_OPT_NODELAY,
  ZEND_ASYNC_SOCKET_OPT_KEEPALIVE
} zend_async_socket_option_t;

typedef zend_async_udp_req_t *(*zend_async_udp_sendto_t)(
    zend_async_io_t *io, const char *buf, size_t count,
    const struct sockaddr *addr, socklen_t addr_len);
typedef zend_async_udp_req_t *(*zend_async_udp_recvfrom_t)(zend_async_io_t *io,
                                                           size_t max_size);
/* Synchronous best-effort send: bytes accepted, or -errno (-EAGAIN: full). */
typedef ssize_t (*zend_async_udp_try_send_t)(zend_async_io_t *io,
                                             const char *buf, size_t count,
                                             const struct sockaddr *addr,
                                             socklen_t addr_len);

typedef int (*zend_async_io_set_option_t)(zend_async_io_t *io,
                                          zend_async_socket_option_t option,
                                          int value);
typedef int (*zend_async_udp_set_membership_t)(zend_async_io_t *io,
                                               const char *multicast_addr,
                                               const char *interface_addr,
                                               bool join);

typedef zend_async_io_t *(*zend_async_udp_bind_t)(const char *host, int port,
                                                  uint32_t flags,
                                                  size_t extra_size);

/* A userland call: the callable and its cache, plus copied arguments. */
struct _zend_fcall_s {
  zend_fcall_info fci;
  zend_fcall_info_cache fci_cache;
};

/* ===================================================================== */
/* 3. Switch handlers, microtasks, iterators, the event base              */
/* ===================================================================== */

struct _zend_coroutine_switch_handler_s {
  zend_coroutine_switch_handler_fn handler;
};

struct _zend_coroutine_switch_handlers_vector_s {
  uint32_t length;
  uint32_t capacity;
  zend_coroutine_switch_handler_t *data;
  bool in_execution; /* handlers are running: add/remove refused */
};

/* A unit of work run by the scheduler before the next coroutine. */
struct _zend_async_microtask_s {
  zend_async_microtask_handler_t handler; /* required */
  zend_async_microtask_handler_t dtor;    /* optional, may be NULL */
  bool is_cancelled;
  uint32_t ref_count;
};

#define ZEND_ASYNC_MICROTASK_ADD_REF(microtask) \
  do {                                          \
    if (microtask != NULL) {                    \
      (microtask)->ref_count++;                 \
    }                                           \
  } while (0)

/* Drops a reference; the last one runs dtor and efree()s the microtask. */
#define ZEND_ASYNC_MICROTASK_RELEASE(microtask)          \
  do {                                                   \
    if (microtask != NULL && microtask->ref_count > 1) { \
      microtask->ref_count--;                            \
    } else {                                             \
      microtask->ref_count = 0;                          \
      if (microtask->dtor) {                             \
        microtask->dtor(microtask);                      \
      }                                                  \
      efree(microtask);                                  \
    }                                                    \
  } while (0)

typedef void (*zend_async_iterator_method_t)(zend_async_iterator_t *iterator);

/* The fields every async iterator starts with (it is a microtask). */
#define ZEND_ASYNC_ITERATOR_FIELDS                                             \
  zend_async_microtask_t microtask;                                            \
  zend_async_scope_t *scope;                                                   \
  void *extended_data;                        /* optional */                   \
  zend_async_iterator_method_t extended_dtor; /* optional */                   \
  zend_async_event_t *completion_event;       /* optional */                   \
  zend_async_iterator_method_t run;                                            \
  void (*run_in_coroutine)(zend_async_iterator_t * iterator, int32_t priority, \
                           bool throw_exception);                              \
  unsigned int concurrency;                                                    \
  int32_t priority;                                                            \
  zend_object *exception;

struct _zend_async_iterator_s {
  ZEND_ASYNC_ITERATOR_FIELDS
};

typedef zend_result (*zend_async_iterator_handler_t)(
    zend_async_iterator_t *iterator, zval *current, zval *key);

typedef zend_async_iterator_t *(*zend_async_new_iterator_t)(
    zval *array, zend_object_iterator *zend_iterator, zend_fcall_t *fcall,
    zend_async_iterator_handler_t handler, zend_async_scope_t *scope,
    unsigned int concurrency, int32_t priority, size_t iterator_size);

/* A listener on an event.
 *
 * Refcount rules: ref_count counts the containers holding the callback
 * (each event vector push adds one). 0 is special: it means "being freed
 * from a destructor, ignore". dispose(callback, event) drops one holder and
 * frees at the last. */
struct _zend_async_event_callback_s {
  uint32_t ref_count;
  zend_async_event_callback_fn callback; /* required */
  zend_async_event_callback_dispose_fn
      dispose; /* optional: NULL means
                  coroutine_event_callback_dispose */
};

#define ZEND_ASYNC_EVENT_CALLBACK_ADD_REF(callback) \
  if (callback != NULL) {                           \
    callback->ref_count++;                          \
  }

/* Decrements but never to 0 (0 is reserved for re-entrant frees); use
 * ZEND_ASYNC_EVENT_CALLBACK_RELEASE to let go of the last reference. */
#define ZEND_ASYNC_EVENT_CALLBACK_DEC_REF(callback)  \
  if (callback != NULL && callback->ref_count > 1) { \
    callback->ref_count--;                           \
  }

#define ZEND_ASYNC_EVENT_CALLBACK_RELEASE(callback)      \
  if ((callback) != NULL && (callback)->ref_count > 1) { \
    (callback)->ref_count--;                             \
  } else if ((callback)->dispose != NULL) {              \
    (callback)->dispose((callback), NULL);               \
  } else {                                               \
    coroutine_event_callback_dispose((callback), NULL);  \
  }

/* A callback that resumes a coroutine. */
struct _zend_coroutine_event_callback_s {
  zend_async_event_callback_t base;
  zend_coroutine_t *coroutine; /* resumed when the event fires */
  zend_async_event_t *event;   /* the event it listens on */
};

/* The callbacks a waker registered on one event. capacity 0 marks an
 * inline trigger stored in the waker itself. */
struct _zend_async_waker_trigger_s {
  uint32_t length;
  uint32_t capacity;
  zend_async_event_t *event;
#ifdef __cplusplus
  zend_async_event_callback_t *data[1]; /* C++ has no flexible arrays */
#else
  zend_async_event_callback_t *data[];
#endif
};

/* The callbacks of an event. Only one notification may walk it at a time
 * (current_iterator); removals during a walk adjust that iterator. */
typedef struct {
  uint32_t length;
  uint32_t capacity;
  zend_async_event_callback_t **data;
  uint32_t *current_iterator; /* NULL when no walk is in progress */
} zend_async_callbacks_vector_t;

/* The event base: anything a coroutine can wait on.
 *
 * An event is either a plain C object (ref_count counts its owners, and
 * dispose() runs when ZEND_ASYNC_EVENT_RELEASE finds ref_count == 1) or
 * embedded in a zend_object (F_ZEND_OBJ: the object's GC refcount is the
 * event's, and zend_object_offset locates the object).
 *
 * Lifecycle: start() arms the event in the reactor, stop() disarms it,
 * dispose() frees it (once; may be deferred by the implementation). A
 * CLOSED event cannot be started again and new waits on it fail. */
struct _zend_async_event_s {
  uint32_t flags;        /* ZEND_ASYNC_EVENT_F_* and subtype bits 13+ */
  uint32_t extra_offset; /* offset of extension data; with F_OBJ_REF, of a
                            zend_object* */
  union {
    uint32_t ref_count;          /* plain C events */
    uint32_t zend_object_offset; /* F_ZEND_OBJ events */
  };
  uint32_t loop_ref_count; /* references keeping the loop alive */
  zend_async_callbacks_vector_t callbacks;
  zend_async_event_add_callback_t add_callback; /* required */
  zend_async_event_del_callback_t del_callback; /* required */
  zend_async_event_start_t start;               /* required */
  zend_async_event_stop_t stop;                 /* required */
  zend_async_event_replay_t replay;             /* optional, may be NULL */
  zend_async_event_dispose_t dispose;           /* required */
  zend_async_event_info_t info;                 /* optional, may be NULL */
  /* optional: called instead of walking the callbacks; it is expected to
   * call ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER itself. */
  zend_async_event_callbacks_notify_t notify_handler;
};

/* An async IO handle. */
struct _zend_async_io_s {
  zend_async_event_t event;
  union {
    zend_file_descriptor_t fd; /* PIPE, FILE */
    zend_socket_t socket;      /* TCP, UDP */
  } descriptor;
  zend_async_io_type type;
  uint32_t state; /* ZEND_ASYNC_IO_* bits */
  /* optional: called when the reactor detaches the handle at shutdown */
  void (*on_detach)(zend_async_io_t *io, void *arg);
  void *on_detach_arg;
  zend_async_io_alloc_cb_t alloc_cb; /* optional per-chunk allocator */
  void *user_data;
};

/* One IO request. */
struct _zend_async_io_req_s {
  union {
    ssize_t result;
    ssize_t transferred;
  };
  zend_object *exception;
  char *buf;
  bool completed;
  bool io_closed; /* the handle closed while parked: skip the stream */
  zend_async_io_write_free_cb_t free_cb; /* fire-and-forget writes */
  void (*dispose)(zend_async_io_req_t *req);
};

/* Reactor-private coordination of dispose() with an in-flight send. */
#define ZEND_ASYNC_UDP_REQ_F_CALLBACK_DONE (1u << 0)
#define ZEND_ASYNC_UDP_REQ_F_DISPOSE_PENDING (1u << 1)

struct _zend_async_udp_req_s {
  ssize_t transferred;
  zend_object *exception;
  char *buf;
  bool completed;
  bool io_closed;
  uint32_t flags; /* ZEND_ASYNC_UDP_REQ_F_*, reactor-private */
  void (*dispose)(zend_async_udp_req_t *req);
  struct sockaddr_storage addr;
  socklen_t addr_len;
};

/* An event reference: a zend_object that stands for an event it does not
 * embed (events whose lifetime differs from the object's). Its first word
 * is ZEND_ASYNC_EVENT_REFERENCE_PREFIX, which is how
 * ZEND_ASYNC_OBJECT_TO_EVENT tells the two apart. */
#define ZEND_ASYNC_EVENT_REF_PROLOG \
  uint32_t flags;                   \
  uint32_t zend_object_offset;

#define ZEND_ASYNC_EVENT_REF_FIELDS \
  uint32_t flags;                   \
  uint32_t zend_object_offset;      \
  zend_async_event_t *event;

typedef struct {
  ZEND_ASYNC_EVENT_REF_FIELDS
} zend_async_event_ref_t;

/* Event flags (bits 0-12; subtypes use 13+). */
#define ZEND_ASYNC_EVENT_F_CLOSED (1u << 0)      /* closed / finished */
#define ZEND_ASYNC_EVENT_F_RESULT_USED (1u << 1) /* result will be consumed */
#define ZEND_ASYNC_EVENT_F_EXC_CAUGHT (1u << 2)  /* error will be caught */
#define ZEND_ASYNC_EVENT_F_ZVAL_RESULT (1u << 3) /* result is a zval* */
#define ZEND_ASYNC_EVENT_F_ZEND_OBJ (1u << 4)    /* embedded in a zend_object */
#define ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY (1u << 5) /* dispose keeps memory */
#define ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED                         \
  (1u << 6)                                    /* a listener took it \
                                                */
#define ZEND_ASYNC_EVENT_F_REFERENCE (1u << 7) /* a reference structure */
#define ZEND_ASYNC_EVENT_F_OBJ_REF                                            \
  (1u << 8)                                   /* zend_object* at extra_offset \
                                               */
#define ZEND_ASYNC_EVENT_F_CLOSE_FD (1u << 9) /* close the fd on cleanup */
/* Not counted in active_event_count, so it never keeps deadlock detection
 * from firing (background timers, healthchecks). */
#define ZEND_ASYNC_EVENT_F_HIDDEN (1u << 10)
#define ZEND_ASYNC_EVENT_F_BAILOUT (1u << 11) /* in bailout: skip PHP code */

#define ZEND_ASYNC_EVENT_REFERENCE_PREFIX ((uint32_t)0x80)

#define ZEND_ASYNC_EVENT_REF_SET(ptr, offset, ev)     \
  do {                                                \
    (ptr)->flags = ZEND_ASYNC_EVENT_REFERENCE_PREFIX; \
    (ptr)->zend_object_offset = (offset);             \
    (ptr)->event = (ev);                              \
  } while (0)

#define ZEND_ASYNC_EVENT_IS_CLOSED(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_CLOSED) != 0)
#define ZEND_ASYNC_EVENT_WILL_RESULT_USED(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_RESULT_USED) != 0)
#define ZEND_ASYNC_EVENT_WILL_EXC_CAUGHT(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_EXC_CAUGHT) != 0)
#define ZEND_ASYNC_EVENT_WILL_ZVAL_RESULT(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_ZVAL_RESULT) != 0)
#define ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_ZEND_OBJ) != 0)
#define ZEND_ASYNC_EVENT_IS_NO_FREE_MEMORY(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY) != 0)
#define ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED) != 0)

#define ZEND_ASYNC_EVENT_SET_CLOSED(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_CLOSED)
#define ZEND_ASYNC_EVENT_CLR_CLOSED(ev) \
  ((ev)->flags &= ~ZEND_ASYNC_EVENT_F_CLOSED)

#define ZEND_ASYNC_EVENT_SET_RESULT_USED(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_RESULT_USED)
#define ZEND_ASYNC_EVENT_CLR_RESULT_USED(ev) \
  ((ev)->flags &= ~ZEND_ASYNC_EVENT_F_RESULT_USED)

#define ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_EXC_CAUGHT)
#define ZEND_ASYNC_EVENT_CLR_EXC_CAUGHT(ev) \
  ((ev)->flags &= ~ZEND_ASYNC_EVENT_F_EXC_CAUGHT)

#define ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_ZVAL_RESULT)
#define ZEND_ASYNC_EVENT_CLR_ZVAL_RESULT(ev) \
  ((ev)->flags &= ~ZEND_ASYNC_EVENT_F_ZVAL_RESULT)

#define ZEND_ASYNC_EVENT_SET_ZEND_OBJ(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_ZEND_OBJ)
#define ZEND_ASYNC_EVENT_SET_ZEND_OBJ_OFFSET(ev, offset) \
  ((ev)->zend_object_offset = (unsigned int)(offset))

#define ZEND_ASYNC_EVENT_SET_NO_FREE_MEMORY(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY)

#define ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED)
#define ZEND_ASYNC_EVENT_CLR_EXCEPTION_HANDLED(ev) \
  ((ev)->flags &= ~ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED)

#define ZEND_ASYNC_EVENT_WITH_OBJECT_REF(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_OBJ_REF)

#define ZEND_ASYNC_EVENT_SET_CLOSE_FD(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_CLOSE_FD)
#define ZEND_ASYNC_EVENT_CLR_CLOSE_FD(ev) \
  ((ev)->flags &= ~ZEND_ASYNC_EVENT_F_CLOSE_FD)
#define ZEND_ASYNC_EVENT_SHOULD_CLOSE_FD(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_CLOSE_FD) != 0)

#define ZEND_ASYNC_EVENT_SET_HIDDEN(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_HIDDEN)
#define ZEND_ASYNC_EVENT_CLR_HIDDEN(ev) \
  ((ev)->flags &= ~ZEND_ASYNC_EVENT_F_HIDDEN)
#define ZEND_ASYNC_EVENT_IS_HIDDEN(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_HIDDEN) != 0)

#define ZEND_ASYNC_EVENT_SET_BAILOUT(ev) \
  ((ev)->flags |= ZEND_ASYNC_EVENT_F_BAILOUT)
#define ZEND_ASYNC_EVENT_IS_BAILOUT(ev) \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_BAILOUT) != 0)

/* IO event flag: the operation stays armed after data arrives. */
#define ZEND_ASYNC_IO_F_MULTISHOT (1u << 13)

#define ZEND_ASYNC_IO_IS_MULTISHOT(io) \
  (((io)->event.flags & ZEND_ASYNC_IO_F_MULTISHOT) != 0)
#define ZEND_ASYNC_IO_SET_MULTISHOT(io) \
  ((io)->event.flags |= ZEND_ASYNC_IO_F_MULTISHOT)
#define ZEND_ASYNC_IO_CLR_MULTISHOT(io) \
  ((io)->event.flags &= ~ZEND_ASYNC_IO_F_MULTISHOT)

/* Object <-> event. An object's handlers->offset locates either the event
 * it embeds or an event reference. */
#define ZEND_ASYNC_EVENT_IS_REFERENCE(ptr) \
  (*((const uint32_t *)(ptr)) == ZEND_ASYNC_EVENT_REFERENCE_PREFIX)
#define ZEND_ASYNC_OBJECT_TO_EVENT(obj)                                        \
  (ZEND_ASYNC_EVENT_IS_REFERENCE(                                              \
       (void *)((char *)(obj) - (obj)->handlers->offset))                      \
       ? ((zend_async_event_ref_t *)((char *)(obj) - (obj)->handlers->offset)) \
             ->event                                                           \
       : (zend_async_event_t *)((char *)(obj) - (obj)->handlers->offset))

#define ZEND_ASYNC_EVENT_TO_OBJECT(ev)                        \
  (((ev)->flags & ZEND_ASYNC_EVENT_F_OBJ_REF)                 \
       ? *(zend_object **)((char *)(ev) + (ev)->extra_offset) \
       : (zend_object *)((char *)(ev) + (ev)->zend_object_offset))

/* Event reference counting: the object's GC refcount for F_ZEND_OBJ
 * events, ref_count otherwise. */
#define ZEND_ASYNC_EVENT_REFCOUNT(ev)                \
  (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)                  \
       ? GC_REFCOUNT(ZEND_ASYNC_EVENT_TO_OBJECT(ev)) \
       : (ev)->ref_count)

#define ZEND_ASYNC_EVENT_ADD_REF(ev)               \
  (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)                \
       ? GC_ADDREF(ZEND_ASYNC_EVENT_TO_OBJECT(ev)) \
       : ++(ev)->ref_count)

#define ZEND_ASYNC_EVENT_DEL_REF(ev)               \
  (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)                \
       ? GC_DELREF(ZEND_ASYNC_EVENT_TO_OBJECT(ev)) \
       : --(ev)->ref_count)

/* Drops one reference. For a plain event, releasing at ref_count 1 sets it
 * to 0 and calls dispose() (so an event created with ref_count 1 dies on
 * its first release); for an object, the last release frees the object. */
#define ZEND_ASYNC_EVENT_RELEASE(ev)                          \
  do {                                                        \
    if (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(ev)) {                   \
      if (GC_REFCOUNT(ZEND_ASYNC_EVENT_TO_OBJECT(ev)) == 1) { \
        OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(ev));          \
      } else {                                                \
        GC_DELREF(ZEND_ASYNC_EVENT_TO_OBJECT(ev));            \
      }                                                       \
    } else {                                                  \
      if ((ev)->ref_count == 1) {                             \
        (ev)->ref_count = 0;                                  \
        (ev)->dispose(ev);                                    \
      } else {                                                \
        (ev)->ref_count--;                                    \
      }                                                       \
    }                                                         \
  } while (0)

/* Replay wrappers; false when the event cannot replay. */
#define ZEND_ASYNC_EVENT_REPLAY(ev, callback) \
  (ev->replay != NULL ? ev->replay(ev, callback, NULL, NULL) : false)
#define ZEND_ASYNC_EVENT_EXTRACT_RESULT(ev, result) \
  (ev->replay != NULL ? ev->replay(ev, NULL, result, NULL) : false)
#define ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(ev, result, exception) \
  (ev->replay != NULL ? ev->replay(ev, NULL, result, exception) : false)

BEGIN_EXTERN_C()
/* Notifies every callback of `event` in order (see the .c for the exact
 * protocol: self-reference, notify_handler short-circuit unless
 * from_handler, single walk at a time, stop at the first pending
 * exception). */
ZEND_API void zend_async_callbacks_notify(zend_async_event_t *event,
                                          void *result, zend_object *exception,
                                          bool from_handler);
/* Removes (and disposes) one callback; order is not preserved. False if
 * the callback was not registered. */
ZEND_API bool zend_async_callbacks_remove(
    zend_async_event_t *event, zend_async_event_callback_t *callback);
/* Disposes every callback and frees the vector. */
ZEND_API void zend_async_callbacks_free(zend_async_event_t *event);
/* stop(), mark CLOSED, then notify. */
ZEND_API void zend_async_callbacks_notify_and_close(zend_async_event_t *event,
                                                    void *result,
                                                    zend_object *exception);
END_EXTERN_C()

#define ZEND_ASYNC_CALLBACKS_NOTIFY(event, result, exception) \
  zend_async_callbacks_notify((event), (result), (exception), false)

#define ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE(event, result, exception) \
  zend_async_callbacks_notify_and_close((event), (result), (exception))

#define ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER(event, result, exception) \
  zend_async_callbacks_notify((event), (result), (exception), true)

/* Appends a callback (the event's vector takes a reference: ref_count++).
 * The vector starts with 4 slots and doubles. */
static zend_always_inline bool zend_async_callbacks_push(
    zend_async_event_t *event, zend_async_event_callback_t *callback) {
  zend_async_callbacks_vector_t *vector = &event->callbacks;

  if (vector->data == NULL) {
    vector->data = (zend_async_event_callback_t **)safe_emalloc(
        4, sizeof(zend_async_event_callback_t *), 0);
    vector->capacity = 4;
  }

  if (vector->length == vector->capacity) {
    vector->capacity = vector->capacity ? vector->capacity * 2 : 4;
    vector->data = (zend_async_event_callback_t **)safe_erealloc(
        vector->data, vector->capacity, sizeof(zend_async_event_callback_t *),
        0);
  }

  callback->ref_count++;
  vector->data[vector->length++] = callback;
  return true;
}

/* ===================================================================== */
/* 4. Reactor events                                                      */
/* ===================================================================== */

struct _zend_async_poll_event_s {
  zend_async_event_t base;
  bool is_socket;
  union {
    zend_file_descriptor_t file;
    zend_socket_t socket;
  };
  async_poll_event events;           /* interest */
  async_poll_event triggered_events; /* readiness seen by the last fire */
};

/* A narrower view of a shared poll event. */
struct _zend_async_poll_proxy_s {
  zend_async_event_t base;
  zend_async_poll_event_t *poll_event;
  async_poll_event events;
  async_poll_event triggered_events;
};

struct _zend_async_timer_event_s {
  zend_async_event_t base;
  unsigned int timeout; /* milliseconds */
  bool is_periodic;
};

/* Timer flag: stays armed after a one-shot fire, for ZEND_ASYNC_TIMER_REARM;
 * the owner disposes it. */
#define ZEND_ASYNC_TIMER_F_MULTISHOT (1u << 13)

#define ZEND_ASYNC_TIMER_IS_MULTISHOT(ev) \
  (((ev)->base.flags & ZEND_ASYNC_TIMER_F_MULTISHOT) != 0)
#define ZEND_ASYNC_TIMER_SET_MULTISHOT(ev) \
  ((ev)->base.flags |= ZEND_ASYNC_TIMER_F_MULTISHOT)
#define ZEND_ASYNC_TIMER_CLR_MULTISHOT(ev) \
  ((ev)->base.flags &= ~ZEND_ASYNC_TIMER_F_MULTISHOT)

/* Timer flag (v0.24): refresh the reactor's cached clock before arming, so
 * a relative timeout armed after long synchronous work waits its full time.
 * Set on relative userland timeouts (zend_async_waker_new_with_timeout sets
 * it); hot per-I/O deadline timers leave it clear. There is no CLR macro. */
#define ZEND_ASYNC_TIMER_F_REFRESH_CLOCK (1u << 14)
#define ZEND_ASYNC_TIMER_IS_REFRESH_CLOCK(ev) \
  (((ev)->base.flags & ZEND_ASYNC_TIMER_F_REFRESH_CLOCK) != 0)
#define ZEND_ASYNC_TIMER_SET_REFRESH_CLOCK(ev) \
  ((ev)->base.flags |= ZEND_ASYNC_TIMER_F_REFRESH_CLOCK)

struct _zend_async_signal_event_s {
  zend_async_event_t base;
  int signal;
};

struct _zend_async_process_event_s {
  zend_async_event_t base;
  zend_process_t process;
  zend_long exit_code;
};

/* Thread spawn flags. */
#define ZEND_THREAD_F_INHERIT (1u << 0)

/* Thread event flags (bits 13+). */
#define ZEND_THREAD_F_RESULT_LOADED (1u << 13)
#define ZEND_THREAD_F_EXCEPTION_CONSUMED (1u << 14)

#define ZEND_THREAD_SET_RESULT_LOADED(ev) \
  ((ev)->base.flags |= ZEND_THREAD_F_RESULT_LOADED)
#define ZEND_THREAD_IS_RESULT_LOADED(ev) \
  (((ev)->base.flags & ZEND_THREAD_F_RESULT_LOADED) != 0)

#define ZEND_THREAD_SET_EXCEPTION_CONSUMED(ev) \
  ((ev)->base.flags |= ZEND_THREAD_F_EXCEPTION_CONSUMED)
#define ZEND_THREAD_IS_EXCEPTION_CONSUMED(ev) \
  (((ev)->base.flags & ZEND_THREAD_F_EXCEPTION_CONSUMED) != 0)

/* Runtime data shared by a thread and its event; persistent and
 * refcounted (the last holder frees it). */
struct _zend_async_thread_context_s {
  zend_atomic_int ref_count;
  void *snapshot; /* owned by the thread module */
  zend_atomic_int64 thread_id;
  char *bailout_error_message; /* pemalloc'd, NULL without a bailout */
  zend_atomic_ptr event;       /* NULL for lightweight/pool threads */
  void *event_mutex;           /* guards the result hand-off (ZTS only) */
  zend_async_thread_internal_entry_t *internal_entry; /* optional */
  zend_async_thread_handle_t key;
};

struct _zend_async_thread_event_s {
  zend_async_event_t base;
  uint32_t thread_flags;
  zval result;
  zend_object *exception;
  zend_string *filename;
  uint32_t lineno;
  zend_async_thread_context_t *context;
  void (*notify_parent)(zend_async_thread_event_t *event);
};

/* A C-level thread body (persistent). */
struct _zend_async_thread_internal_entry_s {
  void (*handler)(zend_async_thread_event_t *event, void *ctx);
  void *ctx;
};

/* Filesystem watch: event kinds and flags. */
#define ZEND_ASYNC_FS_EVENT_RENAME (1u << 0)
#define ZEND_ASYNC_FS_EVENT_CHANGE (1u << 1)
#define ZEND_ASYNC_FS_EVENT_RECURSIVE (1u << 0)

struct _zend_async_filesystem_event_s {
  zend_async_event_t base;
  zend_string *path;
  unsigned int flags;
  unsigned int triggered_events;
  zend_string *triggered_filename;
};

struct _zend_async_dns_nameinfo_s {
  zend_async_event_t base;
  zend_string *hostname; /* result; freed with the event */
  zend_string *service;
};

struct _zend_async_dns_addrinfo_s {
  zend_async_event_t base;
  const char *node;
  const char *service;
  struct addrinfo *result; /* must be freed with ZEND_ASYNC_FREEADDRINFO */
};

struct _zend_async_exec_event_s {
  zend_async_event_t base;
  zend_async_exec_mode exec_mode;
  bool terminated;
  char *cmd;
  zval *return_value;
  zval *result_buffer;
  size_t output_len;
  char *output_buffer;
  zend_long exit_code;
  int term_signal;
  zval *std_error;
};

struct _zend_async_listen_event_s {
  zend_async_event_t base;
  const char *host;
  int port;
  int backlog;
  zend_socket_t socket_fd;
  zend_async_listen_get_local_address_t get_local_address;
};

struct _zend_async_task_s {
  zend_async_event_t base;
  zend_async_task_run_t run;
  void *data;
};

struct _zend_async_trigger_event_s {
  zend_async_event_t base;
  zend_async_trigger_event_trigger_fn trigger;
};

/* ===================================================================== */
/* 5. Scopes                                                              */
/* ===================================================================== */

typedef bool (*zend_async_before_coroutine_enqueue_t)(
    zend_coroutine_t *coroutine, zend_async_scope_t *scope, zval *result);
typedef void (*zend_async_after_coroutine_enqueue_t)(
    zend_coroutine_t *coroutine, zend_async_scope_t *scope);

typedef struct _zend_async_scopes_vector_s {
  uint32_t length;
  uint32_t capacity;
  zend_async_scope_t **data;
} zend_async_scopes_vector_t;

/* A scope: a tree node owning coroutines and child scopes. The C scope can
 * outlive its PHP object; it is disposed when its last coroutine is gone. */
struct _zend_async_scope_s {
  zend_async_event_t event;
  zend_object *scope_object;
  zend_async_scopes_vector_t scopes; /* child scopes */
  zend_async_scope_t *parent_scope;
  zend_async_scope_t *request_scope; /* borrowed, inherited from the parent */
  zend_async_context_t *context;

  zend_async_before_coroutine_enqueue_t before_coroutine_enqueue; /* required */
  zend_async_after_coroutine_enqueue_t after_coroutine_enqueue;   /* required */

  /* with_zombies: count zombie coroutines as active; check_zend_objects:
   * also require the scope object gone or the scope cancelled. */
  bool (*can_be_disposed)(zend_async_scope_t *scope, bool with_zombies,
                          bool check_zend_objects); /* required */
  /* Disposes the scope if it can be. */
  bool (*try_to_dispose)(zend_async_scope_t *scope); /* required */
  /* The one place that decides what an exception does to a scope: handle
   * a coroutine's error (is_cancellation false) or cancel the scope.
   * Returns true when the scope may continue. */
  bool (*catch_or_cancel)(zend_async_scope_t *scope,
                          zend_coroutine_t *coroutine,
                          zend_async_scope_t *from_scope,
                          zend_object *exception, bool transfer_error,
                          const bool is_safely,
                          const bool is_cancellation); /* required */
};

#define ZEND_ASYNC_SCOPE_CLOSE(scope, is_safely)                           \
  ((scope)->catch_or_cancel((scope), NULL, NULL, NULL, false, (is_safely), \
                            true))

#define ZEND_ASYNC_SCOPE_CANCEL(scope, exception, transfer_error, is_safely) \
  ((scope)->catch_or_cancel((scope), NULL, NULL, (exception),                \
                            (transfer_error), (is_safely), true))

#define ZEND_ASYNC_SCOPE_CATCH(scope, coroutine, from_scope, exception,      \
                               transfer_error, is_safely)                    \
  ((scope)->catch_or_cancel((scope), (coroutine), (from_scope), (exception), \
                            (transfer_error), (is_safely), false))

#define ZEND_ASYNC_SCOPE_AWAIT_AFTER_CANCELLATION(            \
    scope, awaiter, error_fci, error_fci_cache, cancellation) \
  zend_async_scope_await_after_cancellation_fn(               \
      (scope), (awaiter), (error_fci), (error_fci_cache), (cancellation))

#define ZEND_ASYNC_SCOPE_IS_COMPLETED(scope) \
  ((scope)->can_be_disposed((scope), false, false))
#define ZEND_ASYNC_SCOPE_IS_COMPLETELY_DONE(scope) \
  ((scope)->can_be_disposed((scope), true, false))
#define ZEND_ASYNC_SCOPE_CAN_BE_DISPOSED(scope) \
  ((scope)->can_be_disposed((scope), true, true))

#define ZEND_ASYNC_SCOPE_RELEASE(scope)                   \
  do {                                                    \
    if (ZEND_ASYNC_EVENT_REFCOUNT(&(scope)->event) > 1) { \
      ZEND_ASYNC_EVENT_DEL_REF(&(scope)->event);          \
    }                                                     \
    (scope)->try_to_dispose(scope);                       \
  } while (0)

#define ZEND_ASYNC_SCOPE_F_CLOSED ZEND_ASYNC_EVENT_F_CLOSED
#define ZEND_ASYNC_SCOPE_F_NO_FREE_MEMORY ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY
#define ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY (1u << 14)
#define ZEND_ASYNC_SCOPE_F_CANCELLED (1u << 15)
#define ZEND_ASYNC_SCOPE_F_DISPOSING (1u << 16)
/* Held by an external C owner: never disposed by cascade; the owner clears
 * the flag and releases the scope. */
#define ZEND_ASYNC_SCOPE_F_OWNER_PINNED (1u << 17)

#define ZEND_ASYNC_SCOPE_IS_CLOSED(scope) \
  (((scope)->event.flags & ZEND_ASYNC_SCOPE_F_CLOSED) != 0)
#define ZEND_ASYNC_SCOPE_IS_NO_FREE_MEMORY(scope) \
  (((scope)->event.flags & ZEND_ASYNC_SCOPE_F_NO_FREE_MEMORY) != 0)
#define ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope) \
  (((scope)->event.flags & ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY) != 0)
#define ZEND_ASYNC_SCOPE_IS_CANCELLED(scope) \
  (((scope)->event.flags & ZEND_ASYNC_SCOPE_F_CANCELLED) != 0)
#define ZEND_ASYNC_SCOPE_IS_DISPOSING(scope) \
  (((scope)->event.flags & ZEND_ASYNC_SCOPE_F_DISPOSING) != 0)
#define ZEND_ASYNC_SCOPE_IS_OWNER_PINNED(scope) \
  (((scope)->event.flags & ZEND_ASYNC_SCOPE_F_OWNER_PINNED) != 0)
#define ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope) \
  ((scope)->event.flags |= ZEND_ASYNC_SCOPE_F_OWNER_PINNED)
#define ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope) \
  ((scope)->event.flags &= ~ZEND_ASYNC_SCOPE_F_OWNER_PINNED)
#define ZEND_ASYNC_SCOPE_IS_BAILOUT(scope) \
  ZEND_ASYNC_EVENT_IS_BAILOUT(&(scope)->event)
#define ZEND_ASYNC_SCOPE_SET_BAILOUT(scope) \
  ZEND_ASYNC_EVENT_SET_BAILOUT(&(scope)->event)

#define ZEND_ASYNC_SCOPE_SET_CLOSED(scope) \
  ((scope)->event.flags |= ZEND_ASYNC_SCOPE_F_CLOSED)
#define ZEND_ASYNC_SCOPE_CLR_CLOSED(scope) \
  ((scope)->event.flags &= ~ZEND_ASYNC_SCOPE_F_CLOSED)

#define ZEND_ASYNC_SCOPE_SET_NO_FREE_MEMORY(scope) \
  ((scope)->event.flags |= ZEND_ASYNC_SCOPE_F_NO_FREE_MEMORY)
#define ZEND_ASYNC_SCOPE_CLR_NO_FREE_MEMORY(scope) \
  ((scope)->event.flags &= ~ZEND_ASYNC_SCOPE_F_NO_FREE_MEMORY)

#define ZEND_ASYNC_SCOPE_SET_DISPOSE_SAFELY(scope) \
  ((scope)->event.flags |= ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY)
#define ZEND_ASYNC_SCOPE_CLR_DISPOSE_SAFELY(scope) \
  ((scope)->event.flags &= ~ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY)

#define ZEND_ASYNC_SCOPE_SET_CANCELLED(scope) \
  ((scope)->event.flags |= ZEND_ASYNC_SCOPE_F_CANCELLED)

#define ZEND_ASYNC_SCOPE_SET_DISPOSING(scope) \
  ((scope)->event.flags |= ZEND_ASYNC_SCOPE_F_DISPOSING)
#define ZEND_ASYNC_SCOPE_CLR_DISPOSING(scope) \
  ((scope)->event.flags &= ~ZEND_ASYNC_SCOPE_F_DISPOSING)

/* Adds a child scope (4 slots, doubling) and sets its parent. */
static zend_always_inline void zend_async_scope_add_child(
    zend_async_scope_t *parent_scope, zend_async_scope_t *child_scope) {
  zend_async_scopes_vector_t *vector = &parent_scope->scopes;

  child_scope->parent_scope = parent_scope;

  if (vector->data == NULL) {
    vector->data =
        (zend_async_scope_t **)safe_emalloc(4, sizeof(zend_async_scope_t *), 0);
    vector->capacity = 4;
  }

  if (vector->length == vector->capacity) {
    vector->capacity *= 2;
    vector->data = (zend_async_scope_t **)safe_erealloc(
        vector->data, vector->capacity, sizeof(zend_async_scope_t *), 0);
  }

  vector->data[vector->length++] = child_scope;
}

/* Removes a child (swap with the last) and offers the parent for disposal
 * when it has no children left. */
static zend_always_inline void zend_async_scope_remove_child(
    zend_async_scope_t *parent_scope, zend_async_scope_t *child_scope) {
  zend_async_scopes_vector_t *vector = &parent_scope->scopes;
  for (uint32_t i = 0; i < vector->length; ++i) {
    if (vector->data[i] == child_scope) {
      vector->data[i] = vector->data[--vector->length];
      child_scope->parent_scope = NULL;

      if (parent_scope->scopes.length == 0) {
        parent_scope->try_to_dispose(parent_scope);
      }

      return;
    }
  }
}

static zend_always_inline void zend_async_scope_free_children(
    zend_async_scope_t *parent_scope) {
  zend_async_scopes_vector_t *vector = &parent_scope->scopes;

  if (vector->data != NULL) {
    efree(vector->data);
  }

  vector->data = NULL;
  vector->length = 0;
  vector->capacity = 0;
}

/* ===================================================================== */
/* 6. Wakers and coroutines                                               */
/* ===================================================================== */

typedef void (*zend_async_waker_dtor)(zend_coroutine_t *coroutine);

typedef zend_async_waker_t *(*zend_async_waker_new_t)(
    zend_coroutine_t *coroutine);
typedef void (*zend_async_waker_destroy_t)(zend_coroutine_t *coroutine);

/* Waker status. Everything below RESULT counts as "waiting". */
typedef enum {
  ZEND_ASYNC_WAKER_NO_STATUS,
  ZEND_ASYNC_WAKER_WAITING,
  ZEND_ASYNC_WAKER_QUEUED,
  ZEND_ASYNC_WAKER_IGNORED,
  ZEND_ASYNC_WAKER_RESULT
} ZEND_ASYNC_WAKER_STATUS;

/* True when the coroutine sits in the run queue. */
#define ZEND_ASYNC_WAKER_IN_QUEUE(waker)                           \
  (waker != NULL && ((waker)->status == ZEND_ASYNC_WAKER_QUEUED || \
                     (waker)->status == ZEND_ASYNC_WAKER_IGNORED))

#define ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker)                       \
  (waker == NULL || ((waker)->status != ZEND_ASYNC_WAKER_QUEUED && \
                     (waker)->status != ZEND_ASYNC_WAKER_IGNORED))

/* An inline trigger stored in the waker (capacity 0; length 0 and event
 * NULL mean free). Layout-compatible with zend_async_waker_trigger_t. */
typedef struct {
  uint32_t length;
  uint32_t capacity; /* always 0 */
  zend_async_event_t *event;
  zend_async_event_callback_t *data[1];
} zend_async_waker_inline_trigger_t;

#define ZEND_ASYNC_WAKER_INLINE_SLOTS 2

/* What a suspended coroutine waits for and what it will wake up with.
 *
 * events maps each awaited event (key: pointer rotated right by 3 bits) to
 * its trigger, and holds one reference to the event, released when the
 * entry is destroyed. The first two triggers and callbacks live inline. */
struct _zend_async_waker_s {
  ZEND_ASYNC_WAKER_STATUS status;
  uint8_t events_stopped : 1; /* bulk stop already ran for this arming */
  HashTable events;
  HashTable *triggered_events; /* events that fired (lazy) */
  zval result;
  zend_object *error;    /* thrown in the coroutine when it resumes */
  zend_string *filename; /* where it suspended */
  uint32_t lineno;
  zend_async_waker_dtor dtor; /* optional, may be NULL */
  zend_async_waker_inline_trigger_t
      inline_triggers[ZEND_ASYNC_WAKER_INLINE_SLOTS];
  /* base.callback == NULL marks a free slot */
  zend_coroutine_event_callback_t
      inline_callbacks[ZEND_ASYNC_WAKER_INLINE_SLOTS];
};

#define ZEND_ASYNC_WAKER_WAITING(waker) \
  ((waker)->status < ZEND_ASYNC_WAKER_RESULT)

BEGIN_EXTERN_C()
ZEND_API void zend_async_waker_stop_events(zend_async_waker_t *waker);
END_EXTERN_C()

#define ZEND_ASYNC_WAKER_CLEAN_EVENTS(waker) \
  do {                                       \
    zend_async_waker_stop_events(waker);     \
    zend_hash_clean(&(waker)->events);       \
  } while (0)

/* Frees the implementation's part of a coroutine. */
typedef void (*zend_async_coroutine_dispose)(zend_coroutine_t *coroutine);

/* A coroutine. Its event closes when it finishes; the event's callbacks
 * are its awaiters. */
struct _zend_coroutine_s {
  zend_async_event_t event;
  zend_fcall_t *fcall;                   /* userland entry, or NULL */
  zend_coroutine_entry_t internal_entry; /* C entry when fcall is NULL */
  void *extended_data;                   /* optional */
  zend_async_waker_t *waker;
  zend_async_scope_t *scope;
  zval result;
  zend_object *exception; /* optional, may be NULL */
  zend_async_context_t *context;
  HashTable *internal_context; /* numeric keys, lazily created */
  zend_string *filename;       /* where it was spawned */
  uint32_t lineno;
  zend_async_coroutine_dispose extended_dispose;            /* optional */
  zend_coroutine_switch_handlers_vector_t *switch_handlers; /* optional */
};

/* Waiting for events or in the run queue. */
#define ZEND_COROUTINE_SUSPENDED(coroutine) \
  ((coroutine)->waker != NULL && ZEND_ASYNC_WAKER_WAITING((coroutine)->waker))

/* Coroutine flags (bits 13-19). */
#define ZEND_COROUTINE_F_STARTED (1u << 13)
#define ZEND_COROUTINE_F_CANCELLED (1u << 14)
#define ZEND_COROUTINE_F_ZOMBIE (1u << 15)
#define ZEND_COROUTINE_F_PROTECTED (1u << 16)
#define ZEND_COROUTINE_F_MAIN (1u << 17)
#define ZEND_COROUTINE_F_FIBER (1u << 18) /* extended_data is a fiber */
#define ZEND_COROUTINE_F_YIELD (1u << 19)

#define ZEND_COROUTINE_IS_ZOMBIE(coroutine) \
  (((coroutine)->event.flags & ZEND_COROUTINE_F_ZOMBIE) != 0)
#define ZEND_COROUTINE_SET_ZOMBIE(coroutine) \
  ((coroutine)->event.flags |= ZEND_COROUTINE_F_ZOMBIE)
#define ZEND_COROUTINE_IS_STARTED(coroutine) \
  (((coroutine)->event.flags & ZEND_COROUTINE_F_STARTED) != 0)
#define ZEND_COROUTINE_IS_CANCELLED(coroutine) \
  (((coroutine)->event.flags & ZEND_COROUTINE_F_CANCELLED) != 0)
#define ZEND_COROUTINE_IS_FINISHED(coroutine) \
  (((coroutine)->event.flags & ZEND_ASYNC_EVENT_F_CLOSED) != 0)
#define ZEND_COROUTINE_IS_PROTECTED(coroutine) \
  (((coroutine)->event.flags & ZEND_COROUTINE_F_PROTECTED) != 0)
#define ZEND_COROUTINE_IS_EXCEPTION_HANDLED(coroutine) \
  ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(&(coroutine)->event)
#define ZEND_COROUTINE_IS_MAIN(coroutine) \
  (((coroutine)->event.flags & ZEND_COROUTINE_F_MAIN) != 0)
#define ZEND_COROUTINE_SET_STARTED(coroutine) \
  ((coroutine)->event.flags |= ZEND_COROUTINE_F_STARTED)
#define ZEND_COROUTINE_SET_CANCELLED(coroutine) \
  ((coroutine)->event.flags |= ZEND_COROUTINE_F_CANCELLED)
#define ZEND_COROUTINE_SET_FINISHED(coroutine) \
  ((coroutine)->event.flags |= ZEND_ASYNC_EVENT_F_CLOSED)
#define ZEND_COROUTINE_SET_PROTECTED(coroutine) \
  ((coroutine)->event.flags |= ZEND_COROUTINE_F_PROTECTED)
#define ZEND_COROUTINE_SET_MAIN(coroutine) \
  ((coroutine)->event.flags |= ZEND_COROUTINE_F_MAIN)
#define ZEND_COROUTINE_CLR_PROTECTED(coroutine) \
  ((coroutine)->event.flags &= ~ZEND_COROUTINE_F_PROTECTED)
#define ZEND_COROUTINE_SET_EXCEPTION_HANDLED(coroutine) \
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&(coroutine)->event)
#define ZEND_COROUTINE_CLR_EXCEPTION_HANDLED(coroutine) \
  ZEND_ASYNC_EVENT_CLR_EXCEPTION_HANDLED(&(coroutine)->event)
#define ZEND_COROUTINE_IS_FIBER(coroutine) \
  (((coroutine)->event.flags & ZEND_COROUTINE_F_FIBER) != 0)
#define ZEND_COROUTINE_SET_FIBER(coroutine) \
  ((coroutine)->event.flags |= ZEND_COROUTINE_F_FIBER)
#define ZEND_COROUTINE_IS_YIELD(coroutine) \
  (((coroutine)->event.flags & ZEND_COROUTINE_F_YIELD) != 0)
#define ZEND_COROUTINE_SET_YIELD(coroutine) \
  ((coroutine)->event.flags |= ZEND_COROUTINE_F_YIELD)
#define ZEND_COROUTINE_CLR_YIELD(coroutine) \
  ((coroutine)->event.flags &= ~ZEND_COROUTINE_F_YIELD)
#define ZEND_COROUTINE_IS_BAILOUT(coroutine) \
  ZEND_ASYNC_EVENT_IS_BAILOUT(&(coroutine)->event)
#define ZEND_COROUTINE_SET_BAILOUT(coroutine) \
  ZEND_ASYNC_EVENT_SET_BAILOUT(&(coroutine)->event)

/* "main", the callable's name, or "internal function". New string. */
static zend_always_inline zend_string *zend_coroutine_callable_name(
    const zend_coroutine_t *coroutine) {
  if (ZEND_COROUTINE_IS_MAIN(coroutine)) {
    return zend_string_init("main", sizeof("main") - 1, 0);
  }

  if (coroutine->fcall) {
    return zend_get_callable_name_ex(
        (zval *)&coroutine->fcall->fci.function_name, NULL);
  }

  return zend_string_init("internal function", sizeof("internal function") - 1,
                          0);
}

/* Declares `_fcall_var`, an ecalloc'd zend_fcall_t copying the callable
 * and its cache, with copies of the arguments and a reference to the named
 * arguments and the callable. Undo with zend_fcall_release(). */
#define ZEND_ASYNC_FCALL_DEFINE(_fcall_var, _src_fci, _src_fcc, _src_args,     \
                                _src_args_count, _src_named_args)              \
  zend_fcall_t *_fcall_var = (zend_fcall_t *)ecalloc(1, sizeof(zend_fcall_t)); \
  _fcall_var->fci = _src_fci;                                                  \
  _fcall_var->fci_cache = _src_fcc;                                            \
  if (_src_args_count) {                                                       \
    _fcall_var->fci.param_count = _src_args_count;                             \
    _fcall_var->fci.params =                                                   \
        (zval *)safe_emalloc(_src_args_count, sizeof(zval), 0);                \
    for (uint32_t _fcall_i = 0; _fcall_i < _src_args_count; _fcall_i++) {      \
      ZVAL_COPY(&_fcall_var->fci.params[_fcall_i], &_src_args[_fcall_i]);      \
    }                                                                          \
  }                                                                            \
  if (_src_named_args) {                                                       \
    _fcall_var->fci.named_params = _src_named_args;                            \
    GC_ADDREF(_src_named_args);                                                \
  }                                                                            \
  Z_TRY_ADDREF(_fcall_var->fci.function_name);

BEGIN_EXTERN_C()
ZEND_API void zend_fcall_release(zend_fcall_t *fcall);
END_EXTERN_C()

/* ===================================================================== */
/* 7. Contexts, futures, channels, thread pools, groups, pools            */
/* ===================================================================== */

typedef zend_async_context_t *(*zend_async_new_context_t)(void);
typedef bool (*zend_async_context_find_t)(zend_async_context_t *context,
                                          zval *key, zval *result,
                                          bool include_parent);
typedef void (*zend_async_context_set_t)(zend_async_context_t *context,
                                         zval *key, zval *value);
typedef bool (*zend_async_context_unset_t)(zend_async_context_t *context,
                                           zval *key);
typedef void (*zend_async_context_dispose_t)(zend_async_context_t *context);

/* A key/value context attached to a scope or coroutine. */
struct _zend_async_context_s {
  uint32_t flags;                   /* reserved */
  uint32_t offset;                  /* offset of the context's zend_object */
  zend_async_context_find_t find;   /* required */
  zend_async_context_set_t set;     /* required */
  zend_async_context_unset_t unset; /* required */
  zend_async_context_dispose_t dispose; /* required */
};

/* A future: an event completed once with a result or an exception. */
struct _zend_future_s {
  zend_async_event_t event;
  zval result;
  zend_object *exception; /* NULL: no error */
  uint32_t lineno;
  uint32_t completed_lineno;
  zend_string *filename;
  zend_string *completed_filename;
  zend_future_resolve_t resolve;                   /* required */
  zend_async_callbacks_vector_t resolve_callbacks; /* chained futures */
};

/* Future flags (bits 13+). */
#define ZEND_FUTURE_F_THREAD_SAFE (1u << 13)
#define ZEND_FUTURE_F_IGNORED (1u << 14)

#define ZEND_FUTURE_IS_COMPLETED(future) \
  (((future)->event.flags & ZEND_ASYNC_EVENT_F_CLOSED) != 0)
#define ZEND_FUTURE_IS_IGNORED(future) \
  (((future)->event.flags & ZEND_FUTURE_F_IGNORED) != 0)
#define ZEND_FUTURE_IS_USED(future) \
  ZEND_ASYNC_EVENT_WILL_RESULT_USED(&(future)->event)
#define ZEND_FUTURE_IS_EXCEPTION_CAUGHT(future) \
  ZEND_ASYNC_EVENT_WILL_EXC_CAUGHT(&(future)->event)

#define ZEND_FUTURE_SET_THREAD_SAFE(future) \
  ((future)->event.flags |= ZEND_FUTURE_F_THREAD_SAFE)
#define ZEND_FUTURE_SET_IGNORED(future) \
  ((future)->event.flags |= ZEND_FUTURE_F_IGNORED)
#define ZEND_FUTURE_SET_USED(future) \
  ZEND_ASYNC_EVENT_SET_RESULT_USED(&(future)->event)
#define ZEND_FUTURE_SET_EXCEPTION_CAUGHT(future) \
  ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(&(future)->event)

/* Completes a future once (later calls are ignored). */
#define ZEND_FUTURE_COMPLETE_WITH_ITERATOR(future, _result, _iterator) \
  do {                                                                 \
    if (ZEND_ASYNC_EVENT_IS_CLOSED(&(future)->event)) {                \
      break;                                                           \
    }                                                                  \
    ZVAL_COPY(&(future)->result, (_result));                           \
    (future)->resolve(&(future)->event, (_iterator));                  \
  } while (0)

#define ZEND_FUTURE_REJECT_WITH_ITERATOR(future, _error, _iterator) \
  do {                                                              \
    if (ZEND_ASYNC_EVENT_IS_CLOSED(&(future)->event)) {             \
      break;                                                        \
    }                                                               \
    (future)->exception = (_error);                                 \
    GC_ADDREF(_error);                                              \
    (future)->resolve(&(future)->event, (_iterator));               \
  } while (0)

#define ZEND_FUTURE_COMPLETE(future, _result) \
  ZEND_FUTURE_COMPLETE_WITH_ITERATOR(future, _result, NULL)

#define ZEND_FUTURE_REJECT(future, _error) \
  ZEND_FUTURE_REJECT_WITH_ITERATOR(future, _error, NULL)

BEGIN_EXTERN_C()
/* Appends to a bare callbacks vector (2 slots, doubling; ref_count++). */
ZEND_API bool zend_async_callbacks_vector_push(
    zend_async_callbacks_vector_t *vector,
    zend_async_event_callback_t *callback);
/* Calls every non-NULL callback with exception NULL (no walk guard). */
ZEND_API void zend_async_callbacks_vector_notify(
    zend_async_callbacks_vector_t *vector, zend_async_event_t *event,
    void *result);
/* Disposes every callback (passing `event`) and frees the vector. */
ZEND_API void zend_async_callbacks_vector_free(
    zend_async_callbacks_vector_t *vector, zend_async_event_t *event);
END_EXTERN_C()

/* A channel. */
struct _zend_async_channel_s {
  zend_async_event_t event;
  zend_channel_send_t send;       /* required */
  zend_channel_receive_t receive; /* required */
  zend_channel_close_t close;     /* required */
};

#define ZEND_ASYNC_CHANNEL_F_THREAD_SAFE (1u << 13)

typedef void (*zend_thread_pool_close_t)(zend_async_thread_pool_t *pool);
typedef void (*zend_thread_pool_dispose_t)(zend_async_thread_pool_t *pool);

/* A C task run on a pool worker. `ctx` is opaque to the pool; on submit
 * failure the handler never runs and the caller keeps `ctx`. */
typedef void (*zend_thread_pool_internal_handler_t)(zend_async_event_t *event,
                                                    void *ctx);

typedef zend_async_event_t *(*zend_thread_pool_submit_internal_t)(
    zend_async_thread_pool_t *pool, zend_thread_pool_internal_handler_t handler,
    void *ctx);

/* Rolling (blue-green) reload of the workers; must run in a coroutine. */
typedef void (*zend_thread_pool_reload_t)(zend_async_thread_pool_t *pool);

/* A fixed set of worker threads (shared across threads, atomic counts). */
struct _zend_async_thread_pool_s {
  zend_atomic_int ref_count;
  int32_t worker_count;
  zend_atomic_int pending_count;
  zend_atomic_int running_count;
  zend_atomic_int completed_count;
  zend_atomic_int closed;
  zend_async_thread_handle_t *workers;                /* worker_count handles */
  zend_thread_pool_close_t close;                     /* required */
  zend_thread_pool_dispose_t dispose;                 /* required */
  zend_thread_pool_submit_internal_t submit_internal; /* required */
  /* optional: NULL on pools from runtimes older than ABI 0.22 */
  zend_thread_pool_reload_t reload;
};

#define ZEND_THREAD_POOL_ADDREF(pool) zend_atomic_int_inc(&(pool)->ref_count)

#define ZEND_THREAD_POOL_DELREF(pool)                   \
  do {                                                  \
    int _old = zend_atomic_int_dec(&(pool)->ref_count); \
    if (_old == 1) {                                    \
      (pool)->dispose(pool);                            \
    }                                                   \
  } while (0)

typedef zend_async_thread_pool_t *(*zend_async_new_thread_pool_t)(
    int32_t worker_count, int32_t queue_size, const zend_fcall_t *bootloader,
    bool coroutine_mode, int32_t concurrency);

/* A task group (multi-shot notifications). */
struct _zend_async_group_s {
  zend_async_event_t event;
};

/* A resource pool with a circuit breaker.
 *
 * The handler unions hold C functions when the matching handler_flags bit
 * is set, otherwise zend_fcall_t* (NULL = not set). The implementation
 * extends this struct (it is first in the implementation's pool). */
struct _zend_async_pool_s {
  zend_async_event_t event;
  uint8_t handler_flags; /* ZEND_ASYNC_POOL_F_* */
  zend_async_circuit_state_t circuit_state;
  uint32_t min_size;
  uint32_t max_size;
  zend_object *wrapper; /* the Async\Pool object, passed as $source */
  union {
    zend_fcall_t *fcall;
    zend_async_pool_factory_fn internal;
  } factory;
  union {
    zend_fcall_t *fcall;
    zend_async_pool_destructor_fn internal;
  } destructor;
  union {
    zend_fcall_t *fcall;
    zend_async_pool_healthcheck_fn internal;
  } healthcheck;
  union {
    zend_fcall_t *fcall;
    zend_async_pool_before_acquire_fn internal;
  } before_acquire;
  union {
    zend_fcall_t *fcall;
    zend_async_pool_before_release_fn internal;
  } before_release;
  union {
    zend_object *object; /* an Async\CircuitBreakerStrategy */
    zend_async_circuit_breaker_strategy_t *internal;
  } strategy;
  void *user_data; /* for C consumers (PDO keeps its template here) */
};

#define ZEND_ASYNC_POOL_F_FACTORY_INTERNAL (1 << 0)
#define ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL (1 << 1)
#define ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL (1 << 2)
#define ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL (1 << 3)
#define ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL (1 << 4)
#define ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL (1 << 5)

/* ===================================================================== */
/* 8. Globals and lifecycle                                               */
/* ===================================================================== */

/* OFF -> READY (request start) -> ACTIVE (scheduler launched) -> READY
 * (main script drained) -> OFF (request end). */
typedef enum {
  ZEND_ASYNC_OFF,
  ZEND_ASYNC_READY,
  ZEND_ASYNC_ACTIVE
} zend_async_state_t;

typedef void (*zend_async_heartbeat_handler_t)(void);

typedef struct {
  zend_async_state_t state;
  zend_atomic_bool heartbeat; /* set only by heartbeat handlers */
  bool in_scheduler_context;  /* scheduler code is running */
  bool graceful_shutdown;
  unsigned int active_coroutine_count;
  unsigned int active_event_count; /* hidden events excluded */
  zend_coroutine_t *coroutine;     /* the current coroutine */
  zend_async_scope_t *main_scope;
  zend_coroutine_t *scheduler;
  zend_coroutine_t *main_coroutine;
  zend_object *exit_exception;
  zend_async_heartbeat_handler_t heartbeat_handler;
  /* Error locations use this coroutine while scheduler code acts for it. */
  zend_coroutine_t *acting_coroutine;
  /* Copied into every new main coroutine's switch handlers. */
  zend_coroutine_switch_handlers_vector_t main_coroutine_start_handlers;
} zend_async_globals_t;

BEGIN_EXTERN_C()
#define ZEND_ASYNC_G(v) (zend_async_globals_api.v)
ZEND_API extern zend_async_globals_t zend_async_globals_api;
END_EXTERN_C()

#define ZEND_ASYNC_ON (ZEND_ASYNC_G(state) > ZEND_ASYNC_OFF)
#define ZEND_ASYNC_IS_ACTIVE (ZEND_ASYNC_G(state) == ZEND_ASYNC_ACTIVE)
#define ZEND_ASYNC_IS_OFF (ZEND_ASYNC_G(state) == ZEND_ASYNC_OFF)
#define ZEND_ASYNC_IS_READY (ZEND_ASYNC_G(state) == ZEND_ASYNC_READY)
#define ZEND_ASYNC_ACTIVATE ZEND_ASYNC_G(state) = ZEND_ASYNC_ACTIVE
#define ZEND_ASYNC_INITIALIZE ZEND_ASYNC_G(state) = ZEND_ASYNC_READY
#define ZEND_ASYNC_DEACTIVATE ZEND_ASYNC_G(state) = ZEND_ASYNC_OFF
#define ZEND_ASYNC_SCHEDULER_ALIVE \
  (zend_atomic_bool_load(&ZEND_ASYNC_G(heartbeat)) == true)
#define ZEND_ASYNC_SCHEDULER_HEARTBEAT             \
  do {                                             \
    if (ZEND_ASYNC_G(heartbeat_handler) != NULL) { \
      ZEND_ASYNC_G(heartbeat_handler)();           \
    }                                              \
  } while (0)
#define ZEND_ASYNC_SCHEDULER_WAIT \
  zend_atomic_bool_store(&ZEND_ASYNC_G(heartbeat), false)
#define ZEND_ASYNC_SCHEDULER_CONTEXT ZEND_ASYNC_G(in_scheduler_context)
#define ZEND_ASYNC_IS_SCHEDULER_CONTEXT \
  (ZEND_ASYNC_G(in_scheduler_context) == true)
#define ZEND_ASYNC_ACTIVE_COROUTINE_COUNT ZEND_ASYNC_G(active_coroutine_count)
#define ZEND_ASYNC_ACTIVE_EVENT_COUNT ZEND_ASYNC_G(active_event_count)
#define ZEND_ASYNC_GRACEFUL_SHUTDOWN ZEND_ASYNC_G(graceful_shutdown)
#define ZEND_ASYNC_EXIT_EXCEPTION ZEND_ASYNC_G(exit_exception)
#define ZEND_ASYNC_CURRENT_COROUTINE ZEND_ASYNC_G(coroutine)
#define ZEND_ASYNC_MAIN_COROUTINE ZEND_ASYNC_G(main_coroutine)
#define ZEND_ASYNC_CURRENT_SCOPE \
  (ZEND_ASYNC_G(coroutine) ? ZEND_ASYNC_G(coroutine)->scope : NULL)
#define ZEND_ASYNC_REQUEST_SCOPE \
  (ZEND_ASYNC_CURRENT_SCOPE ? ZEND_ASYNC_CURRENT_SCOPE->request_scope : NULL)
#define ZEND_ASYNC_MAIN_SCOPE ZEND_ASYNC_G(main_scope)
#define ZEND_ASYNC_SCHEDULER ZEND_ASYNC_G(scheduler)
#define ZEND_ASYNC_ACTING_COROUTINE ZEND_ASYNC_G(acting_coroutine)
#define ZEND_ASYNC_ACT_AS_START(coroutine) \
  ZEND_ASYNC_G(acting_coroutine) = (coroutine)
#define ZEND_ASYNC_ACT_AS_END() ZEND_ASYNC_G(acting_coroutine) = NULL

/* Liveness accounting for deadlock detection; hidden events do not count.
 * Saturates at UINT_MAX and 0. */
#define ZEND_ASYNC_INCREASE_EVENT_COUNT(ev)              \
  do {                                                   \
    if (!ZEND_ASYNC_EVENT_IS_HIDDEN(ev)) {               \
      if (ZEND_ASYNC_G(active_event_count) < UINT_MAX) { \
        ZEND_ASYNC_G(active_event_count)++;              \
      } else {                                           \
        ZEND_ASSERT("The event count is already max.");  \
      }                                                  \
    }                                                    \
  } while (0)

#define ZEND_ASYNC_DECREASE_EVENT_COUNT(ev)              \
  do {                                                   \
    if (!ZEND_ASYNC_EVENT_IS_HIDDEN(ev)) {               \
      if (ZEND_ASYNC_G(active_event_count) > 0) {        \
        ZEND_ASYNC_G(active_event_count)--;              \
      } else {                                           \
        ZEND_ASSERT("The event count is already zero."); \
      }                                                  \
    }                                                    \
  } while (0)

/* Note: like upstream, these two are bare if/else statements. */
#define ZEND_ASYNC_INCREASE_COROUTINE_COUNT              \
  if (ZEND_ASYNC_G(active_coroutine_count) < UINT_MAX) { \
    ZEND_ASYNC_G(active_coroutine_count)++;              \
  } else {                                               \
    ZEND_ASSERT("The coroutine count is already max.");  \
  }

#define ZEND_ASYNC_DECREASE_COROUTINE_COUNT              \
  if (ZEND_ASYNC_G(active_coroutine_count) > 0) {        \
    ZEND_ASYNC_G(active_coroutine_count)--;              \
  } else {                                               \
    ZEND_ASSERT("The coroutine count is already zero."); \
  }

BEGIN_EXTERN_C()

/* True when both a scheduler and a reactor are registered. */
ZEND_API bool zend_async_is_enabled(void);
ZEND_API bool zend_scheduler_is_enabled(void);

/* Engine-internal lifecycle (called by php_module_startup/shutdown). */
void zend_async_api_shutdown(void);
void zend_async_globals_ctor(void);
void zend_async_globals_dtor(void);

ZEND_API const char *zend_async_get_api_version(void);
ZEND_API int zend_async_get_api_version_number(void);

/* Installs the per-thread heartbeat handler, run on every scheduler tick;
 * returns the previous one. */
ZEND_API zend_async_heartbeat_handler_t
zend_async_set_heartbeat_handler(zend_async_heartbeat_handler_t handler);
ZEND_API zend_async_heartbeat_handler_t zend_async_get_heartbeat_handler(void);

/* Exceptions of the registered classes. new_exception creates without
 * throwing (the caller owns the reference); the others throw. */
ZEND_API ZEND_COLD zend_object *zend_async_new_exception(zend_async_class type,
                                                         const char *format,
                                                         ...);
ZEND_API ZEND_COLD zend_object *zend_async_throw(zend_async_class type,
                                                 const char *format, ...);
ZEND_API ZEND_COLD zend_object *zend_async_throw_cancellation(
    const char *format, ...);
ZEND_API ZEND_COLD zend_object *zend_async_throw_timeout(
    const char *format, const zend_long timeout);

/* --- Exported function pointers: scheduler ---------------------------- */

ZEND_API extern zend_async_spawn_t zend_async_spawn_fn;
ZEND_API extern zend_async_new_coroutine_t zend_async_new_coroutine_fn;
ZEND_API extern zend_async_new_scope_t zend_async_new_scope_fn;
ZEND_API extern zend_async_suspend_t zend_async_suspend_fn;
ZEND_API extern zend_async_call_on_main_stack_t
    zend_async_call_on_main_stack_fn;
ZEND_API extern zend_async_enqueue_coroutine_t zend_async_enqueue_coroutine_fn;
ZEND_API extern zend_async_resume_t zend_async_resume_fn;
ZEND_API extern zend_async_cancel_t zend_async_cancel_fn;
ZEND_API extern zend_async_scope_await_after_cancellation_t
    zend_async_scope_await_after_cancellation_fn;
ZEND_API extern zend_async_spawn_and_throw_t zend_async_spawn_and_throw_fn;
ZEND_API extern zend_async_shutdown_t zend_async_shutdown_fn;
ZEND_API extern zend_async_engine_shutdown_t zend_async_engine_shutdown_fn;
ZEND_API extern zend_async_get_coroutines_t zend_async_get_coroutines_fn;
ZEND_API extern zend_async_add_microtask_t zend_async_add_microtask_fn;
ZEND_API extern zend_async_get_awaiting_info_t zend_async_get_awaiting_info_fn;
ZEND_API extern zend_async_get_class_ce_t zend_async_get_class_ce_fn;
ZEND_API extern zend_async_new_future_t zend_async_new_future_fn;
ZEND_API extern zend_async_new_channel_t zend_async_new_channel_fn;
ZEND_API extern zend_async_new_future_obj_t zend_async_new_future_obj_fn;
ZEND_API extern zend_async_new_channel_obj_t zend_async_new_channel_obj_fn;
ZEND_API extern zend_async_scheduler_launch_t zend_async_scheduler_launch_fn;

/* Fork API (v0.24): NULL until zend_async_fork_register(); see
 * ZEND_ASYNC_BEFORE_FORK() / ZEND_ASYNC_AFTER_FORK_CHILD(). */
ZEND_API extern zend_async_before_fork_t zend_async_before_fork_fn;
ZEND_API extern zend_async_after_fork_child_t zend_async_after_fork_child_fn;
/* Installs the fork hooks (v0.24); either may be NULL. No module name and
 * no override check: the last call wins. */
ZEND_API void zend_async_fork_register(
    zend_async_before_fork_t before_fork_fn,
    zend_async_after_fork_child_t after_fork_child_fn);

ZEND_API extern zend_async_new_group_t zend_async_new_group_fn;

/* Pool */
ZEND_API extern zend_async_new_pool_t zend_async_new_pool_fn;
ZEND_API extern zend_async_new_pool_obj_t zend_async_new_pool_obj_fn;
ZEND_API extern zend_async_pool_acquire_t zend_async_pool_acquire_fn;
ZEND_API extern zend_async_pool_try_acquire_t zend_async_pool_try_acquire_fn;
ZEND_API extern zend_async_pool_release_t zend_async_pool_release_fn;
ZEND_API extern zend_async_pool_close_t zend_async_pool_close_fn;

/* Iterator */
ZEND_API extern zend_async_new_iterator_t zend_async_new_iterator_fn;

/* Context */
ZEND_API extern zend_async_new_context_t zend_async_new_context_fn;

/* Internal context: numeric keys for C extensions, allocated once per
 * key-name string address; values live in the coroutine and die with it. */
ZEND_API uint32_t zend_async_internal_context_key_alloc(const char *key_name);
ZEND_API const char *zend_async_internal_context_key_name(uint32_t key);
ZEND_API zval *zend_async_internal_context_find(zend_coroutine_t *coroutine,
                                                uint32_t key);
ZEND_API bool zend_async_internal_context_set(zend_coroutine_t *coroutine,
                                              uint32_t key, zval *value);
ZEND_API bool zend_async_internal_context_unset(zend_coroutine_t *coroutine,
                                                uint32_t key);

ZEND_API void zend_async_init_internal_context_api(void);
ZEND_API void zend_async_coroutine_internal_context_dispose(
    zend_coroutine_t *coroutine);
ZEND_API void zend_async_internal_context_api_shutdown(void);
ZEND_API void zend_async_coroutine_internal_context_init(
    zend_coroutine_t *coroutine);

/* --- Exported function pointers: reactor ------------------------------ */

ZEND_API bool zend_async_reactor_is_enabled(void);
ZEND_API extern zend_async_reactor_startup_t zend_async_reactor_startup_fn;
ZEND_API extern zend_async_reactor_shutdown_t zend_async_reactor_shutdown_fn;
ZEND_API extern zend_async_reactor_execute_t zend_async_reactor_execute_fn;
ZEND_API extern zend_async_reactor_loop_alive_t
    zend_async_reactor_loop_alive_fn;
ZEND_API extern zend_async_reactor_tick_t zend_async_reactor_tick_fn;
ZEND_API extern zend_async_reactor_quiesce_t zend_async_reactor_quiesce_fn;
ZEND_API extern zend_async_new_socket_event_t zend_async_new_socket_event_fn;
ZEND_API extern zend_async_new_poll_event_t zend_async_new_poll_event_fn;
ZEND_API extern zend_async_new_poll_proxy_event_t
    zend_async_new_poll_proxy_event_fn;
ZEND_API extern zend_async_new_timer_event_t zend_async_new_timer_event_fn;
ZEND_API extern zend_async_timer_rearm_t zend_async_timer_rearm_fn;
ZEND_API extern zend_async_new_signal_event_t zend_async_new_signal_event_fn;
ZEND_API extern zend_async_sigaction_t zend_async_sigaction_fn;
ZEND_API extern zend_async_new_process_event_t zend_async_new_process_event_fn;
ZEND_API extern zend_async_new_thread_event_t zend_async_new_thread_event_fn;
ZEND_API extern zend_async_thread_snapshot_create_t
    zend_async_thread_snapshot_create_fn;
ZEND_API extern zend_async_thread_snapshot_destroy_t
    zend_async_thread_snapshot_destroy_fn;
ZEND_API extern zend_async_thread_run_t zend_async_thread_run_fn;
ZEND_API extern zend_async_thread_load_result_t
    zend_async_thread_load_result_fn;
ZEND_API extern zend_async_thread_transfer_zval_t
    zend_async_thread_transfer_zval_fn;
ZEND_API extern zend_async_thread_load_zval_t zend_async_thread_load_zval_fn;
ZEND_API extern zend_async_thread_transfer_zval_toplevel_t
    zend_async_thread_transfer_zval_toplevel_fn;
ZEND_API extern zend_async_thread_load_zval_toplevel_t
    zend_async_thread_load_zval_toplevel_fn;
ZEND_API extern zend_async_thread_release_transferred_zval_t
    zend_async_thread_release_transferred_zval_fn;
/* Not a parameter of zend_async_thread_pool_register(): the implementation
 * assigns it directly after registering. NULL by default; callers check. */
ZEND_API extern zend_async_thread_release_transferred_zvals_t
    zend_async_thread_release_transferred_zvals_fn;
ZEND_API extern zend_async_thread_xlat_put_t zend_async_thread_xlat_put_fn;
ZEND_API extern zend_async_thread_defer_release_t
    zend_async_thread_defer_release_fn;

#define ZEND_ASYNC_THREAD_TRANSFER_ZVAL(ctx, dst, src) \
  zend_async_thread_transfer_zval_fn((ctx), (dst), (src))
#define ZEND_ASYNC_THREAD_LOAD_ZVAL(ctx, dst, src) \
  zend_async_thread_load_zval_fn((ctx), (dst), (src))
#define ZEND_ASYNC_THREAD_TRANSFER_ZVAL_TOPLEVEL(dst, src) \
  zend_async_thread_transfer_zval_toplevel_fn((dst), (src))
#define ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(dst, src) \
  zend_async_thread_load_zval_toplevel_fn((dst), (src))
#define ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVAL(z) \
  zend_async_thread_release_transferred_zval_fn(z)
#define ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVALS(roots, count) \
  zend_async_thread_release_transferred_zvals_fn((roots), (count))
#define ZEND_ASYNC_THREAD_XLAT_PUT(ctx, src, dst) \
  zend_async_thread_xlat_put_fn((ctx), (src), (dst))
#define ZEND_ASYNC_THREAD_DEFER_RELEASE(ctx, z) \
  zend_async_thread_defer_release_fn((ctx), (z))
ZEND_API extern zend_async_new_filesystem_event_t
    zend_async_new_filesystem_event_fn;

/* Socket listening */
ZEND_API extern zend_async_socket_listen_t zend_async_socket_listen_fn;
ZEND_API extern zend_async_socket_listen_fd_t zend_async_socket_listen_fd_fn;

/* DNS */
ZEND_API extern zend_async_getnameinfo_t zend_async_getnameinfo_fn;
ZEND_API extern zend_async_getaddrinfo_t zend_async_getaddrinfo_fn;
ZEND_API extern zend_async_freeaddrinfo_t zend_async_freeaddrinfo_fn;

/* Exec */
ZEND_API extern zend_async_new_exec_event_t zend_async_new_exec_event_fn;
ZEND_API extern zend_async_exec_t zend_async_exec_fn;

/* The VM frame a suspended coroutine stopped in (optional hook). */
typedef zend_execute_data *(*zend_async_coroutine_get_execute_data_t)(
    zend_coroutine_t *coroutine);
ZEND_API extern zend_async_coroutine_get_execute_data_t
    zend_async_coroutine_get_execute_data_fn;
#define ZEND_ASYNC_COROUTINE_GET_EXECUTE_DATA(coroutine)     \
  (zend_async_coroutine_get_execute_data_fn                  \
       ? zend_async_coroutine_get_execute_data_fn(coroutine) \
       : NULL)

/* Waker */
ZEND_API extern zend_async_waker_new_t zend_async_waker_new_fn;
ZEND_API extern zend_async_waker_destroy_t zend_async_waker_destroy_fn;

/* Thread pool */
ZEND_API bool zend_async_thread_pool_is_enabled(void);
ZEND_API extern zend_async_new_task_t zend_async_new_task_fn;
ZEND_API extern zend_async_queue_task_t zend_async_queue_task_fn;
ZEND_API extern zend_async_new_thread_pool_t zend_async_new_thread_pool_fn;
ZEND_API extern zend_async_start_thread_t zend_async_start_thread_fn;

#define ZEND_ASYNC_NEW_THREAD_POOL(worker_count, queue_size) \
  zend_async_new_thread_pool_fn((worker_count), (queue_size), NULL, false, 0)
#define ZEND_ASYNC_NEW_THREAD_POOL_EX(worker_count, queue_size, bootloader, \
                                      coroutine_mode, concurrency)          \
  zend_async_new_thread_pool_fn((worker_count), (queue_size), (bootloader), \
                                (coroutine_mode), (concurrency))
#define ZEND_ASYNC_START_THREAD(entry, context) \
  zend_async_start_thread_fn((entry), (context))

/* Trigger events */
ZEND_API extern zend_async_new_trigger_event_t zend_async_new_trigger_event_fn;

ZEND_API extern zend_async_available_parallelism_t
    zend_async_available_parallelism_fn;
ZEND_API extern zend_async_now_t zend_async_now_fn;

/* Async IO */
ZEND_API extern zend_async_io_create_t zend_async_io_create_fn;
ZEND_API extern zend_async_io_read_t zend_async_io_read_fn;
ZEND_API extern zend_async_io_write_t zend_async_io_write_fn;
ZEND_API extern zend_async_io_writev_t zend_async_io_writev_fn;
ZEND_API extern zend_async_io_close_t zend_async_io_close_fn;
ZEND_API extern zend_async_io_sendfile_t zend_async_io_sendfile_fn;
ZEND_API extern zend_async_fs_open_t zend_async_fs_open_fn;
ZEND_API extern zend_async_io_await_t zend_async_io_await_fn;
ZEND_API extern zend_async_io_flush_t zend_async_io_flush_fn;
ZEND_API extern zend_async_io_stat_t zend_async_io_stat_fn;
ZEND_API extern zend_async_io_seek_t zend_async_io_seek_fn;
ZEND_API extern zend_async_udp_sendto_t zend_async_udp_sendto_fn;
ZEND_API extern zend_async_udp_try_send_t zend_async_udp_try_send_fn;
ZEND_API extern zend_async_udp_recvfrom_t zend_async_udp_recvfrom_fn;
ZEND_API extern zend_async_io_set_option_t zend_async_io_set_option_fn;
ZEND_API extern zend_async_udp_set_membership_t
    zend_async_udp_set_membership_fn;
ZEND_API extern zend_async_udp_bind_t zend_async_udp_bind_fn;

/* --- Registration ------------------------------------------------------
 *
 * An extension installs its implementation from MINIT. Module identity is
 * the `module` pointer (not the string). Registering a different module
 * over an existing one without allow_override reports E_CORE_ERROR "The
 * module X is trying to override <Group>, which was registered by the
 * module Y." and keeps the first. See abi/src/registry.c for the exact
 * per-group rules (locks, return values). */

ZEND_API bool zend_async_scheduler_register(
    char *module, bool allow_override,
    zend_async_scheduler_launch_t scheduler_launch_fn,
    zend_async_new_coroutine_t new_coroutine_fn,
    zend_async_new_scope_t new_scope_fn,
    zend_async_new_context_t new_context_fn, zend_async_spawn_t spawn_fn,
    zend_async_suspend_t suspend_fn,
    zend_async_enqueue_coroutine_t enqueue_coroutine_fn,
    zend_async_resume_t resume_fn, zend_async_cancel_t cancel_fn,
    zend_async_scope_await_after_cancellation_t
        scope_await_after_cancellation_fn,
    zend_async_spawn_and_throw_t spawn_and_throw_fn,
    zend_async_shutdown_t shutdown_fn, zend_async_waker_new_t waker_new_fn,
    zend_async_waker_destroy_t waker_destroy_fn,
    zend_async_get_coroutines_t get_coroutines_fn,
    zend_async_add_microtask_t add_microtask_fn,
    zend_async_get_awaiting_info_t get_awaiting_info_fn,
    zend_async_get_class_ce_t get_class_ce_fn,
    zend_async_new_iterator_t new_iterator_fn,
    zend_async_new_future_t new_future_fn,
    zend_async_new_channel_t new_channel_fn,
    zend_async_new_future_obj_t new_future_obj_fn,
    zend_async_new_channel_obj_t new_channel_obj_fn,
    zend_async_new_group_t new_group_fn,
    zend_async_engine_shutdown_t engine_shutdown_fn,
    zend_async_thread_snapshot_create_t thread_snapshot_create_fn,
    zend_async_thread_snapshot_destroy_t thread_snapshot_destroy_fn,
    zend_async_thread_run_t thread_run_fn,
    zend_async_thread_load_result_t thread_load_result_fn);

ZEND_API bool zend_async_reactor_register(
    char *module, bool allow_override,
    zend_async_reactor_startup_t reactor_startup_fn,
    zend_async_reactor_shutdown_t reactor_shutdown_fn,
    zend_async_reactor_execute_t reactor_execute_fn,
    zend_async_reactor_loop_alive_t reactor_loop_alive_fn,
    zend_async_reactor_quiesce_t reactor_quiesce_fn,
    zend_async_new_socket_event_t new_socket_event_fn,
    zend_async_new_poll_event_t new_poll_event_fn,
    zend_async_new_poll_proxy_event_t new_poll_proxy_event_fn,
    zend_async_new_timer_event_t new_timer_event_fn,
    zend_async_timer_rearm_t timer_rearm_fn,
    zend_async_new_signal_event_t new_signal_event_fn,
    zend_async_new_process_event_t new_process_event_fn,
    zend_async_new_thread_event_t new_thread_event_fn,
    zend_async_new_filesystem_event_t new_filesystem_event_fn,
    zend_async_getnameinfo_t getnameinfo_fn,
    zend_async_getaddrinfo_t getaddrinfo_fn,
    zend_async_freeaddrinfo_t freeaddrinfo_fn,
    zend_async_new_exec_event_t new_exec_event_fn, zend_async_exec_t exec_fn,
    zend_async_new_trigger_event_t new_trigger_event_fn,
    zend_async_available_parallelism_t available_parallelism_fn,
    zend_async_now_t now_fn);

ZEND_API void zend_async_thread_pool_register(
    char *module, bool allow_override, zend_async_new_task_t new_task_fn,
    zend_async_queue_task_t queue_task_fn,
    zend_async_new_thread_pool_t new_thread_pool_fn,
    zend_async_start_thread_t start_thread_fn,
    zend_async_thread_transfer_zval_t transfer_zval_fn,
    zend_async_thread_load_zval_t load_zval_fn,
    zend_async_thread_transfer_zval_toplevel_t transfer_zval_toplevel_fn,
    zend_async_thread_load_zval_toplevel_t load_zval_toplevel_fn,
    zend_async_thread_release_transferred_zval_t release_transferred_zval_fn,
    zend_async_thread_xlat_put_t xlat_put_fn,
    zend_async_thread_defer_release_t defer_release_fn);

ZEND_API void zend_async_pool_api_register(
    char *module, bool allow_override, zend_async_new_pool_t new_pool_fn,
    zend_async_new_pool_obj_t new_pool_obj_fn,
    zend_async_pool_acquire_t acquire_fn,
    zend_async_pool_try_acquire_t try_acquire_fn,
    zend_async_pool_release_t release_fn, zend_async_pool_close_t close_fn);

ZEND_API bool zend_async_socket_listening_register(
    char *module, bool allow_override,
    zend_async_socket_listen_t socket_listen_fn,
    zend_async_socket_listen_fd_t socket_listen_fd_fn);

ZEND_API bool zend_async_io_register(
    char *module, bool allow_override, zend_async_io_create_t create_fn,
    zend_async_io_read_t read_fn, zend_async_io_write_t write_fn,
    zend_async_io_writev_t writev_fn, zend_async_io_close_t close_fn,
    zend_async_io_await_t await_fn, zend_async_io_flush_t flush_fn,
    zend_async_io_stat_t stat_fn, zend_async_io_seek_t seek_fn,
    zend_async_io_sendfile_t sendfile_fn, zend_async_fs_open_t fs_open_fn,
    zend_async_udp_sendto_t udp_sendto_fn,
    zend_async_udp_try_send_t udp_try_send_fn,
    zend_async_udp_recvfrom_t udp_recvfrom_fn,
    zend_async_io_set_option_t set_option_fn,
    zend_async_udp_set_membership_t udp_set_membership_fn,
    zend_async_udp_bind_t udp_bind_fn);

/* "Coroutine spawned at F:L, suspended at F:L (name)" when suspended, else
 * "Coroutine spawned at F:L (name)". New string. */
ZEND_API zend_string *zend_coroutine_gen_info(zend_coroutine_t *coroutine,
                                              char *zend_coroutine_name);

/* A heap callback (ref_count 0, efree'd by its default dispose at the
 * last release). size 0 means sizeof(zend_async_event_callback_t). */
ZEND_API zend_async_event_callback_t *zend_async_event_callback_new(
    zend_async_event_callback_fn callback, size_t size);

#define ZEND_ASYNC_EVENT_CALLBACK(callback) \
  zend_async_event_callback_new(callback, 0)
#define ZEND_ASYNC_EVENT_CALLBACK_EX(callback, size) \
  zend_async_event_callback_new(callback, size)

ZEND_API zend_coroutine_event_callback_t *zend_async_coroutine_callback_new(
    zend_coroutine_t *coroutine, zend_async_event_callback_fn callback,
    size_t size);
/* Drops one holder of a coroutine callback; at the last, detaches it from
 * the coroutine's waker (stopping and forgetting the event when it was the
 * event's last trigger callback), deletes it from the event and efrees it. */
ZEND_API void coroutine_event_callback_dispose(
    zend_async_event_callback_t *callback, zend_async_event_t *event);

/* --- Wakers -------------------------------------------------------------- */

/* The coroutine's waker, creating it when missing. coroutine NULL means
 * the current one; none → E_CORE_ERROR "Cannot create waker for a coroutine
 * that is not running" and NULL. */
ZEND_API zend_async_waker_t *zend_async_waker_define(
    zend_coroutine_t *coroutine);
/* A clean waker for the coroutine (reusing its existing one). */
#define ZEND_ASYNC_WAKER_NEW(coroutine) zend_async_waker_new_fn(coroutine)

/* A new waker that also resumes after `timeout` ms (with a timer using the
 * resolve callback) and/or when `cancellation` fires. */
ZEND_API zend_async_waker_t *zend_async_waker_new_with_timeout(
    zend_coroutine_t *coroutine, const zend_ulong timeout,
    zend_async_event_t *cancellation);
/* Records an error to throw on resume (see the .c for the merge rules). */
ZEND_API bool zend_async_waker_apply_error(zend_async_waker_t *waker,
                                           zend_object *error,
                                           bool transfer_error, bool override,
                                           bool for_cancellation);

ZEND_API void zend_async_waker_init(zend_async_waker_t *waker);
ZEND_API void zend_async_waker_clean(zend_coroutine_t *coroutine);
/* Destroys the waker's contents and NULLs coroutine->waker; does not free
 * the waker's memory. */
#define ZEND_ASYNC_WAKER_DESTROY(coroutine) \
  zend_async_waker_destroy_fn(coroutine)

ZEND_API void zend_async_waker_add_triggered_event(zend_coroutine_t *coroutine,
                                                   zend_async_event_t *event);
ZEND_API bool zend_async_waker_is_event_exists(zend_coroutine_t *coroutine,
                                               zend_async_event_t *event);

#define ZEND_ASYNC_WAKER_APPLY_ERROR(waker, error, transfer) \
  zend_async_waker_apply_error((waker), (error), (transfer), true, false)
#define ZEND_ASYNC_WAKER_APPEND_ERROR(waker, error, transfer) \
  zend_async_waker_apply_error((waker), (error), (transfer), false, false)
#define ZEND_ASYNC_WAKER_APPLY_CANCELLATION(waker, error, transfer) \
  zend_async_waker_apply_error((waker), (error), (transfer), true, true)

/* Makes the coroutine wake when `event` fires, through `callback` (or the
 * given prepared event_callback). trans_event: the waker takes over the
 * caller's event reference; otherwise it adds its own when the event is new
 * to the waker. */
ZEND_API bool zend_async_resume_when(
    zend_coroutine_t *coroutine, zend_async_event_t *event,
    const bool trans_event, zend_async_event_callback_fn callback,
    zend_coroutine_event_callback_t *event_callback);

/* Standard resume callbacks: resolve (result/exception of the event),
 * cancel (OperationCanceledException "Operation has been cancelled"),
 * timeout (TimeoutException "Operation has been cancelled by timeout"). */
ZEND_API void zend_async_waker_callback_resolve(
    zend_async_event_t *event, zend_async_event_callback_t *callback,
    void *result, zend_object *exception);

ZEND_API void zend_async_waker_callback_cancel(
    zend_async_event_t *event, zend_async_event_callback_t *callback,
    void *result, zend_object *exception);

ZEND_API void zend_async_waker_callback_timeout(
    zend_async_event_t *event, zend_async_event_callback_t *callback,
    void *result, zend_object *exception);

/* --- Switch handlers ------------------------------------------------------ */

ZEND_API uint32_t zend_coroutine_add_switch_handler(
    zend_coroutine_t *coroutine, zend_coroutine_switch_handler_fn handler);

ZEND_API bool zend_coroutine_remove_switch_handler(zend_coroutine_t *coroutine,
                                                   uint32_t handler_index);

ZEND_API bool zend_coroutine_call_switch_handlers(zend_coroutine_t *coroutine,
                                                  bool is_enter,
                                                  bool is_finishing);

ZEND_API void zend_coroutine_switch_handlers_init(zend_coroutine_t *coroutine);
ZEND_API void zend_coroutine_switch_handlers_destroy(
    zend_coroutine_t *coroutine);

/* Per-thread handlers installed into every main coroutine at launch. */
ZEND_API bool zend_async_add_main_coroutine_start_handler(
    zend_coroutine_switch_handler_fn handler);

ZEND_API bool zend_async_call_main_coroutine_start_handlers(
    zend_coroutine_t *main_coroutine);

/* --- Convenience macros -------------------------------------------------- */

#define ZEND_ASYNC_NEW_FUTURE(thread_safe) \
  zend_async_new_future_fn(thread_safe, 0)
#define ZEND_ASYNC_NEW_FUTURE_EX(thread_safe, extra_size) \
  zend_async_new_future_fn(thread_safe, extra_size)
#define ZEND_ASYNC_NEW_FUTURE_OBJ(future) zend_async_new_future_obj_fn(future)

#define ZEND_ASYNC_NEW_CHANNEL(buffer_size, resizable, thread_safe) \
  zend_async_new_channel_fn(buffer_size, resizable, thread_safe, 0)
#define ZEND_ASYNC_NEW_CHANNEL_EX(buffer_size, resizable, thread_safe, \
                                  extra_size)                          \
  zend_async_new_channel_fn(buffer_size, resizable, thread_safe, extra_size)
#define ZEND_ASYNC_NEW_CHANNEL_OBJ(channel) \
  zend_async_new_channel_obj_fn(channel)

#define ZEND_ASYNC_NEW_GROUP(concurrency, queue_limit, scope) \
  zend_async_new_group_fn(concurrency, queue_limit, scope)

#define ZEND_ASYNC_NEW_POOL(factory, destructor, healthcheck, before_acquire, \
                            before_release, min, max, healthcheck_interval)   \
  zend_async_new_pool_fn(factory, destructor, healthcheck, before_acquire,    \
                         before_release, min, max, healthcheck_interval, 0)
#define ZEND_ASYNC_NEW_POOL_EX(factory, destructor, healthcheck,           \
                               before_acquire, before_release, min, max,   \
                               healthcheck_interval, extra_size)           \
  zend_async_new_pool_fn(factory, destructor, healthcheck, before_acquire, \
                         before_release, min, max, healthcheck_interval,   \
                         extra_size)
#define ZEND_ASYNC_NEW_POOL_OBJ(pool) zend_async_new_pool_obj_fn(pool)
#define ZEND_ASYNC_POOL_ACQUIRE(pool, result, timeout_ms) \
  zend_async_pool_acquire_fn(pool, result, timeout_ms)
#define ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, result) \
  zend_async_pool_try_acquire_fn(pool, result)
#define ZEND_ASYNC_POOL_RELEASE(pool, resource) \
  zend_async_pool_release_fn(pool, resource)
#define ZEND_ASYNC_POOL_CLOSE(pool) zend_async_pool_close_fn(pool)

END_EXTERN_C()

#define ZEND_ASYNC_IS_ENABLED() zend_async_is_enabled()
#define ZEND_ASYNC_SPAWN() zend_async_spawn_fn(NULL, NULL, 0)
#define ZEND_ASYNC_SPAWN_WITH(scope) zend_async_spawn_fn(scope, NULL, 0)
#define ZEND_ASYNC_SPAWN_WITH_PROVIDER(scope_provider) \
  zend_async_spawn_fn(NULL, scope_provider, 0)
#define ZEND_ASYNC_SPAWN_WITH_PRIORITY(priority) \
  zend_async_spawn_fn(NULL, NULL, priority)
#define ZEND_ASYNC_SPAWN_WITH_SCOPE_EX(scope, priority) \
  zend_async_spawn_fn(scope, NULL, priority)
#define ZEND_ASYNC_NEW_COROUTINE(scope) zend_async_new_coroutine_fn(scope)
#define ZEND_ASYNC_NEW_SCOPE(parent) zend_async_new_scope_fn(parent, false)
#define ZEND_ASYNC_NEW_SCOPE_WITH_OBJECT(parent) \
  zend_async_new_scope_fn(parent, true)
#define ZEND_ASYNC_SUSPEND() zend_async_suspend_fn(false, false)
#define ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(is_bailout) \
  zend_async_suspend_fn(true, is_bailout)
#define ZEND_ASYNC_CALL_ON_MAIN_STACK(fn, arg) \
  zend_async_call_on_main_stack_fn((fn), (arg))
#define ZEND_ASYNC_ENQUEUE_COROUTINE(coroutine) \
  zend_async_enqueue_coroutine_fn(coroutine)
#define ZEND_ASYNC_RESUME(coroutine) \
  zend_async_resume_fn(coroutine, NULL, false)
#define ZEND_ASYNC_RESUME_WITH_ERROR(coroutine, error, transfer_error) \
  zend_async_resume_fn(coroutine, error, transfer_error)
#define ZEND_ASYNC_CANCEL(coroutine, error, transfer_error) \
  zend_async_cancel_fn(coroutine, error, transfer_error, false)
#define ZEND_ASYNC_CANCEL_EX(coroutine, error, transfer_error, is_safely) \
  zend_async_cancel_fn(coroutine, error, transfer_error, is_safely)

/* Spawns a coroutine that throws `exception` in `scope` (NULL: current),
 * so errors from microtasks reach scope error handling. */
#define ZEND_ASYNC_SPAWN_AND_THROW(exception, scope, priority) \
  zend_async_spawn_and_throw_fn(exception, scope, priority)
/* Starts graceful shutdown. */
#define ZEND_ASYNC_SHUTDOWN() zend_async_shutdown_fn()
#define ZEND_ASYNC_ENGINE_SHUTDOWN() zend_async_engine_shutdown_fn()
/* pcntl_fork()'s call sites: in the parent before fork() (false, with an
 * exception thrown: do not fork), in the child right after it. With nothing
 * registered BEFORE_FORK answers true and AFTER_FORK_CHILD does nothing. */
#define ZEND_ASYNC_BEFORE_FORK() \
  (zend_async_before_fork_fn != NULL ? zend_async_before_fork_fn() : true)
#define ZEND_ASYNC_AFTER_FORK_CHILD()             \
  do {                                            \
    if (zend_async_after_fork_child_fn != NULL) { \
      zend_async_after_fork_child_fn();           \
    }                                             \
  } while (0)
#define ZEND_ASYNC_GET_COROUTINES() zend_async_get_coroutines_fn()
#define ZEND_ASYNC_ADD_MICROTASK(microtask) \
  zend_async_add_microtask_fn(microtask)
#define ZEND_ASYNC_GET_AWAITING_INFO(coroutine) \
  zend_async_get_awaiting_info_fn(coroutine)
#define ZEND_ASYNC_GET_CE(type) zend_async_get_class_ce_fn(type)
#define ZEND_ASYNC_GET_EXCEPTION_CE(type) zend_async_get_class_ce_fn(type)

#define ZEND_ASYNC_SCHEDULER_LAUNCH() zend_async_scheduler_launch_fn()

/* Launches the scheduler lazily (before IO or a pool acquire) when no
 * coroutine is running yet. */
#define ZEND_ASYNC_SCHEDULER_INIT()                                       \
  do {                                                                    \
    ZEND_ASSERT(!ZEND_ASYNC_IS_OFF &&                                     \
                "ZEND_ASYNC_SCHEDULER_INIT called after async shutdown"); \
    if (UNEXPECTED(ZEND_ASYNC_CURRENT_COROUTINE == NULL)) {               \
      zend_async_scheduler_launch_fn();                                   \
    }                                                                     \
  } while (0)

#define ZEND_ASYNC_REACTOR_IS_ENABLED() zend_async_reactor_is_enabled()
#define ZEND_ASYNC_REACTOR_STARTUP() zend_async_reactor_startup_fn()
#define ZEND_ASYNC_REACTOR_SHUTDOWN() zend_async_reactor_shutdown_fn()
/* A no-op when no reactor provides quiesce. */
#define ZEND_ASYNC_REACTOR_QUIESCE()           \
  do {                                         \
    if (zend_async_reactor_quiesce_fn != NULL) \
      zend_async_reactor_quiesce_fn();         \
  } while (0)

#define ZEND_ASYNC_REACTOR_EXECUTE(no_wait) \
  zend_async_reactor_execute_fn(no_wait)
#define ZEND_ASYNC_REACTOR_LOOP_ALIVE() zend_async_reactor_loop_alive_fn()
#define ZEND_ASYNC_REACTOR_TICK() zend_async_reactor_tick_fn()

#define ZEND_ASYNC_NEW_SOCKET_EVENT(socket, events) \
  zend_async_new_socket_event_fn(socket, events, 0)
#define ZEND_ASYNC_NEW_SOCKET_EVENT_EX(socket, events, extra_size) \
  zend_async_new_socket_event_fn(socket, events, extra_size)
#define ZEND_ASYNC_NEW_POLL_EVENT(fh, socket, events) \
  zend_async_new_poll_event_fn(fh, socket, events, 0)
#define ZEND_ASYNC_NEW_POLL_EVENT_EX(fh, socket, events, extra_size) \
  zend_async_new_poll_event_fn(fh, socket, events, extra_size)
#define ZEND_ASYNC_NEW_POLL_PROXY_EVENT(poll_event, events) \
  zend_async_new_poll_proxy_event_fn(poll_event, events, 0)
#define ZEND_ASYNC_NEW_POLL_PROXY_EVENT_EX(poll_event, events, extra_size) \
  zend_async_new_poll_proxy_event_fn(poll_event, events, extra_size)
#define ZEND_ASYNC_NEW_TIMER_EVENT(timeout, is_periodic) \
  zend_async_new_timer_event_fn(timeout, 0, is_periodic, 0)
#define ZEND_ASYNC_NEW_TIMER_EVENT_EX(timeout, is_periodic, extra_size) \
  zend_async_new_timer_event_fn(timeout, 0, is_periodic, extra_size)
#define ZEND_ASYNC_NEW_TIMER_EVENT_NS(timeout, nanoseconds, is_periodic) \
  zend_async_new_timer_event_fn(timeout, nanoseconds, is_periodic, 0)
#define ZEND_ASYNC_NEW_TIMER_EVENT_NS_EX(timeout, nanoseconds, is_periodic, \
                                         extra_size)                        \
  zend_async_new_timer_event_fn(timeout, nanoseconds, is_periodic, extra_size)
#define ZEND_ASYNC_TIMER_REARM(event, timeout, nanoseconds) \
  zend_async_timer_rearm_fn(event, timeout, nanoseconds)
#define ZEND_ASYNC_NEW_SIGNAL_EVENT(signum) \
  zend_async_new_signal_event_fn(signum, 0)
#define ZEND_ASYNC_SIGACTION(signo) \
  (zend_async_sigaction_fn != NULL && zend_async_sigaction_fn(signo))
#define ZEND_ASYNC_NEW_SIGNAL_EVENT_EX(signum, extra_size) \
  zend_async_new_signal_event_fn(signum, extra_size)
#define ZEND_ASYNC_NEW_PROCESS_EVENT(process_handle) \
  zend_async_new_process_event_fn(process_handle, 0)
#define ZEND_ASYNC_NEW_PROCESS_EVENT_EX(process_handle, extra_size) \
  zend_async_new_process_event_fn(process_handle, extra_size)
#define ZEND_ASYNC_NEW_THREAD_EVENT(entry, bootloader) \
  zend_async_new_thread_event_fn(entry, bootloader, 0, 0)
#define ZEND_ASYNC_NEW_THREAD_EVENT_EX(entry, bootloader, flags, extra_size) \
  zend_async_new_thread_event_fn(entry, bootloader, flags, extra_size)
#define ZEND_ASYNC_THREAD_SNAPSHOT_CREATE(entry, bootloader) \
  zend_async_thread_snapshot_create_fn(entry, bootloader)
#define ZEND_ASYNC_THREAD_SNAPSHOT_DESTROY(snapshot) \
  zend_async_thread_snapshot_destroy_fn(snapshot)

/* The event mutex exists only with real threads (ZTS); without ZTS these
 * are no-ops and the context layout is unchanged. */
#define ZEND_ASYNC_THREAD_CONTEXT_EVENT_MUTEX_ALLOC(ctx) \
  ((ctx)->event_mutex = NULL)
#define ZEND_ASYNC_THREAD_CONTEXT_EVENT_MUTEX_FREE(ctx) ((void)0)
#define ZEND_ASYNC_THREAD_CONTEXT_EVENT_MUTEX_LOCK(ctx) ((void)0)
#define ZEND_ASYNC_THREAD_CONTEXT_EVENT_MUTEX_UNLOCK(ctx) ((void)0)

#define ZEND_ASYNC_THREAD_CONTEXT_ADDREF(ctx) \
  zend_atomic_int_inc(&(ctx)->ref_count)

#define ZEND_ASYNC_THREAD_CONTEXT_RELEASE(ctx)               \
  do {                                                       \
    int _old = zend_atomic_int_dec(&(ctx)->ref_count);       \
    if (_old == 1) {                                         \
      if ((ctx)->snapshot) {                                 \
        ZEND_ASYNC_THREAD_SNAPSHOT_DESTROY((ctx)->snapshot); \
      }                                                      \
      if ((ctx)->bailout_error_message) {                    \
        pefree((ctx)->bailout_error_message, 1);             \
      }                                                      \
      ZEND_ASYNC_THREAD_CONTEXT_EVENT_MUTEX_FREE(ctx);       \
      pefree((ctx), 1);                                      \
    }                                                        \
  } while (0)

#define ZEND_ASYNC_THREAD_RUN(arg) zend_async_thread_run_fn(arg)
#define ZEND_ASYNC_THREAD_LOAD_RESULT(event) \
  zend_async_thread_load_result_fn(event)
#define ZEND_ASYNC_NEW_FILESYSTEM_EVENT(path, flags) \
  zend_async_new_filesystem_event_fn(path, flags, 0)
#define ZEND_ASYNC_NEW_FILESYSTEM_EVENT_EX(path, flags, extra_size) \
  zend_async_new_filesystem_event_fn(path, flags, extra_size)

#define ZEND_ASYNC_GETNAMEINFO(addr, flags) \
  zend_async_getnameinfo_fn(addr, flags, 0)
#define ZEND_ASYNC_GETNAMEINFO_EX(addr, flags, extra_size) \
  zend_async_getnameinfo_fn(addr, flags, extra_size)
#define ZEND_ASYNC_GETADDRINFO(node, service, hints) \
  zend_async_getaddrinfo_fn(node, service, hints, 0)
#define ZEND_ASYNC_GETADDRINFO_EX(node, service, hints, extra_size) \
  zend_async_getaddrinfo_fn(node, service, hints, extra_size)
#define ZEND_ASYNC_FREEADDRINFO(ai) zend_async_freeaddrinfo_fn(ai)

#define ZEND_ASYNC_NEW_EXEC_EVENT(exec_mode, cmd, return_buffer, return_value, \
                                  std_error, cwd, env)                         \
  zend_async_new_exec_event_fn(exec_mode, cmd, return_buffer, return_value,    \
                               std_error, cwd, env, 0)
#define ZEND_ASYNC_NEW_EXEC_EVENT_EX(exec_mode, cmd, return_buffer,         \
                                     return_value, std_error, cwd, env,     \
                                     extra_size)                            \
  zend_async_new_exec_event_fn(exec_mode, cmd, return_buffer, return_value, \
                               std_error, cwd, env, extra_size)
#define ZEND_ASYNC_EXEC(exec_mode, cmd, return_buffer, return_value,         \
                        std_error, cwd, env, timeout)                        \
  zend_async_exec_fn(exec_mode, cmd, return_buffer, return_value, std_error, \
                     cwd, env, timeout)

#define ZEND_ASYNC_NEW_TASK(run, data) zend_async_new_task_fn((run), (data), 0)
#define ZEND_ASYNC_NEW_TASK_EX(run, data, extra_size) \
  zend_async_new_task_fn((run), (data), (extra_size))
#define ZEND_ASYNC_QUEUE_TASK(task) zend_async_queue_task_fn(task)

#define ZEND_ASYNC_NEW_TRIGGER_EVENT() zend_async_new_trigger_event_fn(0)
#define ZEND_ASYNC_NEW_TRIGGER_EVENT_EX(extra_size) \
  zend_async_new_trigger_event_fn(extra_size)

#define ZEND_ASYNC_AVAILABLE_PARALLELISM() zend_async_available_parallelism_fn()
#define ZEND_ASYNC_NOW() zend_async_now_fn()

#define ZEND_ASYNC_SOCKET_LISTEN(host, port, backlog) \
  zend_async_socket_listen_fn(host, port, backlog, 0, 0)
#define ZEND_ASYNC_SOCKET_LISTEN_EX(host, port, backlog, flags, extra_size) \
  zend_async_socket_listen_fn(host, port, backlog, flags, extra_size)
#define ZEND_ASYNC_SOCKET_LISTEN_FD(fd, backlog, flags, extra_size) \
  zend_async_socket_listen_fd_fn(fd, backlog, flags, extra_size)

#define ZEND_ASYNC_IO_CREATE(fd, type, state) \
  zend_async_io_create_fn(fd, type, state)
#define ZEND_ASYNC_IO_READ(io, buf, max_size) \
  zend_async_io_read_fn(io, buf, max_size)
#define ZEND_ASYNC_IO_WRITE(io, buf, count) \
  zend_async_io_write_fn(io, buf, count, NULL)
#define ZEND_ASYNC_IO_WRITE_EX(io, buf, count, free_cb) \
  zend_async_io_write_fn(io, buf, count, free_cb)
#define ZEND_ASYNC_IO_WRITEV(io, bufs, nbufs)                  \
  zend_async_io_writev_fn((io), (const void *)(bufs), (nbufs), \
                          ZEND_ASYNC_IO_WRITEV_ZSTR, NULL, NULL)
/* The awaited vectored write (v0.25): see ZEND_ASYNC_IO_WRITEV_AWAIT. */
#define ZEND_ASYNC_IO_WRITEV_AWAITED(io, bufs, nbufs) \
  zend_async_io_writev_fn(                            \
      (io), (const void *)(bufs), (nbufs),            \
      ZEND_ASYNC_IO_WRITEV_ZSTR | ZEND_ASYNC_IO_WRITEV_AWAIT, NULL, NULL)
#define ZEND_ASYNC_IO_WRITEV_EX(io, iov, niov, free_cb, user_data) \
  zend_async_io_writev_fn((io), (const void *)(iov), (niov),       \
                          ZEND_ASYNC_IO_WRITEV_IOV, (free_cb), (user_data))
#define ZEND_ASYNC_IO_CLOSE(io) zend_async_io_close_fn(io)
#define ZEND_ASYNC_IO_AWAIT(io, events, tv) \
  zend_async_io_await_fn(io, events, tv)
#define ZEND_ASYNC_IO_FLUSH(io) zend_async_io_flush_fn(io)
#define ZEND_ASYNC_IO_STAT(io, buf) zend_async_io_stat_fn(io, buf)
#define ZEND_ASYNC_IO_SEEK(io, offset, whence) \
  zend_async_io_seek_fn(io, offset, whence)
#define ZEND_ASYNC_IO_SENDFILE(out_io, in_io, offset, length) \
  zend_async_io_sendfile_fn(out_io, in_io, offset, length)
#define ZEND_ASYNC_FS_OPEN(path, flags, mode) \
  zend_async_fs_open_fn(path, flags, mode)
#define ZEND_ASYNC_UDP_SENDTO(io, buf, count, addr, addr_len) \
  zend_async_udp_sendto_fn(io, buf, count, addr, addr_len)
#define ZEND_ASYNC_UDP_TRY_SEND(io, buf, count, addr, addr_len) \
  zend_async_udp_try_send_fn(io, buf, count, addr, addr_len)
#define ZEND_ASYNC_UDP_RECVFROM(io, max_size) \
  zend_async_udp_recvfrom_fn(io, max_size)
#define ZEND_ASYNC_IO_SET_OPTION(io, opt, val) \
  zend_async_io_set_option_fn(io, opt, val)
#define ZEND_ASYNC_UDP_SET_MEMBERSHIP(io, mcast, iface, join) \
  zend_async_udp_set_membership_fn(io, mcast, iface, join)

#define ZEND_ASYNC_UDP_BIND(host, port) zend_async_udp_bind_fn(host, port, 0, 0)
#define ZEND_ASYNC_UDP_BIND_EX(host, port, flags, extra_size) \
  zend_async_udp_bind_fn(host, port, flags, extra_size)

#define ZEND_ASYNC_NEW_ITERATOR_SCOPE(array, zend_iterator, fcall, handler, \
                                      scope, concurrency, priority)         \
  zend_async_new_iterator_fn(array, zend_iterator, fcall, handler, scope,   \
                             concurrency, priority, 0)
#define ZEND_ASYNC_NEW_ITERATOR(array, zend_iterator, fcall, handler,    \
                                concurrency, priority)                   \
  zend_async_new_iterator_fn(array, zend_iterator, fcall, handler, NULL, \
                             concurrency, priority, 0)
#define ZEND_ASYNC_NEW_ITERATOR_EX(array, zend_iterator, fcall, handler, \
                                   concurrency, priority, size)          \
  zend_async_new_iterator_fn(array, zend_iterator, fcall, handler, NULL, \
                             concurrency, priority, size)

/* Deliberate difference: upstream's zend_async_new_context_t takes no
 * argument while its macro passes one (so upstream's macro cannot compile);
 * here the argument is evaluated and ignored. */
#define ZEND_ASYNC_NEW_CONTEXT(parent) \
  ((void)(parent), zend_async_new_context_fn())
#define ZEND_ASYNC_CURRENT_CONTEXT                                           \
  (ZEND_ASYNC_G(coroutine) != NULL ? ZEND_ASYNC_G(coroutine)->scope->context \
                                   : NULL)
#define ZEND_ASYNC_GET_COROUTINE_CONTEXT()                                \
  ((ZEND_ASYNC_G(coroutine)) ? (ZEND_ASYNC_G(coroutine)->context          \
                                    ? ZEND_ASYNC_G(coroutine)->context    \
                                    : (ZEND_ASYNC_G(coroutine)->context = \
                                           ZEND_ASYNC_NEW_CONTEXT(NULL))) \
                             : NULL)

#define ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(key_name) \
  zend_async_internal_context_key_alloc(key_name)
#define ZEND_ASYNC_INTERNAL_CONTEXT_KEY_NAME(key) \
  zend_async_internal_context_key_name(key)
#define ZEND_ASYNC_INTERNAL_CONTEXT_FIND(coro, key) \
  zend_async_internal_context_find(coro, key)
#define ZEND_ASYNC_INTERNAL_CONTEXT_SET(coro, key, value) \
  zend_async_internal_context_set(coro, key, value)
#define ZEND_ASYNC_INTERNAL_CONTEXT_UNSET(coro, key) \
  zend_async_internal_context_unset(coro, key)

#define ZEND_COROUTINE_ADD_SWITCH_HANDLER(coroutine, handler) \
  zend_coroutine_add_switch_handler(coroutine, handler)

/* Note: like upstream, ENTER carries its own semicolon. */
#define ZEND_COROUTINE_ENTER(coroutine) \
  zend_coroutine_call_switch_handlers(coroutine, true, false);
#define ZEND_COROUTINE_LEAVE(coroutine) \
  zend_coroutine_call_switch_handlers(coroutine, false, false)
#define ZEND_COROUTINE_FINISH(coroutine) \
  zend_coroutine_call_switch_handlers(coroutine, false, true)

#define ZEND_ASYNC_ADD_MAIN_COROUTINE_START_HANDLER(handler) \
  zend_async_add_main_coroutine_start_handler(handler)
#define ZEND_ASYNC_ADD_SWITCH_HANDLER(handler)                                \
  if (ZEND_ASYNC_CURRENT_COROUTINE) {                                         \
    zend_coroutine_add_switch_handler(ZEND_ASYNC_CURRENT_COROUTINE, handler); \
  } else {                                                                    \
    zend_async_add_main_coroutine_start_handler(handler);                     \
  }

#endif /* ZEND_ASYNC_API_H */
