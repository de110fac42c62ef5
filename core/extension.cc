// The module entry "true_async": the extension's lifecycle hooks.
//
//   MINIT      applies ZEND_ASYNC_REF_STRICT and ZEND_ASYNC_REF_TRACE;
//              defines the classes, registers the scheduler and the pool
//              (under kSchedulerModuleName) and the reactor and socket
//              listening (under kReactorModuleName) through the ABI; the
//              listening group's result is ignored, as upstream ignores
//              it (io/io.h); installs the fork hooks (fork.h) and the stack
//              overflow report (a SIGSEGV handler on an alternate signal
//              stack, core/scheduler/stack_overflow.h).
//   RINIT      ZEND_ASYNC_INITIALIZE (OFF -> READY); initialises the
//              request's loop (ASYNC_G(uvloop) is live from here to
//              RSHUTDOWN); no scheduler state exists until the first spawn
//              launches it. Trace ids start again; strict mode's event
//              quarantine opens.
//   RSHUTDOWN  strict mode reports what is still registered; releases
//              whatever scheduler state is left, then the reactor's
//              request state (the worker pools the request made first:
//              thread_pool/worker_pool.h); empties the quarantine.
//   MSHUTDOWN  forgets the class entries (the engine frees them); removes
//              the stack overflow report.
//   GINIT      zeroes the module globals (ext/async/php_async.h), whose
//              uvloop is initialised at RINIT and closed at RSHUTDOWN.

#include "core/extension.h"

#include <cstring>

#include "core/channel/classes.h"
#include "core/fork.h"
#include "core/io/io.h"
#include "core/observability.h"
#include "core/pool/registration.h"
#include "core/reactor/reactor.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/registration.h"
#include "core/scheduler/scheduler.h"
#include "core/scheduler/stack_overflow.h"
#include "core/thread_pool/thread_pool.h"
#include "core/version.h"

extern "C" {
#include "ext/async/php_async.h"
}

namespace zar::core {

namespace {

// PHP_GINIT(async): the globals start zeroed (no loop initialised). Run
// when php_module_startup() registers the module.
void GlobalsCtor(void* globals) {
  memset(globals, 0, sizeof(zend_async_globals));
}

zend_result ModuleStartup(INIT_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  ObservabilityModuleStartup();
  if (!RegisterClasses()) return FAILURE;
  if (!RegisterPoolExceptionClass()) return FAILURE;
  if (!RegisterPoolClasses()) return FAILURE;
  if (!RegisterChannelExceptionClasses()) return FAILURE;
  if (!RegisterScheduler()) return FAILURE;
  if (!RegisterReactor()) return FAILURE;
  // As php-async's MINIT: the results of the IO and socket listening groups
  // are not checked (the ABI refuses a second registration in the process;
  // the first stays).
  RegisterIo();
  RegisterSocketListening();
  RegisterThreadPool();
  RegisterForkHooks();
  RegisterPool();
  InstallStackOverflowReport();
  return SUCCESS;
}

zend_result ModuleShutdown(SHUTDOWN_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  ReleaseRequestState();
  ObservabilityModuleShutdown();
  ForgetPoolClasses();
  ForgetChannelClasses();
  ForgetClasses();
  RemoveStackOverflowReport();
  return SUCCESS;
}

zend_result RequestStartup(INIT_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  ZEND_ASYNC_INITIALIZE;
  ObservabilityRequestStartup();
  return StartReactorForRequest() ? SUCCESS : FAILURE;
}

zend_result RequestShutdown(SHUTDOWN_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  ReportLeftoversAtRequestEnd();
  ReleaseRequestState();
  ShutdownReactorForRequest();
  ObservabilityRequestShutdown();
  return SUCCESS;
}

}  // namespace
}  // namespace zar::core

extern "C" {

zend_module_entry zar_async_module_entry = {
    STANDARD_MODULE_HEADER,
    PHP_ASYNC_NAME,
    nullptr,  // functions
    zar::core::ModuleStartup,
    zar::core::ModuleShutdown,
    zar::core::RequestStartup,
    zar::core::RequestShutdown,
    nullptr,  // info
    zar::core::kVersion,
    sizeof(zend_async_globals),  // PHP_MODULE_GLOBALS(async)
    &async_globals,
    zar::core::GlobalsCtor,
    nullptr,  // globals_dtor
    nullptr,  // post_deactivate
    STANDARD_MODULE_PROPERTIES_EX,
};

}  // extern "C"
