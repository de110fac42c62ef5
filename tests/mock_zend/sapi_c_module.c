/* A SAPI written in C the way PHP's own are: a sapi_module_struct
 * initialised positionally (a member out of PHP's order or of another type
 * fails to compile under -Werror), the headers a SAPI includes, and the
 * non-ZTS, non-ZEND_SIGNALS macros it calls. sapi_test.cc drives it. */
#include "tests/mock_zend/sapi_c_module.h"

#include <TSRM/TSRM.h>
#include <Zend/zend_long.h>
#include <main/SAPI.h>
#include <main/php.h>
#include <main/php_main.h>
#include <main/php_variables.h>
#include <zend_signal.h>

char c_sapi_events[256];

static void note(const char* event) {
  strncat(c_sapi_events, event,
          sizeof(c_sapi_events) - strlen(c_sapi_events) - 1);
}

static int c_startup(sapi_module_struct* sapi) {
  note("startup;");
  return php_module_startup(sapi, NULL);
}
static int c_activate(void) {
  note("activate;");
  return SUCCESS;
}
static int c_deactivate(void) {
  note("deactivate;");
  return SUCCESS;
}
static size_t c_ub_write(const char* str, size_t len) {
  (void)str;
  return len;
}
static void c_flush(void* ctx) { (void)ctx; }
static int c_send_headers(sapi_headers_struct* h) {
  (void)h;
  return SAPI_HEADER_SENT_SUCCESSFULLY;
}
static void c_send_header(sapi_header_struct* h, void* c) {
  (void)h;
  (void)c;
}
static size_t c_read_post(char* buf, size_t n) {
  (void)buf;
  (void)n;
  return 0;
}
static char* c_read_cookies(void) { return NULL; }
static void c_register_variables(zval* v) { (void)v; }
static void c_log(const char* m, int t) {
  (void)m;
  (void)t;
}

static sapi_module_struct c_sapi_module = {"c-sapi",
                                           "a SAPI written in C",

                                           c_startup,
                                           php_module_shutdown_wrapper,

                                           c_activate,
                                           c_deactivate,

                                           c_ub_write,
                                           c_flush,
                                           NULL,
                                           NULL,

                                           php_error,

                                           NULL,
                                           c_send_headers,
                                           c_send_header,

                                           c_read_post,
                                           c_read_cookies,

                                           c_register_variables,
                                           c_log,
                                           NULL,
                                           NULL,

                                           STANDARD_SAPI_MODULE_PROPERTIES};

int c_sapi_run(void) {
  TSRMLS_CACHE_UPDATE();
  zend_signal_startup();
  c_sapi_events[0] = '\0';

  sapi_startup(&c_sapi_module);
  c_sapi_module.phpinfo_as_text = 1;
  if (c_sapi_module.startup(&c_sapi_module) == FAILURE) {
    sapi_shutdown();
    return FAILURE;
  }
  if (php_request_startup() == FAILURE) return FAILURE;
  note("request;");
  zend_try { php_request_shutdown(NULL); }
  zend_end_try();
  c_sapi_module.shutdown(&c_sapi_module);
  sapi_shutdown();
  return SUCCESS;
}

unsigned long long c_zend_ulong_max(void) { return ZEND_ULONG_MAX; }
