/*
 * zend-async-ref: mock PHP.
 *
 * Unique temporary files, as PHP's main/php_open_temporary_file.h: the file
 * is created (mode 0600) in `dir`, or in the temporary directory when `dir`
 * is NULL, empty or unusable, with a name starting with `pfx`. The
 * PHP_TMP_FILE_* flags concern open_basedir, which the mock does not have:
 * they are accepted and ignored. On success the descriptor is returned and,
 * when `opened_path_p` is given, the path as a new request string the caller
 * releases; on failure -1 (errno set).
 *
 * The temporary directory is $TMPDIR when set and non-empty, else /tmp
 * (PHP consults sys_temp_dir first; the mock has no php.ini).
 */
#ifndef PHP_OPEN_TEMPORARY_FILE_H
#define PHP_OPEN_TEMPORARY_FILE_H

#include "php.h"

#define PHP_TMP_FILE_DEFAULT 0
#define PHP_TMP_FILE_OPEN_BASEDIR_CHECK_ON_FALLBACK (1 << 0)
#define PHP_TMP_FILE_SILENT (1 << 1)
#define PHP_TMP_FILE_OPEN_BASEDIR_CHECK_ON_EXPLICIT_DIR (1 << 2)
#define PHP_TMP_FILE_OPEN_BASEDIR_CHECK_ALWAYS   \
  (PHP_TMP_FILE_OPEN_BASEDIR_CHECK_ON_FALLBACK | \
   PHP_TMP_FILE_OPEN_BASEDIR_CHECK_ON_EXPLICIT_DIR)

BEGIN_EXTERN_C()

/* As php_open_temporary_fd_ex, as a FILE* ("r+b"), or NULL. */
PHPAPI FILE *php_open_temporary_file(const char *dir, const char *pfx,
                                     zend_string **opened_path_p);
PHPAPI int php_open_temporary_fd_ex(const char *dir, const char *pfx,
                                    zend_string **opened_path_p,
                                    uint32_t flags);
PHPAPI int php_open_temporary_fd(const char *dir, const char *pfx,
                                 zend_string **opened_path_p);
/* The temporary directory (static storage, no trailing slash). */
PHPAPI const char *php_get_temporary_directory(void);

END_EXTERN_C()

#endif /* PHP_OPEN_TEMPORARY_FILE_H */
