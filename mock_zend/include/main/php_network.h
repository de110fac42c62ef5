/*
 * zend-async-ref: mock PHP.
 *
 * PHP's socket portability layer, POSIX half: the socket handle type, its
 * error value and errno access, closesocket, and the helpers that work on
 * a plain descriptor. The mock has no network stream transports.
 *
 * Threading: the functions are thread-safe (they touch only their
 * arguments and errno).
 */
#ifndef PHP_NETWORK_H
#define PHP_NETWORK_H

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

#include "php.h"

BEGIN_EXTERN_C()

typedef int php_socket_t;

#define SOCK_ERR -1
#define SOCK_CONN_ERR -1
#define SOCK_RECV_ERR -1

#define closesocket close
#define php_socket_errno() errno

#define PHP_SOCK_CHUNK_SIZE 8192

typedef struct sockaddr_storage php_sockaddr_storage;

/* The message of socket error `err`: written to `buf` (bufsize bytes) and
 * returned, or, with `buf` NULL, returned in a new emalloc'd string the
 * caller frees. */
PHPAPI char *php_socket_strerror(long err, char *buf, size_t bufsize);
/* The message of `err` as a new zend_string (caller releases). */
PHPAPI zend_string *php_socket_error_str(long err);

/* Puts `socketd` in blocking (block != 0) or non-blocking mode. SUCCESS,
 * or FAILURE with errno set. */
PHPAPI zend_result php_set_sock_blocking(php_socket_t socketd, bool block);

END_EXTERN_C()

#endif /* PHP_NETWORK_H */
