#include "core/fiber/fiber.h"

#include <boost/context/detail/fcontext.hpp>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <utility>

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
  auto* from = static_cast<Fiber*>(from_fiber);
  sanitizers_.FinishSwitch(from->dead_ ? nullptr : &from->sanitizers_);
  if (from->dead_) {
    Destroy(from);
  } else {
    from->context_ = from_context;
  }
  EG(current_execute_data) = execute_data_;
  EG(bailout) = bailout_;
}

Fiber* Fiber::current_ = nullptr;

Fiber* Fiber::ForThread() {
  auto* fiber = new Fiber();
  fiber->sanitizers_.ForThread();
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
  fiber->sanitizers_.ForStack(fiber->stack_);
  return fiber;
}

void Fiber::Destroy(Fiber* fiber) {
  if (!fiber->has_stack()) {
    delete fiber;
    return;
  }
  fiber->sanitizers_.Destroy();
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
  sanitizers_.StartSwitch(to->sanitizers_);
  const ctx::transfer_t back = ctx::jump_fcontext(to->context_, this);
  Resumed(back.fctx, back.data);
}

void Fiber::ExitTo(Fiber* to) {
  dead_ = true;
  current_ = to;
  mock_zend::internal::StackSwitch::StartExit(to->sanitizers_);
  ctx::jump_fcontext(to->context_, this);
  std::fputs("zend-async-ref: a dead fiber was resumed\n", stderr);
  std::abort();
}

}  // namespace zar::core
