/*
 * zend-async-ref: mock Zend engine. The file-status and offset types the
 * Async IO part of the ABI names.
 */
#ifndef ZEND_STREAM_H
#define ZEND_STREAM_H

#include <sys/stat.h>
#include <unistd.h>

#include "zend_types.h"

typedef struct stat zend_stat_t;

/* PHP's portable names for the POSIX file calls (zend_stream.h). */
#define zend_fseek fseek
#define zend_ftell ftell
#define zend_lseek lseek
#define zend_fstat fstat
#define zend_stat stat

#endif /* ZEND_STREAM_H */
