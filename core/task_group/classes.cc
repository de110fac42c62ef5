// Registering the task group classes (classes.h).

#include "core/task_group/classes.h"

#include <cstring>
#include <initializer_list>

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
  zend_class_entry composite;
  memset(&composite, 0, sizeof(composite));
  composite.name = zend_string_init_interned(
      "Async\\CompositeException", strlen("Async\\CompositeException"), true);
  composite.ce_flags = ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES;
  composite.info_internal_builtin_functions = CompositeExceptionMethods();
  composite_exception_ce =
      zend_register_internal_class_ex(&composite, zend_ce_exception);

  // As upstream's generated registration: final, no dynamic properties,
  // not serializable.
  zend_class_entry ce;
  memset(&ce, 0, sizeof(ce));
  ce.name = zend_string_init_interned("Async\\TaskGroup",
                                      strlen("Async\\TaskGroup"), true);
  ce.ce_flags = ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES |
                ZEND_ACC_NOT_SERIALIZABLE;
  ce.info_internal_builtin_functions = TaskGroupMethods();
  ce.create_object = CreateTaskGroupObject;
  ce.default_object_handlers = TaskGroupObjectHandlers();
  task_group_ce = zend_register_internal_class(&ce);

  zend_class_entry set;
  memset(&set, 0, sizeof(set));
  set.name = zend_string_init_interned("Async\\TaskSet",
                                       strlen("Async\\TaskSet"), true);
  set.ce_flags = ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES |
                 ZEND_ACC_NOT_SERIALIZABLE;
  set.info_internal_builtin_functions = TaskSetMethods();
  set.create_object = CreateTaskSetObject;
  set.default_object_handlers = TaskGroupObjectHandlers();
  task_set_ce = zend_register_internal_class(&set);

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
