/*
 * zend-async-ref: mock Zend engine. The file-status and offset types the
 * Async IO part of the ABI names.
 */
#ifndef ZEND_STREAM_H
#define ZEND_STREAM_H

#include <sys/stat.h>

#include "zend_types.h"

typedef struct stat zend_stat_t;

#endif /* ZEND_STREAM_H */
