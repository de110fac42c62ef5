#include "fiber_stack.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "stack_cache.h"

#if defined(ZAR_SANITIZE)
#include <sanitizer/asan_interface.h>
#endif

// Linux 6.13's guard markers; older C libraries do not name the advice.
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

namespace mock_zend::internal {
namespace {

// 0 until set; then the size every new stack gets.
size_t default_stack_size = 0;

// How guards are made; a kernel without guard markers turns kMarker into
// kMprotect at the first stack.
StackGuard stack_guard = StackGuard::kMarker;

// Stacks held by FiberStack objects, per thread.
thread_local size_t stacks_in_use = 0;

// Makes the lowest `guard` bytes of `mapping` its guard page. False (with
// `*failure` filled) when the kernel refuses.
bool InstallGuard(void* mapping, size_t guard, size_t usable,
                  StackFailure* failure) {
  if (stack_guard == StackGuard::kMarker) {
    if (madvise(mapping, guard, MADV_GUARD_INSTALL) == 0) return true;
    if (errno != EINVAL) {
      if (failure != nullptr) *failure = {"madvise", errno, usable};
      return false;
    }
    stack_guard = StackGuard::kMprotect;  // a kernel before 6.13
  }
  // Splitting the guard page off makes the second memory mapping (VMA) of
  // the stack: at vm.max_map_count it is this call that fails.
  if (mprotect(mapping, guard, PROT_NONE) == 0) return true;
  if (failure != nullptr) *failure = {"mprotect", errno, usable};
  return false;
}

// A new mapping of `usable` bytes above a `guard`-byte guard page; nullptr
// (errno and `*failure` set) when the kernel refuses.
void* MapGuarded(size_t usable, size_t guard, StackFailure* failure) {
  void* mapping = mmap(nullptr, usable + guard, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) {
    if (failure != nullptr) *failure = {"mmap", errno, usable};
    return nullptr;
  }
  if (!InstallGuard(mapping, guard, usable, failure)) {
    const int saved = errno;
    munmap(mapping, usable + guard);
    errno = saved;
    return nullptr;
  }
  return mapping;
}

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

size_t RoundUpToPages(size_t bytes) {
  const size_t page = PageSize();
  return (bytes + page - 1) / page * page;
}

size_t SizeFromEnvironment() {
  const char* text = std::getenv("ZEND_ASYNC_REF_STACK_SIZE");
  const size_t parsed = text != nullptr ? ParseStackSize(text) : 0;
  return parsed != 0 ? parsed : kDefaultStackSize;
}

}  // namespace

size_t CountMappings() {
  FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return 0;
  size_t lines = 0;
  for (int c; (c = std::fgetc(maps)) != EOF;) lines += c == '\n';
  std::fclose(maps);
  return lines;
}

size_t MaxMapCount() {
  FILE* file = std::fopen("/proc/sys/vm/max_map_count", "r");
  if (file == nullptr) return 0;
  unsigned long long value = 0;
  if (std::fscanf(file, "%llu", &value) != 1) value = 0;
  std::fclose(file);
  return static_cast<size_t>(value);
}

std::string StackFailureMessage(const StackFailure& failure) {
  const char* prefix = std::strcmp(failure.call, "mmap") == 0
                           ? "Fiber stack allocate failed"
                           : "Fiber stack protect failed";
  std::string message =
      absl::StrFormat("%s: %s failed: %s (%d)", prefix, failure.call,
                      std::strerror(failure.error), failure.error);
  if (failure.error != ENOMEM) return message;

  // ENOMEM means either limit: the count of mappings decides which. A
  // process within a few mappings of the limit has reached it.
  const size_t limit = MaxMapCount();
  const size_t mappings = CountMappings();
  if (limit != 0 && mappings + 8 >= limit) {
    const size_t suggested = limit < 131072 ? 262144 : limit * 2;
    absl::StrAppendFormat(
        &message,
        "; the process has reached vm.max_map_count (%zu memory mappings%s); "
        "raise it with \"sysctl -w vm.max_map_count=%zu\"",
        limit,
        stack_guard == StackGuard::kMprotect ? ", 2 per coroutine stack" : "",
        suggested);
  } else {
    absl::StrAppendFormat(
        &message,
        "; no memory for a coroutine stack of %zu bytes (%zu memory mappings "
        "of vm.max_map_count %zu in use); lower the stack size "
        "(ZEND_ASYNC_REF_STACK_SIZE) or raise the address-space limit "
        "(RLIMIT_AS, \"ulimit -v\")",
        failure.size, mappings, limit);
  }
  return message;
}

size_t ParseStackSize(const char* text) {
  if (text == nullptr || !std::isdigit(static_cast<unsigned char>(*text))) {
    return 0;
  }
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0) return 0;
  unsigned shift = 0;
  switch (std::tolower(static_cast<unsigned char>(*end))) {
    case '\0':
      break;
    case 'k':
      shift = 10;
      end++;
      break;
    case 'm':
      shift = 20;
      end++;
      break;
    case 'g':
      shift = 30;
      end++;
      break;
    default:
      return 0;
  }
  if (*end != '\0' || value > (~0ull >> shift)) return 0;
  return static_cast<size_t>(value << shift);
}

size_t DefaultStackSize() {
  if (default_stack_size == 0) default_stack_size = SizeFromEnvironment();
  return default_stack_size;
}

void SetDefaultStackSize(size_t bytes) { default_stack_size = bytes; }

StackGuard CurrentStackGuard() { return stack_guard; }

void SetStackGuard(StackGuard guard) {
  stack_guard = guard;
  if (StackCache* cache = StackCache::ForThread()) cache->Clear();
}

size_t FiberStack::InUse() { return stacks_in_use; }

FiberStack::FiberStack(FiberStack&& other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)),
      mapping_size_(std::exchange(other.mapping_size_, 0)),
      guard_size_(std::exchange(other.guard_size_, 0)) {}

FiberStack& FiberStack::operator=(FiberStack&& other) noexcept {
  if (this != &other) {
    Release();
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapping_size_ = std::exchange(other.mapping_size_, 0);
    guard_size_ = std::exchange(other.guard_size_, 0);
  }
  return *this;
}

bool FiberStack::Allocate(size_t size, StackFailure* failure) {
  const size_t usable =
      RoundUpToPages(size < kMinStackSize ? kMinStackSize : size);
  const size_t guard = PageSize();
  StackCache* cache = StackCache::ForThread();
  void* mapping = cache != nullptr ? cache->Take(usable + guard) : nullptr;
  // Out of memory or mappings with stacks of another size cached: those
  // go, and the new stack is tried once more.
  for (int attempt = 0; mapping == nullptr; attempt++) {
    mapping = MapGuarded(usable, guard, failure);
    if (mapping != nullptr) break;
    if (errno != ENOMEM || attempt > 0 || cache == nullptr || cache->empty()) {
      return false;
    }
    cache->Clear();
  }
  mapping_ = mapping;
  mapping_size_ = usable + guard;
  guard_size_ = guard;
  stacks_in_use++;
  return true;
}

void FiberStack::Release() {
  if (mapping_ == nullptr) return;
#if defined(ZAR_SANITIZE)
  // Frames abandoned on this stack may have left poisoned redzones in the
  // shadow memory; whoever gets this memory next must find it clean.
  ASAN_UNPOISON_MEMORY_REGION(bottom(), size());
#endif
  if (StackCache* cache = StackCache::ForThread()) {
    cache->Give(mapping_, mapping_size_,
                /*keep_range=*/stack_guard == StackGuard::kMarker);
  } else {
    munmap(mapping_, mapping_size_);
  }
  stacks_in_use--;
  mapping_ = nullptr;
  mapping_size_ = 0;
  guard_size_ = 0;
}

}  // namespace mock_zend::internal
