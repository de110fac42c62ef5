#include "core/fiber/fiber.h"

#include <boost/context/detail/fcontext.hpp>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <utility>

#if defined(ZAR_SANITIZE)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(ZAR_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace zar::core {
namespace {

namespace ctx = boost::context::detail;

// The control block's share of the stack top: whole cache lines, so the
// first frame starts on a line of its own.
constexpr size_t kCacheLine = 64;
constexpr size_t kControlBlockSize =
    (sizeof(Fiber) + kCacheLine - 1) / kCacheLine * kCacheLine;

// Cache lines of saved registers and frames PrefetchFrames() loads: what a
// scheduler's switch returns through up to the coroutine's own code.
constexpr size_t kFrameLines = 4;

}  // namespace

// The first frame of every fiber with a stack: finishes the first switch,
// runs the body, which never returns.
class FiberEntry {
 public:
  static void Run(ctx::transfer_t transfer) {
    Fiber* self = Fiber::current_;
    self->Resumed(transfer.fctx, transfer.data);
    self->body_(self);
    std::fputs("zend-async-ref: a fiber body returned\n", stderr);
    std::abort();
  }
};

inline void Fiber::Resumed(void* from_context, void* from_fiber) {
#if defined(ZAR_SANITIZE)
  const void* from_bottom = nullptr;
  size_t from_size = 0;
  __sanitizer_finish_switch_fiber(asan_fake_stack_, &from_bottom, &from_size);
#endif
  auto* from = static_cast<Fiber*>(from_fiber);
  if (from->dead_) {
    Destroy(from);
  } else {
    from->context_ = from_context;
#if defined(ZAR_SANITIZE)
    from->asan_bottom_ = from_bottom;
    from->asan_size_ = from_size;
#endif
  }
  EG(current_execute_data) = execute_data_;
  EG(bailout) = bailout_;
}

Fiber* Fiber::current_ = nullptr;

Fiber* Fiber::ForThread() {
  auto* fiber = new Fiber();
#if defined(ZAR_TSAN)
  fiber->tsan_fiber_ = __tsan_get_current_fiber();
#endif
  current_ = fiber;
  return fiber;
}

Fiber* Fiber::New(Body body, size_t stack_size, StackFailure* failure) {
  FiberStack stack;
  if (!stack.Allocate(stack_size, failure)) return nullptr;
  char* block = static_cast<char*>(stack.top()) - kControlBlockSize;
  const size_t below =
      static_cast<size_t>(block - static_cast<char*>(stack.bottom()));
  auto* fiber = new (block) Fiber();
  fiber->stack_ = std::move(stack);
  fiber->body_ = body;
  fiber->context_ = ctx::make_fcontext(block, below, &FiberEntry::Run);
#if defined(ZAR_SANITIZE)
  fiber->asan_bottom_ = fiber->stack_.bottom();
  fiber->asan_size_ = fiber->stack_.size();
#endif
#if defined(ZAR_TSAN)
  fiber->tsan_fiber_ = __tsan_create_fiber(0);
#endif
  return fiber;
}

void Fiber::Destroy(Fiber* fiber) {
  if (!fiber->has_stack()) {
    delete fiber;
    return;
  }
#if defined(ZAR_TSAN)
  __tsan_destroy_fiber(fiber->tsan_fiber_);
#endif
  FiberStack stack = std::move(fiber->stack_);
  fiber->~Fiber();
}  // `stack` is released here, after the block that lived on it

void Fiber::Delete(Fiber* fiber) {
  if (fiber == current_) current_ = nullptr;
  Destroy(fiber);
}

void Fiber::PrefetchFrames() const {
  const char* frames = static_cast<const char*>(context_);
  for (size_t line = 0; line < kFrameLines; line++) {
    __builtin_prefetch(frames + line * kCacheLine, 1);
  }
}

void Fiber::SwitchTo(Fiber* to) {
  execute_data_ = EG(current_execute_data);
  bailout_ = EG(bailout);
  current_ = to;
#if defined(ZAR_SANITIZE)
  __sanitizer_start_switch_fiber(&asan_fake_stack_, to->asan_bottom_,
                                 to->asan_size_);
#endif
#if defined(ZAR_TSAN)
  __tsan_switch_to_fiber(to->tsan_fiber_, 0);
#endif
  const ctx::transfer_t back = ctx::jump_fcontext(to->context_, this);
  Resumed(back.fctx, back.data);
}

void Fiber::ExitTo(Fiber* to) {
  dead_ = true;
  current_ = to;
#if defined(ZAR_SANITIZE)
  // A null fake-stack slot tells the sanitizer this stack is going away.
  __sanitizer_start_switch_fiber(nullptr, to->asan_bottom_, to->asan_size_);
#endif
#if defined(ZAR_TSAN)
  __tsan_switch_to_fiber(to->tsan_fiber_, 0);
#endif
  ctx::jump_fcontext(to->context_, this);
  std::fputs("zend-async-ref: a dead fiber was resumed\n", stderr);
  std::abort();
}

}  // namespace zar::core
