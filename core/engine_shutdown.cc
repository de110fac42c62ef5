// zend-async-ref core: the scheduler's module name and its engine_shutdown
// hook, shared by the extension's module entry (extension.cc) and by the
// conformance pool adapter, which registers the same scheduler without the
// pool (tools/conformance/pool_adapter_module.cc).

#include "core/extension.h"
#include "core/observability.h"
#include "core/reactor/reactor.h"
#include "core/scheduler/scheduler.h"

namespace zar::core {

char kSchedulerModuleName[] = "zend-async-ref v0.1.0";

// engine_shutdown_fn: releases the scheduler's, the reactor's and
// observability's request state.
bool EngineShutdown() {
  ReleaseRequestState();
  ShutdownReactorForRequest();
  ObservabilityRequestShutdown();
  return true;
}

}  // namespace zar::core
