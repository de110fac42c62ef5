// The joins of a task group: the futures of all(), race() and any() (and
// TaskSet's joinAll(), joinNext(), joinAny()), settled at once when their
// outcome is known, or kept as the group's waiters until it is
// (task_group.h, "Between the group's files").
//
//   race()  the next task to settle, success or error
//   any()   the first success; Async\CompositeException when every task
//           failed
//   all()   every task's result once the group is settled;
//           Async\CompositeException of the errors unless ignoreErrors
//
// The waiters are kept in call order, each holding one reference to its
// future until it is settled (or the group is freed: the future then stays
// pending).

#include "core/task_group/task_table.h"

namespace zar::core {
namespace {

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

// Settles a taken waiter's future with the task's outcome (`exception`, or
// `value`) and drops the waiter's reference.
void SettleWithTask(GroupWaiter waiter, zval* value, zend_object* exception) {
  if (exception != nullptr) {
    ZEND_FUTURE_REJECT(waiter.future, exception);
  } else {
    ZEND_FUTURE_COMPLETE(waiter.future, value);
  }
  ZEND_ASYNC_EVENT_RELEASE(&waiter.future->event);
}

// race()/any() on a group where a task already settled: the first in
// spawn order that settled (race) or succeeded (any) settles `future`.
bool SettleWithSettledTask(TaskGroup* group, zend_future_t* future,
                           GroupWaiterType type) {
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
    zval delivered;
    KeyOf(num_key, str_key, &delivered);
    RemoveDelivered(group, &delivered);
    zval_ptr_dtor(&delivered);
    return true;
  }
  ZEND_HASH_FOREACH_END();
  return false;
}

}  // namespace

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
    case GroupWaiterType::kAny:
      settled = SettleWithSettledTask(group, future, type);
      if (!settled && type == GroupWaiterType::kAny && IsSettled(group)) {
        RejectWithComposite(future, group);
        settled = true;
      }
      break;
  }
  if (!settled) PushWaiter(group, future, type);
  return ZEND_ASYNC_NEW_FUTURE_OBJ(future);
}

void SettleJoinsWithTask(TaskGroup* group, const zval* key, zval* value,
                         zend_object* exception) {
  // race() takes any outcome, any() only a success; all() waits.
  for (uint32_t i = 0; i < group->waiters_length;) {
    const GroupWaiterType type = group->waiters[i].type;
    if (type == GroupWaiterType::kRace) {
      SettleWithTask(TakeWaiter(group, i), value, exception);
      RemoveDelivered(group, key);
    } else if (type == GroupWaiterType::kAny && exception == nullptr) {
      SettleWithTask(TakeWaiter(group, i), value, nullptr);
    } else {
      i++;
    }
  }
}

void SettleJoinsOfSettledGroup(TaskGroup* group) {
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
}

void ReleaseJoins(TaskGroup* group) {
  for (uint32_t i = 0; i < group->waiters_length; i++) {
    ZEND_ASYNC_EVENT_RELEASE(&group->waiters[i].future->event);
  }
  if (group->waiters != nullptr) efree(group->waiters);
  group->waiters = nullptr;
  group->waiters_length = group->waiters_capacity = 0;
}

}  // namespace zar::core
