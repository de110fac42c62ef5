/*
 * zend-async-ref: mock Zend engine.
 *
 * The VCWD_* file-system macros. The mock is built like a PHP without a
 * virtual working directory (non-ZTS): each macro is the plain POSIX call
 * on the process's working directory, with its return value and errno.
 */
#ifndef VIRTUAL_CWD_H
#define VIRTUAL_CWD_H

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <utime.h>

#include "zend_portability.h"

#ifndef MAXPATHLEN
#define MAXPATHLEN PATH_MAX
#endif

#define DEFAULT_SLASH '/'
#define DEFAULT_DIR_SEPARATOR ':'
#define IS_SLASH(c) ((c) == '/')
#define IS_ABSOLUTE_PATH(path, len) (IS_SLASH((path)[0]))

#define CWD_API ZEND_API

typedef struct stat zend_stat_t;
#define php_sys_stat stat
#define php_sys_lstat lstat
#define php_sys_fstat fstat

/* realpath(3) into `real_path` (MAXPATHLEN bytes): `real_path`, or NULL
 * with errno set. */
static zend_always_inline char *tsrm_realpath(const char *path,
                                              char *real_path) {
  return realpath(path, real_path);
}

#define VCWD_GETCWD(buff, size) getcwd(buff, size)
#define VCWD_FOPEN(path, mode) fopen(path, mode)
#define VCWD_OPEN(path, flags) open(path, flags)
#define VCWD_OPEN_MODE(path, flags, mode) open(path, flags, mode)
#define VCWD_CREAT(path, mode) creat(path, mode)
#define VCWD_RENAME(oldname, newname) rename(oldname, newname)
#define VCWD_MKDIR(pathname, mode) mkdir(pathname, mode)
#define VCWD_RMDIR(pathname) rmdir(pathname)
#define VCWD_UNLINK(path) unlink(path)
#define VCWD_CHDIR(path) chdir(path)
#define VCWD_ACCESS(pathname, mode) access(pathname, mode)
#define VCWD_STAT(path, buff) php_sys_stat(path, buff)
#define VCWD_LSTAT(path, buff) lstat(path, buff)
#define VCWD_OPENDIR(pathname) opendir(pathname)
#define VCWD_POPEN(command, type) popen(command, type)
#define VCWD_REALPATH(path, real_path) tsrm_realpath(path, real_path)
#define VCWD_UTIME(path, time) utime(path, time)
#define VCWD_CHMOD(path, mode) chmod(path, mode)
#define VCWD_CHOWN(path, owner, group) chown(path, owner, group)
#define VCWD_LCHOWN(path, owner, group) lchown(path, owner, group)

#endif /* VIRTUAL_CWD_H */
