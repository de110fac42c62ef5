// zend-async-ref: mock PHP. The process-control extension's fork and wait
// functions (ext/pcntl/php_pcntl.h), as php-src's ext/pcntl/pcntl.c has them
// under the TrueAsync ABI: pcntl_fork() asks the async extension first and
// lets it give the child a reactor of its own.

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "engine_internal.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "ext/pcntl/php_pcntl.h"
}

extern "C" {

PHP_FUNCTION(pcntl_fork) {
  ZEND_PARSE_PARAMETERS_NONE();

  // The parent asks first: with coroutines other than main alive the async
  // extension refuses (its hook throws and answers false) and nothing forks.
  if (!ZEND_ASYNC_BEFORE_FORK()) {
    RETURN_THROWS();
  }

  const pid_t id = fork();
  if (id == -1) {
    const int error = errno;
    switch (error) {
      case EAGAIN:
        php_error_docref(
            nullptr, E_WARNING,
            "Error %d: Reached the maximum limit of number of processes",
            error);
        break;
      case ENOMEM:
        php_error_docref(nullptr, E_WARNING, "Error %d: Insufficient memory",
                         error);
        break;
      default:
        php_error_docref(nullptr, E_WARNING, "Error %d", error);
    }
  } else if (id == 0) {
    // The child: the first thing it does is give the async extension the
    // chance to leave the parent's reactor (a shared epoll instance).
    ZEND_ASYNC_AFTER_FORK_CHILD();
  }
  RETURN_LONG(static_cast<zend_long>(id));
}

PHP_FUNCTION(pcntl_waitpid) {
  zend_long pid = 0;
  zval* status_zv = nullptr;
  zend_long options = 0;
  ZEND_PARSE_PARAMETERS_START(2, 3)
  Z_PARAM_LONG(pid)
  Z_PARAM_ZVAL(status_zv)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG(options)
  ZEND_PARSE_PARAMETERS_END();

  int status = 0;
  pid_t child;
  do {
    child =
        waitpid(static_cast<pid_t>(pid), &status, static_cast<int>(options));
  } while (child == -1 && errno == EINTR);

  // By reference, as PHP passes $status: the status word goes back to the
  // caller's variable. A value passed by copy is left alone.
  if (Z_ISREF_P(status_zv)) {
    zval* target = Z_REFVAL_P(status_zv);
    zval_ptr_dtor(target);
    ZVAL_LONG(target, status);
  }
  RETURN_LONG(static_cast<zend_long>(child));
}

PHP_FUNCTION(pcntl_wifexited) {
  zend_long status_word = 0;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_LONG(status_word)
  ZEND_PARSE_PARAMETERS_END();
  RETURN_BOOL(WIFEXITED(static_cast<int>(status_word)));
}

PHP_FUNCTION(pcntl_wexitstatus) {
  zend_long status_word = 0;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_LONG(status_word)
  ZEND_PARSE_PARAMETERS_END();
  RETURN_LONG(WEXITSTATUS(static_cast<int>(status_word)));
}

namespace {

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_pcntl_fork, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_pcntl_waitpid, 0, 2, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, process_id, IS_LONG, 0)
ZEND_ARG_INFO(1, status)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, flags, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_pcntl_wifexited, 0, 1, _IS_BOOL,
                                        0)
ZEND_ARG_TYPE_INFO(0, status, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_pcntl_wexitstatus, 0, 1,
                                        MAY_BE_LONG | MAY_BE_FALSE)
ZEND_ARG_TYPE_INFO(0, status, IS_LONG, 0)
ZEND_END_ARG_INFO()

const zend_function_entry kPcntlFunctions[] = {
    ZEND_FE(pcntl_fork, arginfo_pcntl_fork)
        ZEND_FE(pcntl_waitpid, arginfo_pcntl_waitpid)
            ZEND_FE(pcntl_wifexited, arginfo_pcntl_wifexited) ZEND_FE(
                pcntl_wexitstatus, arginfo_pcntl_wexitstatus) ZEND_FE_END,
};

}  // namespace

zend_module_entry pcntl_module_entry = {
    STANDARD_MODULE_HEADER,
    "pcntl",
    kPcntlFunctions,
    nullptr,  // MINIT
    nullptr,  // MSHUTDOWN
    nullptr,  // RINIT
    nullptr,  // RSHUTDOWN
    nullptr,  // MINFO
    PHP_PCNTL_VERSION,
    STANDARD_MODULE_PROPERTIES,
};

}  // extern "C"
