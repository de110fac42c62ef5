// The Async\TaskGroup methods (task_group.h; php-async task_group.stub.php).
//
// final class Async\TaskGroup implements Async\Awaitable, \Countable
//   __construct(?int $concurrency = null, ?int $queueLimit = null,
//               ?Async\Scope $scope = null)
//       concurrency: null/0 = no limit; queueLimit: null = 2 * concurrency
//       (0 without a limit), 0 = unbounded; out of 0..4294967295 a
//       ValueError. scope: the group's coroutines run in a new child scope
//       of the current scope, or in $scope's.
//   spawn(callable $task, mixed ...$args) / spawnWithKey(string|int $key,
//       callable $task, mixed ...$args)
//       AsyncException "Cannot spawn tasks on a closed TaskGroup",
//       "Duplicate key \"k\" in TaskGroup" / "Duplicate key 3 in TaskGroup".
//   all(bool $ignoreErrors = false) / race() / any(): Async\Future
//       race()/any() on no task: AsyncException "Cannot race on an empty
//       TaskGroup" / "Cannot call any() on an empty TaskGroup".
//   getResults(), getErrors() (marks the errors handled), suppressErrors(),
//   cancel(?AsyncCancellation $c = null), close(), dispose(), isFinished(),
//   isClosed(), count(), awaitCompletion() (AsyncException "TaskGroup must
//   be closed before calling awaitCompletion()"), finally(\Closure $cb),
//   getIterator() (Error: the engine has no IteratorAggregate, so the
//   group is not traversable; upstream's direct-call message).
//
// final class Async\TaskSet implements Async\Awaitable, \Countable: the
// same methods and messages, with joinNext()/joinAny()/joinAll() for
// race()/any()/all(); a result they deliver leaves the set (joinNext and
// joinAny remove their task, joinAll every task).
//
// Threading: the request's thread.

#include <cstring>

#include "core/internal/arginfo.h"
#include "core/internal/php_object.h"
#include "core/task_group/classes.h"
#include "core/task_group/task_group.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "zend_async_ref/park.h"
}

namespace zar::core {
namespace {

using internal::arginfo_cancellation;
using internal::arginfo_none;

TaskGroup* ThisGroup(zend_execute_data* execute_data) {
  return TaskGroup::FromObject(Z_OBJ_P(ZEND_THIS));
}

void DtorTaskGroup(zend_object* object) {
  DestroyTaskGroup(TaskGroup::FromObject(object));
}

void FreeTaskGroupObject(zend_object* object) {
  FreeTaskGroup(TaskGroup::FromObject(object));
  zend_object_std_dtor(object);
}

}  // namespace

ZEND_METHOD(Async_TaskGroup, __construct) {
  (void)return_value;
  zend_long concurrency = 0;
  bool concurrency_is_null = true;
  zend_long queue_limit = 0;
  bool queue_limit_is_null = true;
  zend_object* scope_obj = nullptr;
  ZEND_PARSE_PARAMETERS_START(0, 3)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG_OR_NULL(concurrency, concurrency_is_null)
  Z_PARAM_LONG_OR_NULL(queue_limit, queue_limit_is_null)
  Z_PARAM_OBJ_OF_CLASS_OR_NULL(scope_obj,
                               ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_SCOPE))
  ZEND_PARSE_PARAMETERS_END();

  TaskGroup* group = ThisGroup(execute_data);
  if (group->scope != nullptr) return;  // constructed already
  if (UNEXPECTED(concurrency < 0 || concurrency > UINT32_MAX)) {
    zend_argument_value_error(1, "must be between 0 and %u", UINT32_MAX);
    RETURN_THROWS();
  }
  if (UNEXPECTED(!queue_limit_is_null &&
                 (queue_limit < 0 || queue_limit > UINT32_MAX))) {
    zend_argument_value_error(2, "must be between 0 and %u", UINT32_MAX);
    RETURN_THROWS();
  }
  group->concurrency = static_cast<uint32_t>(concurrency);
  if (!queue_limit_is_null) {
    group->queue_limit = static_cast<uint32_t>(queue_limit);
  } else if (group->concurrency == 0) {
    group->queue_limit = 0;
  } else if (group->concurrency > UINT32_MAX / 2) {
    group->queue_limit = UINT32_MAX;  // saturates
  } else {
    group->queue_limit = group->concurrency * 2;
  }
  if (!AttachScope(group, scope_obj)) RETURN_THROWS();
}

ZEND_METHOD(Async_TaskGroup, spawn) {
  (void)return_value;
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  zval* args = nullptr;
  uint32_t args_count = 0;
  ZEND_PARSE_PARAMETERS_START(1, -1)
  Z_PARAM_FUNC(fci, fcc)
  Z_PARAM_VARIADIC('*', args, args_count)
  ZEND_PARSE_PARAMETERS_END();

  TaskGroup* group = ThisGroup(execute_data);
  zval key;
  ZVAL_LONG(&key, group->next_key++);
  SpawnTask(group, &key, &fci, &fcc, args, args_count);
}

ZEND_METHOD(Async_TaskGroup, spawnWithKey) {
  (void)return_value;
  zval* key_arg;
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  zval* args = nullptr;
  uint32_t args_count = 0;
  ZEND_PARSE_PARAMETERS_START(2, -1)
  Z_PARAM_ZVAL(key_arg)
  Z_PARAM_FUNC(fci, fcc)
  Z_PARAM_VARIADIC('*', args, args_count)
  ZEND_PARSE_PARAMETERS_END();

  if (Z_TYPE_P(key_arg) != IS_STRING && Z_TYPE_P(key_arg) != IS_LONG) {
    zend_argument_type_error(1, "must be of type string|int, %s given",
                             zend_zval_value_name(key_arg));
    RETURN_THROWS();
  }
  zval key;
  ZVAL_COPY(&key, key_arg);
  SpawnTask(ThisGroup(execute_data), &key, &fci, &fcc, args, args_count);
  zval_ptr_dtor(&key);
}

ZEND_METHOD(Async_TaskGroup, all) {
  bool ignore_errors = false;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_BOOL(ignore_errors)
  ZEND_PARSE_PARAMETERS_END();

  zend_object* future = NewWaiterFuture(
      ThisGroup(execute_data), ignore_errors ? GroupWaiterType::kAllIgnoreErrors
                                             : GroupWaiterType::kAll);
  if (future == nullptr) RETURN_THROWS();
  RETURN_OBJ(future);
}

namespace {

// race() and any(): the future of the first task to settle (succeed), or
// AsyncException `empty` when the group has no task.
void ReturnFirst(zend_execute_data* execute_data, zval* return_value,
                 GroupWaiterType type, const char* empty) {
  TaskGroup* group = ThisGroup(execute_data);
  if (UNEXPECTED(zend_hash_num_elements(&group->tasks) == 0)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s", empty);
    RETURN_THROWS();
  }
  zend_object* future = NewWaiterFuture(group, type);
  if (future == nullptr) RETURN_THROWS();
  RETURN_OBJ(future);
}

}  // namespace

ZEND_METHOD(Async_TaskGroup, race) {
  ZEND_PARSE_PARAMETERS_NONE();
  ReturnFirst(execute_data, return_value, GroupWaiterType::kRace,
              "Cannot race on an empty TaskGroup");
}

ZEND_METHOD(Async_TaskGroup, any) {
  ZEND_PARSE_PARAMETERS_NONE();
  ReturnFirst(execute_data, return_value, GroupWaiterType::kAny,
              "Cannot call any() on an empty TaskGroup");
}

ZEND_METHOD(Async_TaskGroup, getResults) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_ARR(CollectResults(ThisGroup(execute_data)));
}

ZEND_METHOD(Async_TaskGroup, getErrors) {
  ZEND_PARSE_PARAMETERS_NONE();
  TaskGroup* group = ThisGroup(execute_data);
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(group->event());
  RETURN_ARR(CollectErrors(group));
}

ZEND_METHOD(Async_TaskGroup, suppressErrors) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(ThisGroup(execute_data)->event());
}

ZEND_METHOD(Async_TaskGroup, cancel) {
  (void)return_value;
  zend_object* cancellation = nullptr;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_OBJ_OF_CLASS_OR_NULL(
      cancellation, ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION))
  ZEND_PARSE_PARAMETERS_END();
  CancelGroup(ThisGroup(execute_data), cancellation);
}

ZEND_METHOD(Async_TaskGroup, close) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  CloseGroup(ThisGroup(execute_data));
}

ZEND_METHOD(Async_TaskGroup, dispose) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  DisposeGroupScope(ThisGroup(execute_data));
}

ZEND_METHOD(Async_TaskGroup, isFinished) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_BOOL(IsSettled(ThisGroup(execute_data)));
}

ZEND_METHOD(Async_TaskGroup, isClosed) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_BOOL(ThisGroup(execute_data)->sealed);
}

ZEND_METHOD(Async_TaskGroup, count) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_LONG(zend_hash_num_elements(&ThisGroup(execute_data)->tasks));
}

ZEND_METHOD(Async_TaskGroup, awaitCompletion) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  TaskGroup* group = ThisGroup(execute_data);
  if (UNEXPECTED(!group->sealed)) {
    zend_async_throw(
        ZEND_ASYNC_EXCEPTION_DEFAULT,
        "TaskGroup must be closed before calling awaitCompletion()");
    RETURN_THROWS();
  }
  // Each wake-up is one notification of the group's event; the loop
  // re-checks, as a wake-up may come before the last task settled.
  while (!group->completed && !IsSettled(group)) {
    zend_coroutine_t* current = ZEND_ASYNC_CURRENT_COROUTINE;
    if (UNEXPECTED(current == nullptr)) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "TaskGroup::awaitCompletion() can only be called "
                       "inside a coroutine");
      RETURN_THROWS();
    }
    zend_async_ref_park_t park = {};
    park.events[0].event = group->event();
    if (!zend_async_ref_park(current, &park)) RETURN_THROWS();
  }
}

ZEND_METHOD(Async_TaskGroup, finally) {
  (void)return_value;
  zval* callback;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ZVAL(callback)
  ZEND_PARSE_PARAMETERS_END();

  TaskGroup* group = ThisGroup(execute_data);
  if (group->completed) {
    // Completed already: called at once, with the group.
    zval retval;
    ZVAL_UNDEF(&retval);
    zval param;
    ZVAL_OBJ(&param, &group->std);
    if (call_user_function(nullptr, nullptr, callback, &retval, 1, &param) ==
            FAILURE &&
        EG(exception) == nullptr) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to call finally handler on completed TaskGroup");
    }
    zval_ptr_dtor(&retval);
    return;
  }
  if (group->finally_handlers == nullptr) {
    group->finally_handlers = zend_new_array(0);
  }
  Z_TRY_ADDREF_P(callback);
  zend_hash_next_index_insert(group->finally_handlers, callback);
}

ZEND_METHOD(Async_TaskGroup, getIterator) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  zend_throw_error(nullptr,
                   "An object of class Async\\TaskGroup is not a traversable "
                   "object in an invalid state");
}

// ---- Async\CompositeException -----------------------------------------------

ZEND_METHOD(Async_CompositeException, addException) {
  (void)return_value;
  zval* exception;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_OBJECT_OF_CLASS(exception, zend_ce_throwable)
  ZEND_PARSE_PARAMETERS_END();
  CompositeExceptionAdd(Z_OBJ_P(ZEND_THIS), Z_OBJ_P(exception));
}

ZEND_METHOD(Async_CompositeException, getExceptions) {
  ZEND_PARSE_PARAMETERS_NONE();
  zval rv;
  zval* exceptions =
      zend_read_property(CompositeExceptionClass(), Z_OBJ_P(ZEND_THIS),
                         "exceptions", strlen("exceptions"), true, &rv);
  if (exceptions == nullptr || Z_TYPE_P(exceptions) != IS_ARRAY) {
    array_init(return_value);
    return;
  }
  RETURN_COPY(exceptions);
}

namespace {

ZEND_BEGIN_ARG_INFO_EX(arginfo_construct, 0, 0, 0)
ZEND_ARG_TYPE_INFO(0, concurrency, IS_LONG, 1)
ZEND_ARG_TYPE_INFO(0, queueLimit, IS_LONG, 1)
ZEND_ARG_OBJ_INFO(0, scope, Async\\Scope, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_spawn, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
ZEND_ARG_VARIADIC_INFO(0, args)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_spawn_with_key, 0, 0, 2)
ZEND_ARG_INFO(0, key)
ZEND_ARG_TYPE_INFO(0, task, IS_CALLABLE, 0)
ZEND_ARG_VARIADIC_INFO(0, args)
ZEND_END_ARG_INFO()

ZAR_ARG_INFO_1(arginfo_all, 0, ZEND_ARG_TYPE_INFO(0, ignoreErrors, _IS_BOOL, 0))

ZAR_ARG_INFO_1(arginfo_finally, 1, ZEND_ARG_OBJ_INFO(0, callback, Closure, 0))

ZAR_ARG_INFO_1(arginfo_add_exception, 1,
               ZEND_ARG_OBJ_INFO(0, exception, Throwable, 0))

// The methods of both classes after their joins (TaskSet's
// joinNext/joinAny/joinAll are TaskGroup's race/any/all; the set removes
// what they deliver).
#define ZAR_TASK_GROUP_METHODS                                             \
  ZEND_ME(Async_TaskGroup, cancel, arginfo_cancellation, ZEND_ACC_PUBLIC)  \
  ZEND_ME(Async_TaskGroup, close, arginfo_none, ZEND_ACC_PUBLIC)           \
  ZEND_ME(Async_TaskGroup, dispose, arginfo_none, ZEND_ACC_PUBLIC)         \
  ZEND_ME(Async_TaskGroup, isFinished, arginfo_none, ZEND_ACC_PUBLIC)      \
  ZEND_ME(Async_TaskGroup, isClosed, arginfo_none, ZEND_ACC_PUBLIC)        \
  ZEND_ME(Async_TaskGroup, count, arginfo_none, ZEND_ACC_PUBLIC)           \
  ZEND_ME(Async_TaskGroup, awaitCompletion, arginfo_none, ZEND_ACC_PUBLIC) \
  ZEND_ME(Async_TaskGroup, finally, arginfo_finally, ZEND_ACC_PUBLIC)      \
  ZEND_ME(Async_TaskGroup, getIterator, arginfo_none, ZEND_ACC_PUBLIC)

// clang-format off
const zend_function_entry kTaskGroupMethods[] = {
    ZEND_ME(Async_TaskGroup, __construct, arginfo_construct, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, spawn, arginfo_spawn, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, spawnWithKey, arginfo_spawn_with_key,
            ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, all, arginfo_all, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, race, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, any, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, getResults, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, getErrors, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, suppressErrors, arginfo_none, ZEND_ACC_PUBLIC)
    ZAR_TASK_GROUP_METHODS
    ZEND_FE_END};

const zend_function_entry kTaskSetMethods[] = {
    ZEND_ME(Async_TaskGroup, __construct, arginfo_construct, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, spawn, arginfo_spawn, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_TaskGroup, spawnWithKey, arginfo_spawn_with_key,
            ZEND_ACC_PUBLIC)
    ZEND_RAW_FENTRY("joinNext", zim_Async_TaskGroup_race, arginfo_none,
                    ZEND_ACC_PUBLIC, nullptr, nullptr)
    ZEND_RAW_FENTRY("joinAny", zim_Async_TaskGroup_any, arginfo_none,
                    ZEND_ACC_PUBLIC, nullptr, nullptr)
    ZEND_RAW_FENTRY("joinAll", zim_Async_TaskGroup_all, arginfo_all,
                    ZEND_ACC_PUBLIC, nullptr, nullptr)
    ZAR_TASK_GROUP_METHODS
    ZEND_FE_END};

#undef ZAR_TASK_GROUP_METHODS

const zend_function_entry kCompositeExceptionMethods[] = {
    ZEND_ME(Async_CompositeException, addException, arginfo_add_exception,
            ZEND_ACC_PUBLIC)
    ZEND_ME(Async_CompositeException, getExceptions, arginfo_none,
            ZEND_ACC_PUBLIC)
    ZEND_FE_END};
// clang-format on

}  // namespace

zend_object* CreateTaskGroupObject(zend_class_entry* ce) {
  auto* group = internal::AllocObject<TaskGroup>(ce);
  InitTaskGroup(group);
  zend_object_std_init(&group->std, ce);
  object_properties_init(&group->std, ce);
  return &group->std;
}

zend_object* CreateTaskSetObject(zend_class_entry* ce) {
  zend_object* object = CreateTaskGroupObject(ce);
  TaskGroup::FromObject(object)->task_set = true;
  return object;
}

const zend_function_entry* TaskGroupMethods() { return kTaskGroupMethods; }
const zend_function_entry* TaskSetMethods() { return kTaskSetMethods; }
const zend_function_entry* CompositeExceptionMethods() {
  return kCompositeExceptionMethods;
}

const zend_object_handlers* TaskGroupObjectHandlers() {
  // free_obj, dtor_obj, get_gc.
  static const zend_object_handlers handlers =
      internal::MakeObjectHandlers<TaskGroup>(
          {FreeTaskGroupObject, DtorTaskGroup, GetTaskGroupGc});
  return &handlers;
}

}  // namespace zar::core
