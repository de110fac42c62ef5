// Registering the task group classes (classes.h).

#include "core/task_group/classes.h"

#include <cstring>
#include <initializer_list>

#include "core/internal/php_object.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
}

namespace zar::core {
namespace {

zend_class_entry* task_group_ce = nullptr;
zend_class_entry* task_set_ce = nullptr;
zend_class_entry* composite_exception_ce = nullptr;

}  // namespace

zend_class_entry* RegisterTaskGroupClasses(zend_class_entry* awaitable) {
  // final class Async\CompositeException extends \Exception, no dynamic
  // properties (@strict-properties), as upstream's stub.
  composite_exception_ce = internal::RegisterClass(
      {.name = "Async\\CompositeException",
       .flags = ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES,
       .methods = CompositeExceptionMethods(),
       .parent = zend_ce_exception});

  // As upstream's generated registration: final, no dynamic properties,
  // not serializable.
  task_group_ce = internal::RegisterObjectClass(
      "Async\\TaskGroup", TaskGroupMethods(), CreateTaskGroupObject,
      TaskGroupObjectHandlers());
  task_set_ce = internal::RegisterObjectClass(
      "Async\\TaskSet", TaskSetMethods(), CreateTaskSetObject,
      TaskGroupObjectHandlers());

  if (task_group_ce == nullptr || task_set_ce == nullptr ||
      composite_exception_ce == nullptr) {
    return nullptr;
  }
  for (zend_class_entry* group_ce : {task_group_ce, task_set_ce}) {
    if (awaitable != nullptr) zend_class_implements(group_ce, 1, awaitable);
    zend_class_implements(group_ce, 1, zend_ce_countable);
  }
  return task_group_ce;
}

zend_class_entry* TaskGroupClass() { return task_group_ce; }
zend_class_entry* TaskSetClass() { return task_set_ce; }
zend_class_entry* CompositeExceptionClass() { return composite_exception_ce; }

zend_object* NewCompositeException() {
  zval composite;
  object_init_ex(&composite, composite_exception_ce);
  return Z_OBJ(composite);
}

void CompositeExceptionAdd(zend_object* composite, zend_object* exception) {
  if (composite == nullptr || exception == nullptr) return;
  zval rv;
  zval* current =
      zend_read_property(composite_exception_ce, composite, "exceptions",
                         strlen("exceptions"), true, &rv);
  zval exceptions;
  if (current != nullptr && Z_TYPE_P(current) == IS_ARRAY) {
    ZVAL_ARR(&exceptions, zend_array_dup(Z_ARRVAL_P(current)));
  } else {
    array_init(&exceptions);
  }
  zval entry;
  ZVAL_OBJ_COPY(&entry, exception);
  zend_hash_next_index_insert(Z_ARRVAL(exceptions), &entry);
  zend_update_property(composite_exception_ce, composite, "exceptions",
                       strlen("exceptions"), &exceptions);
  zval_ptr_dtor(&exceptions);
}

}  // namespace zar::core
