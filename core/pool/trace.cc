// The pool's trace lines (trace.h).

#include "core/pool/trace.h"

#include <cinttypes>
#include <cstdio>

#include "core/internal/trace_text.h"

namespace zar::core {
namespace {

using internal::Waiter;

// "(idle=0 active=1 reserved=0 waiters=0)".
struct Stats {
  char text[96];
  explicit Stats(const AsyncPool* pool) {
    snprintf(text, sizeof(text),
             "(idle=%" PRIu32 " active=%" PRIu32 " reserved=%" PRIu32
             " waiters=%" PRIu32 ")",
             pool->idle.size(), pool->active_count, pool->reserved_count,
             pool->waiters.size());
  }
};

struct Token {
  char text[ZEND_ASYNC_REF_NAME_SIZE];
  explicit Token(const AsyncPool* pool) { PoolToken(pool, text); }
};

using Value = internal::ValueText<>;
using Exception = internal::ExceptionText<>;
using CoroutineName = internal::CoroutineText;

}  // namespace

const char* PoolToken(const AsyncPool* pool,
                      char buf[ZEND_ASYNC_REF_NAME_SIZE]) {
  return internal::TokenText::Format(buf, "Pool", pool->id);
}

void TracePoolCreate(const AsyncPool* pool) {
  zend_async_ref_trace("pool create %s (min=%" PRIu32 " max=%" PRIu32 ")",
                       Token(pool).text, pool->base.min_size,
                       pool->base.max_size);
}

void TracePoolAcquired(const AsyncPool* pool, bool try_acquire, bool fresh,
                       const zval* resource) {
  zend_async_ref_trace("pool %s %s -> %s %s %s",
                       try_acquire ? "try-acquire" : "acquire",
                       Token(pool).text, fresh ? "new" : "idle",
                       Value(resource).text, Stats(pool).text);
}

void TracePoolAcquireFailed(const AsyncPool* pool) {
  zend_async_ref_trace("pool acquire %s -> fail %s %s", Token(pool).text,
                       Exception(EG(exception)).text, Stats(pool).text);
}

void TracePoolTryAcquireNone(const AsyncPool* pool) {
  zend_async_ref_trace("pool try-acquire %s -> none %s", Token(pool).text,
                       Stats(pool).text);
}

void TracePoolWait(const AsyncPool* pool) {
  zend_async_ref_trace("pool acquire %s -> wait %s", Token(pool).text,
                       Stats(pool).text);
}

void TracePoolWaitEnded(const AsyncPool* pool, bool reserved) {
  if (EG(exception) == nullptr) {
    zend_async_ref_trace("pool wait %s -> %s %s", Token(pool).text,
                         reserved ? "reserved" : "woken", Stats(pool).text);
  } else {
    zend_async_ref_trace("pool wait %s -> %s %s", Token(pool).text,
                         Exception(EG(exception)).text, Stats(pool).text);
  }
}

void TracePoolReserve(const AsyncPool* pool, const Waiter* waiter) {
  zend_async_ref_trace("pool reserve %s for %s %s", Token(pool).text,
                       CoroutineName(waiter->callback.coroutine).text,
                       Stats(pool).text);
}

void TracePoolWake(const AsyncPool* pool, const Waiter* waiter,
                   zend_object* error) {
  internal::TraceWake("pool", Token(pool).text, waiter->callback.coroutine,
                      error);
}

void TracePoolHandOn(const AsyncPool* pool) {
  internal::TraceHandOn("pool", Token(pool).text, Stats(pool).text);
}

void TracePoolRelease(const AsyncPool* pool, const zval* resource,
                      const char* outcome) {
  zend_async_ref_trace("pool release %s %s -> %s %s", Token(pool).text,
                       Value(resource).text, outcome, Stats(pool).text);
}

void TracePoolReject(const AsyncPool* pool, const zval* resource,
                     const char* hook) {
  zend_async_ref_trace("pool reject %s %s by %s", Token(pool).text,
                       Value(resource).text, hook);
}

void TracePoolDestroy(const AsyncPool* pool, const zval* resource) {
  zend_async_ref_trace("pool destroy %s %s", Token(pool).text,
                       Value(resource).text);
}

void TracePoolClose(const AsyncPool* pool) {
  zend_async_ref_trace("pool close %s %s", Token(pool).text, Stats(pool).text);
}

void TracePoolDispose(const AsyncPool* pool) {
  zend_async_ref_trace("pool dispose %s", Token(pool).text);
}

}  // namespace zar::core
