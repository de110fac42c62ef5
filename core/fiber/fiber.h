// zend-async-ref core: a fiber, an execution context with its own stack.
//
// A Fiber is a machine stack (FiberStack, guard-paged) plus the Boost.Context
// fcontext_t at which it resumes, plus the engine state that belongs to the
// code running on it: EG(current_execute_data) (the top call frame, which
// lives on this stack) and EG(bailout) (the innermost zend_try, a jmp_buf on
// this stack). SwitchTo() saves that state into the fiber being left and
// restores the state of the fiber being entered, so every stack sees its own
// frames and its own zend_try. EG(exception) is not switched: it must be
// NULL at every switch (the scheduler parks a suspending coroutine's
// exception in the coroutine's own suspend frame).
//
// The fiber of the OS thread's own stack (ForThread()) has no FiberStack;
// it stands for the main flow of the request.
//
// Layout: a fiber with a stack lives in its stack's top bytes (its control
// block, one cache line, then the first frame below it), the way
// Boost.Fiber keeps a fiber's context on the fiber's own stack: a switch to
// it touches one region of memory, the control block next to the saved
// registers and frames it returns through. The thread fiber is a heap
// object.
//
// Switching uses jump_fcontext only: no allocation, no system call, no
// clock. In a sanitizer build (ZAR_SANITIZE) every switch is announced to
// AddressSanitizer (__sanitizer_start_switch_fiber before the jump,
// __sanitizer_finish_switch_fiber after it), so it tracks which stack is
// live; in a ThreadSanitizer build (ZAR_TSAN) each fiber is a TSan fiber
// and every switch is __tsan_switch_to_fiber before the jump. Both are the
// engine's announcements (mock_zend/src/stack_switch.h), the ones its zend
// fiber contexts make.
//
//   Fiber* main = Fiber::ForThread();          // the running stack
//   Fiber* f = Fiber::New(&Body, DefaultStackSize());
//   main->SwitchTo(f);      // Body(f) starts; returns when f switches back
//
// A fiber's body never returns: it ends with ExitTo(other), which switches
// away for good; `other` frees the dead fiber as soon as it is running
// again (a fiber cannot unmap the stack it runs on).
//
// Threading: all fibers of a thread are switched on that thread; Current()
// is per process (the mock engine is not thread-safe either).
// Lifetime: Delete() a fiber that is not running (idle, parked or never
// started); the thread fiber is deleted by its owner once no other fiber
// can switch back to it.

#ifndef ZAR_CORE_FIBER_FIBER_H_
#define ZAR_CORE_FIBER_FIBER_H_

#include <cstddef>

#include "core/fiber/fiber_stack.h"
#include "mock_zend/src/stack_switch.h"

extern "C" {
#include "php.h"
}

namespace zar::core {

class Fiber {
 public:
  using Body = void (*)(Fiber* self);

  // A fiber standing for the stack the caller runs on, which becomes
  // Current(). The caller owns it.
  static Fiber* ForThread();

  // A fiber that runs body(self) on a new stack of `stack_size` bytes the
  // first time it is switched to. nullptr when the stack cannot be mapped
  // (`*failure`, when given, says why). The caller owns it.
  static Fiber* New(Body body, size_t stack_size,
                    StackFailure* failure = nullptr);

  // Frees a fiber that is not running. Its stack goes back (StackCache)
  // without unwinding it: nothing on it may own resources.
  static void Delete(Fiber* fiber);

  // The fiber running now (nullptr before ForThread()).
  static Fiber* Current() { return current_; }
  // Forgets the running fiber (after deleting the thread fiber).
  static void ClearCurrent() { current_ = nullptr; }

  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Suspends this fiber and runs `to` (from its start, or from where it
  // last switched away). Returns when some fiber switches back to this one.
  // REQUIRES: this == Current(), to != this, to is not dead,
  //           EG(exception) == NULL.
  void SwitchTo(Fiber* to);

  // Switches to `to` for the last time: `to` deletes this fiber when it
  // resumes. REQUIRES: as SwitchTo; this fiber owns a stack.
  [[noreturn]] void ExitTo(Fiber* to);

  // Whether this fiber has its own stack (false for the thread fiber).
  bool has_stack() const { return !stack_.empty(); }
  const FiberStack& stack() const { return stack_; }

  // Hints for a scheduler that knows which fiber it will switch to soon:
  // load the control block (what SwitchTo reads), and the saved registers
  // and the frames above them (what the switch returns through). Both only
  // prefetch; PrefetchFrames reads the control block.
  void PrefetchControl() const { __builtin_prefetch(this, 1); }
  void PrefetchFrames() const;

  // Owner data (the scheduler keeps the coroutine running on the fiber).
  void* data = nullptr;

 private:
  Fiber() = default;
  ~Fiber() = default;

  // Ends `fiber`'s life: a stack's fiber is destroyed in place and then its
  // stack released; the thread fiber is deleted.
  static void Destroy(Fiber* fiber);

  // Runs on this fiber right after a switch to it: records where the fiber
  // that switched here can be resumed (or frees it if it exited), and
  // restores this fiber's engine state.
  void Resumed(void* from_context, void* from_fiber);

  // The first frame of every fiber with a stack (fiber.cc).
  friend class FiberEntry;

  static Fiber* current_;

  // Where this fiber resumes (meaningful only while it is switched out;
  // NULL for a thread fiber before its first switch away).
  void* context_ = nullptr;
  FiberStack stack_;  // empty for the thread fiber
  Body body_ = nullptr;
  // Engine state of this fiber while it is switched out.
  zend_execute_data* execute_data_ = nullptr;
  JMP_BUF* bailout_ = nullptr;
  // Set by ExitTo: the fiber switched to frees this one.
  bool dead_ = false;
  // What the sanitizers are told at a switch to and from this fiber's
  // stack (the engine's, shared with its zend fiber contexts).
  mock_zend::internal::StackSwitch sanitizers_;
};

}  // namespace zar::core

#endif  // ZAR_CORE_FIBER_FIBER_H_
