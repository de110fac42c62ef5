/* An extension author's program against the installed package: includes
 * the ABI header the way php-src code does, starts the mock engine with no
 * async extension, and checks the ABI's defaults. Exit status 0 = pass. */
#include <stdio.h>

#include "Zend/zend_async_API.h"
#include "php_main.h"

static int check(int ok, const char* what) {
  if (!ok) fprintf(stderr, "consumer: FAILED: %s\n", what);
  return ok ? 0 : 1;
}

int main(void) {
  int failures = 0;
  sapi_startup(&php_mock_sapi_module);
  failures += check(php_module_startup(&php_mock_sapi_module, NULL) == SUCCESS,
                    "module startup");
  failures += check(php_request_startup() == SUCCESS, "request startup");

  failures += check(
      zend_async_get_api_version_number() == ZEND_ASYNC_API_VERSION_NUMBER,
      "API version number");
  failures += check(!zend_async_is_enabled(), "async disabled by default");
  failures += check(ZEND_ASYNC_SPAWN() == NULL && EG(exception) != NULL,
                    "spawn without a scheduler throws");
  zend_clear_exception();

  php_request_shutdown(NULL);
  failures +=
      check(php_mock_last_request_report().leaked_blocks == 0, "no leaks");
  php_module_shutdown();
  sapi_shutdown();
  if (failures == 0) printf("consumer: OK (%s)\n", ZEND_ASYNC_API);
  return failures == 0 ? 0 : 1;
}
