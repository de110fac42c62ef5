// zend-async-ref core/task_group: registering Async\TaskGroup and
// Async\CompositeException (task_group.h describes both).
//
// Threading: MINIT time only; the class entries live until module
// shutdown.

#ifndef ZAR_CORE_TASK_GROUP_CLASSES_H_
#define ZAR_CORE_TASK_GROUP_CLASSES_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// Defines final class Async\CompositeException extends \Exception,
// final class Async\TaskGroup and final class Async\TaskSet, both
// implementing `awaitable` and \Countable; returns
// Async\TaskGroup (the ABI's ZEND_ASYNC_CLASS_GROUP), or NULL if a class
// could not be registered.
zend_class_entry* RegisterTaskGroupClasses(zend_class_entry* awaitable);

// The registered classes; NULL before MINIT.
zend_class_entry* TaskGroupClass();
zend_class_entry* TaskSetClass();
zend_class_entry* CompositeExceptionClass();

// A new, empty Async\CompositeException (owned reference).
zend_object* NewCompositeException();
// Appends `exception` to the composite's exceptions (adds a reference).
void CompositeExceptionAdd(zend_object* composite, zend_object* exception);

// Class set-up for classes.cc (object.cc).
zend_object* CreateTaskGroupObject(zend_class_entry* ce);
zend_object* CreateTaskSetObject(zend_class_entry* ce);
const zend_function_entry* TaskGroupMethods();
const zend_function_entry* TaskSetMethods();
const zend_function_entry* CompositeExceptionMethods();
const zend_object_handlers* TaskGroupObjectHandlers();

}  // namespace zar::core

#endif  // ZAR_CORE_TASK_GROUP_CLASSES_H_
