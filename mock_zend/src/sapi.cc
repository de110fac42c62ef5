// zend-async-ref: mock PHP. The SAPI layer (main/SAPI.h): the running
// SAPI's module struct, the SAPI globals and their lifecycle.
//
// Threading: one SAPI per process, on the engine's thread (non-ZTS).

#include <cstring>

#include "engine_internal.h"

extern "C" {

sapi_module_struct sapi_module;
sapi_globals_struct sapi_globals;

}  // extern "C"

namespace {

int MockSapiStartup(sapi_module_struct* sapi) {
  return php_module_startup(sapi, nullptr);
}

// Zeroes SG(); zvals and the embedded hash table are left UNDEF/empty, as
// nothing in the mock fills them.
void ResetSapiGlobals() {
  memset(&sapi_globals, 0, sizeof(sapi_globals));
  ZVAL_UNDEF(&SG(callback_func));
}

}  // namespace

extern "C" {

sapi_module_struct php_mock_sapi_module = {
    const_cast<char*>("mock"),
    const_cast<char*>("zend-async-ref mock SAPI"),
    MockSapiStartup,
    php_module_shutdown_wrapper,
    nullptr,  // activate
    nullptr,  // deactivate
    nullptr,  // ub_write: stdout
    nullptr,  // flush
    nullptr,  // get_stat
    nullptr,  // getenv
    php_error,
    nullptr,  // header_handler
    nullptr,  // send_headers
    nullptr,  // send_header
    nullptr,  // read_post
    nullptr,  // read_cookies
    nullptr,  // register_server_variables
    nullptr,  // log_message: the engine's error log only
    nullptr,  // get_request_time
    nullptr,  // terminate_process
    STANDARD_SAPI_MODULE_PROPERTIES};

void sapi_startup(sapi_module_struct* sf) {
  if (sf == nullptr) {
    zend_error(E_CORE_WARNING, "sapi_startup() needs a SAPI module struct");
    return;
  }
  sf->ini_entries = nullptr;
  sapi_module = *sf;
  ResetSapiGlobals();
  SG(sapi_started) = true;
}

void sapi_shutdown(void) {
  if (!SG(sapi_started)) return;
  ResetSapiGlobals();
  memset(&sapi_module, 0, sizeof(sapi_module));
}

void sapi_initialize_empty_request(void) {
  SG(server_context) = nullptr;
  SG(request_info).request_method = nullptr;
  SG(request_info).auth_digest = nullptr;
  SG(request_info).auth_user = nullptr;
  SG(request_info).auth_password = nullptr;
  SG(request_info).content_type_dup = nullptr;
  memset(&SG(sapi_headers), 0, sizeof(SG(sapi_headers)));
  SG(sapi_headers).http_response_code = 200;
}

void sapi_activate(void) {
  SG(sapi_headers).http_response_code = 0;
  SG(headers_sent) = 0;
  SG(read_post_bytes) = 0;
  SG(post_read) = 0;
  SG(request_info).headers_read = false;
  if (sapi_module.activate != nullptr) sapi_module.activate();
}

void sapi_deactivate(void) {
  if (sapi_module.deactivate != nullptr) sapi_module.deactivate();
}

int sapi_flush(void) {
  if (sapi_module.name == nullptr && !SG(sapi_started)) return FAILURE;
  if (sapi_module.flush != nullptr) sapi_module.flush(SG(server_context));
  return SUCCESS;
}

}  // extern "C"
