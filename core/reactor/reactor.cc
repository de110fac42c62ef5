// The reactor's registration: the 22 function entries of
// zend_async_reactor_register (24 parameters with module and allow_override),
// described once by a designated-initialised table and passed from a single
// place, so that no entry can land in the wrong position.

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

// Every slot of zend_async_reactor_register, in its parameter order.
struct ReactorTable {
  zend_async_reactor_startup_t reactor_startup;
  zend_async_reactor_shutdown_t reactor_shutdown;
  zend_async_reactor_execute_t reactor_execute;
  zend_async_reactor_loop_alive_t reactor_loop_alive;
  zend_async_reactor_quiesce_t reactor_quiesce;
  zend_async_new_socket_event_t new_socket_event;
  zend_async_new_poll_event_t new_poll_event;
  zend_async_new_poll_proxy_event_t new_poll_proxy_event;
  zend_async_new_timer_event_t new_timer_event;
  zend_async_timer_rearm_t timer_rearm;
  zend_async_new_signal_event_t new_signal_event;
  zend_async_new_process_event_t new_process_event;
  zend_async_new_thread_event_t new_thread_event;
  zend_async_new_filesystem_event_t new_filesystem_event;
  zend_async_getnameinfo_t getnameinfo;
  zend_async_getaddrinfo_t getaddrinfo;
  zend_async_freeaddrinfo_t freeaddrinfo;
  zend_async_new_exec_event_t new_exec_event;
  zend_async_exec_t exec;
  zend_async_new_trigger_event_t new_trigger_event;
  zend_async_available_parallelism_t available_parallelism;
  zend_async_now_t now;
};

constexpr ReactorTable kReactor = {
    .reactor_startup = ReactorStartup,
    .reactor_shutdown = ReactorShutdown,
    .reactor_execute = ReactorExecute,
    .reactor_loop_alive = ReactorLoopAlive,
    .reactor_quiesce = ReactorQuiesce,
    .new_socket_event = reactor::NewSocketEvent,
    .new_poll_event = reactor::NewPollEvent,
    .new_poll_proxy_event = reactor::NewPollProxyEvent,
    .new_timer_event = reactor::NewTimerEvent,
    .timer_rearm = reactor::TimerRearm,
    .new_signal_event = reactor::NewSignalEvent,
    .new_process_event = reactor::NewProcessEvent,
    .new_thread_event = reactor::NewThreadEvent,
    .new_filesystem_event = reactor::NewFilesystemEvent,
    .getnameinfo = reactor::GetNameInfo,
    .getaddrinfo = reactor::GetAddrInfo,
    .freeaddrinfo = reactor::FreeAddrInfo,
    .new_exec_event = reactor::NewExecEvent,
    .exec = reactor::Exec,
    .new_trigger_event = reactor::NewTriggerEvent,
    .available_parallelism = AvailableParallelism,
    .now = Now,
};

}  // namespace

bool RegisterReactor() {
  const ReactorTable& t = kReactor;
  return zend_async_reactor_register(
      kReactorModuleName, /*allow_override=*/false, t.reactor_startup,
      t.reactor_shutdown, t.reactor_execute, t.reactor_loop_alive,
      t.reactor_quiesce, t.new_socket_event, t.new_poll_event,
      t.new_poll_proxy_event, t.new_timer_event, t.timer_rearm,
      t.new_signal_event, t.new_process_event, t.new_thread_event,
      t.new_filesystem_event, t.getnameinfo, t.getaddrinfo, t.freeaddrinfo,
      t.new_exec_event, t.exec, t.new_trigger_event, t.available_parallelism,
      t.now);
}

bool StartReactorForRequest() { return reactor::LoopStartup(); }

void ShutdownReactorForRequest() {
  // The pools' notifiers are events of the loop: the pools go first.
  thread_pool::ShutdownWorkerPools();
  reactor::LoopShutdown();
}

}  // namespace zar::core
