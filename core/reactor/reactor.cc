// The reactor's registration: the 22 function entries of
// zend_async_reactor_register (24 parameters with module and allow_override),
// passed from a single place, each named by its parameter in the ABI's
// declaration, so that no entry can land in the wrong position unseen.

#include "core/reactor/reactor.h"

#include "core/reactor/dns_event.h"
#include "core/reactor/exec_event.h"
#include "core/reactor/filesystem_event.h"
#include "core/reactor/poll_event.h"
#include "core/reactor/poll_proxy_event.h"
#include "core/reactor/process_event.h"
#include "core/reactor/reactor_loop.h"
#include "core/reactor/signal_event.h"
#include "core/reactor/thread_event.h"
#include "core/reactor/timer_event.h"
#include "core/reactor/trigger_event.h"
#include "core/thread_pool/worker_pool.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// Ends with kVersion (version.h).
char kReactorModuleName[] = "zend-async-ref libuv reactor v0.1.0";

namespace {

// The ABI entries, startup and shutdown first (the register function's
// order).
bool ReactorStartup() { return reactor::LoopStartup(); }
bool ReactorShutdown() { return reactor::LoopShutdown(); }
bool ReactorExecute(bool no_wait) { return reactor::LoopExecute(no_wait); }
bool ReactorLoopAlive() { return reactor::LoopAlive(); }
void ReactorQuiesce() { reactor::LoopQuiesce(); }
unsigned int AvailableParallelism() {
  return reactor::LoopAvailableParallelism();
}
uint64_t Now() { return reactor::LoopNow(); }

}  // namespace

bool RegisterReactor() {
  return zend_async_reactor_register(
      kReactorModuleName, /*allow_override=*/false,
      /*reactor_startup_fn=*/ReactorStartup,
      /*reactor_shutdown_fn=*/ReactorShutdown,
      /*reactor_execute_fn=*/ReactorExecute,
      /*reactor_loop_alive_fn=*/ReactorLoopAlive,
      /*reactor_quiesce_fn=*/ReactorQuiesce,
      /*new_socket_event_fn=*/reactor::NewSocketEvent,
      /*new_poll_event_fn=*/reactor::NewPollEvent,
      /*new_poll_proxy_event_fn=*/reactor::NewPollProxyEvent,
      /*new_timer_event_fn=*/reactor::NewTimerEvent,
      /*timer_rearm_fn=*/reactor::TimerRearm,
      /*new_signal_event_fn=*/reactor::NewSignalEvent,
      /*new_process_event_fn=*/reactor::NewProcessEvent,
      /*new_thread_event_fn=*/reactor::NewThreadEvent,
      /*new_filesystem_event_fn=*/reactor::NewFilesystemEvent,
      /*getnameinfo_fn=*/reactor::GetNameInfo,
      /*getaddrinfo_fn=*/reactor::GetAddrInfo,
      /*freeaddrinfo_fn=*/reactor::FreeAddrInfo,
      /*new_exec_event_fn=*/reactor::NewExecEvent,
      /*exec_fn=*/reactor::Exec,
      /*new_trigger_event_fn=*/reactor::NewTriggerEvent,
      /*available_parallelism_fn=*/AvailableParallelism,
      /*now_fn=*/Now);
}

bool StartReactorForRequest() { return reactor::LoopStartup(); }

void ShutdownReactorForRequest() {
  // The pools' notifiers are events of the loop: the pools go first.
  thread_pool::ShutdownWorkerPools();
  reactor::LoopShutdown();
}

}  // namespace zar::core
