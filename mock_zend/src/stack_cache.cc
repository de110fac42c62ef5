#include "stack_cache.h"

#include <sys/mman.h>

#include <algorithm>

namespace mock_zend::internal {
namespace {

// Calls `apply(start, bytes)` once per run of adjacent mappings among
// `mappings` (each `size` bytes), after sorting them by address.
template <typename Apply>
void ForEachRun(std::vector<void*>& mappings, size_t size, Apply apply) {
  std::sort(mappings.begin(), mappings.end());
  size_t i = 0;
  while (i < mappings.size()) {
    char* start = static_cast<char*>(mappings[i]);
    size_t bytes = size;
    for (i++; i < mappings.size() && mappings[i] == start + bytes; i++) {
      bytes += size;
    }
    apply(start, bytes);
  }
}

// Set when the thread's cache has been destroyed (thread exit).
thread_local bool cache_gone = false;

}  // namespace

StackCache* StackCache::ForThread() {
  if (cache_gone) return nullptr;
  thread_local StackCache cache;
  return &cache;
}

StackCache::~StackCache() {
  Clear();
  cache_gone = true;
}

void* StackCache::Take(size_t mapping_size) {
  if (mapping_size != mapping_size_) return nullptr;
  for (std::vector<void*>* from : {&warm_, &pending_, &cold_}) {
    if (!from->empty()) {
      void* mapping = from->back();
      from->pop_back();
      return mapping;
    }
  }
  return nullptr;
}

void StackCache::Give(void* mapping, size_t mapping_size, bool keep_range) {
  if (mapping_size != mapping_size_) {
    Clear();
    mapping_size_ = mapping_size;
  }
  if (warm_.size() < kWarmStacks) {
    warm_.push_back(mapping);
    return;
  }
  if (!keep_range) {
    munmap(mapping, mapping_size);
    return;
  }
  pending_.push_back(mapping);
  if (pending_.size() >= kTrimBatch) ReturnMemory();
}

void StackCache::Trim() {
  if (!pending_.empty()) ReturnMemory();
}

void StackCache::ReturnMemory() {
  // As many as the cold list has room for keep their address range; the
  // rest are unmapped (their memory with them).
  std::sort(pending_.begin(), pending_.end());
  const size_t room = kColdStacks - std::min(cold_.size(), kColdStacks);
  const size_t kept = std::min(room, pending_.size());
  std::vector<void*> unmapped(pending_.begin() + kept, pending_.end());
  pending_.resize(kept);
  // MADV_DONTNEED cannot fail on private anonymous memory that is not
  // locked; if it did, the pages would merely stay resident.
  ForEachRun(pending_, mapping_size_, [](char* start, size_t bytes) {
    madvise(start, bytes, MADV_DONTNEED);
  });
  ForEachRun(unmapped, mapping_size_,
             [](char* start, size_t bytes) { munmap(start, bytes); });
  cold_.insert(cold_.end(), pending_.begin(), pending_.end());
  pending_.clear();
}

void StackCache::Clear() {
  for (std::vector<void*>* list : {&warm_, &pending_, &cold_}) {
    ForEachRun(*list, mapping_size_,
               [](char* start, size_t bytes) { munmap(start, bytes); });
    list->clear();
  }
}

}  // namespace mock_zend::internal
