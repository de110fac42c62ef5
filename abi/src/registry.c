/*
 * zend-async-ref: the registry of the Zend Async ABI.
 *
 * Defines every exported function pointer (from pointer_tables.h) and
 * holds the register function of each group (scheduler, reactor, thread
 * pool, pool API, socket listening, async IO), the enable probes,
 * zend_async_api_shutdown() and zend_async_ref_reset_registry().
 *
 * Defaults. Before an extension registers, each pointer holds either a
 * named stub (spawn and friends throw Error "Async API is not enabled";
 * suspend returns false; shutdown/launch return true; ...), a built-in
 * implementation (waker_new/waker_destroy, call_on_main_stack) or NULL
 * (everything a caller must guard with a *_is_enabled() probe). Each group
 * is described once, by an X-macro table, so that the definitions and
 * zend_async_ref_reset_registry() cannot disagree.
 *
 * Registration rules (module identity is the `module` pointer, never the
 * string):
 *   scheduler, reactor, socket listening, async IO
 *     - take the group's lock (an atomic exchange); if it was already held,
 *       return false without a message;
 *     - same module already registered: return true and keep the lock
 *       held, so every later registration of that group returns false;
 *     - another module registered and !allow_override: E_CORE_ERROR "The
 *       module X is trying to override <Group>, which was registered by the
 *       module Y." and return false; the scheduler releases its lock before
 *       reporting, the other three keep it held;
 *     - otherwise store the module, overwrite every pointer of the group
 *       (NULL included), release the lock (socket listening does not) and
 *       return true.
 *   thread pool (void): no lock; another module and !allow_override reports
 *       the E_CORE_ERROR and still overwrites.
 *   pool API (void): no lock and no same-module check: any registered
 *       module and !allow_override reports the E_CORE_ERROR (even for the
 *       same pointer) and keeps the first; otherwise overwrites.
 * These lock quirks are the ABI's observable behaviour and are kept as is.
 *
 * Threading: registration happens from MINIT on the main thread; the locks
 * only make a racing second registration fail instead of interleaving.
 */
#include "pointer_tables.h"
#include "zend_async_API.h"
#include "zend_async_ref/registry_testing.h"

/* The layout of every public struct is pinned at compile time here. */
#include "layout_assert.h"

/* ===================================================================== */
/* Function pointers                                                      */
/* ===================================================================== */

#define ZAR_DEFINE_POINTER(type, name, initial) ZEND_API type name = initial;
ZAR_ALL_POINTERS(ZAR_DEFINE_POINTER)
#undef ZAR_DEFINE_POINTER

/* ===================================================================== */
/* Registration state                                                     */
/* ===================================================================== */

/* Module names: the pointers the registering extensions passed. */
static char *scheduler_module_name = NULL;
static char *reactor_module_name = NULL;
static char *thread_pool_module_name = NULL;
static char *pool_module_name = NULL;
static char *socket_listening_module_name = NULL;
static char *io_module_name = NULL;

/* Held while a registration runs (and, per the quirks above, sometimes
 * forever after). */
static zend_atomic_bool scheduler_lock = {0};
static zend_atomic_bool reactor_lock = {0};
static zend_atomic_bool socket_listening_lock = {0};
static zend_atomic_bool io_lock = {0};

#define OVERRIDE_ERROR_FORMAT(group)           \
  "The module %s is trying to override " group \
  ", which was registered by the module %s."

/* ===================================================================== */
/* Probes, version, heartbeat                                             */
/* ===================================================================== */

ZEND_API bool zend_async_is_enabled(void) {
  return scheduler_module_name != NULL && reactor_module_name != NULL;
}

ZEND_API bool zend_scheduler_is_enabled(void) {
  return scheduler_module_name != NULL;
}

ZEND_API bool zend_async_reactor_is_enabled(void) {
  return reactor_module_name != NULL;
}

ZEND_API bool zend_async_thread_pool_is_enabled(void) {
  return zend_async_queue_task_fn != NULL;
}

/* ===================================================================== */
/* Shutdown and reset                                                     */
/* ===================================================================== */

void zend_async_api_shutdown(void) {
  zend_async_internal_context_api_shutdown();
  zend_async_globals_dtor();

  /* Lets a restarted engine register again. Exactly upstream's list:
   * socket listening and IO names, the locks and every other pointer are
   * left as they are. */
  scheduler_module_name = NULL;
  reactor_module_name = NULL;
  pool_module_name = NULL;
  thread_pool_module_name = NULL;
  zend_async_new_thread_pool_fn = NULL;
  zend_async_reactor_quiesce_fn = NULL;
}

ZEND_API void zend_async_ref_reset_registry(void) {
#define ZAR_RESET_POINTER(type, name, initial) name = initial;
  ZAR_ALL_POINTERS(ZAR_RESET_POINTER)
#undef ZAR_RESET_POINTER

  scheduler_module_name = NULL;
  reactor_module_name = NULL;
  thread_pool_module_name = NULL;
  pool_module_name = NULL;
  socket_listening_module_name = NULL;
  io_module_name = NULL;

  zend_atomic_bool_store(&scheduler_lock, false);
  zend_atomic_bool_store(&reactor_lock, false);
  zend_atomic_bool_store(&socket_listening_lock, false);
  zend_atomic_bool_store(&io_lock, false);
}

/* ===================================================================== */
/* Register functions                                                     */
/* ===================================================================== */

/* How a locked group's registration begins. */
typedef enum {
  REGISTRATION_REFUSED, /* return false */
  REGISTRATION_KEPT,    /* same module already registered: return true */
  REGISTRATION_PROCEED  /* install the pointers, then finish */
} registration_start;

/* The shared prologue of the scheduler, reactor, socket-listening and IO
 * registrations, with their quirks: a held lock refuses silently; the same
 * module keeps the lock held; another module without allow_override is
 * reported, and only the scheduler releases its lock before reporting. */
static registration_start begin_locked_registration(
    zend_atomic_bool *lock, char *const *registered, char *module,
    bool allow_override, const char *group, bool release_lock_on_conflict) {
  if (zend_atomic_bool_exchange(lock, true)) {
    return REGISTRATION_REFUSED;
  }

  if (*registered == module) {
    return REGISTRATION_KEPT;
  }

  if (*registered != NULL && !allow_override) {
    if (release_lock_on_conflict) {
      zend_atomic_bool_store(lock, false);
    }
    zend_error(E_CORE_ERROR, OVERRIDE_ERROR_FORMAT("%s"), module, group,
               *registered);
    return REGISTRATION_REFUSED;
  }

  return REGISTRATION_PROCEED;
}

#define BEGIN_LOCKED_REGISTRATION(lock, registered, group, release)    \
  switch (begin_locked_registration(&(lock), &(registered), module,    \
                                    allow_override, group, release)) { \
    case REGISTRATION_REFUSED:                                         \
      return false;                                                    \
    case REGISTRATION_KEPT:                                            \
      return true;                                                     \
    case REGISTRATION_PROCEED:                                         \
      break;                                                           \
  }

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
    zend_async_thread_load_result_t thread_load_result_fn) {
  BEGIN_LOCKED_REGISTRATION(scheduler_lock, scheduler_module_name, "Scheduler",
                            true)

  scheduler_module_name = module;

  zend_async_scheduler_launch_fn = scheduler_launch_fn;
  zend_async_new_coroutine_fn = new_coroutine_fn;
  zend_async_new_scope_fn = new_scope_fn;
  zend_async_new_context_fn = new_context_fn;
  zend_async_spawn_fn = spawn_fn;
  zend_async_suspend_fn = suspend_fn;
  zend_async_enqueue_coroutine_fn = enqueue_coroutine_fn;
  zend_async_resume_fn = resume_fn;
  zend_async_cancel_fn = cancel_fn;
  zend_async_scope_await_after_cancellation_fn =
      scope_await_after_cancellation_fn;
  zend_async_spawn_and_throw_fn = spawn_and_throw_fn;
  zend_async_shutdown_fn = shutdown_fn;
  zend_async_waker_new_fn =
      waker_new_fn != NULL ? waker_new_fn : zar_waker_new_default;
  zend_async_waker_destroy_fn =
      waker_destroy_fn != NULL ? waker_destroy_fn : zar_waker_destroy_default;
  zend_async_get_coroutines_fn = get_coroutines_fn;
  zend_async_add_microtask_fn = add_microtask_fn;
  zend_async_get_awaiting_info_fn = get_awaiting_info_fn;
  zend_async_get_class_ce_fn = get_class_ce_fn;
  zend_async_new_iterator_fn = new_iterator_fn;
  zend_async_new_future_fn = new_future_fn;
  zend_async_new_channel_fn = new_channel_fn;
  zend_async_new_future_obj_fn = new_future_obj_fn;
  zend_async_new_channel_obj_fn = new_channel_obj_fn;
  zend_async_new_group_fn = new_group_fn;
  zend_async_engine_shutdown_fn = engine_shutdown_fn;
  zend_async_thread_snapshot_create_fn = thread_snapshot_create_fn;
  zend_async_thread_snapshot_destroy_fn = thread_snapshot_destroy_fn;
  zend_async_thread_run_fn = thread_run_fn;
  zend_async_thread_load_result_fn = thread_load_result_fn;

  zend_atomic_bool_store(&scheduler_lock, false);
  return true;
}

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
    zend_async_now_t now_fn) {
  BEGIN_LOCKED_REGISTRATION(reactor_lock, reactor_module_name, "Reactor",
                            false);

  reactor_module_name = module;

  zend_async_reactor_startup_fn = reactor_startup_fn;
  zend_async_reactor_shutdown_fn = reactor_shutdown_fn;
  zend_async_reactor_execute_fn = reactor_execute_fn;
  zend_async_reactor_loop_alive_fn = reactor_loop_alive_fn;
  zend_async_reactor_quiesce_fn = reactor_quiesce_fn;
  zend_async_new_socket_event_fn = new_socket_event_fn;
  zend_async_new_poll_event_fn = new_poll_event_fn;
  zend_async_new_poll_proxy_event_fn = new_poll_proxy_event_fn;
  zend_async_new_timer_event_fn = new_timer_event_fn;
  zend_async_timer_rearm_fn = timer_rearm_fn;
  zend_async_new_signal_event_fn = new_signal_event_fn;
  zend_async_new_process_event_fn = new_process_event_fn;
  zend_async_new_thread_event_fn = new_thread_event_fn;
  zend_async_new_filesystem_event_fn = new_filesystem_event_fn;
  zend_async_getnameinfo_fn = getnameinfo_fn;
  zend_async_getaddrinfo_fn = getaddrinfo_fn;
  zend_async_freeaddrinfo_fn = freeaddrinfo_fn;
  zend_async_new_exec_event_fn = new_exec_event_fn;
  zend_async_exec_fn = exec_fn;
  zend_async_new_trigger_event_fn = new_trigger_event_fn;
  zend_async_available_parallelism_fn = available_parallelism_fn;
  zend_async_now_fn = now_fn;

  zend_atomic_bool_store(&reactor_lock, false);
  return true;
}

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
    zend_async_thread_defer_release_t defer_release_fn) {
  /* Reports, but does not refuse: the new module still takes over. Like
   * the pool API there is no same-module check, so registering the same
   * module twice without allow_override reports the error too. */
  if (thread_pool_module_name != NULL && !allow_override) {
    zend_error(E_CORE_ERROR, OVERRIDE_ERROR_FORMAT("Thread Pool"), module,
               thread_pool_module_name);
  }

  thread_pool_module_name = module;

  zend_async_new_task_fn = new_task_fn;
  zend_async_queue_task_fn = queue_task_fn;
  zend_async_new_thread_pool_fn = new_thread_pool_fn;
  zend_async_start_thread_fn = start_thread_fn;
  zend_async_thread_transfer_zval_fn = transfer_zval_fn;
  zend_async_thread_load_zval_fn = load_zval_fn;
  zend_async_thread_transfer_zval_toplevel_fn = transfer_zval_toplevel_fn;
  zend_async_thread_load_zval_toplevel_fn = load_zval_toplevel_fn;
  zend_async_thread_release_transferred_zval_fn = release_transferred_zval_fn;
  zend_async_thread_xlat_put_fn = xlat_put_fn;
  zend_async_thread_defer_release_fn = defer_release_fn;
}

ZEND_API void zend_async_pool_api_register(
    char *module, bool allow_override, zend_async_new_pool_t new_pool_fn,
    zend_async_new_pool_obj_t new_pool_obj_fn,
    zend_async_pool_acquire_t acquire_fn,
    zend_async_pool_try_acquire_t try_acquire_fn,
    zend_async_pool_release_t release_fn, zend_async_pool_close_t close_fn) {
  /* No same-module check: registering the same module twice without
   * allow_override reports the override error too. */
  if (pool_module_name != NULL && !allow_override) {
    zend_error(E_CORE_ERROR, OVERRIDE_ERROR_FORMAT("Pool API"), module,
               pool_module_name);
    return;
  }

  pool_module_name = module;

  zend_async_new_pool_fn = new_pool_fn;
  zend_async_new_pool_obj_fn = new_pool_obj_fn;
  zend_async_pool_acquire_fn = acquire_fn;
  zend_async_pool_try_acquire_fn = try_acquire_fn;
  zend_async_pool_release_fn = release_fn;
  zend_async_pool_close_fn = close_fn;
}

ZEND_API bool zend_async_socket_listening_register(
    char *module, bool allow_override,
    zend_async_socket_listen_t socket_listen_fn,
    zend_async_socket_listen_fd_t socket_listen_fd_fn) {
  BEGIN_LOCKED_REGISTRATION(socket_listening_lock, socket_listening_module_name,
                            "Socket Listening API", false)

  socket_listening_module_name = module;

  zend_async_socket_listen_fn = socket_listen_fn;
  zend_async_socket_listen_fd_fn = socket_listen_fd_fn;

  /* Lock intentionally left held even on success: only the first socket
   * listening registration of a process can succeed. */
  return true;
}

ZEND_API void zend_async_fork_register(
    zend_async_before_fork_t before_fork_fn,
    zend_async_after_fork_child_t after_fork_child_fn) {
  /* Upstream's signature has no module name and no override flag: the last
   * registration wins, as with the directly assigned pointers. */
  zend_async_before_fork_fn = before_fork_fn;
  zend_async_after_fork_child_fn = after_fork_child_fn;
}

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
    zend_async_udp_bind_t udp_bind_fn) {
  BEGIN_LOCKED_REGISTRATION(io_lock, io_module_name, "Async IO API", false);

  io_module_name = module;

  zend_async_io_create_fn = create_fn;
  zend_async_io_read_fn = read_fn;
  zend_async_io_write_fn = write_fn;
  zend_async_io_writev_fn = writev_fn;
  zend_async_io_close_fn = close_fn;
  zend_async_io_await_fn = await_fn;
  zend_async_io_flush_fn = flush_fn;
  zend_async_io_stat_fn = stat_fn;
  zend_async_io_seek_fn = seek_fn;
  zend_async_io_sendfile_fn = sendfile_fn;
  zend_async_fs_open_fn = fs_open_fn;
  zend_async_udp_sendto_fn = udp_sendto_fn;
  zend_async_udp_try_send_fn = udp_try_send_fn;
  zend_async_udp_recvfrom_fn = udp_recvfrom_fn;
  zend_async_io_set_option_fn = set_option_fn;
  zend_async_udp_set_membership_fn = udp_set_membership_fn;
  zend_async_udp_bind_fn = udp_bind_fn;

  zend_atomic_bool_store(&io_lock, false);
  return true;
}
