// The task group (task_group.h): its event, its lifecycle (creation, the
// scope, destruction) and its completion (TryComplete, close, cancel). The
// task table, spawning, the joins and the finally runner are files of
// their own (the map in task_group.h).

#include "core/task_group/task_group.h"

#include <cstring>

#include "core/internal/event_vtable.h"
#include "core/internal/release.h"
#include "core/scheduler/scope.h"
#include "core/task_group/classes.h"
#include "core/task_group/task_table.h"
#include "core/task_group/trace.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::core {
namespace {

// ---- Event vtable -----------------------------------------------------------

// The object owns the memory (free_obj); nothing to do here.
bool Dispose(zend_async_event_t* event) {
  (void)event;
  return true;
}

// While settled, answers at once: NULL result, no exception.
bool Replay(zend_async_event_t* event, zend_async_event_callback_t* callback,
            zval* result, zend_object** exception) {
  if (!IsSettled(TaskGroup::FromEvent(event))) return false;
  if (callback != nullptr) {
    zval undef;
    ZVAL_UNDEF(&undef);
    callback->callback(event, callback, &undef, nullptr);
    return true;
  }
  if (result != nullptr) ZVAL_NULL(result);
  if (exception != nullptr) *exception = nullptr;
  return true;
}

zend_string* Info(zend_async_event_t* event) {
  const TaskGroup* group = TaskGroup::FromEvent(event);
  return zend_strpprintf(0, "%s(total=%u, active=%d)",
                         group->task_set ? "TaskSet" : "TaskGroup",
                         zend_hash_num_elements(&group->tasks), group->active);
}

}  // namespace

bool IsSettled(const TaskGroup* group) {
  return group->active == 0 && group->pending_count == 0;
}

// ---- Lifecycle --------------------------------------------------------------

void InitTaskGroup(TaskGroup* group) {
  zend_async_event_t* event = group->event();
  memset(event, 0, sizeof(*event));
  event->flags = ZEND_ASYNC_EVENT_F_ZEND_OBJ;
  event->zend_object_offset = static_cast<uint32_t>(offsetof(TaskGroup, std));
  internal::SetUnarmedVtable(
      event, {.replay = Replay, .dispose = Dispose, .info = Info});

  group->scope = nullptr;
  group->scope_object = nullptr;
  group->concurrency = 0;
  group->queue_limit = 0;
  group->pending_count = 0;
  group->active = 0;
  group->next_key = 0;
  group->id = NextTaskGroupId();
  group->sealed = false;
  group->completed = false;
  group->task_set = false;
  InitTaskTable(&group->tasks);
  zend_hash_init(&group->slot_waiters, 0, nullptr, nullptr, 0);
  group->waiters = nullptr;
  group->waiters_length = 0;
  group->waiters_capacity = 0;
  group->finally_handlers = nullptr;
}

bool AttachScope(TaskGroup* group, zend_object* scope_obj) {
  if (scope_obj != nullptr) {
    // Only an Async\Scope has a scope behind it (a C caller of new_group
    // may pass any object; upstream would misread it).
    zend_class_entry* scope_ce = ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_SCOPE);
    if (UNEXPECTED(scope_ce == nullptr ||
                   !instanceof_function(scope_obj->ce, scope_ce))) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "TaskGroup scope must be an Async\\Scope, %s given",
                       ZSTR_VAL(scope_obj->ce->name));
      return false;
    }
    zend_async_scope_t* scope = ScopeFromObject(scope_obj);
    if (UNEXPECTED(scope == nullptr)) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Cannot use a disposed Scope for TaskGroup");
      return false;
    }
    GC_ADDREF(scope_obj);
    group->scope_object = scope_obj;
    ZEND_ASYNC_EVENT_ADD_REF(&scope->event);
    group->scope = scope;
    return true;
  }
  zend_async_scope_t* child = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_CURRENT_SCOPE);
  if (UNEXPECTED(child == nullptr)) {
    if (EG(exception) == nullptr) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to create child scope for TaskGroup");
    }
    return false;
  }
  // Pinned: a cascade from the parent never frees it while the group
  // holds it; DestroyTaskGroup unpins and releases it.
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(child);
  ZEND_ASYNC_EVENT_ADD_REF(&child->event);
  group->scope = child;
  return true;
}

void DestroyTaskGroup(TaskGroup* group) {
  // Suspended spawners wake up to a closed group and throw.
  if (zend_hash_num_elements(&group->slot_waiters) > 0) {
    group->sealed = true;
    FireAllSlotWaiters(group);
  }

  // Errors nobody looked at go to the scope's exception handling.
  if (!ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(group->event()) &&
      group->scope != nullptr && HasErrors(group)) {
    ZEND_ASYNC_SCOPE_CATCH(group->scope, nullptr, nullptr,
                           CollectComposite(group), true, false);
  }

  if (group->scope != nullptr) {
    zend_async_scope_t* scope = group->scope;
    group->scope = nullptr;
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    if (!ZEND_ASYNC_SCOPE_IS_COMPLETELY_DONE(scope)) {
      zend_object* exception = zend_async_new_exception(
          ZEND_ASYNC_EXCEPTION_CANCELLATION,
          "Scope is being disposed due to TaskGroup destruction");
      ZEND_ASYNC_SCOPE_CANCEL(scope, exception, true,
                              ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope));
    }
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }
  if (group->scope_object != nullptr) {
    zend_object* scope_object = group->scope_object;
    group->scope_object = nullptr;
    OBJ_RELEASE(scope_object);
  }
}

void FreeTaskGroup(TaskGroup* group) {
  zend_hash_destroy(&group->slot_waiters);
  zend_hash_destroy(&group->tasks);
  // Unsettled futures stay pending; only the group's references go.
  ReleaseJoins(group);
  if (group->finally_handlers != nullptr) {
    zend_array_destroy(group->finally_handlers);
    group->finally_handlers = nullptr;
  }
  zend_async_callbacks_free(group->event());
  internal::ReleaseAndClear(group->scope_object);
}

HashTable* GetTaskGroupGc(zend_object* object, zval** table, int* n) {
  TaskGroup* group = TaskGroup::FromObject(object);
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  AddTasksToGc(group, buffer);
  if (group->finally_handlers != nullptr) {
    zval* zv;
    ZEND_HASH_FOREACH_VAL(group->finally_handlers, zv) {
      zend_get_gc_buffer_add_zval(buffer, zv);
    }
    ZEND_HASH_FOREACH_END();
  }
  if (group->scope_object != nullptr) {
    zend_get_gc_buffer_add_obj(buffer, group->scope_object);
  }
  zend_get_gc_buffer_use(buffer, table, n);
  return nullptr;
}

// ---- Completion -------------------------------------------------------------

void TryComplete(TaskGroup* group) {
  if (!IsSettled(group)) return;

  SettleJoinsOfSettledGroup(group);

  if (group->sealed) group->completed = true;
  if (ZEND_ASYNC_REF_TRACING()) TraceGroupSettled(group);
  GC_ADDREF(&group->std);  // the listeners may drop the last reference
  ZEND_ASYNC_CALLBACKS_NOTIFY(group->event(), nullptr, nullptr);
  if (group->completed) ZEND_ASYNC_EVENT_SET_CLOSED(group->event());
  if (group->finally_handlers != nullptr &&
      zend_hash_num_elements(group->finally_handlers) > 0) {
    StartFinallyHandlers(group);
  }
  OBJ_RELEASE(&group->std);
}

void CloseGroup(TaskGroup* group) {
  if (group->sealed) return;
  group->sealed = true;
  FireAllSlotWaiters(group);
  TryComplete(group);
}

void CancelGroup(TaskGroup* group, zend_object* cancellation) {
  if (group->sealed) return;
  group->sealed = true;
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(group->event());
  FireAllSlotWaiters(group);

  // Queued tasks never start: they leave the group (their keys are
  // collected first, then deleted).
  if (group->pending_count > 0) {
    DeletePending(group);
    group->pending_count = 0;
  }

  zend_async_scope_t* scope = group->scope;
  if (scope != nullptr && !scope->try_to_dispose(scope)) {
    zend_object* exception;
    if (cancellation != nullptr) {
      GC_ADDREF(cancellation);
      exception = cancellation;
    } else {
      exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                           "TaskGroup cancelled");
    }
    ZEND_ASYNC_SCOPE_CANCEL(scope, exception, true,
                            ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope));
  }
  TryComplete(group);
}

void DisposeGroupScope(TaskGroup* group) {
  zend_async_scope_t* scope = group->scope;
  if (scope == nullptr || scope->try_to_dispose(scope)) return;
  zend_object* exception = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_CANCELLATION,
      "Scope is being disposed due to TaskGroup disposal");
  ZEND_ASYNC_SCOPE_CANCEL(scope, exception, true,
                          ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope));
}

zend_async_group_t* NewGroup(uint32_t concurrency, uint32_t queue_limit,
                             zend_object* scope_obj) {
  zval object;
  if (TaskGroupClass() == nullptr ||
      object_init_ex(&object, TaskGroupClass()) != SUCCESS) {
    return nullptr;
  }
  TaskGroup* group = TaskGroup::FromObject(Z_OBJ(object));
  group->concurrency = concurrency;
  group->queue_limit = queue_limit;
  if (!AttachScope(group, scope_obj)) {
    zval_ptr_dtor(&object);
    return nullptr;
  }
  return &group->base;
}

}  // namespace zar::core
