/*
 * zend-async-ref: mock Zend engine.
 *
 * The high-resolution monotonic clock: zend_hrtime() is nanoseconds of
 * CLOCK_MONOTONIC (since an unspecified start, never going backwards), as in
 * PHP on POSIX; 0 if the clock cannot be read. Thread-safe.
 */
#ifndef ZEND_HRTIME_H
#define ZEND_HRTIME_H

#include <time.h>
#include <unistd.h>

#include "zend_portability.h"
#include "zend_types.h"

#define ZEND_HRTIME_PLATFORM_POSIX 1
#define ZEND_HRTIME_PLATFORM_WINDOWS 0
#define ZEND_HRTIME_PLATFORM_APPLE 0
#define ZEND_HRTIME_PLATFORM_HPUX 0
#define ZEND_HRTIME_PLATFORM_AIX 0
#define ZEND_HRTIME_AVAILABLE 1

BEGIN_EXTERN_C()

#define ZEND_NANO_IN_SEC UINT64_C(1000000000)

typedef uint64_t zend_hrtime_t;

/* Prepares the clock (PHP calls it at engine startup); nothing to prepare
 * on POSIX. */
ZEND_API void zend_startup_hrtime(void);

static zend_always_inline zend_hrtime_t zend_hrtime(void) {
  struct timespec ts = {0, 0};
  if (EXPECTED(0 == clock_gettime(CLOCK_MONOTONIC, &ts))) {
    return ((zend_hrtime_t)ts.tv_sec * (zend_hrtime_t)ZEND_NANO_IN_SEC) +
           (zend_hrtime_t)ts.tv_nsec;
  }
  return 0;
}

END_EXTERN_C()

#endif /* ZEND_HRTIME_H */
