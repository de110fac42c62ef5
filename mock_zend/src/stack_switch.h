// zend-async-ref: mock Zend engine. What the sanitizers are told when code
// jumps from one machine stack to another.
//
// AddressSanitizer must hear of every switch to know which stack is live
// (__sanitizer_start_switch_fiber before the jump, with the bounds of the
// stack jumped to; __sanitizer_finish_switch_fiber after landing, which
// gives the bounds of the stack left). ThreadSanitizer needs a fiber of its
// own per stack and __tsan_switch_to_fiber before each jump. The engine's
// zend fiber contexts (fibers.cc) and the reference extension's coroutine
// fibers (core/fiber/fiber.cc) both switch with Boost.Context and announce
// their switches through this one type:
//
//   leaving:  self.StartSwitch(to)   // or StartExit(to): self never resumes
//             jump_fcontext(...)
//   landing:  self.FinishSwitch(from)  // from: NULL when it ended
//
// A StackSwitch describes one stack. The thread's own stack (ForThread())
// learns its bounds at its first switch away; a stack of its own (ForStack())
// knows them and owns a ThreadSanitizer fiber, destroyed by Destroy().
//
// In a build without sanitizers (neither ZAR_SANITIZE nor ZAR_TSAN) the type
// is empty and every call compiles to nothing. Threading: a stack is
// switched on one thread.

#ifndef MOCK_ZEND_SRC_STACK_SWITCH_H_
#define MOCK_ZEND_SRC_STACK_SWITCH_H_

#include <cstddef>

#include "fiber_stack.h"

#if defined(ZAR_SANITIZE)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(ZAR_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace mock_zend::internal {

class StackSwitch {
 public:
  // The running thread's own stack.
  void ForThread() {
#if defined(ZAR_TSAN)
    tsan_fiber_ = __tsan_get_current_fiber();
#endif
  }

  // A stack of its own, `stack` (its bounds; a new ThreadSanitizer fiber).
  void ForStack(const FiberStack& stack) {
#if defined(ZAR_SANITIZE)
    asan_bottom_ = stack.bottom();
    asan_size_ = stack.size();
#else
    (void)stack;
#endif
#if defined(ZAR_TSAN)
    tsan_fiber_ = __tsan_create_fiber(0);
#endif
  }

  // The end of a stack set up by ForStack(), once nothing runs on it.
  void Destroy() {
#if defined(ZAR_TSAN)
    __tsan_destroy_fiber(tsan_fiber_);
    tsan_fiber_ = nullptr;
#endif
  }

  // Before a jump from this stack to `to`'s; this stack resumes later.
  void StartSwitch(const StackSwitch& to) {
#if defined(ZAR_SANITIZE)
    __sanitizer_start_switch_fiber(&asan_fake_stack_, to.asan_bottom_,
                                   to.asan_size_);
#endif
    Announce(to);
  }

  // Before the last jump from this stack, which is going away (a NULL
  // fake-stack slot tells AddressSanitizer so).
  static void StartExit(const StackSwitch& to) {
#if defined(ZAR_SANITIZE)
    __sanitizer_start_switch_fiber(nullptr, to.asan_bottom_, to.asan_size_);
#endif
    Announce(to);
  }

  // After landing on this stack: records the bounds of the stack left,
  // `from` (NULL when that stack ended: nothing to record).
  void FinishSwitch(StackSwitch* from) {
#if defined(ZAR_SANITIZE)
    const void* bottom = nullptr;
    size_t size = 0;
    __sanitizer_finish_switch_fiber(asan_fake_stack_, &bottom, &size);
    if (from != nullptr) {
      from->asan_bottom_ = bottom;
      from->asan_size_ = size;
    }
#else
    (void)from;
#endif
  }

 private:
  static void Announce(const StackSwitch& to) {
#if defined(ZAR_TSAN)
    __tsan_switch_to_fiber(to.tsan_fiber_, 0);
#else
    (void)to;
#endif
  }

#if defined(ZAR_SANITIZE)
  // AddressSanitizer's fake stack of this stack while switched out, and the
  // stack's bounds.
  void* asan_fake_stack_ = nullptr;
  const void* asan_bottom_ = nullptr;
  size_t asan_size_ = 0;
#endif
#if defined(ZAR_TSAN)
  // ThreadSanitizer's fiber: the thread's own, or created for the stack.
  void* tsan_fiber_ = nullptr;
#endif
};

}  // namespace mock_zend::internal

#endif  // MOCK_ZEND_SRC_STACK_SWITCH_H_
