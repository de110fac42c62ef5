// The task group (task_group.h): tasks, queue, waiters, completion.

#include "core/task_group/task_group.h"

#include <cstring>

#include "core/internal/event_vtable.h"
#include "core/scheduler/scope.h"
#include "core/task_group/classes.h"
#include "core/task_group/trace.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "zend_async_ref/park.h"
}

namespace zar::core {
namespace {

// A task that is not a result yet, stored as IS_PTR in TaskGroup::tasks.
enum class TaskState : uint8_t {
  kPending,  // queued: owns its fcall
  kRunning,  // its coroutine runs (and owns the fcall)
  kError,    // its coroutine threw: owns the exception
};

struct TaskEntry {
  TaskState state;
  zend_fcall_t* fcall;     // kPending only, owned
  zend_object* exception;  // kError only, owned
};

// The completion callback on a task's coroutine; holds a copy of the key.
struct TaskCallback {
  zend_async_event_callback_t base;  // ABI structure (must be first)
  TaskGroup* group;                  // borrowed: the task holds a group ref
  zval key;
};

// What the finally handlers' coroutine runs; owns a group reference.
struct FinallyRun {
  TaskGroup* group;
  HashTable* handlers;
};

bool IsEntry(const zval* zv) { return Z_TYPE_P(zv) == IS_PTR; }
TaskEntry* EntryOf(const zval* zv) {
  return static_cast<TaskEntry*>(Z_PTR_P(zv));
}
bool IsPending(const zval* zv) {
  return IsEntry(zv) && EntryOf(zv)->state == TaskState::kPending;
}
bool IsError(const zval* zv) {
  return IsEntry(zv) && EntryOf(zv)->state == TaskState::kError;
}

void FreeEntry(TaskEntry* entry) {
  if (entry->fcall != nullptr) zend_fcall_release(entry->fcall);
  if (entry->exception != nullptr) OBJ_RELEASE(entry->exception);
  efree(entry);
}

void TaskDtor(zval* zv) {
  if (IsEntry(zv)) {
    FreeEntry(EntryOf(zv));
  } else {
    zval_ptr_dtor(zv);
  }
}

TaskEntry* NewEntry(TaskState state) {
  auto* entry = static_cast<TaskEntry*>(ecalloc(1, sizeof(TaskEntry)));
  entry->state = state;
  return entry;
}

// TaskSet: a delivered entry leaves the set (nothing for a TaskGroup).
void RemoveDelivered(TaskGroup* group, const zval* key) {
  if (!group->task_set) return;
  if (Z_TYPE_P(key) == IS_STRING) {
    zend_hash_del(&group->tasks, Z_STR_P(key));
  } else {
    zend_hash_index_del(&group->tasks, static_cast<zend_ulong>(Z_LVAL_P(key)));
  }
}

void RemoveAllDelivered(TaskGroup* group) {
  if (group->task_set) zend_hash_clean(&group->tasks);
}

zval* FindTask(TaskGroup* group, const zval* key) {
  return Z_TYPE_P(key) == IS_STRING
             ? zend_hash_find(&group->tasks, Z_STR_P(key))
             : zend_hash_index_find(&group->tasks, Z_LVAL_P(key));
}

void AddTask(TaskGroup* group, const zval* key, zval* value) {
  if (Z_TYPE_P(key) == IS_STRING) {
    zend_hash_add_new(&group->tasks, Z_STR_P(key), value);
  } else {
    zend_hash_index_add_new(&group->tasks, Z_LVAL_P(key), value);
  }
}

bool HasSlot(const TaskGroup* group) {
  return group->concurrency == 0 ||
         group->active < static_cast<int32_t>(group->concurrency);
}

bool QueueIsFull(const TaskGroup* group) {
  return group->queue_limit > 0 && group->pending_count >= group->queue_limit;
}

zend_object* CollectComposite(const TaskGroup* group) {
  zend_object* composite = NewCompositeException();
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->tasks, zv) {
    if (IsError(zv)) CompositeExceptionAdd(composite, EntryOf(zv)->exception);
  }
  ZEND_HASH_FOREACH_END();
  return composite;
}

// ---- Waiters ----------------------------------------------------------------

void PushWaiter(TaskGroup* group, zend_future_t* future, GroupWaiterType type) {
  if (group->waiters_length == group->waiters_capacity) {
    const uint32_t capacity =
        group->waiters_capacity == 0 ? 4 : group->waiters_capacity * 2;
    group->waiters = static_cast<GroupWaiter*>(
        safe_erealloc(group->waiters, capacity, sizeof(GroupWaiter), 0));
    group->waiters_capacity = capacity;
  }
  ZEND_ASYNC_EVENT_ADD_REF(&future->event);
  group->waiters[group->waiters_length++] = GroupWaiter{future, type};
}

// Removes waiter `i`, keeping the others in call order.
GroupWaiter TakeWaiter(TaskGroup* group, uint32_t i) {
  GroupWaiter waiter = group->waiters[i];
  memmove(&group->waiters[i], &group->waiters[i + 1],
          (group->waiters_length - i - 1) * sizeof(GroupWaiter));
  group->waiters_length--;
  return waiter;
}

// Settles a taken waiter's future and drops the waiter's reference.
void CompleteWaiter(GroupWaiter waiter, zval* value) {
  ZEND_FUTURE_COMPLETE(waiter.future, value);
  ZEND_ASYNC_EVENT_RELEASE(&waiter.future->event);
}
void RejectWaiter(GroupWaiter waiter, zend_object* error) {
  ZEND_FUTURE_REJECT(waiter.future, error);
  ZEND_ASYNC_EVENT_RELEASE(&waiter.future->event);
}

void CompleteWithResults(zend_future_t* future, const TaskGroup* group) {
  zval results;
  ZVAL_ARR(&results, CollectResults(group));
  ZEND_FUTURE_COMPLETE(future, &results);
  zval_ptr_dtor(&results);
}

void RejectWithComposite(zend_future_t* future, const TaskGroup* group) {
  zend_object* composite = CollectComposite(group);
  ZEND_FUTURE_REJECT(future, composite);
  OBJ_RELEASE(composite);
}

// ---- Slot waiters (spawn() on a full queue) ---------------------------------

void FireOneSlotWaiter(TaskGroup* group) {
  zend_async_trigger_event_t* trigger = nullptr;
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->slot_waiters, zv) {
    trigger = static_cast<zend_async_trigger_event_t*>(Z_PTR_P(zv));
    break;
  }
  ZEND_HASH_FOREACH_END();
  if (trigger != nullptr) trigger->trigger(trigger);
}

void FireAllSlotWaiters(TaskGroup* group) {
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->slot_waiters, zv) {
    auto* trigger = static_cast<zend_async_trigger_event_t*>(Z_PTR_P(zv));
    trigger->trigger(trigger);
  }
  ZEND_HASH_FOREACH_END();
}

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

// ---- Running tasks ----------------------------------------------------------

void DisposeTaskCallback(zend_async_event_callback_t* callback,
                         zend_async_event_t* event) {
  (void)event;
  auto* task_callback = reinterpret_cast<TaskCallback*>(callback);
  zval_ptr_dtor(&task_callback->key);
  efree(task_callback);
}

void Drain(TaskGroup* group);

// A task's coroutine finished: its entry becomes its result or its error
// (the coroutine's exception is then handled by the group), queued tasks
// start, race/any waiters settle, and the group completes when settled.
void OnTaskComplete(zend_async_event_t* event,
                    zend_async_event_callback_t* callback, void* result,
                    zend_object* exception) {
  auto* task_callback = reinterpret_cast<TaskCallback*>(callback);
  TaskGroup* group = task_callback->group;
  zval* slot = FindTask(group, &task_callback->key);
  zval* value = static_cast<zval*>(result);
  zval null_value;
  ZVAL_NULL(&null_value);
  if (value == nullptr || Z_TYPE_P(value) == IS_UNDEF) value = &null_value;

  if (ZEND_ASYNC_REF_TRACING()) {
    TraceGroupDone(group, &task_callback->key, value, exception);
  }
  if (slot != nullptr && IsEntry(slot)) {
    TaskEntry* entry = EntryOf(slot);
    if (exception != nullptr) {
      ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
      entry->state = TaskState::kError;
      GC_ADDREF(exception);
      entry->exception = exception;
      // A new error is unhandled again.
      ZEND_ASYNC_EVENT_CLR_EXCEPTION_HANDLED(group->event());
    } else {
      FreeEntry(entry);
      ZVAL_COPY(slot, value);
    }
  }
  group->active--;
  Drain(group);

  // race() takes any outcome, any() only a success; all() waits.
  for (uint32_t i = 0; i < group->waiters_length;) {
    const GroupWaiterType type = group->waiters[i].type;
    if (type == GroupWaiterType::kRace) {
      GroupWaiter waiter = TakeWaiter(group, i);
      if (exception != nullptr) {
        RejectWaiter(waiter, exception);
      } else {
        CompleteWaiter(waiter, value);
      }
      RemoveDelivered(group, &task_callback->key);
    } else if (type == GroupWaiterType::kAny && exception == nullptr) {
      CompleteWaiter(TakeWaiter(group, i), value);
    } else {
      i++;
    }
  }

  TryComplete(group);
  OBJ_RELEASE(&group->std);  // the running task's reference
}

// Starts `fcall` (taken over) as a coroutine in the group's scope, for the
// queued `entry` or as a new running task under `key`. False when the
// coroutine could not be made (an exception may be pending); `fcall` is
// then released.
bool StartTask(TaskGroup* group, zend_fcall_t* fcall, zval* key,
               TaskEntry* entry) {
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN_WITH_SCOPE_EX(group->scope, 0);
  if (UNEXPECTED(coroutine == nullptr || EG(exception) != nullptr)) {
    if (entry == nullptr) zend_fcall_release(fcall);
    return false;
  }
  coroutine->fcall = fcall;
  if (entry != nullptr) {
    entry->fcall = nullptr;
    entry->state = TaskState::kRunning;
    group->pending_count--;
    FireOneSlotWaiter(group);  // a queue place is free
  } else {
    zval ptr;
    ZVAL_PTR(&ptr, NewEntry(TaskState::kRunning));
    AddTask(group, key, &ptr);
  }

  auto* callback = static_cast<TaskCallback*>(ecalloc(1, sizeof(TaskCallback)));
  callback->base.callback = OnTaskComplete;
  callback->base.dispose = DisposeTaskCallback;
  callback->group = group;
  ZVAL_COPY(&callback->key, key);
  coroutine->event.add_callback(&coroutine->event, &callback->base);
  if (ZEND_ASYNC_REF_TRACING()) TraceGroupSpawn(group, key, coroutine);

  group->active++;
  GC_ADDREF(&group->std);
  return true;
}

// Starts queued tasks, in spawn order, while there is a free slot.
void Drain(TaskGroup* group) {
  if (group->scope == nullptr) return;  // being destroyed
  while (HasSlot(group) && group->pending_count > 0) {
    zval* found = nullptr;
    zval key;
    ZVAL_UNDEF(&key);
    zend_ulong num_key;
    zend_string* str_key;
    zval* zv;
    ZEND_HASH_FOREACH_KEY_VAL(&group->tasks, num_key, str_key, zv) {
      if (IsPending(zv)) {
        found = zv;
        if (str_key != nullptr) {
          ZVAL_STR_COPY(&key, str_key);
        } else {
          ZVAL_LONG(&key, static_cast<zend_long>(num_key));
        }
        break;
      }
    }
    ZEND_HASH_FOREACH_END();
    if (found == nullptr) break;
    TaskEntry* entry = EntryOf(found);
    const bool started = StartTask(group, entry->fcall, &key, entry);
    zval_ptr_dtor(&key);
    if (!started || EG(exception) != nullptr) break;
  }
}

// ---- finally handlers -------------------------------------------------------

void FreeFinallyRun(FinallyRun* run) {
  if (run->handlers != nullptr) zend_array_destroy(run->handlers);
  if (run->group != nullptr) OBJ_RELEASE(&run->group->std);
  efree(run);
}

void DisposeFinallyRun(zend_coroutine_t* coroutine) {
  auto* run = static_cast<FinallyRun*>(coroutine->extended_data);
  coroutine->extended_data = nullptr;
  if (run != nullptr) FreeFinallyRun(run);
}

// internal_entry of the finally coroutine: each handler($group), in
// registration order, until one throws (its exception ends the coroutine).
void RunFinallyHandlers() {
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  auto* run = static_cast<FinallyRun*>(coroutine->extended_data);
  if (run == nullptr) return;
  zval param;
  ZVAL_OBJ(&param, &run->group->std);
  zval* handler;
  ZEND_HASH_FOREACH_VAL(run->handlers, handler) {
    zval retval;
    ZVAL_UNDEF(&retval);
    call_user_function(nullptr, nullptr, handler, &retval, 1, &param);
    zval_ptr_dtor(&retval);
    if (EG(exception) != nullptr) break;
  }
  ZEND_HASH_FOREACH_END();
}

// Hands the finally handlers to a coroutine in the group's scope.
void StartFinallyHandlers(TaskGroup* group) {
  HashTable* handlers = group->finally_handlers;
  group->finally_handlers = nullptr;
  if (group->scope == nullptr) {
    zend_array_destroy(handlers);
    return;
  }
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN_WITH_SCOPE_EX(group->scope, 0);
  if (coroutine == nullptr) {
    zend_array_destroy(handlers);
    return;
  }
  auto* run = static_cast<FinallyRun*>(ecalloc(1, sizeof(FinallyRun)));
  GC_ADDREF(&group->std);
  run->group = group;
  run->handlers = handlers;
  coroutine->extended_data = run;
  coroutine->internal_entry = RunFinallyHandlers;
  coroutine->extended_dispose = DisposeFinallyRun;
}

}  // namespace

// ---- Queries ----------------------------------------------------------------

bool IsSettled(const TaskGroup* group) {
  return group->active == 0 && group->pending_count == 0;
}

bool HasErrors(const TaskGroup* group) {
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->tasks, zv) {
    if (IsError(zv)) return true;
  }
  ZEND_HASH_FOREACH_END();
  return false;
}

HashTable* CollectResults(const TaskGroup* group) {
  HashTable* results = zend_new_array(zend_hash_num_elements(&group->tasks));
  zend_ulong num_key;
  zend_string* str_key;
  zval* zv;
  ZEND_HASH_FOREACH_KEY_VAL(&group->tasks, num_key, str_key, zv) {
    if (IsEntry(zv)) continue;
    Z_TRY_ADDREF_P(zv);
    if (str_key != nullptr) {
      zend_hash_add_new(results, str_key, zv);
    } else {
      zend_hash_index_add_new(results, num_key, zv);
    }
  }
  ZEND_HASH_FOREACH_END();
  return results;
}

HashTable* CollectErrors(const TaskGroup* group) {
  HashTable* errors = zend_new_array(4);
  zend_ulong num_key;
  zend_string* str_key;
  zval* zv;
  ZEND_HASH_FOREACH_KEY_VAL(&group->tasks, num_key, str_key, zv) {
    if (!IsError(zv)) continue;
    zval error;
    ZVAL_OBJ_COPY(&error, EntryOf(zv)->exception);
    if (str_key != nullptr) {
      zend_hash_add_new(errors, str_key, &error);
    } else {
      zend_hash_index_add_new(errors, num_key, &error);
    }
  }
  ZEND_HASH_FOREACH_END();
  return errors;
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
  zend_hash_init(&group->tasks, 8, nullptr, TaskDtor, 0);
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
  for (uint32_t i = 0; i < group->waiters_length; i++) {
    ZEND_ASYNC_EVENT_RELEASE(&group->waiters[i].future->event);
  }
  if (group->waiters != nullptr) efree(group->waiters);
  group->waiters = nullptr;
  group->waiters_length = group->waiters_capacity = 0;
  if (group->finally_handlers != nullptr) {
    zend_array_destroy(group->finally_handlers);
    group->finally_handlers = nullptr;
  }
  zend_async_callbacks_free(group->event());
  if (group->scope_object != nullptr) {
    OBJ_RELEASE(group->scope_object);
    group->scope_object = nullptr;
  }
}

HashTable* GetTaskGroupGc(zend_object* object, zval** table, int* n) {
  TaskGroup* group = TaskGroup::FromObject(object);
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->tasks, zv) {
    if (!IsEntry(zv)) {
      zend_get_gc_buffer_add_zval(buffer, zv);
      continue;
    }
    const TaskEntry* entry = EntryOf(zv);
    if (entry->fcall != nullptr) {
      zend_get_gc_buffer_add_zval(buffer, &entry->fcall->fci.function_name);
      for (uint32_t p = 0; p < entry->fcall->fci.param_count; p++) {
        zend_get_gc_buffer_add_zval(buffer, &entry->fcall->fci.params[p]);
      }
    }
    if (entry->exception != nullptr) {
      zend_get_gc_buffer_add_obj(buffer, entry->exception);
    }
  }
  ZEND_HASH_FOREACH_END();
  if (group->finally_handlers != nullptr) {
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

// ---- Operations -------------------------------------------------------------

bool SpawnTask(TaskGroup* group, zval* key, zend_fcall_info* fci,
               zend_fcall_info_cache* fcc, zval* args, uint32_t args_count) {
  if (UNEXPECTED(group->sealed)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot spawn tasks on a closed TaskGroup");
    return false;
  }
  if (UNEXPECTED(group->completed)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot spawn tasks on a completed TaskGroup");
    return false;
  }
  if (UNEXPECTED(FindTask(group, key) != nullptr)) {
    if (Z_TYPE_P(key) == IS_STRING) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Duplicate key \"%s\" in TaskGroup", Z_STRVAL_P(key));
    } else {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Duplicate key " ZEND_LONG_FMT " in TaskGroup",
                       Z_LVAL_P(key));
    }
    return false;
  }

  // Backpressure: with every slot taken and the queue full, the caller
  // waits (FIFO) until a queued task starts. Outside a coroutine there is
  // nobody to suspend: the task is queued beyond the limit.
  while (!HasSlot(group) && QueueIsFull(group)) {
    zend_coroutine_t* current = ZEND_ASYNC_CURRENT_COROUTINE;
    if (current == nullptr) break;
    zend_async_trigger_event_t* trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
    if (trigger == nullptr) return false;
    const auto slot_key =
        static_cast<zend_ulong>(reinterpret_cast<uintptr_t>(trigger));
    zend_hash_index_update_ptr(&group->slot_waiters, slot_key, trigger);
    zend_async_ref_park_t park = {};
    park.events[0].event = &trigger->base;
    zend_async_ref_park(current, &park);
    zend_hash_index_del(&group->slot_waiters, slot_key);
    trigger->base.dispose(&trigger->base);
    if (UNEXPECTED(EG(exception) != nullptr)) return false;
    if (UNEXPECTED(group->sealed)) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Cannot spawn tasks on a closed TaskGroup");
      return false;
    }
    if (UNEXPECTED(group->completed)) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Cannot spawn tasks on a completed TaskGroup");
      return false;
    }
  }

  HashTable* named_args = nullptr;  // the engine passes no named arguments
  ZEND_ASYNC_FCALL_DEFINE(fcall, *fci, *fcc, args, args_count, named_args);
  if (HasSlot(group)) return StartTask(group, fcall, key, nullptr);
  TaskEntry* entry = NewEntry(TaskState::kPending);
  entry->fcall = fcall;
  zval ptr;
  ZVAL_PTR(&ptr, entry);
  AddTask(group, key, &ptr);
  group->pending_count++;
  if (ZEND_ASYNC_REF_TRACING()) TraceGroupQueue(group, key);
  return true;
}

zend_object* NewWaiterFuture(TaskGroup* group, GroupWaiterType type) {
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE(false);
  if (future == nullptr) return nullptr;
  bool settled = false;
  switch (type) {
    case GroupWaiterType::kAll:
    case GroupWaiterType::kAllIgnoreErrors:
      if (IsSettled(group)) {
        if (type == GroupWaiterType::kAll && HasErrors(group)) {
          RejectWithComposite(future, group);
        } else {
          CompleteWithResults(future, group);
        }
        RemoveAllDelivered(group);
        settled = true;
      }
      break;
    case GroupWaiterType::kRace:
    case GroupWaiterType::kAny: {
      // The first task in spawn order that already settled (race), or
      // succeeded (any).
      zval delivered;
      ZVAL_UNDEF(&delivered);
      zend_ulong num_key;
      zend_string* str_key;
      zval* zv;
      ZEND_HASH_FOREACH_KEY_VAL(&group->tasks, num_key, str_key, zv) {
        const bool error = type == GroupWaiterType::kRace && IsError(zv);
        if (IsEntry(zv) && !error) continue;
        if (error) {
          ZEND_FUTURE_REJECT(future, EntryOf(zv)->exception);
        } else {
          ZEND_FUTURE_COMPLETE(future, zv);
        }
        if (str_key != nullptr) {
          ZVAL_STR_COPY(&delivered, str_key);
        } else {
          ZVAL_LONG(&delivered, static_cast<zend_long>(num_key));
        }
        settled = true;
        break;
      }
      ZEND_HASH_FOREACH_END();
      if (settled) {
        RemoveDelivered(group, &delivered);
        zval_ptr_dtor(&delivered);
        break;
      }
      if (type == GroupWaiterType::kRace) break;
      if (!settled && IsSettled(group)) {
        RejectWithComposite(future, group);
        settled = true;
      }
      break;
    }
  }
  if (!settled) PushWaiter(group, future, type);
  return ZEND_ASYNC_NEW_FUTURE_OBJ(future);
}

void TryComplete(TaskGroup* group) {
  if (!IsSettled(group)) return;

  // all() and any() settle now; race() waits for a task still to come.
  const bool has_errors = HasErrors(group);
  for (uint32_t i = 0; i < group->waiters_length;) {
    const GroupWaiterType type = group->waiters[i].type;
    if (type == GroupWaiterType::kRace) {
      i++;
      continue;
    }
    GroupWaiter waiter = TakeWaiter(group, i);
    if (type == GroupWaiterType::kAllIgnoreErrors ||
        (type == GroupWaiterType::kAll && !has_errors)) {
      CompleteWithResults(waiter.future, group);
    } else {
      RejectWithComposite(waiter.future, group);
    }
    ZEND_ASYNC_EVENT_RELEASE(&waiter.future->event);
    if (type != GroupWaiterType::kAny) RemoveAllDelivered(group);
  }

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
    HashTable* keys = zend_new_array(group->pending_count);
    zend_ulong num_key;
    zend_string* str_key;
    zval* zv;
    ZEND_HASH_FOREACH_KEY_VAL(&group->tasks, num_key, str_key, zv) {
      if (!IsPending(zv)) continue;
      zval key;
      if (str_key != nullptr) {
        ZVAL_STR_COPY(&key, str_key);
      } else {
        ZVAL_LONG(&key, static_cast<zend_long>(num_key));
      }
      zend_hash_next_index_insert(keys, &key);
    }
    ZEND_HASH_FOREACH_END();
    ZEND_HASH_FOREACH_VAL(keys, zv) {
      if (Z_TYPE_P(zv) == IS_STRING) {
        zend_hash_del(&group->tasks, Z_STR_P(zv));
      } else {
        zend_hash_index_del(&group->tasks,
                            static_cast<zend_ulong>(Z_LVAL_P(zv)));
      }
    }
    ZEND_HASH_FOREACH_END();
    zend_array_destroy(keys);
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
