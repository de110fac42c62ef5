/*
 * zend-async-ref: mock Zend engine. Error levels, with PHP's values.
 */
#ifndef ZEND_ERRORS_H
#define ZEND_ERRORS_H

#define E_ERROR (1 << 0L)
#define E_WARNING (1 << 1L)
#define E_PARSE (1 << 2L)
#define E_NOTICE (1 << 3L)
#define E_CORE_ERROR (1 << 4L)
#define E_CORE_WARNING (1 << 5L)
#define E_COMPILE_ERROR (1 << 6L)
#define E_COMPILE_WARNING (1 << 7L)
#define E_USER_ERROR (1 << 8L)
#define E_USER_WARNING (1 << 9L)
#define E_USER_NOTICE (1 << 10L)
#define E_STRICT (1 << 11L)
#define E_RECOVERABLE_ERROR (1 << 12L)
#define E_DEPRECATED (1 << 13L)
#define E_USER_DEPRECATED (1 << 14L)

#define E_ALL                                                                 \
  (E_ERROR | E_WARNING | E_PARSE | E_NOTICE | E_CORE_ERROR | E_CORE_WARNING | \
   E_COMPILE_ERROR | E_COMPILE_WARNING | E_USER_ERROR | E_USER_WARNING |      \
   E_USER_NOTICE | E_RECOVERABLE_ERROR | E_DEPRECATED | E_USER_DEPRECATED)

/* Report without bailing out, whatever the level (PHP's E_DONT_BAIL). */
#define E_DONT_BAIL (1 << 15L)

/* Levels after which PHP does not continue: the mock records them and then
 * bails out when a zend_try is active (see zend_error). */
#define E_FATAL_ERRORS                                       \
  (E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR | \
   E_RECOVERABLE_ERROR | E_PARSE)

#endif /* ZEND_ERRORS_H */
