#include "core/reactor/exec_event.h"

#include <cctype>
#include <cstring>

#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

extern "C" {
#include "zend_async_ref/park.h"
}

namespace zar::core::reactor {
namespace {

// What completion still waits for.
constexpr unsigned kWaitExit = 1u << 0;
constexpr unsigned kWaitStdout = 1u << 1;
constexpr unsigned kWaitStderr = 1u << 2;

// The pending-line buffer starts at 8 KiB and doubles.
constexpr size_t kLineBufferInitial = 8192;

struct ExecEvent : EventOf<ExecEvent> {
  zend_async_exec_event_t abi;  // ABI structure (must be first)
  // handle NULL: the three handles below are closed through owed callbacks
  // (BeginRequest/EndRequest), each when it is done.
  EventCore core;
  uv_process_t process;
  uv_pipe_t out;
  uv_pipe_t err;
  bool process_open;  // initialised and not yet closing
  bool out_open;
  bool err_open;
  bool running;   // spawned and not yet ended (OnExit): may be signalled
  bool counted;   // holds the running command's active-event count
  unsigned wait;  // kWait* still to come before completion
  // The unterminated last line of output (emalloc'd, EXEC/SYSTEM/ARRAY).
  char* line;
  size_t line_len;
  size_t line_cap;

  static ExecEvent* FromHandle(uv_handle_t* handle) {
    return FromAbi(static_cast<EventCore*>(handle->data)->event);
  }
  static zend_string* Info(zend_async_event_t* event);
};

// ---- Tracing (cold: only with tracing on) -----------------------------------

[[gnu::cold]] void TraceSpawn(EventCore* core, int pid) {
  zend_async_ref_trace("exec spawn %s pid %d", EventName(core).c_str(), pid);
}

[[gnu::cold]] void TraceDone(EventCore* core,
                             const zend_async_exec_event_t* abi) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace(
      "exec done %s -> exit_code " ZEND_LONG_FMT ", term_signal %d",
      EventToken(core, token), abi->exit_code, abi->term_signal);
}

// ---- Output -----------------------------------------------------------------

size_t StripTrailingSpace(const char* text, size_t len) {
  while (len > 0 && isspace(static_cast<unsigned char>(text[len - 1]))) {
    len--;
  }
  return len;
}

// Appends to a zval string, making it one first (SHELL_EXEC, stderr).
void AppendToString(zval* target, const char* data, size_t len) {
  if (Z_TYPE_P(target) != IS_STRING) {
    zval_ptr_dtor(target);
    ZVAL_STRINGL(target, data, len);
    return;
  }
  zend_string* text = Z_STR_P(target);
  const size_t old_len = ZSTR_LEN(text);
  text = zend_string_extend(text, old_len + len, 0);
  memcpy(ZSTR_VAL(text) + old_len, data, len);
  ZSTR_VAL(text)[old_len + len] = '\0';
  ZVAL_STR(target, text);
}

// A complete line, without its '\n', goes where exec_mode says.
void EmitLine(const zend_async_exec_event_t* abi, const char* line,
              size_t len) {
  len = StripTrailingSpace(line, len);
  switch (abi->exec_mode) {
    case ZEND_ASYNC_EXEC_MODE_EXEC:
    case ZEND_ASYNC_EXEC_MODE_SYSTEM:
      zval_ptr_dtor(abi->result_buffer);
      ZVAL_STRINGL(abi->result_buffer, line, len);
      break;
    case ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY:
      if (Z_TYPE_P(abi->result_buffer) == IS_ARRAY) {
        add_next_index_stringl(abi->result_buffer, line, len);
      }
      break;
    default:
      break;
  }
}

void AppendPending(ExecEvent* self, const char* data, size_t len) {
  const size_t needed = self->line_len + len;
  if (needed > self->line_cap) {
    size_t cap = self->line_cap == 0 ? kLineBufferInitial : self->line_cap;
    while (cap < needed) cap *= 2;
    self->line = static_cast<char*>(erealloc(self->line, cap));
    self->line_cap = cap;
  }
  memcpy(self->line + self->line_len, data, len);
  self->line_len = needed;
}

// Splits a chunk into lines: each '\n' completes the pending line (or one
// wholly inside the chunk, emitted without a copy); the rest is pending.
void SplitLines(ExecEvent* self, const char* data, size_t len) {
  const char* start = data;
  const char* end = data + len;
  while (const auto* nl =
             static_cast<const char*>(memchr(start, '\n', end - start))) {
    if (self->line_len > 0) {
      AppendPending(self, start, nl - start);
      EmitLine(&self->abi, self->line, self->line_len);
      self->line_len = 0;
    } else {
      EmitLine(&self->abi, start, nl - start);
    }
    start = nl + 1;
  }
  if (start < end) {
    AppendPending(self, start, end - start);
  }
}

void TakeOutput(ExecEvent* self, const char* data, size_t len) {
  switch (self->abi.exec_mode) {
    case ZEND_ASYNC_EXEC_MODE_EXEC:
    case ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY:
      SplitLines(self, data, len);
      break;
    case ZEND_ASYNC_EXEC_MODE_SYSTEM:
      PHPWRITE(data, len);
      SplitLines(self, data, len);
      break;
    case ZEND_ASYNC_EXEC_MODE_PASSTHRU:
      PHPWRITE(data, len);
      break;
    case ZEND_ASYNC_EXEC_MODE_SHELL_EXEC:
      AppendToString(self->abi.result_buffer, data, len);
      break;
  }
}

// ---- Handles and completion -------------------------------------------------

void OnHandleClosed(uv_handle_t* handle) {
  EndRequest(static_cast<EventCore*>(handle->data));
}

// Closes one of the event's handles; its close callback is owed.
void CloseOwned(ExecEvent* self, uv_handle_t* handle, bool* open) {
  if (!*open) return;
  *open = false;
  BeginRequest(&self->core);
  uv_close(handle, OnHandleClosed);
}

void DropRunningCount(ExecEvent* self) {
  if (self->counted) {
    self->counted = false;
    ZEND_ASYNC_DECREASE_EVENT_COUNT(&self->abi.base);
  }
}

// Exit and both ends of file seen: the command is over. Closes the event
// and notifies (result NULL); the callbacks may release the event.
void MaybeComplete(ExecEvent* self, uv_loop_t* loop) {
  if (self->wait != 0) return;
  self->abi.terminated = true;
  DropRunningCount(self);
  CloseEvent(&self->core);
  if (ZEND_ASYNC_REF_TRACING()) TraceDone(&self->core, &self->abi);
  ZEND_ASYNC_CALLBACKS_NOTIFY(&self->abi.base, nullptr, nullptr);
  StopLoopIfException(loop);
}

void OnExit(uv_process_t* process, int64_t exit_status, int term_signal) {
  ExecEvent* self =
      ExecEvent::FromHandle(reinterpret_cast<uv_handle_t*>(process));
  self->abi.exit_code = static_cast<zend_long>(exit_status);
  self->abi.term_signal = term_signal;
  self->running = false;
  CloseOwned(self, reinterpret_cast<uv_handle_t*>(process),
             &self->process_open);
  self->wait &= ~kWaitExit;
  MaybeComplete(self, process->loop);
}

// The stdout read buffer is the ABI's output_buffer, grown to libuv's
// suggestion and reused; freed at end of file.
void AllocOut(uv_handle_t* handle, size_t suggested, uv_buf_t* buf) {
  zend_async_exec_event_t* abi = &ExecEvent::FromHandle(handle)->abi;
  if (abi->output_len < suggested) {
    abi->output_buffer =
        static_cast<char*>(erealloc(abi->output_buffer, suggested));
    abi->output_len = suggested;
  }
  *buf =
      uv_buf_init(abi->output_buffer, static_cast<unsigned>(abi->output_len));
}

// Frees the stdout read buffer (at end of file, or at teardown).
void FreeOutputBuffer(zend_async_exec_event_t* abi) {
  if (abi->output_buffer == nullptr) return;
  efree(abi->output_buffer);
  abi->output_buffer = nullptr;
  abi->output_len = 0;
}

// A pipe is done (EOF or error): stop reading, close it, and see whether
// the command is over.
void EndPipe(ExecEvent* self, uv_stream_t* stream, ssize_t status,
             unsigned wait_bit, bool* open) {
  if (status != UV_EOF) {
    php_error_docref(nullptr, E_WARNING, "Process pipe read error: %s",
                     uv_strerror(static_cast<int>(status)));
  }
  uv_read_stop(stream);
  CloseOwned(self, reinterpret_cast<uv_handle_t*>(stream), open);
  self->wait &= ~wait_bit;
  MaybeComplete(self, stream->loop);
}

void OnOut(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  ExecEvent* self =
      ExecEvent::FromHandle(reinterpret_cast<uv_handle_t*>(stream));
  if (nread > 0) {
    TakeOutput(self, buf->base, static_cast<size_t>(nread));
  } else if (nread < 0) {
    FreeOutputBuffer(&self->abi);
    EndPipe(self, stream, nread, kWaitStdout, &self->out_open);
  }
}

// stderr reads into a buffer of its own per read, freed after it.
void AllocErr(uv_handle_t*, size_t suggested, uv_buf_t* buf) {
  *buf = uv_buf_init(static_cast<char*>(emalloc(suggested)),
                     static_cast<unsigned>(suggested));
}

void OnErr(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  ExecEvent* self =
      ExecEvent::FromHandle(reinterpret_cast<uv_handle_t*>(stream));
  if (nread > 0 && self->abi.std_error != nullptr) {
    AppendToString(self->abi.std_error, buf->base, static_cast<size_t>(nread));
  }
  if (buf->base != nullptr) {
    efree(buf->base);
  }
  if (nread < 0) {
    EndPipe(self, stream, nread, kWaitStderr, &self->err_open);
  }
}

// ---- The event kind ---------------------------------------------------------

// The command runs from creation: start() only takes a loop reference.
int Arm(zend_async_event_t*) { return 0; }

// The last reference went while the child runs: it is told to end.
void Disarm(zend_async_event_t* event) {
  ExecEvent* self = ExecEvent::FromAbi(event);
  if (self->running) {
    uv_process_kill(&self->process, ZEND_ASYNC_SIGTERM);
  }
}

void Teardown(zend_async_event_t* event) {
  ExecEvent* self = ExecEvent::FromAbi(event);
  DropRunningCount(self);
  Disarm(event);
  CloseOwned(self, reinterpret_cast<uv_handle_t*>(&self->process),
             &self->process_open);
  if (self->out_open) uv_read_stop(reinterpret_cast<uv_stream_t*>(&self->out));
  CloseOwned(self, reinterpret_cast<uv_handle_t*>(&self->out), &self->out_open);
  if (self->err_open) uv_read_stop(reinterpret_cast<uv_stream_t*>(&self->err));
  CloseOwned(self, reinterpret_cast<uv_handle_t*>(&self->err), &self->err_open);
  zend_async_exec_event_t* abi = &self->abi;
  FreeOutputBuffer(abi);
  if (self->line != nullptr) {
    efree(self->line);
    self->line = nullptr;
    self->line_len = self->line_cap = 0;
  }
  if (abi->cmd != nullptr) {
    efree(abi->cmd);
    abi->cmd = nullptr;
  }
}

constexpr EventKind kExecKind = {
    .name = "exec", .arm = Arm, .disarm = Disarm, .teardown = Teardown};

zend_string* ExecEvent::Info(zend_async_event_t* event) {
  const char* cmd = FromAbi(event)->abi.cmd;
  return zend_strpprintf(0, "Exec(cmd=%.80s)", cmd != nullptr ? cmd : "<null>");
}

// Spawns the child with the event's pipes. Returns 0 or a libuv error; the
// handles are initialised (and must be closed) either way.
int Spawn(ExecEvent* self, uv_loop_t* loop, const char* cwd, const char* env) {
  uv_pipe_init(loop, &self->out, 0);
  self->out_open = true;
  self->out.data = &self->core;
  const bool capture_stderr = self->abi.std_error != nullptr;
  if (capture_stderr) {
    uv_pipe_init(loop, &self->err, 0);
    self->err_open = true;
    self->err.data = &self->core;
  }

  char shell_arg[] = "-c";
  char shell_name[] = "sh";
  char* args[] = {shell_name, shell_arg, self->abi.cmd, nullptr};
  uv_stdio_container_t stdio[3];
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags =
      static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
  stdio[1].data.stream = reinterpret_cast<uv_stream_t*>(&self->out);
  if (capture_stderr) {
    stdio[2].flags =
        static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_WRITABLE_PIPE);
    stdio[2].data.stream = reinterpret_cast<uv_stream_t*>(&self->err);
  } else {
    stdio[2].flags = UV_INHERIT_FD;
    stdio[2].data.fd = 2;
  }
  uv_process_options_t options = {};
  options.exit_cb = OnExit;
  options.file = "/bin/sh";
  options.args = args;
  options.cwd = cwd != nullptr && cwd[0] != '\0' ? cwd : nullptr;
  options.env = env != nullptr
                    ? reinterpret_cast<char**>(const_cast<char*>(env))
                    : nullptr;
  options.stdio = stdio;
  options.stdio_count = 3;

  self->process.data = &self->core;
  const int error = uv_spawn(loop, &self->process, &options);
  self->process_open = true;  // initialised even when the spawn failed
  self->process.data = &self->core;
  return error;
}

}  // namespace

zend_async_exec_event_t* NewExecEvent(zend_async_exec_mode exec_mode,
                                      const char* cmd, zval* return_buffer,
                                      zval* return_value, zval* std_error,
                                      const char* cwd, const char* env,
                                      size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  ExecEvent* self = AllocateEvent<ExecEvent>(extra_size);
  zend_async_exec_event_t* abi = &self->abi;
  abi->exec_mode = exec_mode;
  abi->cmd = estrdup(cmd != nullptr ? cmd : "");
  abi->result_buffer = return_buffer;
  abi->return_value = return_value;
  abi->std_error = std_error;
  InitCore(&self->core, &kExecKind, &abi->base, nullptr);

  const int error = Spawn(self, loop, cwd, env);
  if (error < 0) {
    php_error_docref(nullptr, E_WARNING, "Failed to spawn process: %s",
                     uv_strerror(error));
    Destroy(&self->core);
    return nullptr;
  }
  self->running = true;
  self->wait = kWaitExit | kWaitStdout | (self->err_open ? kWaitStderr : 0);
  uv_read_start(reinterpret_cast<uv_stream_t*>(&self->out), AllocOut, OnOut);
  if (self->err_open) {
    uv_read_start(reinterpret_cast<uv_stream_t*>(&self->err), AllocErr, OnErr);
  }
  self->counted = true;
  ZEND_ASYNC_INCREASE_EVENT_COUNT(&abi->base);
  if (ZEND_ASYNC_REF_TRACING()) TraceSpawn(&self->core, self->process.pid);
  return abi;
}

namespace {

// exec()'s result, from the pending last line (see exec_event.h).
void FinishLastLine(ExecEvent* self, zend_async_exec_mode mode,
                    zval* return_buffer, zval* return_value, zval* lines) {
  const bool pending = self->line_len > 0;
  const size_t len =
      pending ? StripTrailingSpace(self->line, self->line_len) : 0;
  if (mode == ZEND_ASYNC_EXEC_MODE_EXEC ||
      mode == ZEND_ASYNC_EXEC_MODE_SYSTEM) {
    if (return_value == nullptr) return;
    zval_ptr_dtor(return_value);
    if (pending) {
      ZVAL_STRINGL(return_value, self->line, len);
    } else if (Z_TYPE_P(lines) == IS_STRING) {
      ZVAL_COPY(return_value, lines);
    } else {
      ZVAL_EMPTY_STRING(return_value);
    }
  } else if (mode == ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY) {
    if (pending && return_buffer != nullptr &&
        Z_TYPE_P(return_buffer) == IS_ARRAY) {
      add_next_index_stringl(return_buffer, self->line, len);
    }
    if (return_value == nullptr) return;
    zval_ptr_dtor(return_value);
    if (pending) {
      ZVAL_STRINGL(return_value, self->line, len);
      return;
    }
    const zval* last = nullptr;
    if (return_buffer != nullptr && Z_TYPE_P(return_buffer) == IS_ARRAY) {
      const uint32_t count = zend_hash_num_elements(Z_ARRVAL_P(return_buffer));
      if (count > 0)
        last = zend_hash_index_find(Z_ARRVAL_P(return_buffer), count - 1);
    }
    if (last != nullptr) {
      ZVAL_COPY(return_value, last);
    } else {
      ZVAL_EMPTY_STRING(return_value);
    }
  }
}

}  // namespace

int Exec(zend_async_exec_mode exec_mode, const char* cmd, zval* return_buffer,
         zval* return_value, zval* std_error, const char* cwd, const char* env,
         zend_ulong timeout) {
  if (return_value != nullptr) {
    ZVAL_FALSE(return_value);
  }
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (coroutine == nullptr) {
    zend_throw_error(nullptr,
                     "Cannot call async_exec() outside of an async context");
    return -1;
  }

  // The lines go to a scratch zval when the caller keeps none.
  zval scratch_buffer;
  zval scratch_value;
  ZVAL_UNDEF(&scratch_buffer);
  ZVAL_UNDEF(&scratch_value);
  zval* buffer = return_buffer != nullptr ? return_buffer : &scratch_buffer;
  zend_async_exec_event_t* event = ZEND_ASYNC_NEW_EXEC_EVENT(
      exec_mode, cmd, buffer,
      return_value != nullptr ? return_value : &scratch_value, std_error, cwd,
      env);
  if (event == nullptr) {
    return -1;
  }

  int exit_code = -1;
  zend_async_ref_park_t park = {};
  park.events[0].event = &event->base;
  park.timeout_ms = timeout;
  // The park's clean of the waker stops the event: a child still running
  // (the wait ended early) is sent SIGTERM.
  if (zend_async_ref_park(coroutine, &park)) {
    FinishLastLine(ExecEvent::FromAbi(&event->base), exec_mode, return_buffer,
                   return_value, buffer);
    exit_code = static_cast<int>(event->exit_code);
  }
  zval_ptr_dtor(&scratch_buffer);
  zval_ptr_dtor(&scratch_value);
  event->base.dispose(&event->base);
  return exit_code;
}

}  // namespace zar::core::reactor
