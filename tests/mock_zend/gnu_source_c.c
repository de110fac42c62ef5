/*
 * A consumer compiled with plain `cc`, without -D_GNU_SOURCE (CMake passes
 * -U_GNU_SOURCE for this file), that includes php.h first as an extension
 * does: the GNU/POSIX declarations PHP's configuration makes visible must
 * be there.
 */
#ifdef _GNU_SOURCE
#error "this file must be compiled without _GNU_SOURCE to test php.h"
#endif

// clang-format off: php.h must come before any system header.
#include "php.h"
// clang-format on

#include <stdlib.h>
#include <time.h>

#include "tests/mock_zend/gnu_source_c.h"

int surface_c_gnu_api_check(void) {
  sigjmp_buf buf; /* POSIX; the engine's own bailout buffer type */
  if (sigsetjmp(buf, 0) != 0) return __LINE__;
  char* resolved = realpath("/", NULL);
  if (resolved == NULL || strcmp(resolved, "/") != 0) return __LINE__;
  free(resolved);
  time_t epoch = 0;
  struct tm tm;
  if (gmtime_r(&epoch, &tm) == NULL || tm.tm_year != 70) return __LINE__;
  return 0;
}
