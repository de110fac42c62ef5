// zend-async-ref: mock PHP. phpinfo() tables in text form
// (ext/standard/info.h), printed with php_printf.

#include <cstdarg>

#include "engine_internal.h"

extern "C" {
#include "ext/standard/info.h"
}

namespace {

void PrintColumns(int num_cols, va_list ap) {
  for (int i = 0; i < num_cols; i++) {
    const char* column = va_arg(ap, const char*);
    php_printf("%s%s", i == 0 ? "" : " => ",
               column == nullptr || *column == '\0' ? "no value" : column);
  }
  php_printf("\n");
}

}  // namespace

extern "C" {

void php_info_print_table_start(void) { php_printf("\n"); }

void php_info_print_table_end(void) {}

void php_info_print_table_header(int num_cols, ...) {
  va_list ap;
  va_start(ap, num_cols);
  PrintColumns(num_cols, ap);
  va_end(ap);
}

void php_info_print_table_row(int num_cols, ...) {
  va_list ap;
  va_start(ap, num_cols);
  PrintColumns(num_cols, ap);
  va_end(ap);
}

void php_info_print_table_colspan_header(int num_cols, const char* header) {
  (void)num_cols;
  php_printf("%s\n", header);
}

void php_info_print_hr(void) {
  php_printf(
      "\n\n _______________________________________________________"
      "______________\n\n");
}

void php_info_print_module(zend_module_entry* module) {
  if (module->info_func != nullptr) {
    php_printf("\n%s\n", module->name);
    module->info_func(module);
  }
}

}  // extern "C"
