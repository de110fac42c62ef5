// zend-async-ref core/task_group: the task groups' trace lines
// (zend_async_ref/trace.h; docs/tracing.md has the full list).
//
//   group spawn TaskGroup#1 int(0) -> #5         a task's coroutine was
//                                                spawned (at once or from
//                                                the queue)
//   group queue TaskGroup#1 string(1) "k"        a task waits for a slot
//   group done TaskGroup#1 int(0) -> string(1) "a"
//   group done TaskGroup#1 int(1) -> Exception "boom"
//                                                a task settled (before the
//                                                group's waiters are told)
//   group settled TaskGroup#1 (total=2)          no task runs or waits
//                                                (before the event's
//                                                callbacks run)
//
// Callers test ZEND_ASYNC_REF_TRACING() first. Group ids count from 1 in
// each request, in creation order.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_TASK_GROUP_TRACE_H_
#define ZAR_CORE_TASK_GROUP_TRACE_H_

extern "C" {
#include "Zend/zend_async_API.h"
#include "zend_async_ref/trace.h"
}

#include "core/task_group/task_group.h"

namespace zar::core {

[[gnu::cold]] void TraceGroupSpawn(const TaskGroup* group, const zval* key,
                                   const zend_coroutine_t* coroutine);
[[gnu::cold]] void TraceGroupQueue(const TaskGroup* group, const zval* key);
[[gnu::cold]] void TraceGroupDone(const TaskGroup* group, const zval* key,
                                  const zval* result, zend_object* exception);
[[gnu::cold]] void TraceGroupSettled(const TaskGroup* group);

// "TaskGroup#<id>" into `buf`. Returns `buf`.
const char* GroupToken(const TaskGroup* group,
                       char buf[ZEND_ASYNC_REF_NAME_SIZE]);
// Restarts the ids at 1 (each request).
void ResetTaskGroupIds();
// The next id, for a new group.
uint64_t NextTaskGroupId();

}  // namespace zar::core

#endif  // ZAR_CORE_TASK_GROUP_TRACE_H_
