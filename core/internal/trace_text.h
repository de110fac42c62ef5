// zend-async-ref core: the text of a trace line's arguments, rendered into
// a buffer in the frame of the Trace* function that emits the line (the
// subsystems' trace.cc files):
//
//   zend_async_ref_trace("pool wake %s %s -> %s", TokenText("Pool", id).text,
//                        CoroutineText(coroutine).text,
//                        ExceptionText(error).text);
//
// Each renders as zend_async_ref/trace.h does, cut to its buffer: a value
// ("int(1)", zend_async_ref_describe_zval), an exception
// ('Async\PoolException "Pool is closed"'), in 96 and 256 bytes unless a
// line gives its own size; a coroutine ("#4", "main"); an object's token
// ("Pool#1").
//
// Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_TRACE_TEXT_H_
#define ZAR_CORE_INTERNAL_TRACE_TEXT_H_

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>

extern "C" {
#include "zend_async_ref/trace.h"
}

namespace zar::core::internal {

template <size_t kSize = 96>
struct ValueText {
  char text[kSize];
  explicit ValueText(const zval* value) {
    zend_async_ref_describe_zval(value, false, text, sizeof(text));
  }
};

template <size_t kSize = 256>
struct ExceptionText {
  char text[kSize];
  explicit ExceptionText(zend_object* exception) {
    zend_async_ref_describe_exception(exception, text, sizeof(text));
  }
};

struct CoroutineText {
  char text[ZEND_ASYNC_REF_NAME_SIZE];
  explicit CoroutineText(const zend_coroutine_t* coroutine) {
    zend_async_ref_coroutine_name(coroutine, text);
  }
};

// "<kind>#<id>": the name of a pool, a channel, a task group in its lines.
struct TokenText {
  char text[ZEND_ASYNC_REF_NAME_SIZE];
  TokenText(const char* kind, uint64_t id) { Format(text, kind, id); }
  static const char* Format(char buf[ZEND_ASYNC_REF_NAME_SIZE],
                            const char* kind, uint64_t id) {
    snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "%s#%" PRIu64, kind, id);
    return buf;
  }
};

// The lines an owner event (the pool, the channel: `kind`) emits alike:
// close wakes a parked waiter's coroutine with `error`; a woken waiter that
// could not use its reservation passes it on. `token` and `stats` are the
// owner's ("Pool#1", "(idle=0 ...)").
inline void TraceWake(const char* kind, const char* token,
                      const zend_coroutine_t* coroutine, zend_object* error) {
  zend_async_ref_trace("%s wake %s %s -> %s", kind, token,
                       CoroutineText(coroutine).text,
                       ExceptionText<>(error).text);
}
inline void TraceHandOn(const char* kind, const char* token,
                        const char* stats) {
  zend_async_ref_trace("%s hand-on %s %s", kind, token, stats);
}

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_TRACE_TEXT_H_
