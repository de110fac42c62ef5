#include "core/fiber/fiber_stack.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
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

bool FiberStack::Allocate(size_t size) {
  const size_t usable =
      RoundUpToPages(size < kMinStackSize ? kMinStackSize : size);
  const size_t guard = PageSize();
  void* mapping = mmap(nullptr, usable + guard, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) return false;
  if (mprotect(mapping, guard, PROT_NONE) != 0) {
    const int saved = errno;
    munmap(mapping, usable + guard);
    errno = saved;
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
