// zend-async-ref core/task_group: the task table, TaskGroup::tasks.
//
// One entry per task, under its key (an int from spawn(), or the
// string|int of spawnWithKey()), in spawn order:
//
//   IS_PTR TaskEntry   a task that is not a result yet: queued (kPending,
//                      owning its fcall), running (kRunning) or failed
//                      (kError, owning its exception)
//   any other zval     the task's result
//
// The table owns its entries (its destructor frees a TaskEntry and
// releases a result). Keys cross between a zval (a task's key as spawn()
// and the completion callback hold it) and the table's bucket key
// (zend_ulong or zend_string) here only: FindTask, AddTask, DeleteTask and
// KeyOf.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_TASK_GROUP_TASK_TABLE_H_
#define ZAR_CORE_TASK_GROUP_TASK_TABLE_H_

#include <cstdint>

#include "core/task_group/task_group.h"

namespace zar::core {

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

// Initialises an empty table (its destructor frees the entries).
void InitTaskTable(HashTable* tasks);

inline bool IsEntry(const zval* zv) { return Z_TYPE_P(zv) == IS_PTR; }
inline TaskEntry* EntryOf(const zval* zv) {
  return static_cast<TaskEntry*>(Z_PTR_P(zv));
}
inline bool IsPending(const zval* zv) {
  return IsEntry(zv) && EntryOf(zv)->state == TaskState::kPending;
}
inline bool IsError(const zval* zv) {
  return IsEntry(zv) && EntryOf(zv)->state == TaskState::kError;
}

// A new entry in `state` (no fcall, no exception), owned by the caller
// until it is added.
TaskEntry* NewEntry(TaskState state);
// Frees an entry with what it owns.
void FreeEntry(TaskEntry* entry);

// The task under `key` (IS_LONG or IS_STRING), or nullptr.
zval* FindTask(TaskGroup* group, const zval* key);
// Adds `value` (taken over) under `key`, which is not in the table.
void AddTask(TaskGroup* group, const zval* key, zval* value);
// Deletes the task under `key`, if any.
void DeleteTask(TaskGroup* group, const zval* key);
// The bucket key (num_key, str_key) as a zval key: `key` gets a new
// reference to a string key.
void KeyOf(zend_ulong num_key, zend_string* str_key, zval* key);

// A TaskSet delivered the task under `key` (joinNext, joinAny) or every
// task (joinAll): it leaves the set. Nothing for a TaskGroup.
void RemoveDelivered(TaskGroup* group, const zval* key);
void RemoveAllDelivered(TaskGroup* group);

// The first queued task, its key written to `key` (a new reference);
// nullptr when none is queued.
zval* FirstPending(TaskGroup* group, zval* key);
// Deletes every queued task (they never start).
void DeletePending(TaskGroup* group);

// An Async\CompositeException holding every failed task's exception, in
// spawn order (owned by the caller).
zend_object* CollectComposite(const TaskGroup* group);

// Adds what the table holds to `buffer` (results, queued fcalls and their
// arguments, exceptions).
void AddTasksToGc(const TaskGroup* group, zend_get_gc_buffer* buffer);

}  // namespace zar::core

#endif  // ZAR_CORE_TASK_GROUP_TASK_TABLE_H_
