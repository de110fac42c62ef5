/*
 * zend-async-ref: mock Zend engine. The engine side of debug_backtrace()
 * (PHP's zend_builtin_functions.h).
 *
 * Real for the frames the mock has: it runs no PHP code, so the stack is
 * the chain of internal calls (EG(current_execute_data)), innermost first.
 * Each frame is PHP's array of "function", for a method "class", "object"
 * (with DEBUG_BACKTRACE_PROVIDE_OBJECT, when there is a $this) and "type"
 * ("->" or "::"), and "args" (unless DEBUG_BACKTRACE_IGNORE_ARGS); internal
 * frames have no "file" or "line". skip_last leaves out that many innermost
 * frames; limit > 0 keeps at most that many. Outside any call the
 * backtrace is an empty array.
 */
#ifndef ZEND_BUILTIN_FUNCTIONS_H
#define ZEND_BUILTIN_FUNCTIONS_H

#include "zend_types.h"

BEGIN_EXTERN_C()

ZEND_API void zend_fetch_debug_backtrace(zval *return_value, int skip_last,
                                         int options, int limit);

END_EXTERN_C()

#endif /* ZEND_BUILTIN_FUNCTIONS_H */
