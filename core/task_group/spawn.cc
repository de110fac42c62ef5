// Spawning a group's tasks: spawn()/spawnWithKey() (SpawnTask), the
// back-pressure of a full queue, starting queued tasks as slots free up
// (Drain), and a task's completion (task_group.h).
//
// A task runs as a coroutine in the group's scope, at most `concurrency`
// at a time; the rest wait in the task table as kPending entries, started
// in spawn order. With every slot taken and `queue_limit` tasks queued, a
// spawn() from a coroutine waits for a queue place: it parks on a trigger
// event of its own, kept in slot_waiters (FIFO), which the start of a
// queued task (one place) or the group's close (every place) fires.

#include "core/task_group/task_table.h"
#include "core/task_group/trace.h"

extern "C" {
#include "zend_async_ref/park.h"
}

namespace zar::core {
namespace {

// The completion callback on a task's coroutine; holds a copy of the key.
struct TaskCallback {
  zend_async_event_callback_t base;  // ABI structure (must be first)
  TaskGroup* group;                  // borrowed: the task holds a group ref
  zval key;
};

bool HasSlot(const TaskGroup* group) {
  return group->concurrency == 0 ||
         group->active < static_cast<int32_t>(group->concurrency);
}

bool QueueIsFull(const TaskGroup* group) {
  return group->queue_limit > 0 && group->pending_count >= group->queue_limit;
}

// A spawn() on a group that takes no more tasks: true with
// Async\AsyncException thrown.
bool RefuseSpawn(const TaskGroup* group) {
  if (group->sealed || group->completed) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     group->sealed ? "Cannot spawn tasks on a closed TaskGroup"
                                   : "Cannot spawn tasks on a completed "
                                     "TaskGroup");
    return true;
  }
  return false;
}

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

// Waits, from a coroutine, until a queue place is free (or the group
// takes no more tasks). False with an exception pending when the spawn
// must not go on; true outside a coroutine at once (nobody to suspend: the
// task is queued beyond the limit).
bool WaitForQueuePlace(TaskGroup* group) {
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
    if (UNEXPECTED(EG(exception) != nullptr) || RefuseSpawn(group)) {
      return false;
    }
  }
  return true;
}

void DisposeTaskCallback(zend_async_event_callback_t* callback,
                         zend_async_event_t* /*event*/) {
  auto* task_callback = reinterpret_cast<TaskCallback*>(callback);
  zval_ptr_dtor(&task_callback->key);
  efree(task_callback);
}

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
  SettleJoinsWithTask(group, &task_callback->key, value, exception);
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

}  // namespace

void Drain(TaskGroup* group) {
  if (group->scope == nullptr) return;  // being destroyed
  while (HasSlot(group) && group->pending_count > 0) {
    zval key;
    zval* found = FirstPending(group, &key);
    if (found == nullptr) break;
    TaskEntry* entry = EntryOf(found);
    const bool started = StartTask(group, entry->fcall, &key, entry);
    zval_ptr_dtor(&key);
    if (!started || EG(exception) != nullptr) break;
  }
}

void FireAllSlotWaiters(TaskGroup* group) {
  zval* zv;
  ZEND_HASH_FOREACH_VAL(&group->slot_waiters, zv) {
    auto* trigger = static_cast<zend_async_trigger_event_t*>(Z_PTR_P(zv));
    trigger->trigger(trigger);
  }
  ZEND_HASH_FOREACH_END();
}

bool SpawnTask(TaskGroup* group, zval* key, zend_fcall_info* fci,
               zend_fcall_info_cache* fcc, zval* args, uint32_t args_count) {
  if (UNEXPECTED(RefuseSpawn(group))) return false;
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
  if (!WaitForQueuePlace(group)) return false;

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

}  // namespace zar::core
