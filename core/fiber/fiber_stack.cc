#include "core/fiber/fiber_stack.h"

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

#if defined(ZAR_SANITIZE)
#include <sanitizer/asan_interface.h>
#endif

namespace zar::core {
namespace {

// 0 until set; then the size every new stack gets.
size_t default_stack_size = 0;

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
  char text[512];
  const char* prefix = std::strcmp(failure.call, "mprotect") == 0
                           ? "Fiber stack protect failed"
                           : "Fiber stack allocate failed";
  int length =
      std::snprintf(text, sizeof text, "%s: %s failed: %s (%d)", prefix,
                    failure.call, std::strerror(failure.error), failure.error);
  // snprintf returns the length it wanted: a cut message keeps what fits.
  const auto fitted = [](int wanted) {
    return wanted < 0 ? size_t{0}
                      : std::min(static_cast<size_t>(wanted), sizeof text - 1);
  };
  std::string message(text, fitted(length));
  if (failure.error != ENOMEM) return message;

  // ENOMEM means either limit: the count of mappings decides which. A
  // process within a few mappings of the limit has reached it.
  const size_t limit = MaxMapCount();
  const size_t mappings = CountMappings();
  if (limit != 0 && mappings + 8 >= limit) {
    const size_t suggested = limit < 131072 ? 262144 : limit * 2;
    length = std::snprintf(
        text, sizeof text,
        "; the process has reached vm.max_map_count (%zu memory mappings, 2 "
        "per coroutine stack); raise it with \"sysctl -w "
        "vm.max_map_count=%zu\"",
        limit, suggested);
  } else {
    length = std::snprintf(
        text, sizeof text,
        "; no memory for a coroutine stack of %zu bytes (%zu memory mappings "
        "of vm.max_map_count %zu in use); lower the stack size "
        "(ZEND_ASYNC_REF_STACK_SIZE) or raise the address-space limit "
        "(RLIMIT_AS, \"ulimit -v\")",
        failure.size, mappings, limit);
  }
  message.append(text, fitted(length));
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
  void* mapping = mmap(nullptr, usable + guard, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) {
    if (failure != nullptr) *failure = {"mmap", errno, usable};
    return false;
  }
  // Splitting the guard page off makes the second memory mapping (VMA) of
  // the stack: at vm.max_map_count it is this call that fails.
  if (mprotect(mapping, guard, PROT_NONE) != 0) {
    const int saved = errno;
    munmap(mapping, usable + guard);
    errno = saved;
    if (failure != nullptr) *failure = {"mprotect", saved, usable};
    return false;
  }
  mapping_ = mapping;
  mapping_size_ = usable + guard;
  guard_size_ = guard;
  return true;
}

void FiberStack::Release() {
  if (mapping_ == nullptr) return;
#if defined(ZAR_SANITIZE)
  // Frames abandoned on this stack may have left poisoned redzones in the
  // shadow memory; the next mapping at this address must start clean.
  ASAN_UNPOISON_MEMORY_REGION(bottom(), size());
#endif
  munmap(mapping_, mapping_size_);
  mapping_ = nullptr;
  mapping_size_ = 0;
  guard_size_ = 0;
}

}  // namespace zar::core
