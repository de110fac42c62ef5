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

/* The module names an engine shutdown forgets, so that a restarted engine
 * can register again. Exactly upstream's list: the socket listening and IO
 * names stay. */
static void forget_restartable_modules(void) {
  scheduler_module_name = NULL;
  reactor_module_name = NULL;
  pool_module_name = NULL;
  thread_pool_module_name = NULL;
}

void zend_async_api_shutdown(void) {
  zend_async_internal_context_api_shutdown();
  zend_async_globals_dtor();

  /* The locks and every other pointer are left as they are. */
  forget_restartable_modules();
  zend_async_new_thread_pool_fn = NULL;
  zend_async_reactor_quiesce_fn = NULL;
}

ZEND_API void zend_async_ref_reset_registry(void) {
#define ZAR_RESET_POINTER(type, name, initial) name = initial;
  ZAR_ALL_POINTERS(ZAR_RESET_POINTER)
#undef ZAR_RESET_POINTER

  forget_restartable_modules();
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

/* A register function's parameter list and body come from its group's
 * table (pointer_tables.h): each parameter is its pointer's name with _arg
 * appended, and ZAR_INSTALL stores it. The compiler holds the list against
 * the header's prototype, so each table is in its function's parameter
 * order. */
#define ZAR_PARAMETER(type, name, initial) , type name##_arg
#define ZAR_INSTALL(type, name, initial) name = name##_arg;

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
    char *module, bool allow_override ZAR_SCHEDULER_POINTERS(ZAR_PARAMETER)) {
  BEGIN_LOCKED_REGISTRATION(scheduler_lock, scheduler_module_name, "Scheduler",
                            true)

  scheduler_module_name = module;

  ZAR_SCHEDULER_POINTERS(ZAR_INSTALL)
  /* A NULL waker constructor or destructor selects the built-in one. */
  if (zend_async_waker_new_fn == NULL) {
    zend_async_waker_new_fn = zar_waker_new_default;
  }
  if (zend_async_waker_destroy_fn == NULL) {
    zend_async_waker_destroy_fn = zar_waker_destroy_default;
  }

  zend_atomic_bool_store(&scheduler_lock, false);
  return true;
}

ZEND_API bool zend_async_reactor_register(
    char *module, bool allow_override ZAR_REACTOR_POINTERS(ZAR_PARAMETER)) {
  BEGIN_LOCKED_REGISTRATION(reactor_lock, reactor_module_name, "Reactor",
                            false);

  reactor_module_name = module;

  ZAR_REACTOR_POINTERS(ZAR_INSTALL)

  zend_atomic_bool_store(&reactor_lock, false);
  return true;
}

ZEND_API void zend_async_thread_pool_register(
    char *module, bool allow_override ZAR_THREAD_POOL_POINTERS(ZAR_PARAMETER)) {
  /* Reports, but does not refuse: the new module still takes over. Like
   * the pool API there is no same-module check, so registering the same
   * module twice without allow_override reports the error too. */
  if (thread_pool_module_name != NULL && !allow_override) {
    zend_error(E_CORE_ERROR, OVERRIDE_ERROR_FORMAT("Thread Pool"), module,
               thread_pool_module_name);
  }

  thread_pool_module_name = module;

  ZAR_THREAD_POOL_POINTERS(ZAR_INSTALL)
}

ZEND_API void zend_async_pool_api_register(
    char *module, bool allow_override ZAR_POOL_POINTERS(ZAR_PARAMETER)) {
  /* No same-module check: registering the same module twice without
   * allow_override reports the override error too. */
  if (pool_module_name != NULL && !allow_override) {
    zend_error(E_CORE_ERROR, OVERRIDE_ERROR_FORMAT("Pool API"), module,
               pool_module_name);
    return;
  }

  pool_module_name = module;

  ZAR_POOL_POINTERS(ZAR_INSTALL)
}

ZEND_API bool zend_async_socket_listening_register(
    char *module,
    bool allow_override ZAR_SOCKET_LISTENING_POINTERS(ZAR_PARAMETER)) {
  BEGIN_LOCKED_REGISTRATION(socket_listening_lock, socket_listening_module_name,
                            "Socket Listening API", false)

  socket_listening_module_name = module;

  ZAR_SOCKET_LISTENING_POINTERS(ZAR_INSTALL)

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
    char *module, bool allow_override ZAR_IO_POINTERS(ZAR_PARAMETER)) {
  BEGIN_LOCKED_REGISTRATION(io_lock, io_module_name, "Async IO API", false);

  io_module_name = module;

  ZAR_IO_POINTERS(ZAR_INSTALL)

  zend_atomic_bool_store(&io_lock, false);
  return true;
}
