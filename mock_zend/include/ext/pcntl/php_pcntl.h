/*
 * zend-async-ref: mock PHP.
 *
 * The process-control extension (ext/pcntl/php_pcntl.h), the part of it a
 * program that forks needs: its module entry, which a program loads like any
 * extension (php_module_startup's additional module, or a SAPI's module
 * list), and four of its functions, callable as PHP code calls them
 * (call_user_function by name):
 *
 *   pcntl_fork(): int        fork(2) as php-src's pcntl_fork() does under the
 *                            TrueAsync ABI (v0.24): ZEND_ASYNC_BEFORE_FORK()
 *                            first, in the parent; when it answers false the
 *                            call throws what the hook threw and does not
 *                            fork. Then fork(); in the child,
 *                            ZEND_ASYNC_AFTER_FORK_CHILD() right away. Returns
 *                            the child's pid in the parent, 0 in the child,
 *                            -1 (E_WARNING "Error <errno>: ...") on failure.
 *   pcntl_waitpid(int $process_id, &$status, int $flags = 0): int
 *                            waitpid(2); $status receives the status word
 *                            when it is passed by reference.
 *   pcntl_wifexited(int $status): bool
 *   pcntl_wexitstatus(int $status): int|false
 *
 * An embedder or an extension that forks by itself calls the same two ABI
 * macros around its fork(), as pcntl_fork() does.
 *
 * Threading: the request's thread. The child inherits only the forking
 * thread: whatever other threads the parent ran do not exist there.
 */
#ifndef PHP_PCNTL_H
#define PHP_PCNTL_H

#include "php.h"

BEGIN_EXTERN_C()

extern zend_module_entry pcntl_module_entry;
#define phpext_pcntl_ptr &pcntl_module_entry

#define PHP_PCNTL_VERSION PHP_VERSION

PHP_FUNCTION(pcntl_fork);
PHP_FUNCTION(pcntl_waitpid);
PHP_FUNCTION(pcntl_wifexited);
PHP_FUNCTION(pcntl_wexitstatus);

END_EXTERN_C()

#endif /* PHP_PCNTL_H */
