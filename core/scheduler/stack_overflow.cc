#include "core/scheduler/stack_overflow.h"

#include <signal.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/fiber/fiber.h"
#include "core/scheduler/coroutine.h"
#include "core/scheduler/scheduler.h"

namespace zar::core {
namespace {

// The alternate signal stack, when the thread had none of its own.
constexpr size_t kSignalStackSize = size_t{64} << 10;
alignas(16) char signal_stack[kSignalStackSize];

bool installed = false;
bool own_signal_stack = false;
struct sigaction previous_action;

// A line under construction, in a fixed buffer (async-signal-safe).
struct Line {
  char text[512];
  size_t length = 0;

  void Append(const char* s, size_t n) {
    if (n > sizeof text - length) n = sizeof text - length;
    memcpy(text + length, s, n);
    length += n;
  }
  void Append(const char* s) { Append(s, strlen(s)); }
  void Append(uint64_t value) {
    char digits[20];
    size_t n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (n != 0 && length < sizeof text) text[length++] = digits[--n];
  }
};

// Writes the report for the coroutine running on `fiber`.
void Report(const Fiber* fiber) {
  Line line;
  line.Append("Fatal error: ");
  const auto* self = static_cast<const AsyncCoroutine*>(fiber->data);
  const internal::SchedulerState* s = internal::State();
  if (self == nullptr) {
    line.Append("A coroutine");
  } else if (s != nullptr && self == s->scheduler) {
    line.Append("The scheduler");
  } else {
    line.Append("Coroutine #");
    line.Append(self->std.handle);
    line.Append(" (spawned at ");
    const zend_string* filename = self->coroutine.filename;
    if (filename != nullptr) {
      line.Append(ZSTR_VAL(filename), ZSTR_LEN(filename));
      line.Append(":");
      line.Append(self->coroutine.lineno);
    } else {
      line.Append("an unknown place");
    }
    line.Append(")");
  }
  line.Append(" overflowed its stack of ");
  line.Append(fiber->stack().size());
  line.Append(" bytes\n");
  const char* p = line.text;
  size_t left = line.length;
  while (left != 0) {
    const ssize_t written = write(STDERR_FILENO, p, left);
    if (written <= 0) break;
    p += written;
    left -= static_cast<size_t>(written);
  }
}

void SetDefault() {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
}

// Hands a fault that is not ours to the handler installed before.
void Chain(int signal, siginfo_t* info, void* context) {
  if ((previous_action.sa_flags & SA_SIGINFO) != 0) {
    if (previous_action.sa_sigaction != nullptr) {
      previous_action.sa_sigaction(signal, info, context);
      return;
    }
  } else if (previous_action.sa_handler != SIG_DFL &&
             previous_action.sa_handler != SIG_IGN) {
    previous_action.sa_handler(signal);
    return;
  }
  // The default action: the fault happens again and ends the process.
  SetDefault();
}

void OnSegv(int signal, siginfo_t* info, void* context) {
  const Fiber* fiber = Fiber::Current();
  if (fiber != nullptr && fiber->has_stack()) {
    const auto* address = static_cast<const char*>(info->si_addr);
    const auto* guard = static_cast<const char*>(fiber->stack().guard());
    if (address >= guard && address < guard + fiber->stack().guard_size()) {
      Report(fiber);
      SetDefault();
      return;
    }
  }
  Chain(signal, info, context);
}

}  // namespace

void InstallStackOverflowReport() {
  if (installed) return;
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 &&
      (current.ss_flags & SS_DISABLE) != 0) {
    stack_t own;
    own.ss_sp = signal_stack;
    own.ss_size = sizeof signal_stack;
    own.ss_flags = 0;
    own_signal_stack = sigaltstack(&own, nullptr) == 0;
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = &OnSegv;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  installed = sigaction(SIGSEGV, &action, &previous_action) == 0;
}

void RemoveStackOverflowReport() {
  if (installed) {
    struct sigaction current;
    // Only our own handler is replaced: one installed after ours stays.
    if (sigaction(SIGSEGV, nullptr, &current) == 0 &&
        (current.sa_flags & SA_SIGINFO) != 0 &&
        current.sa_sigaction == &OnSegv) {
      sigaction(SIGSEGV, &previous_action, nullptr);
    }
    installed = false;
  }
  if (own_signal_stack) {
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == signal_stack &&
        (current.ss_flags & SS_ONSTACK) == 0) {
      stack_t off;
      memset(&off, 0, sizeof off);
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
    own_signal_stack = false;
  }
}

}  // namespace zar::core
