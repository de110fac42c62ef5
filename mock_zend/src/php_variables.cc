// zend-async-ref: mock PHP. Request variables (main/php_variables.h).

#include "engine_internal.h"

extern "C" {
#include "php_variables.h"
}

extern "C" {

void php_register_variable(const char* var, const char* val,
                           zval* track_vars_array) {
  if (var == nullptr || val == nullptr || track_vars_array == nullptr ||
      Z_TYPE_P(track_vars_array) != IS_ARRAY) {
    return;
  }
  add_assoc_string(track_vars_array, var, val);
}

}  // extern "C"
