// The pool adapter (zend_async_ref/conformance_pool.h): the reference
// extension without its pool. Its module entry, "true_async", registers the
// reference scheduler with its classes, the reference libuv reactor and its
// socket listening, and leaves the pool to
// zend_async_conformance_pool_startup(), which the pool's author implements.
// Linked into an implementation library by
// zend_async_ref_add_conformance_impl() (cmake/ZendAsyncRefConformance.cmake)
// together with the entry point zend_async_conformance_module().
//
// Lifecycle, per test (the runner starts and stops the module each time):
//   MINIT      the scheduler's classes (the channel's among them), the
//              scheduler, the reactor, socket listening, then the pool's
//              startup hook;
//   RINIT      ZEND_ASYNC_INITIALIZE;
//   RSHUTDOWN  releases the scheduler's and the reactor's request state;
//   MSHUTDOWN  the pool's shutdown hook, then forgets the channel's and the
//              scheduler's classes.
//
// Threading: the engine's thread.

#include "core/channel/classes.h"
#include "core/fork.h"
#include "core/io/io.h"
#include "core/observability.h"
#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/reactor/reactor.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/registration.h"
#include "core/scheduler/scheduler.h"
#include "core/thread_pool/thread_pool.h"
#include "core/version.h"

extern "C" {
#include "zend_async_ref/conformance.h"
#include "zend_async_ref/conformance_pool.h"

// The default of the optional shutdown hook: nothing to forget.
__attribute__((weak)) zend_result zend_async_conformance_pool_shutdown(
    int type, int module_number) {
  (void)type;
  (void)module_number;
  return SUCCESS;
}
}

namespace zar::core {

// The scheduler's observability (core/observability.cc) calls into the
// reference pool's ids and strict-mode ledgers (core/pool/pool.h,
// core/pool/strict.h). Another pool has neither: these weak no-ops stand in,
// and the reference pool's own definitions win when it is the pool linked
// (the adapter's self-test).
__attribute__((weak)) void ResetPoolIds() {}
__attribute__((weak)) void ForgetPoolLedgers() {}
__attribute__((weak)) void ReportOpenPoolsAtRequestEnd() {}

namespace {

zend_result AdapterStartup(INIT_FUNC_ARGS) {
  ObservabilityModuleStartup();
  if (!RegisterClasses()) return FAILURE;
  if (!RegisterChannelExceptionClasses()) return FAILURE;
  if (!RegisterScheduler()) return FAILURE;
  if (!RegisterReactor()) return FAILURE;
  RegisterIo();
  RegisterSocketListening();
  RegisterThreadPool();
  RegisterForkHooks();
  return zend_async_conformance_pool_startup(type, module_number);
}

zend_result AdapterShutdown(SHUTDOWN_FUNC_ARGS) {
  const zend_result pool =
      zend_async_conformance_pool_shutdown(type, module_number);
  ReleaseRequestState();
  ObservabilityModuleShutdown();
  ForgetChannelClasses();
  ForgetClasses();
  return pool;
}

zend_result AdapterRequestStartup(INIT_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  ZEND_ASYNC_INITIALIZE;
  ObservabilityRequestStartup();
  return SUCCESS;
}

zend_result AdapterRequestShutdown(SHUTDOWN_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  ReportLeftoversAtRequestEnd();
  ReleaseRequestState();
  ShutdownReactorForRequest();
  ObservabilityRequestShutdown();
  return SUCCESS;
}

zend_module_entry adapter_module_entry = {
    STANDARD_MODULE_HEADER,
    "true_async",
    nullptr,  // functions
    AdapterStartup,
    AdapterShutdown,
    AdapterRequestStartup,
    AdapterRequestShutdown,
    nullptr,  // info
    kVersion,
    STANDARD_MODULE_PROPERTIES,
};

}  // namespace
}  // namespace zar::core

extern "C" ZEND_ASYNC_CONFORMANCE_EXPORT zend_module_entry*
zend_async_conformance_module(void) {
  return &zar::core::adapter_module_entry;
}
