// zend-async-ref: mock PHP. The embed SAPI (sapi/embed/php_embed.h).
//
// Threading: one embedded engine per process, on the calling thread.

#include <cstdio>

#include "engine_internal.h"

extern "C" {
#include "sapi/embed/php_embed.h"
}

namespace {

// php_embed_init() succeeded and php_embed_shutdown() has not run.
bool embed_started = false;

int EmbedStartup(sapi_module_struct* sapi) {
  return php_module_startup(sapi, nullptr);
}

int EmbedDeactivate(void) {
  fflush(stdout);
  return SUCCESS;
}

size_t EmbedUbWrite(const char* str, size_t str_length) {
  return fwrite(str, 1, str_length, stdout);
}

void EmbedFlush(void* server_context) {
  (void)server_context;
  fflush(stdout);
}

void EmbedSendHeader(sapi_header_struct* sapi_header, void* server_context) {
  (void)sapi_header;
  (void)server_context;
}

char* EmbedReadCookies(void) { return nullptr; }

void EmbedLogMessage(const char* message, int syslog_type_int) {
  (void)syslog_type_int;
  fprintf(stderr, "%s\n", message);
}

}  // namespace

extern "C" {

sapi_module_struct php_embed_module = {
    const_cast<char*>("embed"),                /* name */
    const_cast<char*>("PHP Embedded Library"), /* pretty name */
    EmbedStartup,                              /* startup */
    php_module_shutdown_wrapper,               /* shutdown */
    nullptr,                                   /* activate */
    EmbedDeactivate,                           /* deactivate */
    EmbedUbWrite,                              /* unbuffered write */
    EmbedFlush,                                /* flush */
    nullptr,                                   /* get uid */
    nullptr,                                   /* getenv */
    php_error,                                 /* error handler */
    nullptr,                                   /* header handler */
    nullptr,                                   /* send headers handler */
    EmbedSendHeader,                           /* send header handler */
    nullptr,                                   /* read POST data */
    EmbedReadCookies,                          /* read Cookies */
    nullptr,                                   /* register server variables */
    EmbedLogMessage,                           /* Log message */
    nullptr,                                   /* Get request time */
    nullptr,                                   /* Child terminate */
    STANDARD_SAPI_MODULE_PROPERTIES};

int php_embed_init(int argc, char** argv) {
  if (embed_started || php_module_started()) {
    zend_error(E_CORE_WARNING,
               "php_embed_init(): the engine is already started");
    return FAILURE;
  }
  sapi_startup(&php_embed_module);
  if (argv != nullptr) php_embed_module.executable_location = argv[0];
  if (php_embed_module.startup(&php_embed_module) == FAILURE) {
    php_module_shutdown();
    sapi_shutdown();
    return FAILURE;
  }
  SG(options) |= SAPI_OPTION_NO_CHDIR;
  SG(request_info).argc = argc;
  SG(request_info).argv = argv;
  if (php_request_startup() == FAILURE) {
    php_request_shutdown(nullptr);
    php_module_shutdown();
    sapi_shutdown();
    return FAILURE;
  }
  SG(headers_sent) = 1;
  SG(request_info).no_headers = true;
  embed_started = true;
  return SUCCESS;
}

void php_embed_shutdown(void) {
  if (!embed_started) return;
  embed_started = false;
  php_request_shutdown(nullptr);
  php_module_shutdown();
  sapi_shutdown();
}

}  // extern "C"
