// zend-async-ref: mock Zend engine. The request allocator (zend_alloc.h).
//
// Two mechanisms behind the same functions, chosen when the engine starts
// (php_mock_module_startup, internal::AllocStartup), as PHP chooses between
// its heap and the system allocator (USE_ZEND_ALLOC):
//
// - The heap (the default), built as PHP's Zend/zend_alloc.c: a block of up
//   to kMaxSmallSize bytes is an element of one of PHP's 30 size classes
//   (bins, ZEND_MM_BINS_INFO: 8 to 3072 bytes), carved by runs of 4 KiB
//   pages out of 2 MiB chunks; each bin keeps its free elements on a
//   singly-linked list, so allocation and release are a list pop and push.
//   A larger block is a malloc block of its own (PHP's large runs and huge
//   blocks both). At the leak check every chunk is scanned and every
//   element still allocated reported; then the chunks are released (the
//   first is kept for the next request, as PHP keeps a cached chunk).
// - The tracker (USE_ZEND_ALLOC=0, and always in the sanitizer builds
//   ZAR_SANITIZE and ZAR_TSAN): every block is a malloc block of its own,
//   so AddressSanitizer sees each block's overflow and use after free.
//
// Every block starts with a BlockHeader, 16 bytes right before the memory
// handed out: the allocation site (file, line) and the requested size, as
// PHP's debug builds keep per block (zend_mm_debug_info), so that a leak
// report names each block. A malloc block's header is the tail of a
// LargeBlock, which links it into one doubly-linked list of large blocks,
// oldest first. The memory handed out is 8-byte aligned
// (ZEND_MM_ALIGNMENT), as PHP's.
//
// The leak report lists the heap's leaked elements chunk by chunk in
// address order (PHP's order), then the large blocks oldest first; in the
// tracker every block is a large one, so the report is oldest first.
//
// The persistent allocator (__zend_malloc and friends) is plain malloc; its
// blocks are only counted (an atomic count: any thread allocates with it).
//
// Threading: the request allocator belongs to the engine's thread.
//
// Failure: allocation failure prints "Out of memory" and aborts; a size
// computation that overflows prints "Possible integer overflow in memory
// allocation (...)" and aborts; freeing a block twice or a pointer the
// allocator did not hand out prints "zend_mm_heap corrupted" and aborts
// when the header shows it, as PHP does.

#include <algorithm>
#include <array>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine_internal.h"

extern "C" {
#include "zend_alloc.h"
#include "zend_globals.h"
}

namespace {

// The header in front of every block. `size` is the requested size of a
// heap element (at most kMaxSmallSize), kLargeBlock for a malloc block
// (whose size is its LargeBlock's), or kFreeElement for a heap element on
// its bin's free list, whose `next_free` then replaces the site.
struct BlockHeader {
  union {
    const char* file;
    BlockHeader* next_free;
  };
  uint32_t line;
  uint32_t size;
};
static_assert(sizeof(BlockHeader) == 16);

constexpr uint32_t kLargeBlock = UINT32_MAX;
constexpr uint32_t kFreeElement = UINT32_MAX - 1;

// A malloc block: the live list's links, the size, then the header the
// memory handed out follows.
struct LargeBlock {
  LargeBlock* prev;
  LargeBlock* next;
  size_t size;
  BlockHeader header;
};
static_assert(sizeof(LargeBlock) % ZEND_MM_ALIGNMENT == 0);

// PHP's bins (ZEND_MM_BINS_INFO): element size, elements per run, pages per
// run. An element holds the header and the block, so the two smallest bins
// serve no block, and a block of n bytes takes the smallest bin of at least
// n + 16 bytes (n at least 8: emalloc(0) gets 8 bytes, as PHP's smallest
// bin).
struct Bin {
  uint16_t size;
  uint16_t count;
  uint8_t pages;
};
constexpr int kBins = 30;
constexpr std::array<Bin, kBins> kBinInfo = {{
    {8, 512, 1},  {16, 256, 1},  {24, 170, 1}, {32, 128, 1}, {40, 102, 1},
    {48, 85, 1},  {56, 73, 1},   {64, 64, 1},  {80, 51, 1},  {96, 42, 1},
    {112, 36, 1}, {128, 32, 1},  {160, 25, 1}, {192, 21, 1}, {224, 18, 1},
    {256, 16, 1}, {320, 64, 5},  {384, 32, 3}, {448, 9, 1},  {512, 8, 1},
    {640, 32, 5}, {768, 16, 3},  {896, 9, 2},  {1024, 8, 2}, {1280, 16, 5},
    {1536, 8, 3}, {1792, 16, 7}, {2048, 8, 4}, {2560, 8, 5}, {3072, 4, 3},
}};
constexpr size_t kMaxSmallSize = ZEND_MM_MAX_SMALL_SIZE - sizeof(BlockHeader);
constexpr size_t kMinBlockSize = 8;

// kBinOf[(n + 7) / 8]: the bin of a block of n bytes (n <= kMaxSmallSize).
constexpr std::array<uint8_t, kMaxSmallSize / 8 + 1> kBinOf = [] {
  std::array<uint8_t, kMaxSmallSize / 8 + 1> table{};
  int bin = 0;
  for (size_t i = 0; i < table.size(); i++) {
    const size_t need =
        (i * 8 < kMinBlockSize ? kMinBlockSize : i * 8) + sizeof(BlockHeader);
    while (kBinInfo[bin].size < need) bin++;
    table[i] = static_cast<uint8_t>(bin);
  }
  return table;
}();
static_assert(kBinInfo[kBins - 1].size == ZEND_MM_MAX_SMALL_SIZE);
static_assert(kBinOf[kMaxSmallSize / 8] == kBins - 1);

// The bin of a block of `size` bytes (at most kMaxSmallSize).
[[gnu::always_inline]] inline int BinOf(size_t size) {
  return kBinOf[(size + 7) >> 3];
}

constexpr bool RunsFitTheirPages() {
  for (const Bin& bin : kBinInfo) {
    if (size_t{bin.size} * bin.count > size_t{bin.pages} * ZEND_MM_PAGE_SIZE) {
      return false;
    }
  }
  return true;
}
static_assert(RunsFitTheirPages());

// A chunk: ZEND_MM_CHUNK_SIZE bytes whose first page is this record and the
// rest pages handed to bins in runs, from the front (a chunk's pages are
// reused only after the leak check). run_bin[p] is 1 + the bin of the run
// starting at page p, 0 elsewhere.
struct Chunk {
  Chunk* next;
  uint32_t used_pages;
  uint8_t run_bin[ZEND_MM_PAGES];
};
static_assert(sizeof(Chunk) <= ZEND_MM_PAGE_SIZE * ZEND_MM_FIRST_PAGE);

// A block goes to a bin when its size is below small_bound: kMaxSmallSize + 1
// for the heap, 0 for the tracker.
#if defined(ZAR_SANITIZE) || defined(ZAR_TSAN)
constexpr bool kTrackerOnly = true;
#else
constexpr bool kTrackerOnly = false;
#endif
size_t small_bound = kTrackerOnly ? 0 : kMaxSmallSize + 1;

BlockHeader* free_elements[kBins] = {};
Chunk* first_chunk = nullptr;      // the oldest; chunks are scanned from here
Chunk* last_chunk = nullptr;       // the one runs are carved from
LargeBlock* large_head = nullptr;  // the oldest
LargeBlock* large_tail = nullptr;
// Invariant: live_blocks and live_bytes count the allocated elements and
// the large blocks, and their requested sizes.
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

[[noreturn]] void HeapCorrupted() {
  fputs("zend_mm_heap corrupted\n", stderr);
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

BlockHeader* HeaderOf(void* ptr) { return static_cast<BlockHeader*>(ptr) - 1; }

LargeBlock* LargeOf(BlockHeader* header) {
  return reinterpret_cast<LargeBlock*>(reinterpret_cast<char*>(header) -
                                       offsetof(LargeBlock, header));
}

void* Record(BlockHeader* header, size_t size, const char* file,
             uint32_t line) {
  header->file = file;
  header->line = line;
  live_blocks++;
  live_bytes += size;
  return header + 1;
}

// ---- Large blocks (and every block of the tracker) ----

void LinkLarge(LargeBlock* block) {
  block->next = nullptr;
  block->prev = large_tail;
  if (large_tail != nullptr) {
    large_tail->next = block;
  } else {
    large_head = block;
  }
  large_tail = block;
}

void UnlinkLarge(LargeBlock* block) {
  if (block->prev != nullptr) {
    block->prev->next = block->next;
  } else {
    large_head = block->next;
  }
  if (block->next != nullptr) {
    block->next->prev = block->prev;
  } else {
    large_tail = block->prev;
  }
  live_blocks--;
  live_bytes -= block->size;
}

// `block`, just (re)allocated with room for `size` bytes, recorded with its
// allocation site and linked last: the caller's pointer. Out of memory
// (null) ends the process.
void* TrackLarge(LargeBlock* block, size_t size, const char* file,
                 uint32_t line) {
  if (block == nullptr) OutOfMemory();
  block->size = size;
  block->header.size = kLargeBlock;
  LinkLarge(block);
  return Record(&block->header, size, file, line);
}

void CheckLargeSize(size_t size) {
  if (size > SIZE_MAX - sizeof(LargeBlock)) Overflow(1, size, 0);
}

// Out of line, as RefillBin: the heap's fast path saves no registers.
[[gnu::noinline]] void* AllocateLarge(size_t size, const char* file,
                                      uint32_t line) {
  CheckLargeSize(size);
  return TrackLarge(static_cast<LargeBlock*>(malloc(sizeof(LargeBlock) + size)),
                    size, file, line);
}

void* ReallocateLarge(LargeBlock* block, size_t size, const char* file,
                      uint32_t line) {
  CheckLargeSize(size);
  UnlinkLarge(block);
  return TrackLarge(
      static_cast<LargeBlock*>(realloc(block, sizeof(LargeBlock) + size)), size,
      file, line);
}

// ---- The heap's bins ----

// A run of `bin`'s pages carved from the last chunk (a new chunk when it has
// too few pages left), its elements pushed on the bin's free list in
// address order: the first element of the list.
[[gnu::noinline]] BlockHeader* RefillBin(int bin) {
  const Bin& info = kBinInfo[bin];
  if (last_chunk == nullptr ||
      last_chunk->used_pages + info.pages > ZEND_MM_PAGES) {
    auto* chunk = static_cast<Chunk*>(malloc(ZEND_MM_CHUNK_SIZE));
    if (chunk == nullptr) OutOfMemory();
    chunk->next = nullptr;
    chunk->used_pages = ZEND_MM_FIRST_PAGE;
    memset(chunk->run_bin, 0, sizeof(chunk->run_bin));
    if (last_chunk != nullptr) {
      last_chunk->next = chunk;
    } else {
      first_chunk = chunk;
    }
    last_chunk = chunk;
  }
  Chunk* chunk = last_chunk;
  char* run = reinterpret_cast<char*>(chunk) +
              size_t{chunk->used_pages} * ZEND_MM_PAGE_SIZE;
  chunk->run_bin[chunk->used_pages] = static_cast<uint8_t>(bin + 1);
  chunk->used_pages += info.pages;
  BlockHeader* next = nullptr;
  for (int i = info.count - 1; i >= 0; i--) {
    auto* element = reinterpret_cast<BlockHeader*>(run + size_t{info.size} * i);
    element->size = kFreeElement;
    element->next_free = next;
    next = element;
  }
  return next;
}

[[gnu::always_inline]] inline void* AllocateSmall(size_t size, const char* file,
                                                  uint32_t line) {
  const int bin = BinOf(size);
  BlockHeader* element = free_elements[bin];
  if (UNEXPECTED(element == nullptr)) element = RefillBin(bin);
  free_elements[bin] = element->next_free;
  element->size = static_cast<uint32_t>(size);
  return Record(element, size, file, line);
}

[[gnu::always_inline]] inline void FreeSmall(BlockHeader* element) {
  const int bin = BinOf(element->size);
  live_blocks--;
  live_bytes -= element->size;
  element->size = kFreeElement;
  element->next_free = free_elements[bin];
  free_elements[bin] = element;
}

// ---- Both ----

[[gnu::always_inline]] inline void* Allocate(size_t size, const char* file,
                                             uint32_t line) {
  if (size < small_bound) return AllocateSmall(size, file, line);
  return AllocateLarge(size, file, line);
}

// Gives back the block at `ptr` (not null).
void Free(void* ptr) {
  BlockHeader* header = HeaderOf(ptr);
  if (header->size <= kMaxSmallSize) {
    FreeSmall(header);
  } else if (header->size == kLargeBlock) {
    LargeBlock* block = LargeOf(header);
    UnlinkLarge(block);
    free(block);
  } else {
    HeapCorrupted();
  }
}

// The block at `ptr` resized to `size` bytes, at least its first `copy_size`
// bytes kept (the rest up to the smaller size may be dropped), recorded at
// the new site. A heap element stays where it is while the size keeps its
// bin; a large block that stays large is realloc'd.
void* Reallocate(void* ptr, size_t size, size_t copy_size, const char* file,
                 uint32_t line) {
  if (ptr == nullptr) return Allocate(size, file, line);
  BlockHeader* header = HeaderOf(ptr);
  const uint32_t old_size = header->size;
  if (old_size == kLargeBlock) {
    if (size >= small_bound) {
      return ReallocateLarge(LargeOf(header), size, file, line);
    }
  } else if (old_size > kMaxSmallSize) {
    HeapCorrupted();
  } else if (size < small_bound && BinOf(size) == BinOf(old_size)) {
    live_bytes = live_bytes - old_size + size;
    header->size = static_cast<uint32_t>(size);
    header->file = file;
    header->line = line;
    return ptr;
  }
  const size_t kept =
      old_size == kLargeBlock ? LargeOf(header)->size : size_t{old_size};
  void* moved = Allocate(size, file, line);
  memcpy(moved, ptr, std::min({kept, size, copy_size}));
  Free(ptr);
  return moved;
}

// Reports a leaked block on stderr and counts it in `leaks`.
void ReportLeak(const BlockHeader* header, size_t size, const char* script,
                zend_mm_leak_info* leaks) {
  fprintf(stderr,
          "%s(%" PRIu32 ") :  Freeing 0x%016" PRIxPTR
          " (%zu bytes), script=%s\n",
          header->file, header->line, reinterpret_cast<uintptr_t>(header + 1),
          size, script);
  leaks->leaked_blocks++;
  leaks->leaked_bytes += size;
}

// Reports every allocated element of the chunks, oldest chunk first.
void ReportLeakedElements(const char* script, zend_mm_leak_info* leaks) {
  for (Chunk* chunk = first_chunk; chunk != nullptr; chunk = chunk->next) {
    for (uint32_t page = ZEND_MM_FIRST_PAGE; page < chunk->used_pages;) {
      const Bin& info = kBinInfo[chunk->run_bin[page] - 1];
      char* run =
          reinterpret_cast<char*>(chunk) + size_t{page} * ZEND_MM_PAGE_SIZE;
      for (int i = 0; i < info.count; i++) {
        const auto* element =
            reinterpret_cast<const BlockHeader*>(run + size_t{info.size} * i);
        if (element->size != kFreeElement) {
          ReportLeak(element, element->size, script, leaks);
        }
      }
      page += info.pages;
    }
  }
}

// Releases every chunk, or all but the first, which is emptied (kept for
// the next request); the bins are emptied. Every element is free or leaked.
void ReleaseChunks(bool keep_first) {
  Chunk* chunk =
      keep_first && first_chunk != nullptr ? first_chunk->next : first_chunk;
  while (chunk != nullptr) {
    Chunk* next = chunk->next;
    free(chunk);
    chunk = next;
  }
  if (keep_first && first_chunk != nullptr) {
    first_chunk->next = nullptr;
    first_chunk->used_pages = ZEND_MM_FIRST_PAGE;
    memset(first_chunk->run_bin, 0, sizeof(first_chunk->run_bin));
  } else {
    first_chunk = nullptr;
  }
  last_chunk = first_chunk;
  memset(free_elements, 0, sizeof(free_elements));
}

}  // namespace

namespace mock_zend::internal {

void AllocStartup() {
  if (kTrackerOnly) return;
  // PHP's alloc_globals_ctor: set and not a number other than 0.
  const char* use_zend_alloc = getenv("USE_ZEND_ALLOC");
  const bool tracker =
      use_zend_alloc != nullptr && strtol(use_zend_alloc, nullptr, 10) == 0;
  small_bound = tracker ? 0 : kMaxSmallSize + 1;
}

void AllocShutdown() {
  if (live_blocks == 0) ReleaseChunks(false);
}

}  // namespace mock_zend::internal

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
  return Reallocate(ptr, size, SIZE_MAX, __zend_filename, __zend_lineno);
}

void* _erealloc2(void* ptr, size_t size, size_t copy_size ZEND_FILE_LINE_DC) {
  return Reallocate(ptr, size, copy_size, __zend_filename, __zend_lineno);
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
  if (ptr != nullptr) Free(ptr);
}

size_t _zend_mem_block_size(void* ptr ZEND_FILE_LINE_DC) {
  (void)__zend_filename;
  (void)__zend_lineno;
  BlockHeader* header = HeaderOf(ptr);
  if (header->size <= kMaxSmallSize) {
    return kBinInfo[BinOf(header->size)].size - sizeof(BlockHeader);
  }
  if (header->size == kLargeBlock) return LargeOf(header)->size;
  HeapCorrupted();
}

bool is_zend_mm(void) { return small_bound != 0; }

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
  ReportLeakedElements(script, &leaks);
  ReleaseChunks(true);
  while (large_head != nullptr) {
    LargeBlock* block = large_head;
    ReportLeak(&block->header, block->size, script, &leaks);
    UnlinkLarge(block);
    free(block);
  }
  live_blocks = 0;
  live_bytes = 0;
  if (leaks.leaked_blocks != 0) {
    fprintf(stderr, "=== Total %zu memory leaks detected ===\n",
            leaks.leaked_blocks);
  }
  last_leaks = leaks;
  return leaks;
}

}  // extern "C"
