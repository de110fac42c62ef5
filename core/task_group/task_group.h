// zend-async-ref core/task_group: task groups (php-async task_group.c).
//
// A task group runs callables as coroutines in its own scope, at most
// `concurrency` at a time (0: no limit), queueing the rest in spawn order
// (at most `queue_limit` queued; a spawn() beyond it suspends the caller
// until a queued task starts). Each task has a key (auto-increment from 0,
// or given to spawnWithKey); its outcome — a result or an exception — is
// kept under that key, in spawn order.
//
//   new_group_fn (NewGroup)   ZEND_ASYNC_NEW_GROUP: a new Async\TaskGroup
//       object, returned as its zend_async_group_t (the object's event).
//   The group's event       multi-shot: its callbacks are notified (result
//       NULL, no exception) every time the group becomes settled (no task
//       running, none queued); replay() answers at once while settled.
//       Once the group is closed and settled it is CLOSED for good.
//   Async\TaskGroup         object.cc (the PHP methods).
//   Async\TaskSet           the same class with joinNext/joinAny/joinAll
//       for race/any/all, whose delivered results leave the set.
//   Async\CompositeException  classes.cc: the exception all() and any()
//       reject with, holding the tasks' errors in spawn order.
//
// The files (all in core/task_group/, the OBJECT library
// zar_core_task_group); after "=" the upstream concepts each holds
// (php-async's task_group.c):
//
//   task_group.h/.cc  TaskGroup; its event (vtable, replay), creation
//                     (InitTaskGroup, AttachScope, NewGroup), destruction
//                     and completion (TryComplete, CloseGroup, CancelGroup)
//                     = task_group_event_init, task_group_replay,
//                       async_new_group, task_group_dtor_object,
//                       task_group_free_object, task_group_try_complete,
//                       METHOD(close), METHOD(cancel)
//   task_table.h/.cc  the task table: entries, keys, the queries
//                     = task_entry_*, task_set_remove_entry*,
//                       task_group_has_errors, task_group_collect_results,
//                       task_group_collect_errors,
//                       task_group_collect_composite_exception
//   spawn.cc          SpawnTask, the queue's back-pressure, Drain, a
//                     task's completion
//                     = task_group_do_spawn, task_group_spawn_coroutine,
//                       task_group_fire_*_slot_waiter, task_group_drain,
//                       task_group_on_coroutine_complete
//   joins.cc          the futures of all/race/any and their settling
//                     = METHOD(all), METHOD(race), METHOD(any), the
//                       waiters part of task_group_try_complete and
//                       task_group_on_coroutine_complete
//   finally.cc        the finally runner = async_call_finally_handlers
//                     as task_group_try_complete calls it
//   object.cc         the methods of Async\TaskGroup and Async\TaskSet
//   classes.h/.cc     registration = async_register_task_group_ce
//   trace.h/.cc       the "group ..." trace lines (ours: docs/tracing.md)
//
// Threading: the request's thread. Lifetime: the group is a zend_object
// (F_ZEND_OBJ event: the object's refcount is the event's); every running
// task holds one reference, so a group lives until its coroutines end.

#ifndef ZAR_CORE_TASK_GROUP_TASK_GROUP_H_
#define ZAR_CORE_TASK_GROUP_TASK_GROUP_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::core {

// What a Future made by all(), race() or any() waits for.
enum class GroupWaiterType : uint8_t {
  kRace,             // the next task to settle, success or error
  kAny,              // the first success; CompositeException if none
  kAll,              // every task; CompositeException on errors
  kAllIgnoreErrors,  // every task; the results only
};

struct GroupWaiter {
  zend_future_t* future;  // one reference, released once settled
  GroupWaiterType type;
};

struct TaskGroup {
  zend_async_group_t base;  // ABI structure (must be first)

  // The scope of the group's coroutines: an owned child scope (pinned,
  // one reference) or an external Async\Scope's (scope_object held).
  // NULL once the object's destructor ran.
  zend_async_scope_t* scope;
  zend_object* scope_object;  // owned reference; NULL for an owned scope

  uint32_t concurrency;    // 0 = no limit
  uint32_t queue_limit;    // 0 = unbounded queue
  uint32_t pending_count;  // queued tasks in `tasks`
  int32_t active;          // running coroutines (each holds a group ref)
  uint32_t next_key;       // spawn()'s next integer key
  uint64_t id;             // TaskGroup#<id> in trace lines, from 1
  bool sealed;             // close()/cancel(): no more spawns
  bool completed;          // sealed and settled: terminal
  // An Async\TaskSet: a delivered result leaves the set (joinNext and
  // joinAny remove theirs, joinAll every entry).
  bool task_set;

  // key => IS_PTR TaskEntry* (queued, running or failed) or the task's
  // result; in spawn order.
  HashTable tasks;
  // Trigger events of coroutines suspended in spawn() on a full queue,
  // keyed by their address; FIFO.
  HashTable slot_waiters;
  // The futures of all/race/any still to settle, in call order.
  GroupWaiter* waiters;
  uint32_t waiters_length;
  uint32_t waiters_capacity;
  // finally() callbacks, called once the group completes; NULL until one.
  HashTable* finally_handlers;

  zend_object std;  // last, as zend_object_alloc requires

  static TaskGroup* FromObject(zend_object* object) {
    return reinterpret_cast<TaskGroup*>(reinterpret_cast<char*>(object) -
                                        offsetof(TaskGroup, std));
  }
  static TaskGroup* FromEvent(zend_async_event_t* event) {
    return reinterpret_cast<TaskGroup*>(event);
  }
  zend_async_event_t* event() { return &base.event; }
};

static_assert(std::is_standard_layout_v<TaskGroup>);
static_assert(offsetof(TaskGroup, base) == 0);

// new_group_fn (ZEND_ASYNC_NEW_GROUP): a new Async\TaskGroup with these
// limits in `scope_obj`'s scope (an Async\Scope object, or NULL: a child
// scope of the current one). The caller owns the object's one reference
// (release it with ZEND_ASYNC_EVENT_RELEASE on the returned event).
// NULL with an exception pending: AsyncException "Cannot use a disposed
// Scope for TaskGroup" / "Failed to create child scope for TaskGroup" /
// "TaskGroup scope must be an Async\Scope, C given" (ours: another object).
zend_async_group_t* NewGroup(uint32_t concurrency, uint32_t queue_limit,
                             zend_object* scope_obj);

// ---- For object.cc ---------------------------------------------------------

// Initialises a freshly allocated group (no scope yet).
void InitTaskGroup(TaskGroup* group);
// Attaches the group's scope (see NewGroup); false with an exception.
bool AttachScope(TaskGroup* group, zend_object* scope_obj);
// The destructor's work: wakes suspended spawners, reports unhandled
// errors to the scope, cancels and releases the scope.
void DestroyTaskGroup(TaskGroup* group);
// free_obj's work: the tasks, the waiters, the handlers, the callbacks.
void FreeTaskGroup(TaskGroup* group);

// spawn()/spawnWithKey(): starts or queues `fcall` under `key` (taking
// fcall over on success; the caller releases it on failure, which leaves
// an AsyncException pending).
bool SpawnTask(TaskGroup* group, zval* key, zend_fcall_info* fci,
               zend_fcall_info_cache* fcc, zval* args, uint32_t args_count);

// A new future for all/race/any, settled at once when the outcome is known,
// otherwise registered as a waiter. Returns the Async\Future object.
zend_object* NewWaiterFuture(TaskGroup* group, GroupWaiterType type);

bool IsSettled(const TaskGroup* group);
bool HasErrors(const TaskGroup* group);
HashTable* CollectResults(const TaskGroup* group);
HashTable* CollectErrors(const TaskGroup* group);

// close(): seals the group; cancel(): seals it and cancels its scope.
void CloseGroup(TaskGroup* group);
void CancelGroup(TaskGroup* group, zend_object* cancellation);
// dispose(): cancels the group's scope.
void DisposeGroupScope(TaskGroup* group);
// Completes the group when it is settled (see the event above).
void TryComplete(TaskGroup* group);

// The GC references of the group (tasks, handlers, scope object).
HashTable* GetTaskGroupGc(zend_object* object, zval** table, int* n);

// ---- Between the group's files ----------------------------------------------

// spawn.cc: starts queued tasks, in spawn order, while a slot is free;
// wakes every spawn() waiting for a queue place (the group was sealed).
void Drain(TaskGroup* group);
void FireAllSlotWaiters(TaskGroup* group);

// joins.cc: the task under `key` settled (`exception`, or `value`): the
// race() waiters take it, the any() waiters a success. The group is
// settled: the all() and any() waiters settle. The group goes: its
// references to unsettled futures are dropped (they stay pending).
void SettleJoinsWithTask(TaskGroup* group, const zval* key, zval* value,
                         zend_object* exception);
void SettleJoinsOfSettledGroup(TaskGroup* group);
void ReleaseJoins(TaskGroup* group);

// finally.cc: hands the finally handlers to a coroutine in the group's
// scope (the group completed).
void StartFinallyHandlers(TaskGroup* group);

}  // namespace zar::core

#endif  // ZAR_CORE_TASK_GROUP_TASK_GROUP_H_
