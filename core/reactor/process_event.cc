#include "core/reactor/process_event.h"

#include <sys/wait.h>

#include <cerrno>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::reactor {
namespace {

struct ProcessEvent : EventOf<ProcessEvent> {
  zend_async_process_event_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_signal_t sigchld;  // watches SIGCHLD while the event is started
  bool collected;       // the child's exit status was taken (exit_code set)

  static zend_string* Info(zend_async_event_t* event);
};

// The request's process events by pid: the live event each pid maps to
// until that event is stopped or destroyed.
absl::flat_hash_map<zend_process_t, ProcessEvent*>& Table() {
  static auto* table = new absl::flat_hash_map<zend_process_t, ProcessEvent*>;
  return *table;
}

void Forget(ProcessEvent* self) {
  auto it = Table().find(self->abi.process);
  if (it != Table().end() && it->second == self) {
    Table().erase(it);
  }
}

// The exit status as the ABI reports it: the code a child exited with, or
// minus the signal that ended it.
zend_long ExitCode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return -1;
}

[[gnu::cold]] void TraceExit(EventCore* core, zend_long exit_code) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("process exit %s -> exit_code " ZEND_LONG_FMT,
                       EventToken(core, token), exit_code);
}

// Records the exit and notifies (result NULL). The callbacks may release
// the event: nothing of it is touched afterwards.
void NotifyExit(ProcessEvent* self, zend_long exit_code) {
  self->collected = true;
  self->abi.exit_code = exit_code;
  if (ZEND_ASYNC_REF_TRACING()) TraceExit(&self->core, exit_code);
  ZEND_ASYNC_CALLBACKS_NOTIFY(&self->abi.base, nullptr, nullptr);
}

// ---- The event kind ---------------------------------------------------------

void OnSigchld(uv_signal_t* handle, int) {
  auto* self =
      ProcessEvent::FromAbi(static_cast<EventCore*>(handle->data)->event);
  if (self->collected) {
    return;
  }
  int status = 0;
  // ECHILD is not settled here: another child's SIGCHLD must not give this
  // event a made-up exit code while its own child may still run (as
  // upstream).
  if (waitpid(self->abi.process, &status, WNOHANG) == self->abi.process) {
    uv_loop_t* loop = handle->loop;
    NotifyExit(self, ExitCode(status));
    StopLoopIfException(loop);
  }
}

int Arm(zend_async_event_t* event) {
  ProcessEvent* self = ProcessEvent::FromAbi(event);
  return uv_signal_start(&self->sigchld, OnSigchld, SIGCHLD);
}

void Disarm(zend_async_event_t* event) {
  uv_signal_stop(&ProcessEvent::FromAbi(event)->sigchld);
}

void Teardown(zend_async_event_t* event) {
  Forget(ProcessEvent::FromAbi(event));
}

constexpr EventKind kProcessKind = {
    .name = "process",
    .arm = Arm,
    .disarm = Disarm,
    .teardown = Teardown,
    // As upstream, whose process start is its SIGCHLD handler's start.
    .start_failure = "Failed to start signal handle"};

zend_string* ProcessEvent::Info(zend_async_event_t* event) {
  return zend_strpprintf(0, "Process(pid=" ZEND_LONG_FMT ")",
                         static_cast<zend_long>(FromAbi(event)->abi.process));
}

// A stopped process event is closed and leaves the pid table.
void CloseAndForget(ProcessEvent* self) {
  CloseEvent(&self->core);
  Forget(self);
}

// The first start: SIGCHLD is already watched (Arm), so an exit after this
// check is not missed. See process_event.h for the outcomes.
bool CollectAtStart(ProcessEvent* self) {
  const zend_process_t pid = self->abi.process;
  int status = 0;
  pid_t reaped = -1;
  int error = EINVAL;
  if (pid > 0) {
    reaped = waitpid(pid, &status, WNOHANG);
    error = errno;
  }
  if (pid > 0 && reaped == pid) {
    CloseAndForget(self);
    NotifyExit(self, ExitCode(status));
    return true;
  }
  if (reaped == 0) {
    return true;  // running: SIGCHLD will tell
  }
  if (error == ECHILD) {
    // Reaped by someone else: exited, with an unknown status.
    CloseAndForget(self);
    NotifyExit(self, -1);
    return true;
  }
  CloseAndForget(self);
  zend_object* exception = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_DEFAULT, "Failed to monitor process %d: %s",
      static_cast<int>(pid), strerror(error));
  ZEND_ASYNC_CALLBACKS_NOTIFY(&self->abi.base, nullptr, exception);
  OBJ_RELEASE(exception);
  return EG(exception) == nullptr;
}

bool Start(zend_async_event_t* event) {
  ProcessEvent* self = ProcessEvent::FromAbi(event);
  const bool first = event->loop_ref_count == 0;
  if (!StartEventOrThrow(&self->core)) {
    return false;
  }
  return first ? CollectAtStart(self) : true;
}

bool Stop(zend_async_event_t* event) {
  ProcessEvent* self = ProcessEvent::FromAbi(event);
  if (event->loop_ref_count == 0) {
    return true;
  }
  StopEvent(&self->core);
  if (event->loop_ref_count == 0) {
    CloseAndForget(self);
  }
  return true;
}

}  // namespace

zend_async_process_event_t* NewProcessEvent(zend_process_t process_handle,
                                            size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  auto existing = Table().find(process_handle);
  if (existing != Table().end()) {
    ZEND_ASYNC_EVENT_ADD_REF(&existing->second->abi.base);
    return &existing->second->abi;
  }
  ProcessEvent* self = AllocateEvent<ProcessEvent>(extra_size);
  if (!HandleInitialized(uv_signal_init(loop, &self->sigchld), self,
                         "signal")) {
    return nullptr;
  }
  self->abi.process = process_handle;
  self->abi.base.start = Start;
  self->abi.base.stop = Stop;
  InitCore(&self->core, &kProcessKind, &self->abi.base,
           reinterpret_cast<uv_handle_t*>(&self->sigchld));
  Table().emplace(process_handle, self);
  return &self->abi;
}

}  // namespace zar::core::reactor
