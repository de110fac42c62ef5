// zend-async-ref: mock Zend engine. The request allocator (zend_alloc.h).
//
// Every emalloc block is a malloc block with a hidden header in front of
// the memory handed out. The header records the size and allocation site
// and links the block into one doubly-linked list of live blocks (oldest
// first), so allocation and release are O(1) and a leak report can name
// every block still alive. The persistent allocator (__zend_malloc and
// friends) is plain malloc; its blocks are only counted (an atomic count:
// any thread allocates with it).
//
// Failure: allocation failure prints "Out of memory" and aborts; a size
// computation that overflows prints "Possible integer overflow in memory
// allocation (...)" and aborts, as PHP does.

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "zend_alloc.h"
#include "zend_globals.h"
}

namespace {

// The header keeps the returned pointer 16-byte aligned, like malloc's.
struct alignas(16) BlockHeader {
  BlockHeader* prev;
  BlockHeader* next;
  size_t size;
  const char* file;
  uint32_t line;
};

// Live blocks, oldest at head_. Invariant: live_blocks == list length and
// live_bytes == sum of their sizes.
BlockHeader* head = nullptr;
BlockHeader* tail = nullptr;
size_t live_blocks = 0;
size_t live_bytes = 0;
zend_mm_leak_info last_leaks = {0, 0};
// Persistent blocks handed out and not given back with pefree.
std::atomic<size_t> persistent_blocks{0};

[[noreturn]] void OutOfMemory() {
  fputs("Out of memory\n", stderr);
  abort();
}

[[noreturn]] void Overflow(size_t nmemb, size_t size, size_t offset) {
  fprintf(stderr,
          "Possible integer overflow in memory allocation (%zu * %zu + %zu)\n",
          nmemb, size, offset);
  abort();
}

size_t SafeAddress(size_t nmemb, size_t size, size_t offset) {
  size_t product;
  size_t total;
  if (__builtin_mul_overflow(nmemb, size, &product) ||
      __builtin_add_overflow(product, offset, &total)) {
    Overflow(nmemb, size, offset);
  }
  return total;
}

void Link(BlockHeader* block) {
  block->next = nullptr;
  block->prev = tail;
  if (tail != nullptr) {
    tail->next = block;
  } else {
    head = block;
  }
  tail = block;
  live_blocks++;
  live_bytes += block->size;
}

void Unlink(BlockHeader* block) {
  if (block->prev != nullptr) {
    block->prev->next = block->next;
  } else {
    head = block->next;
  }
  if (block->next != nullptr) {
    block->next->prev = block->prev;
  } else {
    tail = block->prev;
  }
  live_blocks--;
  live_bytes -= block->size;
}

BlockHeader* HeaderOf(void* ptr) { return static_cast<BlockHeader*>(ptr) - 1; }

// `block`, just (re)allocated with room for `size` bytes, recorded with
// its allocation site and linked into the live list: the caller's
// pointer. Out of memory (null) ends the process.
void* Track(BlockHeader* block, size_t size, const char* file, uint32_t line) {
  if (block == nullptr) OutOfMemory();
  block->size = size;
  block->file = file;
  block->line = line;
  Link(block);
  return block + 1;
}

void* Allocate(size_t size, const char* file, uint32_t line) {
  if (size > SIZE_MAX - sizeof(BlockHeader)) Overflow(1, size, 0);
  return Track(static_cast<BlockHeader*>(malloc(sizeof(BlockHeader) + size)),
               size, file, line);
}

}  // namespace

extern "C" {

void* _emalloc(size_t size ZEND_FILE_LINE_DC) {
  return Allocate(size, __zend_filename, __zend_lineno);
}

void* _ecalloc(size_t nmemb, size_t size ZEND_FILE_LINE_DC) {
  const size_t total = SafeAddress(nmemb, size, 0);
  void* ptr = Allocate(total, __zend_filename, __zend_lineno);
  memset(ptr, 0, total);
  return ptr;
}

void* _erealloc(void* ptr, size_t size ZEND_FILE_LINE_DC) {
  if (ptr == nullptr) return Allocate(size, __zend_filename, __zend_lineno);
  if (size > SIZE_MAX - sizeof(BlockHeader)) Overflow(1, size, 0);
  BlockHeader* old_block = HeaderOf(ptr);
  Unlink(old_block);
  return Track(
      static_cast<BlockHeader*>(realloc(old_block, sizeof(BlockHeader) + size)),
      size, __zend_filename, __zend_lineno);
}

// The whole block moves with realloc, which keeps at least copy_size bytes.
void* _erealloc2(void* ptr, size_t size, size_t copy_size ZEND_FILE_LINE_DC) {
  (void)copy_size;
  return _erealloc(ptr, size, __zend_filename, __zend_lineno);
}

void* _safe_emalloc(size_t nmemb, size_t size,
                    size_t offset ZEND_FILE_LINE_DC) {
  return Allocate(SafeAddress(nmemb, size, offset), __zend_filename,
                  __zend_lineno);
}

void* _safe_erealloc(void* ptr, size_t nmemb, size_t size,
                     size_t offset ZEND_FILE_LINE_DC) {
  return _erealloc(ptr, SafeAddress(nmemb, size, offset), __zend_filename,
                   __zend_lineno);
}

char* _estrdup(const char* s ZEND_FILE_LINE_DC) {
  const size_t len = strlen(s);
  auto* copy =
      static_cast<char*>(Allocate(len + 1, __zend_filename, __zend_lineno));
  memcpy(copy, s, len + 1);
  return copy;
}

char* _estrndup(const char* s, size_t length ZEND_FILE_LINE_DC) {
  auto* copy = static_cast<char*>(
      Allocate(SafeAddress(1, length, 1), __zend_filename, __zend_lineno));
  memcpy(copy, s, length);
  copy[length] = '\0';
  return copy;
}

void _efree(void* ptr ZEND_FILE_LINE_DC) {
  (void)__zend_filename;
  (void)__zend_lineno;
  if (ptr == nullptr) return;
  BlockHeader* block = HeaderOf(ptr);
  Unlink(block);
  free(block);
}

void* __zend_malloc(size_t len) {
  void* ptr = malloc(len != 0 ? len : 1);
  if (ptr == nullptr) OutOfMemory();
  persistent_blocks.fetch_add(1, std::memory_order_relaxed);
  return ptr;
}

void* __zend_calloc(size_t nmemb, size_t len) {
  void* ptr = calloc(nmemb != 0 ? nmemb : 1, len != 0 ? len : 1);
  if (ptr == nullptr) OutOfMemory();
  persistent_blocks.fetch_add(1, std::memory_order_relaxed);
  return ptr;
}

void* __zend_realloc(void* p, size_t len) {
  void* ptr = realloc(p, len != 0 ? len : 1);
  if (ptr == nullptr) OutOfMemory();
  if (p == nullptr) persistent_blocks.fetch_add(1, std::memory_order_relaxed);
  return ptr;
}

char* __zend_strdup(const char* s) {
  const size_t size = strlen(s) + 1;
  auto* copy = static_cast<char*>(__zend_malloc(size));
  memcpy(copy, s, size);
  return copy;
}

void zend_mock_persistent_free(void* ptr) {
  if (ptr == nullptr) return;
  free(ptr);
  persistent_blocks.fetch_sub(1, std::memory_order_relaxed);
}

size_t zend_mock_persistent_blocks(void) {
  return persistent_blocks.load(std::memory_order_relaxed);
}

void* _safe_malloc(size_t nmemb, size_t size, size_t offset) {
  return __zend_malloc(SafeAddress(nmemb, size, offset));
}

void* _safe_realloc(void* ptr, size_t nmemb, size_t size, size_t offset) {
  return __zend_realloc(ptr, SafeAddress(nmemb, size, offset));
}

bool zend_alloc_pop_is_oom(void) { return false; }

size_t zend_mm_live_blocks(void) { return live_blocks; }

size_t zend_mm_live_bytes(void) { return live_bytes; }

zend_mm_leak_info zend_mm_last_leaks(void) { return last_leaks; }

zend_mm_leak_info zend_mm_check_leaks(void) {
  zend_mm_leak_info leaks = {0, 0};
  const char* script = EG(mock_filename) != nullptr ? EG(mock_filename) : "-";
  while (head != nullptr) {
    BlockHeader* block = head;
    fprintf(stderr,
            "%s(%" PRIu32 ") :  Freeing 0x%016" PRIxPTR
            " (%zu bytes), script=%s\n",
            block->file, block->line, reinterpret_cast<uintptr_t>(block + 1),
            block->size, script);
    leaks.leaked_blocks++;
    leaks.leaked_bytes += block->size;
    Unlink(block);
    free(block);
  }
  if (leaks.leaked_blocks != 0) {
    fprintf(stderr, "=== Total %zu memory leaks detected ===\n",
            leaks.leaked_blocks);
  }
  last_leaks = leaks;
  return leaks;
}

}  // extern "C"
