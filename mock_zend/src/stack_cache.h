// zend-async-ref: mock Zend engine. The cache of released fiber stacks
// (fiber_stack.h): zend fiber contexts' and coroutines' alike.
//
// A new stack costs an mmap, a system call for its guard page, and a page
// fault for every page its coroutine first touches; an unmapped one costs a
// munmap and a TLB shootdown on every CPU the process ran on. Coroutines
// come and go by the thousand, within a request and across requests, so a
// released stack is kept here and handed out again, most recently released
// first (its pages are still in the caches and the TLB).
//
// The bound. The cache keeps at most kWarmStacks stacks with their memory
// (a warm stack keeps every page its coroutines touched). A stack released
// beyond that bound keeps its address range in the cache but gives its
// memory back to the system: such stacks wait in `pending` until
// kTrimBatch of them have gathered, then one pass returns their memory
// with madvise(MADV_DONTNEED), one call per run of adjacent stacks, so a
// burst of finishing coroutines costs a few system calls rather than one
// each. Those stacks are then `cold`: reused before any new mapping (a cold
// stack faults its pages in again). At most kColdStacks address ranges are
// kept; the rest are unmapped in the same pass, adjacent ones in one call.
// Trim() (the scheduler calls it when a request's scheduler ends) does that
// pass at once, whatever `pending` holds: after a request only kWarmStacks
// stacks hold memory. Stacks guarded with mprotect are two mappings each,
// and vm.max_map_count then bounds the coroutines: beyond kWarmStacks
// those are unmapped when released, keeping no address range.
//
// The guard page survives all this: with guard markers (MADV_GUARD_INSTALL)
// MADV_DONTNEED leaves the marker in place; with the mprotect fallback the
// guard is its own PROT_NONE mapping, which MADV_DONTNEED does not touch.
//
// All stacks of a cache have one mapping size (the first one given); a
// stack of another size (the default size changed) empties the cache
// first.
//
// Threading: one cache per thread (ForThread()); a stack is released on
// the thread that used it. Lifetime: the thread's cache unmaps what it
// holds when the thread ends; a stack released after that is unmapped.

#ifndef MOCK_ZEND_SRC_STACK_CACHE_H_
#define MOCK_ZEND_SRC_STACK_CACHE_H_

#include <cstddef>
#include <vector>

extern "C" {
#include "zend_portability.h"
}

namespace mock_zend::internal {

class ZEND_API StackCache {
 public:
  // Stacks kept with their memory: a request of a thousand coroutines
  // finds every stack the one before it used, without a page fault. A
  // stack keeps the pages its coroutines touched: 4-8 KiB for most, its
  // whole size after a deep recursion.
  static constexpr size_t kWarmStacks = 1024;
  // Stacks beyond the bound whose memory is returned in one pass.
  static constexpr size_t kTrimBatch = 64;
  // Address ranges kept without memory (1 MiB each by default: address
  // space only, and no mapping of their own with guard markers).
  static constexpr size_t kColdStacks = 4096;

  // The calling thread's cache; nullptr while the thread ends (after its
  // cache was destroyed: stacks released then are unmapped at once).
  static StackCache* ForThread();

  StackCache() = default;
  ~StackCache();
  StackCache(const StackCache&) = delete;
  StackCache& operator=(const StackCache&) = delete;

  // A cached mapping of `mapping_size` bytes (its guard page in place), or
  // nullptr when the cache holds none of that size.
  void* Take(size_t mapping_size);
  // Keeps a released mapping (see the bound in the file comment); may
  // return memory and unmap other cached stacks in a batch. Without
  // `keep_range` (a stack whose guard is a mapping of its own, where
  // mappings are the scarce resource) a stack beyond the bound is unmapped
  // at once instead.
  void Give(void* mapping, size_t mapping_size, bool keep_range = true);
  // Returns the memory of every stack beyond the bound now, and unmaps the
  // address ranges beyond kColdStacks.
  void Trim();
  // Unmaps every cached stack.
  void Clear();

  bool empty() const {
    return warm_.empty() && pending_.empty() && cold_.empty();
  }
  // Cached stacks holding their memory (warm, and pending beyond the
  // bound) and holding only their address range (cold).
  size_t warm() const { return warm_.size(); }
  size_t pending() const { return pending_.size(); }
  size_t cold() const { return cold_.size(); }

 private:
  // Returns the memory of the pending stacks: those the cold list has room
  // for become cold, the rest are unmapped.
  void ReturnMemory();

  size_t mapping_size_ = 0;
  std::vector<void*> warm_;     // memory kept; taken LIFO
  std::vector<void*> pending_;  // beyond the bound, memory not yet returned
  std::vector<void*> cold_;     // memory returned, address range kept
};

}  // namespace mock_zend::internal

#endif  // MOCK_ZEND_SRC_STACK_CACHE_H_
