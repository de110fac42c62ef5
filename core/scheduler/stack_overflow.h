// Reporting a coroutine that overflows its stack.
//
// A coroutine that runs past the bottom of its stack faults on the stack's
// guard page (FiberStack). Without help the process dies with a bare
// SIGSEGV; with the report installed it first writes to stderr which
// coroutine overflowed, where it was spawned and its stack size:
//
//   Fatal error: Coroutine #12 (spawned at /app/foo.php:3) overflowed its
//   stack of 1048576 bytes
//
// (one line) and then dies of the same SIGSEGV as before.
//
// Mechanism: a SIGSEGV handler (SA_SIGINFO | SA_ONSTACK) on an alternate
// signal stack, since the faulting stack has no room left. The handler
// does only async-signal-safe work: it compares the fault address with the
// guard page of the running fiber (Fiber::Current(), plain memory), formats
// the line with its own integer formatting into a buffer on the signal
// stack, write(2)s it, sets SIGSEGV back to SIG_DFL and returns, so the
// faulting instruction runs again and the default action ends the process.
// A fault anywhere else goes to the handler installed before ours (or the
// default action) unchanged.
//
// Threading: the handler and the alternate stack belong to the thread that
// installed them (the request's thread). Lifetime: installed at MINIT,
// removed at MSHUTDOWN (the previous handler and alternate stack restored).

#ifndef ZAR_CORE_SCHEDULER_STACK_OVERFLOW_H_
#define ZAR_CORE_SCHEDULER_STACK_OVERFLOW_H_

namespace zar::core {

// Installs the handler (and an alternate signal stack when the thread has
// none). Idempotent.
void InstallStackOverflowReport();
// Restores what InstallStackOverflowReport replaced. Idempotent.
void RemoveStackOverflowReport();

}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_STACK_OVERFLOW_H_
