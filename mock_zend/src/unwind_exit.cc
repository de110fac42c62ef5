// zend-async-ref: mock Zend engine. PHP's internal unwinding objects
// (zend_exceptions.h): UnwindExit and GracefulExit.
//
// As in PHP, their class entries are the engine's own: never in the class
// table, not Throwable, without properties or methods; objects of them are
// standard objects in the object store. The entries are filled in at module
// startup (their names are interned strings of the running engine).

#include "engine_internal.h"

namespace {

zend_class_entry unwind_exit_ce;
zend_class_entry graceful_exit_ce;

void InitExitClass(zend_class_entry* ce, const char* name) {
  memset(ce, 0, sizeof(*ce));
  ce->type = ZEND_INTERNAL_CLASS;
  ce->name = zend_string_init_interned(name, strlen(name), true);
  ce->ce_flags = ZEND_ACC_FINAL;
}

}  // namespace

namespace mock_zend::internal {

void ExitClassesStartup() {
  InitExitClass(&unwind_exit_ce, "UnwindExit");
  InitExitClass(&graceful_exit_ce, "GracefulExit");
}

}  // namespace mock_zend::internal

extern "C" {

zend_object* zend_create_unwind_exit(void) {
  return zend_objects_new(&unwind_exit_ce);
}

zend_object* zend_create_graceful_exit(void) {
  return zend_objects_new(&graceful_exit_ce);
}

void zend_throw_unwind_exit(void) {
  zend_throw_exception_internal(zend_create_unwind_exit());
}

void zend_throw_graceful_exit(void) {
  zend_throw_exception_internal(zend_create_graceful_exit());
}

bool zend_is_unwind_exit(const zend_object* ex) {
  return ex != nullptr && ex->ce == &unwind_exit_ce;
}

bool zend_is_graceful_exit(const zend_object* ex) {
  return ex != nullptr && ex->ce == &graceful_exit_ce;
}

}  // extern "C"
