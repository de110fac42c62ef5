// zend-async-ref: mock Zend engine. The scratch buffer of get_gc handlers
// (zend_gc.h).
//
// One engine-owned buffer serves every get_gc call: create() empties it,
// the handler appends zvals (borrowed), and the collector copies what it
// needs before the next create(). It grows by doubling and is freed at
// request shutdown.

#include "engine_internal.h"

namespace {

zend_get_gc_buffer gc_buffer = {nullptr, nullptr, nullptr};

}  // namespace

extern "C" {

zend_get_gc_buffer* zend_get_gc_buffer_create(void) {
  gc_buffer.cur = gc_buffer.start;
  return &gc_buffer;
}

void zend_get_gc_buffer_grow(zend_get_gc_buffer* buffer) {
  const size_t used = static_cast<size_t>(buffer->cur - buffer->start);
  const size_t capacity = static_cast<size_t>(buffer->end - buffer->start);
  const size_t new_capacity = capacity == 0 ? 64 : capacity * 2;
  buffer->start = static_cast<zval*>(
      _safe_realloc(buffer->start, new_capacity, sizeof(zval), 0));
  buffer->cur = buffer->start + used;
  buffer->end = buffer->start + new_capacity;
}

}  // extern "C"

namespace mock_zend::internal {

void GcBufferFree() {
  pefree(gc_buffer.start, 1);
  gc_buffer = {nullptr, nullptr, nullptr};
}

}  // namespace mock_zend::internal
