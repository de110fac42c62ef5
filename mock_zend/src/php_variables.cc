// zend-async-ref: mock PHP. Request variables (main/php_variables.h).

#include "engine_internal.h"

extern "C" {
#include "main/php_variables.h"
}

extern "C" {

void php_default_treat_data(int arg, char* str, zval* destArray) {
  (void)arg;
  (void)destArray;
  if (str != nullptr) efree(str);
  mock_zend::internal::Unsupported(
      "php_default_treat_data",
      "the mock has no request input nor PHP's variable registration");
}

}  // extern "C"
