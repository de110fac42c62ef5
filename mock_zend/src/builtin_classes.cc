// zend-async-ref: mock Zend engine. The builtin classes and interfaces
// registered by php_module_startup() before any module's MINIT: stdClass,
// the core interfaces, the Throwable hierarchy, Closure, WeakReference and
// the SPL exceptions.

#include "engine_internal.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
#include "zend_weakrefs.h"
}

extern "C" {

zend_class_entry* zend_standard_class_def = nullptr;
zend_class_entry* zend_ce_traversable = nullptr;
zend_class_entry* zend_ce_countable = nullptr;
zend_class_entry* zend_ce_stringable = nullptr;
zend_class_entry* zend_ce_unit_enum = nullptr;
zend_class_entry* zend_ce_backed_enum = nullptr;

zend_class_entry* spl_ce_LogicException = nullptr;
zend_class_entry* spl_ce_InvalidArgumentException = nullptr;
zend_class_entry* spl_ce_RuntimeException = nullptr;
zend_class_entry* spl_ce_OutOfBoundsException = nullptr;
zend_class_entry* spl_ce_UnexpectedValueException = nullptr;

}  // extern "C"

namespace mock_zend::internal {

namespace {

zend_class_entry* Interface(const char* name) {
  return RegisterClass(name, nullptr, nullptr, ZEND_ACC_INTERFACE);
}

}  // namespace

void RegisterBuiltinClasses() {
  zend_standard_class_def = RegisterClass("stdClass", nullptr, nullptr, 0);

  zend_ce_traversable = Interface("Traversable");
  zend_ce_countable = Interface("Countable");
  zend_ce_stringable = Interface("Stringable");
  zend_ce_unit_enum = Interface("UnitEnum");
  zend_ce_backed_enum = Interface("BackedEnum");
  zend_class_implements(zend_ce_backed_enum, 1, zend_ce_unit_enum);
  RegisterIteratorClasses();

  RegisterThrowableClasses();
  RegisterClosureClass();
  RegisterWeakReferenceClass();

  spl_ce_LogicException =
      RegisterClass("LogicException", zend_ce_exception, nullptr, 0);
  spl_ce_InvalidArgumentException = RegisterClass(
      "InvalidArgumentException", spl_ce_LogicException, nullptr, 0);
  spl_ce_RuntimeException =
      RegisterClass("RuntimeException", zend_ce_exception, nullptr, 0);
  spl_ce_OutOfBoundsException = RegisterClass(
      "OutOfBoundsException", spl_ce_RuntimeException, nullptr, 0);
  spl_ce_UnexpectedValueException = RegisterClass(
      "UnexpectedValueException", spl_ce_RuntimeException, nullptr, 0);
}

void ResetBuiltinClassPointers() {
  zend_class_entry** pointers[] = {
      &zend_standard_class_def,
      &zend_ce_traversable,
      &zend_ce_aggregate,
      &zend_ce_iterator,
      &zend_ce_internal_iterator,
      &zend_ce_countable,
      &zend_ce_stringable,
      &zend_ce_unit_enum,
      &zend_ce_backed_enum,
      &zend_ce_throwable,
      &zend_ce_exception,
      &zend_ce_error_exception,
      &zend_ce_error,
      &zend_ce_compile_error,
      &zend_ce_type_error,
      &zend_ce_argument_count_error,
      &zend_ce_value_error,
      &zend_ce_arithmetic_error,
      &zend_ce_division_by_zero_error,
      &zend_ce_unhandled_match_error,
      &zend_ce_cancellation,
      &zend_ce_closure,
      &zend_ce_weakref,
      &spl_ce_LogicException,
      &spl_ce_InvalidArgumentException,
      &spl_ce_RuntimeException,
      &spl_ce_OutOfBoundsException,
      &spl_ce_UnexpectedValueException,
  };
  for (zend_class_entry** pointer : pointers) *pointer = nullptr;
}

}  // namespace mock_zend::internal
