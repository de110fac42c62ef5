// zend-async-ref: mock Zend engine. The machine stack of a fiber.
//
// One allocator for every fiber of the process: the engine's zend fiber
// contexts (fibers.cc, zend_fiber_init_context) and the reference
// extension's coroutine fibers (core/fiber/fiber.h) take their stacks here,
// and give them back to one StackCache per thread. The classes and
// functions are exported (default visibility) like the engine's C API, so
// an implementation library loaded by the conformance runner, compiled with
// hidden visibility, binds to the runner's allocator.
//
// A FiberStack is an anonymous private mapping whose lowest page is a guard
// page: a coroutine that overflows its stack faults on the guard page
// instead of silently overwriting the memory below. The usable part grows
// down from top() to bottom(); its size is the requested size rounded up to
// whole pages.
//
// The guard is a guard marker (madvise MADV_GUARD_INSTALL, Linux 6.13 and
// later) where the kernel has them: it costs no memory mapping (VMA) of its
// own, so adjacent stacks share one and vm.max_map_count does not bound
// how many coroutines a process holds. On older kernels the guard page is
// made PROT_NONE with mprotect, a second mapping per stack (docs/
// scheduler.md, "Limits"). Both fault with SIGSEGV.
//
// Released stacks go to the thread's StackCache (stack_cache.h), and new
// ones come from it before anything is mapped.
//
// The size of new stacks is DefaultStackSize(): the environment variable
// ZEND_ASYNC_REF_STACK_SIZE (bytes; a number with an optional K, M or G
// suffix) read once, unless SetDefaultStackSize() was called; otherwise
// kDefaultStackSize. Sizes below kMinStackSize are raised to it.
//
// Failure: Allocate() returns false (errno set) when the kernel refuses the
// mapping or its guard; the stack is then empty, and the StackFailure
// passed in says which call failed. StackFailureMessage() turns it into the
// text a user can act on: the kernel's reason and, for ENOMEM, which limit
// was reached (vm.max_map_count or memory) and how to raise it.
//
// Threading: a FiberStack is used by one thread at a time. The default size
// is process-wide and must be set before fibers are created.
// Lifetime: the destructor (or Release()) gives the memory to the thread's
// StackCache, which keeps it or unmaps it.

#ifndef MOCK_ZEND_SRC_FIBER_STACK_H_
#define MOCK_ZEND_SRC_FIBER_STACK_H_

#include <cstddef>
#include <string>

extern "C" {
#include "zend_portability.h"
}

namespace mock_zend::internal {

// 1 MiB: room for a deep C call chain (the engine's own frames, an
// extension's, libc's) in every coroutine.
inline constexpr size_t kDefaultStackSize = size_t{1} << 20;
// The smallest stack handed out: 64 KiB.
inline constexpr size_t kMinStackSize = size_t{64} << 10;

// The size of stacks created from now on (see the file comment).
ZEND_API size_t DefaultStackSize();
// Overrides the environment. 0 restores the environment/default value.
ZEND_API void SetDefaultStackSize(size_t bytes);

// Parses "262144", "256K", "1M", "1G" (case-insensitive suffix). Returns 0
// when `text` is not such a number.
ZEND_API size_t ParseStackSize(const char* text);

// How guard pages are made (see the file comment).
enum class StackGuard {
  kMarker,    // madvise(MADV_GUARD_INSTALL): no mapping of its own
  kMprotect,  // mprotect(PROT_NONE): a second mapping per stack
};
// The kind new stacks get: kMarker unless the kernel refused one (probed
// at the first stack mapped), or SetStackGuard() chose.
ZEND_API StackGuard CurrentStackGuard();
// Makes new stacks use `guard` (kMarker only if the kernel has it; tests
// of the fallback choose kMprotect). Empties the thread's StackCache, so
// every stack mapped from now on is made the chosen way.
ZEND_API void SetStackGuard(StackGuard guard);

// Why a stack could not be had: the system call that failed, its errno,
// and the usable size that was asked for.
struct StackFailure {
  const char* call = nullptr;  // "mmap", "madvise" or "mprotect"
  int error = 0;
  size_t size = 0;
};

// The message for a failed stack allocation, upstream's prefix first:
//   Fiber stack protect failed: mprotect failed: Cannot allocate memory
//   (12); the process has reached vm.max_map_count (65530 memory mappings,
//   2 per coroutine stack); raise it with "sysctl -w vm.max_map_count=262144"
// ("2 per coroutine stack" with mprotect guards only.)
// Reads /proc/self/maps and /proc/sys/vm/max_map_count (failure path only).
ZEND_API std::string StackFailureMessage(const StackFailure& failure);

// The memory mappings the process has now (lines of /proc/self/maps), and
// vm.max_map_count; 0 when unreadable. Each reads a file: not for hot
// paths.
ZEND_API size_t CountMappings();
ZEND_API size_t MaxMapCount();

class ZEND_API FiberStack {
 public:
  FiberStack() = default;
  ~FiberStack() { Release(); }

  FiberStack(const FiberStack&) = delete;
  FiberStack& operator=(const FiberStack&) = delete;
  FiberStack(FiberStack&& other) noexcept;
  FiberStack& operator=(FiberStack&& other) noexcept;

  // A stack of `size` usable bytes (rounded up to pages, at least
  // kMinStackSize) plus one guard page: a cached one, or a new mapping.
  // REQUIRES: empty(). On failure `*failure` (when given) says why.
  bool Allocate(size_t size, StackFailure* failure = nullptr);
  // Gives the stack to the thread's StackCache; no-op when empty. The
  // memory may keep what was written to it.
  void Release();

  // Stacks held by FiberStack objects of this thread now (not counting
  // those in the cache).
  static size_t InUse();

  bool empty() const { return mapping_ == nullptr; }
  // The highest address of the usable part (stacks grow down to bottom()).
  void* top() const { return static_cast<char*>(mapping_) + mapping_size_; }
  // The lowest usable address: just above the guard page.
  void* bottom() const { return static_cast<char*>(mapping_) + guard_size_; }
  // Usable bytes, top() - bottom().
  size_t size() const { return mapping_size_ - guard_size_; }
  // The guard page: [guard(), guard() + guard_size()).
  void* guard() const { return mapping_; }
  size_t guard_size() const { return guard_size_; }

 private:
  void* mapping_ = nullptr;  // the whole mapping, guard page first
  size_t mapping_size_ = 0;  // guard page included
  size_t guard_size_ = 0;    // one page
};

}  // namespace mock_zend::internal

#endif  // MOCK_ZEND_SRC_FIBER_STACK_H_
